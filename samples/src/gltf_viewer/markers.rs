//! Markers for what a model holds but does not draw: a small sphere in the
//! light's colour on each light, a small grey cube on each camera. Both are
//! unlit, children of their node (they follow its animation), and sized
//! from the model so that they read at any scale.

use glam::Vec3;
use taos_engine::gltf::SpawnedGltf;
use taos_engine::prelude::*;
use taos_engine::renderer::resources::{MeshData, PbrMaterial};
use taos_engine::{DirectionalLight, Engine, PointLight, SpotLight};

/// Adds the markers, each `size` metres across (in the node's own scale).
///
/// # Errors
/// When a marker cannot be added (a node removed meanwhile).
pub(super) fn add_markers(
    engine: &mut Engine,
    model: &SpawnedGltf,
    size: f32,
) -> anyhow::Result<()> {
    if model.cameras.is_empty() && model.lights.is_empty() {
        return Ok(());
    }
    let lights: Vec<(GameObject, Vec3)> = model
        .lights
        .iter()
        .map(|&light| (light, light_color(engine.scene(), light)))
        .collect();
    let (assets, gpu) = engine.renderer().assets_mut();
    let sphere = assets.add_mesh(gpu, "light marker", &MeshData::sphere(size * 0.5, 12, 6));
    let cube = assets.add_mesh(gpu, "camera marker", &MeshData::cube(size));
    let unlit = |rgb: Vec3| PbrMaterial {
        unlit: true,
        ..PbrMaterial::color(rgb)
    };
    let grey = assets.add_material(unlit(Vec3::splat(0.6)));
    let mut markers = Vec::new();
    for (light, color) in lights {
        markers.push((light, sphere, assets.add_material(unlit(color))));
    }
    markers.extend(model.cameras.iter().map(|&camera| (camera, cube, grey)));
    let scene = engine.scene_mut();
    for (node, mesh, material) in markers {
        let marker = scene.spawn_child(node, "marker")?;
        scene.add_component(marker, MeshRenderer::new(mesh.handle(), material.handle()))?;
    }
    Ok(())
}

/// The light's colour scaled so its brightest channel is 1.
fn light_color(scene: &Scene, light: GameObject) -> Vec3 {
    let color = scene
        .get_component::<DirectionalLight>(light)
        .map(|l| l.color)
        .or_else(|| scene.get_component::<PointLight>(light).map(|l| l.color))
        .or_else(|| scene.get_component::<SpotLight>(light).map(|l| l.color))
        .unwrap_or(Vec3::ONE);
    color / color.max_element().max(1e-3)
}

/// The box around the model's nodes (for a model with no mesh to frame),
/// grown by `margin` on every side.
#[must_use]
pub(super) fn node_bounds(scene: &Scene, model: &SpawnedGltf, margin: f32) -> Option<(Vec3, Vec3)> {
    let positions = model
        .nodes
        .iter()
        .flatten()
        .filter_map(|&node| scene.world_position(node));
    positions
        .fold(None, |bounds: Option<(Vec3, Vec3)>, p| {
            Some(bounds.map_or((p, p), |(min, max)| (min.min(p), max.max(p))))
        })
        .map(|(min, max)| (min - margin, max + margin))
}
