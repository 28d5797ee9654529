//! [`FrameData`]: everything the engine hands the renderer for one frame.

use super::{CameraView, DrawBuckets, FrameSlots, FrameTime, Lights};

/// What the engine gives the renderer each frame: camera, lights, draw
/// buckets, decals, time and size. Reused frame to frame.
#[derive(Debug, Clone, Default)]
pub struct FrameData {
    /// The camera.
    pub camera: CameraView,
    /// The lights.
    pub lights: Lights,
    /// Opaque, transparent and shadow draw lists.
    pub buckets: DrawBuckets,
    /// Time.
    pub time: FrameTime,
    /// The particle emitters to simulate and draw
    /// ([`ParticleFeature`](crate::particles::ParticleFeature)).
    pub particles: Vec<crate::particles::ParticleEmitterDraw>,
    /// Projected decals, drawn by the
    /// [`DecalFeature`](crate::features::DecalFeature) in their
    /// [`order`](crate::features::DecalDraw::order).
    pub decals: Vec<crate::features::DecalDraw>,
    /// Output size in pixels.
    pub size: (u32, u32),
    /// What features hand each other this frame, one value per type (the
    /// shadow feature's [`ShadowCascades`](crate::features::ShadowCascades),
    /// for one): see [`FrameSlots`]. Emptied before every frame's
    /// `early_update`.
    pub slots: FrameSlots,
}
