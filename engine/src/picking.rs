//! [`Engine::pick`]: the object drawn at a pixel of the engine's output,
//! through the scene's camera, by the meshes' bounds in the renderer's
//! assets (the editor's click-to-select).

use glam::Vec2;
use taos_renderer::resources::MeshId;

use crate::edit::viewport::{Picked, pick};
use crate::presenter::Output;
use crate::{Engine, MeshHandle};

impl Engine {
    /// The output's size in pixels (the window's surface, or the headless
    /// target).
    #[must_use]
    pub fn output_size(&self) -> (u32, u32) {
        match &self.render.output {
            Output::Offscreen(target) => target.size(),
            Output::Window(surface) => surface.size(),
        }
    }

    /// The nearest active object whose mesh's bounds are drawn at `pixel`
    /// (x right, y down, in output pixels), seen through the camera frames
    /// are drawn from ([`camera`](Self::camera)); `None` over the sky or without a camera. Each object is
    /// tested against its mesh's box in its own space, so a turned plank
    /// picks by the plank, not by the box around it.
    #[must_use]
    pub fn pick(&self, pixel: Vec2) -> Option<Picked> {
        let scene = self.scene();
        let camera = scene.render_camera()?;
        let (width, height) = self.output_size();
        let viewport = Vec2::new(width as f32, height as f32);
        let assets = self.render.renderer.assets();
        pick(scene, camera, viewport, pixel, |mesh: MeshHandle| {
            assets.mesh(MeshId(mesh.0)).map(|m| m.bounds())
        })
    }
}
