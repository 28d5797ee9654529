//! What a frame is seen through and lit by: camera and lights, in the
//! renderer's own plain types (no ECS).

use glam::{Mat4, Vec3};

use super::reversed_z;

/// The camera a frame is rendered from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CameraView {
    /// World-to-view.
    pub view: Mat4,
    /// View-to-clip (depth 0..1, near at 0). The renderer rasterises through
    /// [`depth_projection`](Self::depth_projection), its reversed-Z form.
    pub projection: Mat4,
    /// World-space position.
    pub position: Vec3,
    /// World-space forward (unit).
    pub forward: Vec3,
    /// Near plane distance.
    pub near: f32,
    /// Far plane distance.
    pub far: f32,
}

impl Default for CameraView {
    fn default() -> Self {
        Self {
            view: Mat4::IDENTITY,
            projection: Mat4::IDENTITY,
            position: Vec3::ZERO,
            forward: Vec3::NEG_Z,
            near: 0.1,
            far: 1000.0,
        }
    }
}

impl CameraView {
    /// The projection the scene is rasterised with: [`reversed_z`] of
    /// [`projection`](Self::projection), near at depth 1, far at 0.
    pub fn depth_projection(&self) -> Mat4 {
        reversed_z(self.projection)
    }

    /// World-to-clip as rasterised: `depth_projection * view`.
    pub fn depth_view_proj(&self) -> Mat4 {
        self.depth_projection() * self.view
    }
}

/// How the sun's shadow is split into cascades.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CascadeSettings {
    /// Number of cascades (1..=4; clamped).
    pub count: usize,
    /// Split spacing: 0 uniform, 1 logarithmic; 0.7 by default.
    pub split_lambda: f32,
    /// Shadows end at this view distance (or the camera's far plane, if nearer).
    pub max_distance: f32,
}

impl Default for CascadeSettings {
    fn default() -> Self {
        Self {
            count: 3,
            split_lambda: 0.7,
            max_distance: 80.0,
        }
    }
}

/// The sun (or moon): parallel light.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SunLight {
    /// Direction the light travels (unit).
    pub direction: Vec3,
    /// Linear colour.
    pub color: Vec3,
    /// Illuminance multiplier.
    pub intensity: f32,
    /// Whether it casts (cascaded) shadows.
    pub cast_shadows: bool,
    /// Its cascade settings, which the shadow feature follows.
    pub cascades: CascadeSettings,
}

/// A point light.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PointLightData {
    /// World position.
    pub position: Vec3,
    /// Linear colour.
    pub color: Vec3,
    /// Intensity multiplier.
    pub intensity: f32,
    /// Distance at which it fades to zero.
    pub range: f32,
}

/// A spot light.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpotLightData {
    /// World position.
    pub position: Vec3,
    /// Direction it points (unit).
    pub direction: Vec3,
    /// Linear colour.
    pub color: Vec3,
    /// Intensity multiplier.
    pub intensity: f32,
    /// Distance at which it fades to zero.
    pub range: f32,
    /// Cosine of the inner cone angle (full intensity inside).
    pub inner_cos: f32,
    /// Cosine of the outer cone angle (zero outside).
    pub outer_cos: f32,
}

/// All lights of a frame, reused frame to frame.
#[derive(Debug, Clone, Default)]
pub struct Lights {
    /// The directional sun, if any.
    pub sun: Option<SunLight>,
    /// Point lights.
    pub points: Vec<PointLightData>,
    /// Spot lights.
    pub spots: Vec<SpotLightData>,
}

impl Lights {
    /// Empties the lists, keeping their storage.
    pub fn clear(&mut self) {
        self.sun = None;
        self.points.clear();
        self.spots.clear();
    }
}

/// Time as the renderer sees it (for animated materials and TAA).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct FrameTime {
    /// Scaled seconds since the previous frame (0 when the engine shows a
    /// frame again without time passing: a capture, a paused game).
    pub delta: f32,
    /// Scaled seconds since start.
    pub elapsed: f64,
    /// Frames rendered so far.
    pub frame: u64,
}
