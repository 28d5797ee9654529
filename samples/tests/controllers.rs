//! `controllers` as an image test, and its rigs driven by injected input.

use std::path::Path;

use taos_engine::game_loop::{InputEvent, Key, MouseButton};
use taos_engine::prelude::*;
use taos_engine::renderer::presets::{PresetOptions, forward_preset};
use taos_engine::{Engine, EngineConfig};
use taos_image_compare::{Tolerance, assert_matches_reference};
use taos_samples::{Rig, RigSwitcher, controllers};

fn engine() -> Engine {
    let mut engine = Engine::headless(
        EngineConfig::new(160, 120),
        forward_preset(PresetOptions::default()),
    )
    .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    controllers(&mut engine).unwrap();
    engine
}

fn camera(engine: &mut Engine) -> GameObject {
    engine.scene().find_camera().unwrap()
}

fn frame_with(engine: &mut Engine, events: &[InputEvent]) {
    for event in events {
        engine.game_loop().push_input(*event);
    }
    engine.frame().unwrap();
}

#[test]
fn controllers_matches_its_reference_after_a_zoom_and_a_drag() {
    let mut engine = engine();
    frame_with(&mut engine, &[]);
    frame_with(&mut engine, &[InputEvent::Wheel(3.0)]);
    frame_with(
        &mut engine,
        &[
            InputEvent::MouseDown(MouseButton::Left),
            InputEvent::MouseMotion(Vec2::new(120.0, -40.0)),
        ],
    );
    frame_with(&mut engine, &[InputEvent::MouseUp(MouseButton::Left)]);
    let pixels = engine.read_pixels().unwrap();
    let tolerance = Tolerance {
        per_channel: 3,
        outlier_fraction: 0.02,
    };
    let reference = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference");
    assert_matches_reference(&reference, "controllers", 160, 120, &pixels, tolerance);
}

#[test]
fn tab_cycles_the_rigs_and_the_walker_stops_at_a_pillar() {
    let mut engine = engine();
    frame_with(&mut engine, &[]);
    let camera = camera(&mut engine);
    let rig = |engine: &mut Engine| {
        engine
            .scene_mut()
            .behaviour::<RigSwitcher>(camera)
            .unwrap()
            .rig
    };
    assert_eq!(rig(&mut engine), Rig::Orbit);
    frame_with(&mut engine, &[InputEvent::KeyDown(Key::Tab)]);
    frame_with(&mut engine, &[InputEvent::KeyUp(Key::Tab)]);
    assert_eq!(rig(&mut engine), Rig::Fly);
    frame_with(&mut engine, &[InputEvent::KeyDown(Key::Tab)]);
    frame_with(&mut engine, &[InputEvent::KeyUp(Key::Tab)]);
    assert_eq!(rig(&mut engine), Rig::Walk);

    // The orbit camera started above the courtyard's edge, so the walker
    // starts flying; land, face the pillar at +X (centre 7, 0, 0) from the
    // middle and walk into it for three seconds.
    frame_with(&mut engine, &[InputEvent::KeyDown(Key::F)]);
    frame_with(&mut engine, &[InputEvent::KeyUp(Key::F)]);
    for _ in 0..180 {
        frame_with(&mut engine, &[]);
    }
    let landed = engine.scene().world_position(camera).unwrap();
    assert!((landed.y - 1.62).abs() < 0.05, "landed: {landed}");
    // Turn to face the nearest pillar and walk into it.
    let pillars: Vec<Vec3> = (0..8)
        .map(|i| {
            let a = i as f32 / 8.0 * std::f32::consts::TAU;
            Vec3::new(a.cos() * 7.0, 0.0, a.sin() * 7.0)
        })
        .collect();
    let feet = Vec3::new(landed.x, 0.0, landed.z);
    let nearest = *pillars
        .iter()
        .min_by(|a, b| a.distance(feet).total_cmp(&b.distance(feet)))
        .unwrap();
    let to = nearest - feet;
    let yaw = (-to.x).atan2(-to.z);
    {
        let scene = engine.scene_mut();
        let switcher = scene.behaviour_mut::<RigSwitcher>(camera).unwrap();
        switcher.set_walk_heading(yaw);
    }
    frame_with(&mut engine, &[InputEvent::KeyDown(Key::W)]);
    for _ in 0..180 {
        frame_with(&mut engine, &[]);
    }
    let eye = engine.scene().world_position(camera).unwrap();
    let inside_x = (eye.x - nearest.x).abs() < 1.0 + 0.3 - 0.01;
    let inside_z = (eye.z - nearest.z).abs() < 1.0 + 0.3 - 0.01;
    assert!(
        !(inside_x && inside_z),
        "walked into the pillar at {nearest}: {eye}"
    );
    assert!(
        eye.distance(Vec3::new(nearest.x, eye.y, nearest.z)) < 1.5 * 1.4143 + 0.1,
        "stopped against it: {eye}"
    );
}

/// The `controllers` sample as a game runs it in a window: an `App`.
struct ControllersApp;

impl taos_engine::App for ControllersApp {
    fn start(&mut self, engine: &mut Engine) -> Result<(), taos_engine::AppError> {
        controllers(engine).map_err(Into::into)
    }
}

#[test]
fn a_left_drag_in_the_window_turns_the_orbit_camera() {
    use taos_engine::{HeadlessApp, WindowEvent};
    let mut run = HeadlessApp::new(
        EngineConfig::new(160, 120),
        forward_preset(PresetOptions::default()),
        ControllersApp,
    )
    .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    run.frame().unwrap();
    let before = run.engine_mut().read_pixels().unwrap();
    let input = |event| WindowEvent::Input {
        event,
        ui_consumed: false,
    };
    // What the window driver makes of a press, a 200-pixel drag (winit's
    // relative motion) and a release.
    run.send(input(InputEvent::MouseDown(MouseButton::Left)))
        .unwrap();
    run.send(WindowEvent::MouseMotion {
        delta: Vec2::new(200.0, 0.0),
    })
    .unwrap();
    run.frame().unwrap();
    run.send(input(InputEvent::MouseUp(MouseButton::Left)))
        .unwrap();
    run.frame().unwrap();
    let after = run.engine_mut().read_pixels().unwrap();
    let changed = before
        .chunks_exact(4)
        .zip(after.chunks_exact(4))
        .filter(|(a, b)| a.iter().zip(b.iter()).any(|(x, y)| x.abs_diff(*y) > 8))
        .count();
    assert!(
        changed > 160 * 120 / 10,
        "the view turned: {changed} of {} pixels changed",
        160 * 120
    );
}
