//! The hello world: a sphere, a sun and a camera in front of a textured sky.

use std::sync::Arc;

use glam::{Quat, Vec3};
use taos_engine::Engine;
use taos_engine::prelude::*;
use taos_engine::renderer::Renderer;
use taos_engine::renderer::features::SkyOption;
use taos_engine::renderer::presets::{PresetOptions, forward_preset};
use taos_engine::renderer::resources::{MeshData, PbrMaterial};

/// The sample's preset: forward, with a procedural panorama as the sky.
pub fn forward_simple_preset() -> impl FnOnce(&mut Renderer) {
    forward_preset(PresetOptions {
        sky: SkyOption::Texture {
            image: Arc::new(sky_panorama(256, 128)),
            intensity: 1.0,
        },
        ..PresetOptions::default()
    })
}

/// An equirectangular sky: deep blue at the zenith, pale at the horizon,
/// a darker ground below, and a bright patch where the sun is.
#[must_use]
pub fn sky_panorama(width: u32, height: u32) -> image::RgbaImage {
    let sun = Vec3::new(0.5, 1.0, 0.4).normalize();
    image::RgbaImage::from_fn(width, height, |x, y| {
        let longitude =
            (x as f32 + 0.5) / width as f32 * std::f32::consts::TAU - std::f32::consts::PI;
        let latitude =
            std::f32::consts::FRAC_PI_2 - (y as f32 + 0.5) / height as f32 * std::f32::consts::PI;
        let dir = Vec3::new(
            latitude.cos() * longitude.sin(),
            latitude.sin(),
            -latitude.cos() * longitude.cos(),
        );
        let sky = if dir.y >= 0.0 {
            Vec3::new(0.75, 0.85, 0.95).lerp(Vec3::new(0.15, 0.35, 0.75), dir.y.sqrt())
        } else {
            Vec3::new(0.35, 0.32, 0.3)
        };
        let glow = dir.dot(sun).max(0.0).powf(64.0);
        let c = (sky + Vec3::splat(glow)).min(Vec3::ONE) * 255.0;
        image::Rgba([c.x as u8, c.y as u8, c.z as u8, 255])
    })
}

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
    // Named, so the scene saves to a scene file (`taos_engine::scene_file`).
    engine.name_mesh("sphere", sphere)?;
    engine.name_material("red", red)?;

    let scene = engine.scene_mut();
    let ball = scene.spawn("Sphere");
    scene.add_component(ball, MeshRenderer::new(sphere.handle(), red.handle()))?;
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
