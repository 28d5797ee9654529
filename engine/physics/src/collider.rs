//! The [`Collider`] component: an object's shape, surface and layers.

use bevy_ecs::component::Component;
use glam::Vec3;
use serde::{Deserialize, Serialize};

use crate::body::at_least;
use crate::error::{ColliderError, SettingError, ShapeError};
use crate::shape::Shape;

/// Which collision layers an object is on, and which it touches: two
/// colliders interact when each one's `memberships` share a bit with the
/// other's `filter`. Queries use the same bits ([`QueryFilter::layers`](crate::QueryFilter)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CollisionLayers {
    /// The layers this collider is on (bit i: layer i).
    pub memberships: u32,
    /// The layers it interacts with.
    pub filter: u32,
}

impl CollisionLayers {
    /// On every layer, touching every layer: the default.
    pub const ALL: Self = Self {
        memberships: u32::MAX,
        filter: u32::MAX,
    };

    /// On `memberships`, interacting with `filter`.
    #[must_use]
    pub const fn new(memberships: u32, filter: u32) -> Self {
        Self {
            memberships,
            filter,
        }
    }
}

impl Default for CollisionLayers {
    fn default() -> Self {
        Self::ALL
    }
}

/// A collider: the object's shape in the physics world.
///
/// On an object with a [`RigidBody`](crate::RigidBody) it is that body's
/// shape; on an object without one it is fixed level geometry (a fixed
/// body is made for it). A **sensor** collider pushes nothing: it reports
/// [`PhysicsEventKind::TriggerEnter`](crate::PhysicsEventKind) and
/// `TriggerExit` when other colliders come and go.
///
/// Sizes are in world units: the object's scale is not applied.
///
/// ```
/// use taos_physics::{Collider, CollisionLayers};
/// use glam::Vec3;
///
/// let ground = Collider::cuboid(Vec3::new(50.0, 0.5, 50.0))?
///     .with_friction(0.8)?
///     .with_layers(CollisionLayers::new(0b01, u32::MAX));
/// let pickup_zone = Collider::ball(2.0)?.sensor(true);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// In a scene file only `shape` is required: a setting left out takes the
/// value [`Collider::new`] gives it.
#[derive(Component, Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Collider {
    shape: Shape,
    #[serde(default = "default_friction")]
    friction: f32,
    #[serde(default)]
    restitution: f32,
    #[serde(default = "default_density")]
    density: f32,
    #[serde(default)]
    layers: CollisionLayers,
    #[serde(default)]
    sensor: bool,
}

/// Between ice (0) and rubber on concrete (1).
const DEFAULT_FRICTION: f32 = 0.5;
/// Water, in kg/m^3.
const DEFAULT_DENSITY: f32 = 1000.0;

const fn default_friction() -> f32 {
    DEFAULT_FRICTION
}

const fn default_density() -> f32 {
    DEFAULT_DENSITY
}

impl Collider {
    /// A collider of `shape` with friction 0.5, restitution 0, density 1000
    /// kg/m^3 (water), on every layer, solid.
    #[must_use]
    pub fn new(shape: Shape) -> Self {
        Self {
            shape,
            friction: DEFAULT_FRICTION,
            restitution: 0.0,
            density: DEFAULT_DENSITY,
            layers: CollisionLayers::ALL,
            sensor: false,
        }
    }

    /// A box collider (see [`Shape::cuboid`]).
    ///
    /// # Errors
    /// As [`Shape::cuboid`].
    pub fn cuboid(half_extents: Vec3) -> Result<Self, ShapeError> {
        Shape::cuboid(half_extents).map(Self::new)
    }

    /// A sphere collider (see [`Shape::ball`]).
    ///
    /// # Errors
    /// As [`Shape::ball`].
    pub fn ball(radius: f32) -> Result<Self, ShapeError> {
        Shape::ball(radius).map(Self::new)
    }

    /// A capsule collider along local Y (see [`Shape::capsule`]).
    ///
    /// # Errors
    /// As [`Shape::capsule`].
    pub fn capsule(half_height: f32, radius: f32) -> Result<Self, ShapeError> {
        Shape::capsule(half_height, radius).map(Self::new)
    }

    /// A cylinder collider along local Y (see [`Shape::cylinder`]).
    ///
    /// # Errors
    /// As [`Shape::cylinder`].
    pub fn cylinder(half_height: f32, radius: f32) -> Result<Self, ShapeError> {
        Shape::cylinder(half_height, radius).map(Self::new)
    }

    /// A convex hull collider (see [`Shape::convex_hull`]).
    ///
    /// # Errors
    /// As [`Shape::convex_hull`].
    pub fn convex_hull(points: &[Vec3]) -> Result<Self, ShapeError> {
        Shape::convex_hull(points).map(Self::new)
    }

    /// A triangle mesh collider (see [`Shape::trimesh`]).
    ///
    /// # Errors
    /// As [`Shape::trimesh`].
    pub fn trimesh(positions: &[Vec3], indices: &[u32]) -> Result<Self, ShapeError> {
        Shape::trimesh(positions, indices).map(Self::new)
    }

    /// Sets the friction coefficient (0: ice; 1: rubber on concrete). Two
    /// touching colliders use the mean of theirs.
    ///
    /// # Errors
    /// [`SettingError`] unless finite and 0 or more.
    pub fn with_friction(mut self, friction: f32) -> Result<Self, SettingError> {
        self.friction = at_least("friction", friction, 0.0)?;
        Ok(self)
    }

    /// Sets the restitution (bounciness: 0 stops dead, 1 bounces back to
    /// the height it fell from). Two touching colliders use the larger.
    ///
    /// # Errors
    /// [`SettingError`] unless finite and 0 or more.
    pub fn with_restitution(mut self, restitution: f32) -> Result<Self, SettingError> {
        self.restitution = at_least("restitution", restitution, 0.0)?;
        Ok(self)
    }

    /// Sets the density in kg/m^3 (the body's mass is volume times density,
    /// unless the body sets its mass).
    ///
    /// # Errors
    /// [`SettingError`] unless finite and 0 or more.
    pub fn with_density(mut self, density: f32) -> Result<Self, SettingError> {
        self.density = at_least("density", density, 0.0)?;
        Ok(self)
    }

    /// Sets the collision layers.
    #[must_use]
    pub const fn with_layers(mut self, layers: CollisionLayers) -> Self {
        self.layers = layers;
        self
    }

    /// Makes this a sensor (a trigger volume) or a solid.
    #[must_use]
    pub const fn sensor(mut self, sensor: bool) -> Self {
        self.sensor = sensor;
        self
    }

    /// The shape.
    #[must_use]
    pub const fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The friction coefficient.
    #[must_use]
    pub const fn friction(&self) -> f32 {
        self.friction
    }

    /// The restitution.
    #[must_use]
    pub const fn restitution(&self) -> f32 {
        self.restitution
    }

    /// The density in kg/m^3.
    #[must_use]
    pub const fn density(&self) -> f32 {
        self.density
    }

    /// The collision layers.
    #[must_use]
    pub const fn layers(&self) -> CollisionLayers {
        self.layers
    }

    /// Whether this is a sensor.
    #[must_use]
    pub const fn is_sensor(&self) -> bool {
        self.sensor
    }

    /// Checks every field as the constructors do (for a deserialised one).
    ///
    /// # Errors
    /// The first problem found.
    pub fn validate(&self) -> Result<(), ColliderError> {
        self.shape.validate()?;
        at_least("friction", self.friction, 0.0)?;
        at_least("restitution", self.restitution, 0.0)?;
        at_least("density", self.density, 0.0)?;
        Ok(())
    }
}
