//! Light components. Colours are linear RGB; intensities are in the renderer's
//! units (lux for the sun, candela-like for point and spot lights).

use bevy_ecs::component::Component;
use glam::Vec3;

/// How a [`DirectionalLight`]'s shadow is split into cascades; the renderer's
/// shadow feature follows it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cascades {
    /// Number of cascades, 1..=4 (more is clamped).
    pub count: u8,
    /// Split spacing: 0 uniform, 1 logarithmic (near cascades small and sharp).
    pub split_lambda: f32,
    /// Shadows end at this view distance (or the camera's far plane, if nearer).
    pub max_distance: f32,
}

impl Default for Cascades {
    /// Three cascades, lambda 0.7, 80 units.
    fn default() -> Self {
        Self {
            count: 3,
            split_lambda: 0.7,
            max_distance: 80.0,
        }
    }
}

/// The sun: parallel light from a direction.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct DirectionalLight {
    /// Direction the light travels (from the sun towards the ground), normalised on use.
    pub direction: Vec3,
    /// Linear RGB colour.
    pub color: Vec3,
    /// Brightness multiplier.
    pub intensity: f32,
    /// Whether the renderer draws cascaded shadow maps for it.
    pub cast_shadows: bool,
    /// Cascade count, split lambda and shadow distance.
    pub cascades: Cascades,
}

impl DirectionalLight {
    /// A shadow-casting sun.
    #[must_use]
    pub fn new(direction: Vec3, color: Vec3, intensity: f32) -> Self {
        Self {
            direction,
            color,
            intensity,
            cast_shadows: true,
            cascades: Cascades::default(),
        }
    }
}

/// Light radiating from the object's world position.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct PointLight {
    /// Linear RGB colour.
    pub color: Vec3,
    /// Brightness multiplier.
    pub intensity: f32,
    /// Distance at which the light fades to zero.
    pub range: f32,
}

impl PointLight {
    /// A point light.
    #[must_use]
    pub fn new(color: Vec3, intensity: f32, range: f32) -> Self {
        Self {
            color,
            intensity,
            range,
        }
    }
}

/// A cone of light from the object's world position along its local -Z.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct SpotLight {
    /// Linear RGB colour.
    pub color: Vec3,
    /// Brightness multiplier.
    pub intensity: f32,
    /// Distance at which the light fades to zero.
    pub range: f32,
    /// Half-angle of the full-intensity core, radians.
    pub inner_angle: f32,
    /// Half-angle where the light reaches zero, radians (>= inner).
    pub outer_angle: f32,
}

impl SpotLight {
    /// A spot light with the given cone half-angles in degrees.
    #[must_use]
    pub fn new(
        color: Vec3,
        intensity: f32,
        range: f32,
        inner_degrees: f32,
        outer_degrees: f32,
    ) -> Self {
        Self {
            color,
            intensity,
            range,
            inner_angle: inner_degrees.to_radians(),
            outer_angle: outer_degrees.max(inner_degrees).to_radians(),
        }
    }
}
