//! What a behaviour's `update_render` knows about the frame being drawn.

use bevy_ecs::resource::Resource;

use crate::object::GameObject;

/// The frame being drawn, as [`BehaviourContext::render`](crate::BehaviourContext::render)
/// gives it during `update_render`: refresh render-side state (a billboard
/// facing the camera, a UI anchor in pixels, a per-frame animation) from it.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct RenderContext {
    /// Output size in pixels (width, height); (0, 0) until the driver sets it
    /// ([`Scene::set_viewport`](crate::Scene::set_viewport), which
    /// `GameLoop::set_size` calls).
    pub viewport: (u32, u32),
    /// The camera the frame is drawn from ([`Scene::render_camera`](crate::Scene::render_camera)).
    pub camera: Option<GameObject>,
    /// Scaled seconds since the previous presented frame
    /// ([`Time::frame_delta`](crate::Time::frame_delta)).
    pub frame_delta: f32,
    /// Unscaled seconds since the previous presented frame.
    pub unscaled_frame_delta: f32,
    /// How far the frame lies between the last two fixed ticks (0..=1; 1
    /// under the variable policy and without a loop).
    pub alpha: f32,
}

/// Scene-level render settings: the output size and the camera the engine
/// chose (if any), read when building each frame's [`RenderContext`].
#[derive(Resource, Debug, Clone, Copy, Default)]
pub(crate) struct RenderView {
    pub(crate) viewport: (u32, u32),
    pub(crate) camera: Option<GameObject>,
}
