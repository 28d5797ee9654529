//! The crate's errors: one enum per kind of operation, each carrying the
//! offending values.

use taos_core::{GameObject, ObjectId};

/// Why a collider shape was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ShapeError {
    /// A size (radius, half extent, half height) is NaN or infinite.
    #[error("{what} is not finite: {value}")]
    NotFinite {
        /// Which size.
        what: &'static str,
        /// The value given.
        value: f32,
    },
    /// A size is zero or negative: the shape would have no volume.
    #[error("{what} must be greater than zero, got {value}")]
    NotPositive {
        /// Which size.
        what: &'static str,
        /// The value given.
        value: f32,
    },
    /// A point of a hull or mesh is NaN or infinite.
    #[error("point {index} is not finite: {point:?}")]
    PointNotFinite {
        /// Its index.
        index: usize,
        /// The point.
        point: [f32; 3],
    },
    /// A convex hull needs at least four points that are not all in one plane.
    #[error("a convex hull needs 4 or more points not all in one plane ({points} given)")]
    FlatHull {
        /// How many points were given.
        points: usize,
    },
    /// The index list of a triangle mesh is not a whole number of triangles.
    #[error("{len} indices are not a whole number of triangles")]
    PartialTriangle {
        /// The number of indices.
        len: usize,
    },
    /// A triangle names a vertex that does not exist.
    #[error("index {index} names vertex {vertex}, but the mesh has {vertices}")]
    IndexOutOfRange {
        /// Position in the index list.
        index: usize,
        /// The vertex it names.
        vertex: u32,
        /// The number of vertices.
        vertices: usize,
    },
    /// Every triangle of the mesh has no area (or the mesh has none).
    #[error("the triangle mesh has no triangle with an area ({triangles} given)")]
    DegenerateMesh {
        /// How many triangles were given.
        triangles: usize,
    },
    /// The physics library refused the mesh.
    #[error("the triangle mesh was refused: {reason}")]
    MeshRefused {
        /// The library's reason.
        reason: String,
    },
}

/// Why a body or collider setting was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SettingError {
    /// The value is NaN or infinite.
    #[error("{what} is not finite: {value}")]
    NotFinite {
        /// Which setting.
        what: &'static str,
        /// The value given.
        value: f32,
    },
    /// The value is below the setting's range.
    #[error("{what} must be at least {min}, got {value}")]
    TooSmall {
        /// Which setting.
        what: &'static str,
        /// The smallest value allowed.
        min: f32,
        /// The value given.
        value: f32,
    },
    /// A vector (a velocity, the gravity) has a NaN or infinite component.
    #[error("{what} is not finite: {value:?}")]
    VectorNotFinite {
        /// Which setting.
        what: &'static str,
        /// The value given.
        value: [f32; 3],
    },
    /// A direction (a joint axis) has no length.
    #[error("{what} has no length")]
    ZeroVector {
        /// Which setting.
        what: &'static str,
    },
}

/// Why a [`Collider`](crate::Collider) is invalid.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ColliderError {
    /// Its shape.
    #[error(transparent)]
    Shape(#[from] ShapeError),
    /// A surface setting.
    #[error(transparent)]
    Setting(#[from] SettingError),
}

/// Why an operation on a body (a velocity, an impulse) failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum BodyError {
    /// The object has no body in the physics world (no [`RigidBody`](crate::RigidBody)
    /// or [`Collider`](crate::Collider), or the step that creates it has not run yet).
    #[error("object {0:?} has no physics body (yet)")]
    NoBody(GameObject),
    /// The value was refused.
    #[error("object {object:?}: {source}")]
    Setting {
        /// The object.
        object: GameObject,
        /// What was wrong with the value.
        #[source]
        source: SettingError,
    },
}

/// Why a query (a ray, a shape cast, an overlap) was refused.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum QueryError {
    /// An input vector is NaN or infinite.
    #[error("{what} is not finite: {value:?}")]
    NotFinite {
        /// Which input.
        what: &'static str,
        /// The value given.
        value: [f32; 4],
    },
    /// The direction has no length.
    #[error("the direction has no length")]
    ZeroDirection,
    /// The maximum distance is negative or NaN.
    #[error("max distance must be zero or more, got {0}")]
    BadDistance(f32),
}

/// A problem the physics step met and isolated: the object is left out of
/// the step (or keeps its last good pose) and the error is logged and kept
/// until [`Physics::take_errors`](crate::Physics::take_errors).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum StepError {
    /// The object's world transform is NaN or infinite: its body was not
    /// moved there (a dynamic body keeps its pose and overwrites the transform).
    #[error("object {id} ({object:?}) has a non-finite world transform; its body was not moved")]
    NonFiniteTransform {
        /// The object.
        object: GameObject,
        /// Its stable id.
        id: ObjectId,
    },
    /// The object's component holds a value its constructors refuse (it was
    /// deserialised or written field by field): it gets no body until fixed.
    #[error("object {id} ({object:?}) has an invalid {component}: {reason}")]
    InvalidComponent {
        /// The object.
        object: GameObject,
        /// Its stable id.
        id: ObjectId,
        /// `"RigidBody"` or `"Collider"`.
        component: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// The simulation produced a NaN or infinite pose or velocity for this
    /// body (it should not happen): the body was put back where it was,
    /// at rest.
    #[error("object {id} ({object:?}): the step produced a non-finite state; the body was reset")]
    NonFiniteState {
        /// The object.
        object: GameObject,
        /// Its stable id.
        id: ObjectId,
    },
    /// The object's [`Joint`](crate::Joint) cannot be made yet: the object
    /// has no dynamic or kinematic body, or the object it names has no body
    /// (or is the object itself). The joint is made once that is fixed.
    #[error("object {id} ({object:?}): its joint cannot be made: {reason}")]
    JointUnresolved {
        /// The object carrying the joint.
        object: GameObject,
        /// Its stable id.
        id: ObjectId,
        /// What is missing.
        reason: String,
    },
}
