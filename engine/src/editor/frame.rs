//! Framing the selection (F): the editor camera moves back along its view
//! until the selection, children included, fills the view.

use glam::Vec3;
use taos_renderer::resources::MeshId;

use super::Editor;
use crate::{Engine, GameObject, MeshRenderer, Projection};

/// The view the framed selection fills (1: edge to edge).
const FILL: f32 = 0.8;

impl Editor {
    /// Points the editor camera at the selection and moves it back along
    /// its view until the selection (its meshes and its children's, or a
    /// metre around it without any) fills most of the view; the camera
    /// keeps its direction. What F and "Frame" do. `false` without a
    /// selection or an editor camera.
    pub fn frame_selection(&mut self, engine: &mut Engine) -> bool {
        let (Some(camera), Some(object)) = (
            self.view.object,
            self.selected.and_then(|id| engine.scene().find_by_id(id)),
        ) else {
            return false;
        };
        let (centre, radius) = subtree_sphere(engine, object);
        let scene = engine.scene();
        let Some(lens) = scene.get_component::<crate::Camera>(camera) else {
            return false;
        };
        let half_angle = match lens.projection {
            Projection::Perspective { fov_y, aspect, .. } => {
                let half_y = fov_y * 0.5;
                let half_x = (half_y.tan() * aspect).atan();
                half_y.min(half_x)
            }
            // An orthographic view does not shrink with distance: keep a
            // fixed stand-off in front of the selection.
            Projection::Orthographic { .. } => std::f32::consts::FRAC_PI_4,
        };
        let Some(rotation) = scene.transform(camera).map(|t| t.rotation) else {
            return false;
        };
        let forward = rotation * Vec3::NEG_Z;
        let distance = radius / (half_angle.sin() * FILL).max(1e-3);
        if let Ok(mut placed) = engine.scene_mut().object_mut(camera) {
            placed.set_position(centre - forward * distance);
        }
        true
    }
}

/// A sphere around `object`'s meshes and its children's (world space), or a
/// metre around its position when it has none.
fn subtree_sphere(engine: &mut Engine, object: GameObject) -> (Vec3, f32) {
    let mut stack = vec![object];
    let mut boxes = Vec::new();
    while let Some(next) = stack.pop() {
        let scene = engine.scene();
        stack.extend(scene.children(next));
        if let (Some(renderer), Some(world)) = (
            scene.get_component::<MeshRenderer>(next),
            scene.world_matrix(next),
        ) {
            boxes.push((renderer.mesh, world));
        }
    }
    let assets = engine.renderer().assets();
    let mut min = Vec3::splat(f32::INFINITY);
    let mut max = Vec3::splat(f32::NEG_INFINITY);
    for (mesh, world) in boxes {
        let Some((lo, hi)) = assets.mesh(MeshId(mesh.0)).map(|m| m.bounds()) else {
            continue;
        };
        for i in 0..8 {
            let corner = Vec3::new(
                if i & 1 == 0 { lo.x } else { hi.x },
                if i & 2 == 0 { lo.y } else { hi.y },
                if i & 4 == 0 { lo.z } else { hi.z },
            );
            let at = world.transform_point3(corner);
            min = min.min(at);
            max = max.max(at);
        }
    }
    if min.is_finite() && max.is_finite() {
        ((min + max) * 0.5, ((max - min) * 0.5).length().max(0.05))
    } else {
        let at = engine.scene().world_position(object).unwrap_or_default();
        (at, 1.0)
    }
}
