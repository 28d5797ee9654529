//! [`Engine::pick`]: the object drawn at a pixel of the engine's output,
//! through the scene's camera, by the meshes' bounds in the renderer's
//! assets and then their triangles (the editor's click-to-select).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use glam::Vec2;
use taos_renderer::resources::MeshId;

use crate::edit::viewport::{MeshTriangles, Picked, pick_exact};
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

    /// The nearest active object drawn at `pixel` (x right, y down, in
    /// output pixels), seen through the camera frames are drawn from
    /// ([`camera`](Self::camera)); `None` over the sky or without a camera.
    /// Each object is tested against its mesh's box in its own space, then
    /// against the mesh's triangles, so a click through a doorway picks
    /// what is behind it. A mesh's triangles are read back from the GPU
    /// the first time a click meets its box, and kept; in a browser (which
    /// cannot wait for the GPU), and for skinned or morphing meshes, the
    /// box decides.
    #[must_use]
    pub fn pick(&self, pixel: Vec2) -> Option<Picked> {
        let scene = self.scene();
        let camera = scene.render_camera()?;
        let (width, height) = self.output_size();
        let viewport = Vec2::new(width as f32, height as f32);
        let assets = self.render.renderer.assets();
        pick_exact(
            scene,
            camera,
            viewport,
            pixel,
            |mesh: MeshHandle| assets.mesh(MeshId(mesh.0)).map(|m| m.bounds()),
            |mesh: MeshHandle| self.triangles_of(MeshId(mesh.0)),
        )
    }

    fn triangles_of(&self, id: MeshId) -> Option<Arc<MeshTriangles>> {
        let mut cache = self
            .pick_triangles
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        cache
            .entry(id)
            .or_insert_with(|| {
                if cfg!(target_arch = "wasm32") {
                    return None;
                }
                let mesh = self.render.renderer.assets().mesh(id)?;
                match mesh.read_triangles(self.render.renderer.gpu()) {
                    Ok((positions, indices)) => {
                        Some(Arc::new(MeshTriangles { positions, indices }))
                    }
                    Err(error) => {
                        log::debug!("picking mesh {} by its bounds: {error}", id.0);
                        None
                    }
                }
            })
            .clone()
    }
}

/// Meshes' triangles read back for picking, by mesh (`None`: picked by its
/// bounds). Meshes never change once added, so entries stay valid.
#[derive(Debug, Default)]
pub(crate) struct TriangleCache(Mutex<HashMap<MeshId, Option<Arc<MeshTriangles>>>>);
