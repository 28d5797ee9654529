//! The [`RigidBody`] component: how an object moves under physics.

use bevy_ecs::component::Component;
use glam::Vec3;
use serde::{Deserialize, Serialize};

use crate::error::SettingError;

/// How a body moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BodyKind {
    /// Moved by the simulation (gravity, contacts, forces); its pose is
    /// written back into the object's [`Transform`](taos_core::Transform)
    /// after every step.
    Dynamic,
    /// Moved by the game: the step follows the object's world transform
    /// (with the velocity that takes it there, so it pushes dynamic bodies),
    /// and nothing pushes it back.
    Kinematic,
    /// Never moves under the simulation; the game may still move it by
    /// writing its transform (a teleport).
    Fixed,
}

/// Axes along or about which a body does not move, as bit flags
/// (`LockedAxes::ROTATION_X | LockedAxes::ROTATION_Z`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct LockedAxes(u8);

impl LockedAxes {
    /// Nothing locked.
    pub const NONE: Self = Self(0);
    /// No motion along world X.
    pub const TRANSLATION_X: Self = Self(1);
    /// No motion along world Y.
    pub const TRANSLATION_Y: Self = Self(1 << 1);
    /// No motion along world Z.
    pub const TRANSLATION_Z: Self = Self(1 << 2);
    /// No rotation about X.
    pub const ROTATION_X: Self = Self(1 << 3);
    /// No rotation about Y.
    pub const ROTATION_Y: Self = Self(1 << 4);
    /// No rotation about Z.
    pub const ROTATION_Z: Self = Self(1 << 5);
    /// No translation at all.
    pub const TRANSLATION: Self = Self(0b111);
    /// No rotation at all (a character capsule that must stay upright).
    pub const ROTATION: Self = Self(0b111 << 3);

    /// The raw bits (translation X, Y, Z, then rotation X, Y, Z, from bit 0).
    #[must_use]
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// `true` when every axis of `other` is locked here.
    #[must_use]
    pub const fn contains(self, other: Self) -> bool {
        self.0 & other.0 == other.0
    }
}

impl std::ops::BitOr for LockedAxes {
    type Output = Self;

    fn bitor(self, rhs: Self) -> Self {
        Self((self.0 | rhs.0) & 0b11_1111)
    }
}

/// How the mass of a dynamic body is found.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Mass {
    /// From the collider's volume and density (the default).
    FromDensity,
    /// This many kilograms, whatever the collider's density (its inertia
    /// follows the collider's shape).
    Kilograms(f32),
}

/// A rigid body: the object takes part in the simulation.
///
/// The body sits at the object's world position and rotation (scale is not
/// simulated). Its shape comes from the object's [`Collider`](crate::Collider);
/// a body without one has mass (see [`with_mass`](Self::with_mass)) but
/// touches nothing. Every setting is checked when set: a NaN, an infinity or
/// a value out of range is an error, never a poisoned world.
///
/// ```
/// use taos_physics::{LockedAxes, RigidBody};
///
/// let crate_body = RigidBody::dynamic()
///     .with_mass(20.0)?
///     .with_linear_damping(0.1)?
///     .with_locked_axes(LockedAxes::ROTATION)
///     .with_ccd(true);
/// # Ok::<(), taos_physics::SettingError>(())
/// ```
///
/// In a scene file every setting may be left out: `{}` is
/// [`RigidBody::dynamic`], and a setting left out takes the value the
/// constructors give it.
#[derive(Component, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default = "RigidBody::dynamic")]
pub struct RigidBody {
    kind: BodyKind,
    mass: Mass,
    linear_damping: f32,
    angular_damping: f32,
    gravity_scale: f32,
    locked: LockedAxes,
    ccd: bool,
    linear_velocity: Vec3,
    angular_velocity: Vec3,
}

impl RigidBody {
    const fn new(kind: BodyKind) -> Self {
        Self {
            kind,
            mass: Mass::FromDensity,
            linear_damping: 0.0,
            angular_damping: 0.0,
            gravity_scale: 1.0,
            locked: LockedAxes::NONE,
            ccd: false,
            linear_velocity: Vec3::ZERO,
            angular_velocity: Vec3::ZERO,
        }
    }

    /// A body moved by the simulation.
    #[must_use]
    pub const fn dynamic() -> Self {
        Self::new(BodyKind::Dynamic)
    }

    /// A body moved by the game, following its object's transform.
    #[must_use]
    pub const fn kinematic() -> Self {
        Self::new(BodyKind::Kinematic)
    }

    /// A body that does not move under the simulation (ground, walls).
    #[must_use]
    pub const fn fixed() -> Self {
        Self::new(BodyKind::Fixed)
    }

    /// Sets the mass in kilograms.
    ///
    /// # Errors
    /// [`SettingError`] unless `kilograms` is finite and greater than zero.
    pub fn with_mass(mut self, kilograms: f32) -> Result<Self, SettingError> {
        positive("mass", kilograms)?;
        self.mass = Mass::Kilograms(kilograms);
        Ok(self)
    }

    /// Sets how fast linear velocity decays (per second; 0: never).
    ///
    /// # Errors
    /// [`SettingError`] unless `damping` is finite and 0 or more.
    pub fn with_linear_damping(mut self, damping: f32) -> Result<Self, SettingError> {
        self.linear_damping = at_least("linear damping", damping, 0.0)?;
        Ok(self)
    }

    /// Sets how fast angular velocity decays (per second; 0: never).
    ///
    /// # Errors
    /// [`SettingError`] unless `damping` is finite and 0 or more.
    pub fn with_angular_damping(mut self, damping: f32) -> Result<Self, SettingError> {
        self.angular_damping = at_least("angular damping", damping, 0.0)?;
        Ok(self)
    }

    /// Scales the world's gravity for this body (0: floats, -1: falls up).
    ///
    /// # Errors
    /// [`SettingError::NotFinite`] for NaN or an infinity.
    pub fn with_gravity_scale(mut self, scale: f32) -> Result<Self, SettingError> {
        self.gravity_scale = finite("gravity scale", scale)?;
        Ok(self)
    }

    /// Locks the given axes.
    #[must_use]
    pub const fn with_locked_axes(mut self, locked: LockedAxes) -> Self {
        self.locked = locked;
        self
    }

    /// Turns full continuous collision detection on or off. Every fast
    /// dynamic body is already swept against **fixed** colliders along its
    /// motion (rapier does that by itself); with CCD on it is also swept
    /// against **kinematic and dynamic** bodies, so a bullet stops at a thin
    /// moving door instead of passing through it between two steps. It
    /// costs a sweep per fast body per step.
    #[must_use]
    pub const fn with_ccd(mut self, ccd: bool) -> Self {
        self.ccd = ccd;
        self
    }

    /// The linear velocity (m/s) a dynamic body starts with when it is created.
    ///
    /// # Errors
    /// [`SettingError::VectorNotFinite`] for a NaN or infinite component.
    pub fn with_linear_velocity(mut self, velocity: Vec3) -> Result<Self, SettingError> {
        self.linear_velocity = finite_vec("linear velocity", velocity)?;
        Ok(self)
    }

    /// The angular velocity (rad/s about each world axis) a dynamic body starts with.
    ///
    /// # Errors
    /// [`SettingError::VectorNotFinite`] for a NaN or infinite component.
    pub fn with_angular_velocity(mut self, velocity: Vec3) -> Result<Self, SettingError> {
        self.angular_velocity = finite_vec("angular velocity", velocity)?;
        Ok(self)
    }

    /// How the body moves.
    #[must_use]
    pub const fn kind(&self) -> BodyKind {
        self.kind
    }

    /// How its mass is found.
    #[must_use]
    pub const fn mass(&self) -> Mass {
        self.mass
    }

    /// Linear damping per second.
    #[must_use]
    pub const fn linear_damping(&self) -> f32 {
        self.linear_damping
    }

    /// Angular damping per second.
    #[must_use]
    pub const fn angular_damping(&self) -> f32 {
        self.angular_damping
    }

    /// The gravity scale.
    #[must_use]
    pub const fn gravity_scale(&self) -> f32 {
        self.gravity_scale
    }

    /// The locked axes.
    #[must_use]
    pub const fn locked_axes(&self) -> LockedAxes {
        self.locked
    }

    /// Whether continuous collision detection is on.
    #[must_use]
    pub const fn ccd(&self) -> bool {
        self.ccd
    }

    /// The linear velocity the body starts with.
    #[must_use]
    pub const fn initial_linear_velocity(&self) -> Vec3 {
        self.linear_velocity
    }

    /// The angular velocity the body starts with.
    #[must_use]
    pub const fn initial_angular_velocity(&self) -> Vec3 {
        self.angular_velocity
    }

    /// Checks every field as the constructors do: what the step runs before
    /// building a body from a component that was deserialised.
    ///
    /// # Errors
    /// The first [`SettingError`] found.
    pub fn validate(&self) -> Result<(), SettingError> {
        if let Mass::Kilograms(kg) = self.mass {
            positive("mass", kg)?;
        }
        at_least("linear damping", self.linear_damping, 0.0)?;
        at_least("angular damping", self.angular_damping, 0.0)?;
        finite("gravity scale", self.gravity_scale)?;
        finite_vec("linear velocity", self.linear_velocity)?;
        finite_vec("angular velocity", self.angular_velocity)?;
        Ok(())
    }
}

pub(crate) fn finite(what: &'static str, value: f32) -> Result<f32, SettingError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(SettingError::NotFinite { what, value })
    }
}

pub(crate) fn at_least(what: &'static str, value: f32, min: f32) -> Result<f32, SettingError> {
    finite(what, value)?;
    if value < min {
        return Err(SettingError::TooSmall { what, min, value });
    }
    Ok(value)
}

fn positive(what: &'static str, value: f32) -> Result<f32, SettingError> {
    finite(what, value)?;
    if value <= 0.0 {
        return Err(SettingError::TooSmall {
            what,
            min: f32::MIN_POSITIVE,
            value,
        });
    }
    Ok(value)
}

pub(crate) fn finite_vec(what: &'static str, value: Vec3) -> Result<Vec3, SettingError> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(SettingError::VectorNotFinite {
            what,
            value: value.to_array(),
        })
    }
}
