//! Conversions between the engine's glam types and the physics library's
//! math types, through plain arrays (so they hold whichever glam version
//! the library is built on).

use glam::{Quat, Vec3};
use rapier3d::math::{Pose, Rotation, Vector};

/// The library's vector for `v`.
pub(crate) fn to_vector(v: Vec3) -> Vector {
    Vector::from_array(v.to_array())
}

/// The engine's vector for `v`.
pub(crate) fn from_vector(v: Vector) -> Vec3 {
    Vec3::from_array(v.to_array())
}

/// The library's rotation for `q`.
pub(crate) fn to_rotation(q: Quat) -> Rotation {
    Rotation::from_array(q.to_array())
}

/// The engine's rotation for `q`.
pub(crate) fn from_rotation(q: Rotation) -> Quat {
    Quat::from_array(q.to_array())
}

/// A pose (isometry) at `position` turned by `rotation`.
pub(crate) fn to_pose(position: Vec3, rotation: Quat) -> Pose {
    Pose::from_parts(to_vector(position), to_rotation(rotation))
}

/// The position and rotation of a pose.
pub(crate) fn from_pose(pose: &Pose) -> (Vec3, Quat) {
    (from_vector(pose.translation), from_rotation(pose.rotation))
}
