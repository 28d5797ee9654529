//! The scene's render settings: output size and the camera frames are drawn
//! from, gathered into each frame's [`RenderContext`].

use super::Scene;
use crate::components::Camera;
use crate::object::GameObject;
use crate::render_context::{RenderContext, RenderView};

impl Scene {
    /// Sets the output size in pixels that `update_render` reports in
    /// [`RenderContext::viewport`]. A [`GameLoop`](crate::game_loop::GameLoop)
    /// sets it from `set_size`.
    pub fn set_viewport(&mut self, width: u32, height: u32) {
        self.world.resource_mut::<RenderView>().viewport = (width, height);
    }

    /// The output size in pixels last set with [`set_viewport`](Self::set_viewport).
    #[must_use]
    pub fn viewport(&self) -> (u32, u32) {
        self.world.resource::<RenderView>().viewport
    }

    /// Chooses the camera frames are drawn from, over the scene's own
    /// ([`find_camera`](Self::find_camera)); `None` goes back to it. What an
    /// engine's camera switch sets.
    pub fn set_render_camera(&mut self, camera: Option<GameObject>) {
        self.world.resource_mut::<RenderView>().camera = camera;
    }

    /// The camera frames are drawn from: the one chosen with
    /// [`set_render_camera`](Self::set_render_camera) while it is active and
    /// carries a [`Camera`], otherwise [`find_camera`](Self::find_camera).
    #[must_use]
    pub fn render_camera(&self) -> Option<GameObject> {
        self.world
            .resource::<RenderView>()
            .camera
            .filter(|&chosen| {
                self.get_component::<Camera>(chosen).is_some()
                    && self.is_active(chosen) == Some(true)
            })
            .or_else(|| self.find_camera())
    }

    /// The context of a frame presented at `alpha`.
    pub(crate) fn render_context(&self, alpha: f32) -> RenderContext {
        let time = self.time();
        RenderContext {
            viewport: self.viewport(),
            camera: self.render_camera(),
            frame_delta: time.frame_delta(),
            unscaled_frame_delta: time.unscaled_frame_delta(),
            alpha,
        }
    }
}
