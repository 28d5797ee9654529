//! The hello world: a sphere, a sun and a camera in front of a sky.

use glam::{Quat, Vec3};
use taos_engine::Engine;
use taos_engine::prelude::*;
use taos_renderer::resources::{MeshData, PbrMaterial};

/// Fills `engine` with the forward hello-world scene.
///
/// # Errors
/// If a component cannot be added (never for this fixed scene).
pub fn forward_simple(engine: &mut Engine) -> anyhow::Result<()> {
    let (assets, gpu) = engine.renderer().assets_mut();
    let sphere = assets.add_mesh(gpu, "sphere", &MeshData::sphere(1.0, 48, 24));
    let red = assets.add_material(PbrMaterial {
        roughness: 0.3,
        ..PbrMaterial::color(Vec3::new(0.9, 0.15, 0.1))
    });

    let scene = engine.scene_mut();
    let ball = scene.spawn("Sphere");
    scene.add_component(
        ball,
        MeshRenderer::new(MeshHandle(sphere.0), MaterialHandle(red.0)),
    )?;
    let sun = scene.spawn("Sun");
    let light = DirectionalLight::new(Vec3::new(-0.5, -1.0, -0.4), Vec3::ONE, 3.0);
    scene.add_component(sun, light)?;
    let eye = Transform::from_trs(
        Vec3::new(0.0, 0.6, 3.5),
        Quat::from_rotation_x(-0.15),
        Vec3::ONE,
    );
    let camera = scene.spawn_with("Camera", eye);
    scene.add_component(camera, Camera::perspective(50.0, 0.1, 100.0, 4.0 / 3.0)?)?;
    Ok(())
}
