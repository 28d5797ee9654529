//! `physics` as an image test, and its behaviour: the crate stack settles,
//! the trigger counts the balls, and two headless runs agree bit for bit.

use std::path::Path;

use taos_engine::physics::Physics;
use taos_engine::prelude::*;
use taos_engine::renderer::presets::{PresetOptions, forward_preset};
use taos_engine::{Engine, EngineConfig};
use taos_image_compare::{Tolerance, assert_matches_golden_text, assert_matches_reference};
use taos_samples::{
    ARM, BALLS, PHYSICS_HZ, PIVOT, TriggerCount, physics, physics_checksum, physics_loop,
};

fn engine() -> Engine {
    let config = EngineConfig {
        loop_config: physics_loop(),
        ..EngineConfig::new(160, 120)
    };
    let mut engine = Engine::headless(config, forward_preset(PresetOptions::default()))
        .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    physics(&mut engine).unwrap();
    engine
}

/// Runs `ticks` fixed ticks (one per headless frame).
fn run(engine: &mut Engine, ticks: u32) {
    for _ in 0..ticks {
        engine.frame().unwrap();
    }
}

/// Every object's name and world matrix, sorted by name.
fn poses(engine: &mut Engine) -> Vec<(String, [f32; 12])> {
    let mut found = Vec::new();
    engine
        .scene_mut()
        .for_each_world_matrix(|object, matrix| found.push((object, matrix.to_cols_array())));
    let scene = engine.scene();
    let mut named: Vec<(String, [f32; 12])> = found
        .into_iter()
        .map(|(object, m)| (scene.name(object).unwrap_or("").to_owned(), m))
        .collect();
    named.sort_by(|a, b| a.0.cmp(&b.0));
    named
}

/// The objects whose names start with `prefix`.
fn named(engine: &mut Engine, prefix: &str) -> Vec<GameObject> {
    let mut found = Vec::new();
    engine
        .scene_mut()
        .for_each_world_matrix(|object, _| found.push(object));
    let scene = engine.scene();
    found
        .into_iter()
        .filter(|&o| scene.name(o).is_some_and(|n| n.starts_with(prefix)))
        .collect()
}

#[test]
fn physics_matches_its_reference_after_three_seconds() {
    let mut engine = engine();
    run(&mut engine, 3 * PHYSICS_HZ);
    let pixels = engine.read_pixels().unwrap();
    let tolerance = Tolerance {
        per_channel: 3,
        outlier_fraction: 0.02,
    };
    let reference = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference");
    assert_matches_reference(&reference, "physics", 160, 120, &pixels, tolerance);
}

#[test]
fn the_stack_settles_and_the_trigger_counts_every_ball() {
    let mut engine = engine();
    run(&mut engine, 5 * PHYSICS_HZ);
    let crates = named(&mut engine, "Crate ");
    assert_eq!(crates.len(), 6);
    let scene = engine.scene();
    let physics = scene.world().resource::<Physics>();
    for &object in &crates {
        let at = scene.world_position(object).unwrap();
        assert!(at.y > 0.45, "above the ground: {at}");
        let speed = physics.linear_velocity(object).unwrap().length();
        assert!(speed < 0.05, "at rest after 5 s: {speed} m/s at {at}");
    }
    let count = scene.world().resource::<TriggerCount>().count();
    assert_eq!(count, BALLS, "every ball rolled through the zone");
    let balls = named(&mut engine, "Ball ");
    let scene = engine.scene();
    for &ball in &balls {
        let at = scene.world_position(ball).unwrap();
        assert!(at.x < -1.0, "past the zone: {at}");
    }
}

#[test]
fn the_ball_swings_on_its_hinge_through_the_bottom_and_back() {
    let mut engine = engine();
    let ball = named(&mut engine, "Swinging ball")[0];
    let start = engine.scene().world_position(ball).unwrap();
    let (mut crossed, mut back) = (false, false);
    // A 2.5 m pendulum's period is about 3.2 s.
    for _ in 0..4 * PHYSICS_HZ {
        run(&mut engine, 1);
        let at = engine.scene().world_position(ball).unwrap();
        let arm = (at - PIVOT).length();
        assert!((arm - ARM).abs() < 0.02, "held {arm} m from the pivot");
        assert!((at.z - PIVOT.z).abs() < 1e-3, "in the hinge's plane: {at}");
        crossed |= at.x < PIVOT.x - 0.5;
        back |= crossed && at.x > PIVOT.x + 0.5;
    }
    assert!(
        start.x > PIVOT.x + 1.0 && crossed && back,
        "it swings both ways"
    );
}

#[test]
fn two_headless_runs_give_identical_transforms() {
    let mut first = engine();
    let mut second = engine();
    run(&mut first, 3 * PHYSICS_HZ);
    run(&mut second, 3 * PHYSICS_HZ);
    let (a, b) = (poses(&mut first), poses(&mut second));
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x.0, y.0);
        let bits = |m: &[f32; 12]| m.map(f32::to_bits);
        assert_eq!(bits(&x.1), bits(&y.1), "{} differs", x.0);
    }
}

/// The determinism run gives the checksum recorded in the reference folder,
/// the number the browser build must also print (`crafty/web/tests/browser.py`
/// compares them). A change to the physics, the scene or the checksum's
/// inputs changes it: rerun with `TAOS_UPDATE_REFERENCES=1` when on purpose.
#[test]
fn the_determinism_run_gives_the_recorded_checksum() {
    let checksum = physics_checksum().unwrap();
    let reference = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference");
    assert_matches_golden_text(
        &reference,
        "physics_checksum.txt",
        &format!("{checksum:#018x}\n"),
    );
}
