//! Particle emitters in a headless engine (lavapipe in CI): drawn by every
//! preset and under TAA, the same image on a second run, the CPU and GPU
//! paths in agreement, paused with the game's time, and bad effects
//! clamped instead of panicking.

use std::path::PathBuf;

use glam::{Quat, Vec3};
use taos_engine::particles::{
    Burst, Curve, DepthCollision, EmitterShape, FloatRange, Gradient, ParticleBlend,
    ParticleEffect, ParticleEmitter, ParticleFeature, ParticlePath,
};
use taos_engine::prelude::*;
use taos_engine::renderer::Renderer;
use taos_engine::{Engine, EngineConfig};
use taos_image_compare::{Tolerance, assert_matches_reference};
use taos_renderer::presets::{
    DeferredOptions, PresetOptions, deferred_preset, forward_plus_preset, forward_preset,
};
use taos_renderer::resources::{MeshData, PbrMaterial};

const SIZE: (u32, u32) = (96, 72);

fn reference_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference")
}

/// Orange sparks rising from a point and falling back.
fn fountain() -> ParticleEffect {
    ParticleEffect {
        name: "fountain".into(),
        max_particles: 2000,
        rate: 300.0,
        shape: EmitterShape::Cone {
            angle: 0.35,
            radius: 0.05,
        },
        lifetime: FloatRange::new(0.8, 1.2),
        speed: FloatRange::new(2.5, 3.5),
        gravity: Vec3::new(0.0, -4.0, 0.0),
        size: FloatRange::constant(0.12),
        color: Gradient::linear(Vec3::new(4.0, 2.0, 0.5), Vec3::new(2.0, 0.3, 0.1)),
        opacity: Curve::linear(1.0, 0.2),
        ..Default::default()
    }
}

/// Grey smoke puffs, alpha blended, growing as they rise.
fn smoke() -> ParticleEffect {
    ParticleEffect {
        name: "smoke".into(),
        max_particles: 400,
        rate: 40.0,
        shape: EmitterShape::Sphere {
            radius: 0.2,
            shell: false,
        },
        lifetime: FloatRange::new(1.5, 2.0),
        speed: FloatRange::new(0.1, 0.3),
        initial_velocity: Vec3::new(0.0, 0.6, 0.0),
        size: FloatRange::new(0.3, 0.4),
        size_over_life: Curve::linear(0.6, 1.6),
        color: Gradient::constant(Vec3::splat(0.7)),
        opacity: Curve::from_keys([(0.0, 0.0), (0.2, 0.8), (1.0, 0.0)]),
        blend: ParticleBlend::Alpha,
        ..Default::default()
    }
}

/// A grey floor, a camera, and two emitters (a fountain and smoke).
fn build_scene(engine: &mut Engine) -> (GameObject, GameObject) {
    let (assets, gpu) = engine.renderer().assets_mut();
    let floor_mesh = assets.add_mesh(gpu, "floor", &MeshData::plane(12.0));
    let grey = assets.add_material(PbrMaterial::color(Vec3::splat(0.04)));
    let scene = engine.scene_mut();
    let floor = scene.spawn("Floor");
    scene
        .add_component(floor, MeshRenderer::new(floor_mesh.handle(), grey.handle()))
        .unwrap();
    let sun = scene.spawn("Sun");
    let light = DirectionalLight::new(Vec3::new(-0.4, -1.0, -0.6), Vec3::ONE, 3.0);
    scene.add_component(sun, light).unwrap();
    let eye = glam::camera::rh::view::look_at_mat4(
        Vec3::new(0.0, 1.4, 4.0),
        Vec3::new(0.0, 0.9, 0.0),
        Vec3::Y,
    );
    let (_, rotation, position) = eye.inverse().to_scale_rotation_translation();
    let camera = scene.spawn_with("Camera", Transform::from_trs(position, rotation, Vec3::ONE));
    scene
        .add_component(
            camera,
            Camera::perspective(60.0, 0.1, 100.0, 4.0 / 3.0).unwrap(),
        )
        .unwrap();
    let sparks = scene.spawn_with(
        "Fountain",
        Transform::from_trs(Vec3::new(-0.8, 0.0, 0.0), Quat::IDENTITY, Vec3::ONE),
    );
    scene
        .add_component(sparks, ParticleEmitter::new(fountain()))
        .unwrap();
    let puffs = scene.spawn_with(
        "Smoke",
        Transform::from_trs(Vec3::new(0.9, 0.3, 0.0), Quat::IDENTITY, Vec3::ONE),
    );
    scene
        .add_component(puffs, ParticleEmitter::new(smoke()))
        .unwrap();
    (sparks, puffs)
}

fn engine(preset: impl FnOnce(&mut Renderer)) -> Engine {
    Engine::headless(EngineConfig::new(SIZE.0, SIZE.1), preset)
        .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"))
}

/// A forward-preset engine whose particles take `path`.
fn forward_engine_on(path: ParticlePath) -> Engine {
    let mut engine = engine(forward_preset(PresetOptions::default()));
    engine
        .renderer()
        .feature_mut::<ParticleFeature>()
        .unwrap()
        .set_path(path);
    engine
}

fn run(engine: &mut Engine, frames: usize) -> Vec<u8> {
    for _ in 0..frames {
        engine.frame().unwrap();
    }
    engine.read_pixels().unwrap()
}

fn brightness(pixels: &[u8]) -> u64 {
    pixels
        .chunks_exact(4)
        .map(|p| u64::from(p[0]) + u64::from(p[1]) + u64::from(p[2]))
        .sum()
}

/// A preset to build an engine with.
type Preset = Box<dyn FnOnce(&mut Renderer)>;

const TOLERANCE: Tolerance = Tolerance {
    per_channel: 24,
    outlier_fraction: 0.02,
};

#[test]
fn every_preset_draws_the_particles() {
    let presets: [(&str, Preset); 5] = [
        (
            "particles_forward",
            Box::new(forward_preset(PresetOptions::default())),
        ),
        (
            "particles_forward_msaa",
            Box::new(forward_preset(PresetOptions {
                msaa: 4,
                ..PresetOptions::default()
            })),
        ),
        (
            "particles_forward_taa",
            Box::new(forward_preset(PresetOptions {
                taa: Some(Default::default()),
                ..PresetOptions::default()
            })),
        ),
        (
            "particles_forward_plus",
            Box::new(forward_plus_preset(PresetOptions::default())),
        ),
        (
            "particles_deferred_taa",
            Box::new(deferred_preset(DeferredOptions::default())),
        ),
    ];
    let mut lit = Vec::new();
    for (name, preset) in presets {
        let mut engine = engine(preset);
        let (sparks, puffs) = build_scene(&mut engine);
        let pixels = run(&mut engine, 40);
        let feature = engine.renderer().feature::<ParticleFeature>().unwrap();
        assert_eq!(feature.emitter_count(), 2, "{name}");
        // The particles are there: without the emitters the frame is darker.
        let scene = engine.scene_mut();
        scene.set_enabled(sparks, false).unwrap();
        scene.set_enabled(puffs, false).unwrap();
        let without = run(&mut engine, 1);
        assert!(
            brightness(&pixels) > brightness(&without) + 20_000,
            "{name}: {} vs {} without particles",
            brightness(&pixels),
            brightness(&without)
        );
        assert_matches_reference(&reference_dir(), name, SIZE.0, SIZE.1, &pixels, TOLERANCE);
        lit.push(brightness(&pixels) - brightness(&without));
    }
    // Under TAA the particles are as bright and sharp as without it: drawn
    // into TAA's history they would pile up over the frames (a smear).
    for added in &lit {
        assert!(added.abs_diff(lit[0]) * 20 < lit[0], "{lit:?}");
    }
}

#[test]
fn the_same_run_twice_gives_the_same_image() {
    let first = {
        let mut engine = engine(forward_preset(PresetOptions::default()));
        build_scene(&mut engine);
        run(&mut engine, 30)
    };
    let mut engine = engine(forward_preset(PresetOptions::default()));
    build_scene(&mut engine);
    let second = run(&mut engine, 30);
    assert!(first == second, "two runs drew different particles");
    // And the image moves on: a later frame differs.
    let later = run(&mut engine, 5);
    assert!(later != second);
}

/// The ring of `emitter` as the renderer keeps it.
fn ring(engine: &mut Engine, emitter: GameObject) -> Vec<taos_renderer::particles::Particle> {
    let renderer = engine.renderer();
    let feature = renderer.feature::<ParticleFeature>().unwrap();
    feature
        .particles(renderer.gpu(), emitter.entity().to_bits())
        .expect("the emitter has particles")
}

#[test]
fn the_cpu_and_gpu_paths_agree() {
    let mut runs = Vec::new();
    for path in [ParticlePath::Gpu, ParticlePath::Cpu] {
        let mut engine = forward_engine_on(path);
        let (sparks, _) = build_scene(&mut engine);
        let pixels = run(&mut engine, 20);
        if path == ParticlePath::Gpu
            && ParticleFeature::check_gpu_support(engine.renderer().gpu()).is_err()
        {
            return;
        }
        let feature = engine.renderer().feature::<ParticleFeature>().unwrap();
        assert_eq!(feature.path_in_use(), path);
        runs.push((ring(&mut engine, sparks), pixels));
    }
    let (gpu, cpu) = (&runs[0], &runs[1]);
    assert_eq!(gpu.0.len(), cpu.0.len());
    let alive = cpu.0.iter().filter(|p| p.is_alive()).count();
    assert!(alive > 50, "{alive} sparks alive");
    for (g, c) in gpu.0.iter().zip(&cpu.0) {
        assert_eq!(g.is_alive(), c.is_alive());
        assert!(
            (g.position() - c.position()).length() < 1e-3,
            "{:?} vs {:?}",
            g.position(),
            c.position()
        );
    }
    let differing = gpu
        .1
        .chunks_exact(4)
        .zip(cpu.1.chunks_exact(4))
        .filter(|(a, b)| a.iter().zip(*b).any(|(x, y)| x.abs_diff(*y) > 24))
        .count();
    assert!(
        differing * 50 < gpu.1.len() / 4,
        "{differing} pixels differ between the paths"
    );
}

#[test]
fn alpha_blended_particles_are_drawn_farthest_first() {
    for path in [ParticlePath::Gpu, ParticlePath::Cpu] {
        let mut engine = forward_engine_on(path);
        let (_, puffs) = build_scene(&mut engine);
        run(&mut engine, 60);
        let renderer = engine.renderer();
        let feature = renderer.feature::<ParticleFeature>().unwrap();
        let drawn = feature
            .drawn(renderer.gpu(), puffs.entity().to_bits())
            .unwrap();
        let camera = Vec3::new(0.0, 1.4, 4.0);
        let forward = (Vec3::new(0.0, 0.9, 0.0) - camera).normalize();
        let depths: Vec<f32> = drawn
            .iter()
            .take_while(|p| p.is_alive())
            .map(|p| (p.position() - camera).dot(forward))
            .collect();
        assert!(depths.len() > 30, "{path:?}: {} alive", depths.len());
        assert!(
            drawn[depths.len()..].iter().all(|p| !p.is_alive()),
            "{path:?}: the dead come last"
        );
        assert!(
            depths.windows(2).all(|w| w[0] >= w[1]),
            "{path:?}: {depths:?}"
        );
    }
}

#[test]
fn particles_pause_with_the_game_time() {
    let mut engine = engine(forward_preset(PresetOptions::default()));
    let (sparks, _) = build_scene(&mut engine);
    run(&mut engine, 10);
    engine.scene_mut().time_mut().set_scale(0.0).unwrap();
    run(&mut engine, 1);
    let before = ring(&mut engine, sparks);
    let pixels = run(&mut engine, 5);
    assert_eq!(
        ring(&mut engine, sparks),
        before,
        "paused particles stand still"
    );
    assert_eq!(run(&mut engine, 1), pixels);
    engine.scene_mut().time_mut().set_scale(1.0).unwrap();
    run(&mut engine, 1);
    assert_ne!(
        ring(&mut engine, sparks),
        before,
        "and move on when resumed"
    );
    // A capture shows the frame again without stepping it.
    let shown = ring(&mut engine, sparks);
    engine.capture(SIZE.0, SIZE.1).unwrap();
    assert_eq!(ring(&mut engine, sparks), shown);
}

/// Sparks dropped onto the floor from `height`, with or without collision,
/// after a second: the lowest one's height.
fn lowest_spark(collision: Option<DepthCollision>) -> Option<f32> {
    let mut engine = engine(forward_preset(PresetOptions::default()));
    if ParticleFeature::check_gpu_support(engine.renderer().gpu()).is_err() {
        return None;
    }
    build_scene(&mut engine);
    let drop = ParticleEffect {
        name: "drop".into(),
        max_particles: 200,
        rate: 0.0,
        bursts: vec![Burst::once(0.0, 200)],
        shape: EmitterShape::Box {
            half_extents: Vec3::new(0.5, 0.0, 0.5),
        },
        lifetime: FloatRange::constant(10.0),
        speed: FloatRange::constant(0.0),
        gravity: Vec3::new(0.0, -9.8, 0.0),
        collision,
        ..Default::default()
    };
    let scene = engine.scene_mut();
    let object = scene.spawn_with(
        "Drop",
        Transform::from_trs(Vec3::new(0.0, 1.0, 0.0), Quat::IDENTITY, Vec3::ONE),
    );
    scene
        .add_component(object, ParticleEmitter::new(drop))
        .unwrap();
    run(&mut engine, 60);
    let ring = ring(&mut engine, object);
    assert!(ring.iter().all(|p| p.is_alive()));
    ring.iter().map(|p| p.position().y).reduce(f32::min)
}

#[test]
fn particles_bounce_off_what_the_camera_sees() {
    let Some(falling) = lowest_spark(None) else {
        return;
    };
    // 1 m up, a second of free fall: about 4 m below the floor.
    assert!(falling < -3.0, "{falling}");
    let bounced = lowest_spark(Some(DepthCollision::default())).unwrap();
    assert!(bounced > -0.15, "the floor stopped them: {bounced}");
}

#[test]
fn local_particles_follow_their_emitter() {
    let mut engine = engine(forward_preset(PresetOptions::default()));
    build_scene(&mut engine);
    let carried = ParticleEffect {
        name: "carried".into(),
        max_particles: 50,
        bursts: vec![Burst::once(0.0, 50)],
        rate: 0.0,
        lifetime: FloatRange::constant(10.0),
        speed: FloatRange::constant(0.0),
        space: taos_engine::particles::SimulationSpace::Local,
        ..Default::default()
    };
    let scene = engine.scene_mut();
    let object = scene.spawn("Carrier");
    scene
        .add_component(object, ParticleEmitter::new(carried))
        .unwrap();
    let lit_at = |engine: &mut Engine| -> u64 {
        let pixels = run(engine, 1);
        let width = SIZE.0 as usize;
        // The brightness of the left third of the frame.
        pixels
            .chunks_exact(4)
            .enumerate()
            .filter(|(i, _)| i % width < width / 3)
            .map(|(_, p)| u64::from(p[0]) + u64::from(p[1]) + u64::from(p[2]))
            .sum()
    };
    run(&mut engine, 2);
    let centred = lit_at(&mut engine);
    engine
        .scene_mut()
        .object_mut(object)
        .unwrap()
        .set_position(Vec3::new(-1.6, 0.8, 0.0));
    let moved = lit_at(&mut engine);
    // The particles live in the emitter's space: they moved with it.
    assert!(moved > centred + 3_000, "{moved} vs {centred}");
    let ring = ring(&mut engine, object);
    assert!(ring.iter().all(|p| p.position().length() < 1e-3));
}

#[test]
fn seeds_come_from_the_game_rng() {
    let seeds = |seed: u64| {
        let mut scene = Scene::new();
        scene
            .world_mut()
            .insert_resource(taos_engine::game_loop::GameRng::new(seed));
        let a = scene.spawn("A");
        let b = scene.spawn("B");
        scene
            .add_component(a, ParticleEmitter::new(fountain()))
            .unwrap();
        scene
            .add_component(b, ParticleEmitter::new(fountain()))
            .unwrap();
        let seed_of = |scene: &Scene, object| {
            scene
                .get_component::<ParticleEmitter>(object)
                .unwrap()
                .seed()
                .unwrap()
        };
        (seed_of(&scene, a), seed_of(&scene, b))
    };
    assert_eq!(seeds(5), seeds(5));
    assert_ne!(seeds(5), seeds(6));
    let (a, b) = seeds(5);
    assert_ne!(a, b, "two emitters, two seeds");
    let chosen = ParticleEmitter::new(fountain()).with_seed(99);
    let mut scene = Scene::new();
    let object = scene.spawn("Chosen");
    scene.add_component(object, chosen).unwrap();
    assert_eq!(
        scene
            .get_component::<ParticleEmitter>(object)
            .unwrap()
            .seed(),
        Some(99)
    );
}

#[test]
fn bad_effects_are_clamped_not_fatal() {
    let mut engine = engine(forward_preset(PresetOptions::default()));
    build_scene(&mut engine);
    let broken = ParticleEffect {
        name: "broken".into(),
        max_particles: 5000,
        rate: f32::NAN,
        bursts: vec![Burst::once(0.0, 1_000_000)],
        lifetime: FloatRange::new(-1.0, 0.0),
        speed: FloatRange::new(f32::INFINITY, 1.0),
        gravity: Vec3::NAN,
        size: FloatRange::constant(f32::NAN),
        opacity: Curve::from_keys([(f32::NAN, 1.0)]),
        collision: Some(DepthCollision {
            restitution: f32::NAN,
            ..Default::default()
        }),
        ..Default::default()
    };
    assert!(broken.validate().is_err());
    let scene = engine.scene_mut();
    let object = scene.spawn("Broken");
    scene
        .add_component(object, ParticleEmitter::new(broken))
        .unwrap();
    let nowhere = scene.spawn_with(
        "Nowhere",
        Transform::from_trs(Vec3::NAN, Quat::IDENTITY, Vec3::ONE),
    );
    scene
        .add_component(nowhere, ParticleEmitter::new(fountain()))
        .unwrap();
    // A million at once fits in the ring's 5000, each lives a millisecond.
    let stats = engine.frame().unwrap();
    assert!(stats.particle_emitters >= 3);
    let ring = ring(&mut engine, object);
    assert_eq!(ring.len(), 5000);
    assert!(
        ring.iter()
            .all(|p| p.position().is_finite() && p.velocity().is_finite())
    );
    run(&mut engine, 3);
}
