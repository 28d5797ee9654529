//! The [`Joint`] component: a constraint that ties an object's body to
//! another object's body, or to a point in the world.

use bevy_ecs::component::Component;
use glam::Vec3;
use serde::{Deserialize, Serialize};
use taos_core::ObjectId;

use crate::body::{at_least, finite_vec};
use crate::error::SettingError;

/// What a joint lets the two bodies do relative to each other.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum JointKind {
    /// No relative motion: the two move as one (a welded beam).
    Fixed,
    /// Free rotation about the anchor, no translation (a ball and socket,
    /// a pendulum on a string that never goes slack).
    Ball,
    /// Rotation about one axis through the anchor (a door, a wheel), within
    /// optional limits in radians.
    Hinge {
        /// The axis in the object's local frame (normalised when set).
        axis: Vec3,
        /// `[min, max]` angle in radians, or free rotation.
        limits: Option<[f32; 2]>,
    },
    /// Translation along one axis (a piston, a drawer), within optional
    /// limits in metres.
    Slider {
        /// The axis in the object's local frame (normalised when set).
        axis: Vec3,
        /// `[min, max]` travel in metres, or free travel.
        limits: Option<[f32; 2]>,
    },
    /// The anchors stay at most this far apart, any closer is free (a rope,
    /// a chain).
    Rope {
        /// The greatest distance between the anchors, in metres.
        max_length: f32,
    },
}

/// What the joint ties the object to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum JointTarget {
    /// A fixed point in the world.
    World,
    /// The body of the object with this stable id (a [`RigidBody`](crate::RigidBody)
    /// or a [`Collider`](crate::Collider) alone, which is fixed).
    Object(ObjectId),
}

/// A joint: put it on an object with a dynamic [`RigidBody`](crate::RigidBody)
/// to tie that body to another object or to the world.
///
/// The joint's **anchor** is a point in the object's local frame (its
/// origin by default). The anchor on the other side is, by default, where
/// that point is when the joint is made: the joint holds the two bodies as
/// they were placed. [`with_connected_anchor`](Self::with_connected_anchor)
/// names it instead (in the other object's local frame, or in world space
/// for [`JointTarget::World`]). Hinge and slider axes are in the object's
/// local frame.
///
/// The other object is named by its stable [`ObjectId`] (what snapshots and
/// scene files keep); an id with no body is reported by the step, and the
/// joint waits until it has one. Changing the component rebuilds the joint
/// from the bodies' current placement.
///
/// ```
/// use glam::Vec3;
/// use taos_physics::Joint;
///
/// // A sign swinging from a hook 1 m above its origin, about world X.
/// let hinge = Joint::hinge(Vec3::X)?
///     .with_anchor(Vec3::new(0.0, 1.0, 0.0))?
///     .with_limits(-1.0, 1.0)?;
/// // A lamp on a 2 m chain from a point in the ceiling.
/// let chain = Joint::rope(2.0)?.with_connected_anchor(Vec3::new(0.0, 5.0, 0.0))?;
/// # Ok::<(), taos_physics::SettingError>(())
/// ```
///
/// In a scene file only `kind` is required: a setting left out takes the
/// value the constructors give it (tied to the world, anchored at the
/// origin, the other anchor where that point is, no contacts).
#[derive(Component, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Joint {
    kind: JointKind,
    #[serde(default = "world_target")]
    target: JointTarget,
    #[serde(default)]
    anchor: Vec3,
    #[serde(default)]
    connected_anchor: Option<Vec3>,
    #[serde(default)]
    contacts: bool,
}

const fn world_target() -> JointTarget {
    JointTarget::World
}

impl Joint {
    const fn new(kind: JointKind) -> Self {
        Self {
            kind,
            target: world_target(),
            anchor: Vec3::ZERO,
            connected_anchor: None,
            contacts: false,
        }
    }

    /// A joint that welds the object where it is.
    #[must_use]
    pub const fn fixed() -> Self {
        Self::new(JointKind::Fixed)
    }

    /// A ball-and-socket joint at the anchor.
    #[must_use]
    pub const fn ball() -> Self {
        Self::new(JointKind::Ball)
    }

    /// A hinge about `axis` (local frame) through the anchor.
    ///
    /// # Errors
    /// [`SettingError`] for a zero or non-finite axis.
    pub fn hinge(axis: Vec3) -> Result<Self, SettingError> {
        Ok(Self::new(JointKind::Hinge {
            axis: unit_axis(axis)?,
            limits: None,
        }))
    }

    /// A slider along `axis` (local frame).
    ///
    /// # Errors
    /// [`SettingError`] for a zero or non-finite axis.
    pub fn slider(axis: Vec3) -> Result<Self, SettingError> {
        Ok(Self::new(JointKind::Slider {
            axis: unit_axis(axis)?,
            limits: None,
        }))
    }

    /// A rope: the anchors at most `max_length` metres apart.
    ///
    /// # Errors
    /// [`SettingError`] unless `max_length` is finite and 0 or more.
    pub fn rope(max_length: f32) -> Result<Self, SettingError> {
        Ok(Self::new(JointKind::Rope {
            max_length: at_least("rope length", max_length, 0.0)?,
        }))
    }

    /// Ties the object to `other`'s body instead of the world.
    #[must_use]
    pub const fn connected_to(mut self, other: ObjectId) -> Self {
        self.target = JointTarget::Object(other);
        self
    }

    /// Sets the anchor in the object's local frame.
    ///
    /// # Errors
    /// [`SettingError`] for a non-finite point.
    pub fn with_anchor(mut self, anchor: Vec3) -> Result<Self, SettingError> {
        self.anchor = finite_vec("joint anchor", anchor)?;
        Ok(self)
    }

    /// Sets the anchor on the other side: in the other object's local
    /// frame, or a world point for a joint to the world.
    ///
    /// # Errors
    /// [`SettingError`] for a non-finite point.
    pub fn with_connected_anchor(mut self, anchor: Vec3) -> Result<Self, SettingError> {
        self.connected_anchor = Some(finite_vec("joint connected anchor", anchor)?);
        Ok(self)
    }

    /// Limits a hinge's angle (radians) or a slider's travel (metres);
    /// other kinds ignore it.
    ///
    /// # Errors
    /// [`SettingError`] for a non-finite bound or `min > max`.
    pub fn with_limits(mut self, min: f32, max: f32) -> Result<Self, SettingError> {
        let limits = checked_limits([min, max])?;
        match &mut self.kind {
            JointKind::Hinge { limits: l, .. } | JointKind::Slider { limits: l, .. } => {
                *l = Some(limits);
            }
            JointKind::Fixed | JointKind::Ball | JointKind::Rope { .. } => {}
        }
        Ok(self)
    }

    /// Lets the two jointed bodies collide with each other (off by default:
    /// a door does not collide with its frame).
    #[must_use]
    pub const fn with_contacts(mut self, contacts: bool) -> Self {
        self.contacts = contacts;
        self
    }

    /// What the joint allows.
    #[must_use]
    pub const fn kind(&self) -> JointKind {
        self.kind
    }

    /// What the joint ties the object to.
    #[must_use]
    pub const fn target(&self) -> JointTarget {
        self.target
    }

    /// The anchor in the object's local frame.
    #[must_use]
    pub const fn anchor(&self) -> Vec3 {
        self.anchor
    }

    /// The anchor on the other side, if named.
    #[must_use]
    pub const fn connected_anchor(&self) -> Option<Vec3> {
        self.connected_anchor
    }

    /// Whether the two bodies collide with each other.
    #[must_use]
    pub const fn contacts(&self) -> bool {
        self.contacts
    }

    /// Checks every field as the constructors do (for a deserialised one).
    ///
    /// # Errors
    /// The first [`SettingError`] found.
    pub fn validate(&self) -> Result<(), SettingError> {
        finite_vec("joint anchor", self.anchor)?;
        if let Some(anchor) = self.connected_anchor {
            finite_vec("joint connected anchor", anchor)?;
        }
        match self.kind {
            JointKind::Fixed | JointKind::Ball => {}
            JointKind::Hinge { axis, limits } | JointKind::Slider { axis, limits } => {
                unit_axis(axis)?;
                if let Some(limits) = limits {
                    checked_limits(limits)?;
                }
            }
            JointKind::Rope { max_length } => {
                at_least("rope length", max_length, 0.0)?;
            }
        }
        Ok(())
    }
}

fn unit_axis(axis: Vec3) -> Result<Vec3, SettingError> {
    let axis = finite_vec("joint axis", axis)?;
    axis.try_normalize()
        .ok_or(SettingError::ZeroVector { what: "joint axis" })
}

fn checked_limits([min, max]: [f32; 2]) -> Result<[f32; 2], SettingError> {
    crate::body::finite("joint limit", min)?;
    at_least("joint upper limit", max, min)?;
    Ok([min, max])
}
