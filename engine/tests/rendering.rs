//! What the engine draws, in a headless engine (lavapipe in CI), in one
//! test binary: the game chooses which camera draws (`Engine::set_camera`;
//! `None` goes back to the first active camera, below), motion vectors for
//! what moved, decals, and particles (the modules).

use glam::{Quat, Vec3};
use taos_engine::prelude::*;
use taos_engine::renderer::presets::{PresetOptions, forward_preset};
use taos_engine::renderer::resources::{MeshData, PbrMaterial};
use taos_engine::{Engine, EngineConfig};

fn camera_at(engine: &mut Engine, name: &str, at: Vec3, aspect: f32) -> GameObject {
    let scene = engine.scene_mut();
    let camera = scene.spawn_with(name, Transform::from_trs(at, Quat::IDENTITY, Vec3::ONE));
    scene
        .add_component(
            camera,
            Camera::perspective(60.0, 0.1, 100.0, aspect).unwrap(),
        )
        .unwrap();
    camera
}

#[test]
fn the_chosen_camera_draws_and_none_goes_back_to_the_first() {
    let mut engine = Engine::headless(
        EngineConfig::new(64, 48),
        forward_preset(PresetOptions::default()),
    )
    .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    let (assets, gpu) = engine.renderer().assets_mut();
    let cube = assets.add_mesh(gpu, "cube", &MeshData::cube(2.0));
    let white = assets.add_material(PbrMaterial::color(Vec3::ONE));
    let scene = engine.scene_mut();
    let block = scene.spawn("Block");
    scene
        .add_component(block, MeshRenderer::new(cube.handle(), white.handle()))
        .unwrap();
    // The first camera faces the block; the second stands far to the side,
    // looking down -Z past it, with a wrong aspect ratio to start with.
    let facing = camera_at(&mut engine, "Facing", Vec3::new(0.0, 0.0, 5.0), 4.0 / 3.0);
    let aside = camera_at(&mut engine, "Aside", Vec3::new(40.0, 0.0, 5.0), 0.25);

    engine.frame().unwrap();
    assert_eq!(engine.camera(), Some(facing), "the first camera by default");
    let first = engine.read_pixels().unwrap();

    engine.set_camera(Some(aside));
    engine.frame().unwrap();
    assert_eq!(engine.camera(), Some(aside));
    let chosen = engine.read_pixels().unwrap();
    assert_ne!(first, chosen, "the chosen camera drew the frame");
    let aspect = engine
        .scene()
        .get_component::<Camera>(aside)
        .and_then(|camera| match camera.projection {
            Projection::Perspective { aspect, .. } => Some(aspect),
            Projection::Orthographic { .. } => None,
        })
        .unwrap();
    assert!(
        (aspect - 64.0 / 48.0).abs() < 1e-4,
        "it took the output's aspect: {aspect}"
    );

    engine.set_camera(None);
    engine.frame().unwrap();
    assert_eq!(engine.camera(), Some(facing));
    assert_eq!(
        engine.read_pixels().unwrap(),
        first,
        "back to the first camera"
    );

    // A chosen camera that is switched off gives way to the first active one.
    engine.set_camera(Some(aside));
    engine.scene_mut().set_enabled(aside, false).unwrap();
    engine.frame().unwrap();
    assert_eq!(engine.camera(), Some(facing));
}

#[path = "rendering_parts/decals.rs"]
mod decals;
#[path = "rendering_parts/motion_vectors.rs"]
mod motion_vectors;
#[path = "rendering_parts/particles.rs"]
mod particles;
