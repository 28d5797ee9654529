//! The deferred showcase: a grid of spheres from dielectric to metal and
//! from smooth to rough, lit by the atmosphere sky (image-based lighting), the sun and
//! coloured point lights; a stepped wall whose creases show the ambient
//! occlusion; and a glass ball shaded by the transparency overlay.

use glam::{Quat, Vec3, Vec4};
use taos_engine::Engine;
use taos_engine::prelude::*;
use taos_engine::renderer::Renderer;
use taos_engine::renderer::features::{AoOptions, Atmosphere, IblOptions, SkyOption};
use taos_engine::renderer::presets::{DeferredOptions, PresetOptions, deferred_preset};
use taos_engine::renderer::resources::{AlphaMode, MeshData, PbrMaterial};

/// Spheres per row and per column of the material grid.
pub const GRID: usize = 5;

/// The sample's preset: deferred with SSAO, the atmosphere sky (also the
/// image-based light), point lights and the forward transparency overlay.
pub fn deferred_showcase_preset() -> impl FnOnce(&mut Renderer) {
    deferred_preset(deferred_showcase_options())
}

/// The options of [`deferred_showcase_preset`] (`presets_compare` gives
/// their common part to the other presets too).
#[must_use]
pub fn deferred_showcase_options() -> DeferredOptions {
    DeferredOptions {
        common: PresetOptions {
            sky: SkyOption::Atmosphere(Atmosphere::default()),
            ibl: Some(IblOptions { intensity: 0.5 }),
            exposure: 0.6,
            ..PresetOptions::default()
        },
        ao: Some(AoOptions {
            radius: 0.6,
            intensity: 1.2,
            samples: 16,
            ..AoOptions::default()
        }),
        // The four point lights need the point/spot feature (off by default).
        point_spot_lights: Some(None),
        ..DeferredOptions::default()
    }
}

/// Fills `engine` with the showcase scene.
///
/// # Errors
/// If a component cannot be added (never for this fixed scene).
pub fn deferred_showcase(engine: &mut Engine) -> anyhow::Result<()> {
    let (assets, gpu) = engine.renderer().assets_mut();
    let sphere = assets.add_mesh(gpu, "sphere", &MeshData::sphere(0.42, 32, 16));
    let cube = assets.add_mesh(gpu, "cube", &MeshData::cube(1.0));
    let ground_mesh = assets.add_mesh(gpu, "ground", &MeshData::plane(30.0));
    let stone = assets.add_material(PbrMaterial {
        roughness: 0.85,
        ..PbrMaterial::color(Vec3::new(0.62, 0.6, 0.56))
    });
    let glass = assets.add_material(PbrMaterial {
        alpha: AlphaMode::Blend,
        base_color: Vec4::new(0.55, 0.75, 0.95, 0.35),
        roughness: 0.05,
        ..PbrMaterial::default()
    });
    let mut grid = Vec::new();
    for row in 0..GRID {
        for column in 0..GRID {
            grid.push(assets.add_material(PbrMaterial {
                metallic: row as f32 / (GRID - 1) as f32,
                roughness: 0.05 + 0.95 * column as f32 / (GRID - 1) as f32,
                ..PbrMaterial::color(Vec3::new(0.95, 0.64, 0.36))
            }));
        }
    }
    // Named, so the scene saves to a scene file.
    for (name, mesh) in [("sphere", sphere), ("cube", cube), ("ground", ground_mesh)] {
        engine.name_mesh(name, mesh)?;
    }
    engine.name_material("stone", stone)?;
    engine.name_material("glass", glass)?;
    for (i, &material) in grid.iter().enumerate() {
        engine.name_material(&format!("metal {} {}", i / GRID, i % GRID), material)?;
    }

    let scene = engine.scene_mut();
    let ground = scene.spawn("Ground");
    scene.add_component(
        ground,
        MeshRenderer::new(ground_mesh.handle(), stone.handle()),
    )?;
    // The material grid: metallic grows upwards, roughness to the right.
    for (index, material) in grid.into_iter().enumerate() {
        let (row, column) = (index / GRID, index % GRID);
        let at = Vec3::new(column as f32 - 2.0, 0.55 + row as f32, 0.0);
        let ball = scene.spawn_with("Sphere", Transform::from_position(at));
        scene.add_component(ball, MeshRenderer::new(sphere.handle(), material.handle()))?;
    }
    // A back wall with steps at its foot: concave creases for the SSAO.
    let blocks = [
        (Vec3::new(0.0, 3.0, -1.2), Vec3::new(8.0, 6.0, 0.6)),
        (Vec3::new(-3.2, 0.4, -0.6), Vec3::new(1.6, 0.8, 0.6)),
        (Vec3::new(3.2, 0.4, -0.6), Vec3::new(1.6, 0.8, 0.6)),
        (Vec3::new(-3.6, 1.2, -0.6), Vec3::new(0.8, 0.8, 0.6)),
        (Vec3::new(3.6, 1.2, -0.6), Vec3::new(0.8, 0.8, 0.6)),
    ];
    for (at, size) in blocks {
        let block = scene.spawn_with("Block", Transform::from_trs(at, Quat::IDENTITY, size));
        scene.add_component(block, MeshRenderer::new(cube.handle(), stone.handle()))?;
    }
    let ball = scene.spawn_with(
        "Glass",
        Transform::from_trs(Vec3::new(2.9, 0.75, 1.6), Quat::IDENTITY, Vec3::splat(1.7)),
    );
    scene.add_component(ball, MeshRenderer::new(sphere.handle(), glass.handle()))?;

    let lights = [
        (Vec3::new(-2.5, 1.0, 1.2), Vec3::new(1.0, 0.35, 0.2)),
        (Vec3::new(0.0, 0.4, 1.3), Vec3::new(0.3, 0.6, 1.0)),
        (Vec3::new(2.5, 2.5, 1.2), Vec3::new(0.4, 1.0, 0.5)),
        (Vec3::new(-1.0, 4.2, 1.0), Vec3::new(1.0, 0.85, 0.4)),
    ];
    for (at, color) in lights {
        let light = scene.spawn_with("Light", Transform::from_position(at));
        scene.add_component(light, PointLight::new(color, 4.0, 4.0))?;
    }
    let sun = scene.spawn("Sun");
    let light = DirectionalLight::new(Vec3::new(0.5, -1.0, -0.6), Vec3::new(1.0, 0.95, 0.85), 2.0);
    scene.add_component(sun, light)?;
    let eye = Transform::from_trs(
        Vec3::new(0.0, 3.0, 9.5),
        Quat::from_rotation_x(-0.12),
        Vec3::ONE,
    );
    let camera = scene.spawn_with("Camera", eye);
    scene.add_component(camera, Camera::perspective(45.0, 0.1, 100.0, 4.0 / 3.0)?)?;
    Ok(())
}
