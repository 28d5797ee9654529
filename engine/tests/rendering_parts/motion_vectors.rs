//! The engine hands the renderer each object's previous world matrix, so
//! temporal anti-aliasing draws motion vectors for what moved and only for
//! that (headless engine, lavapipe in CI).

use glam::{Quat, Vec3};
use taos_engine::prelude::*;
use taos_engine::{Engine, EngineConfig};
use taos_renderer::features::TaaFeature;
use taos_renderer::presets::{PresetOptions, forward_preset};
use taos_renderer::resources::{MeshData, PbrMaterial};

#[test]
fn moved_objects_and_only_they_get_motion_vectors() {
    let mut engine = Engine::headless(
        EngineConfig::new(64, 48),
        forward_preset(PresetOptions {
            taa: Some(Default::default()),
            ..PresetOptions::default()
        }),
    )
    .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    let (assets, gpu) = engine.renderer().assets_mut();
    let cube = assets.add_mesh(gpu, "cube", &MeshData::cube(1.0));
    let grey = assets.add_material(PbrMaterial::color(Vec3::splat(0.6)));
    let scene = engine.scene_mut();
    let still = scene.spawn_with(
        "Still",
        Transform::from_trs(Vec3::new(-1.5, 0.0, 0.0), Quat::IDENTITY, Vec3::ONE),
    );
    scene
        .add_component(still, MeshRenderer::new(cube.handle(), grey.handle()))
        .unwrap();
    let mover = scene.spawn_with(
        "Mover",
        Transform::from_trs(Vec3::new(1.5, 0.0, 0.0), Quat::IDENTITY, Vec3::ONE),
    );
    scene
        .add_component(mover, MeshRenderer::new(cube.handle(), grey.handle()))
        .unwrap();
    let eye = Transform::from_trs(Vec3::new(0.0, 0.0, 6.0), Quat::IDENTITY, Vec3::ONE);
    let camera = scene.spawn_with("Camera", eye);
    scene
        .add_component(
            camera,
            Camera::perspective(60.0, 0.1, 100.0, 4.0 / 3.0).unwrap(),
        )
        .unwrap();
    let moved = |engine: &mut Engine| {
        engine
            .renderer()
            .feature::<TaaFeature>()
            .unwrap()
            .moved_draws()
    };

    engine.frame().unwrap();
    engine.frame().unwrap();
    assert_eq!(moved(&mut engine), 0, "nothing moved yet");
    engine
        .scene_mut()
        .object_mut(mover)
        .unwrap()
        .set_position(Vec3::new(1.2, 0.0, 0.0));
    engine.frame().unwrap();
    assert_eq!(moved(&mut engine), 1, "the mover moved");
    engine.frame().unwrap();
    assert_eq!(moved(&mut engine), 0, "and stopped");
}
