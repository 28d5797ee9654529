//! `deferred_showcase` as an image test, rendered headless on a real adapter.

use std::path::Path;

use taos_engine::scene_file::{SceneTypes, save_scene};
use taos_engine::{Engine, EngineConfig};
use taos_image_compare::{Tolerance, assert_matches_reference};

/// A headless engine with the showcase in it.
fn showcase() -> Engine {
    let preset = taos_samples::deferred_showcase_preset();
    let mut engine = Engine::headless(EngineConfig::new(160, 120), preset)
        .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    taos_samples::deferred_showcase(&mut engine).unwrap();
    engine
}

/// Renders two frames (four lights each) and compares the second with the
/// reference image.
fn assert_renders_its_reference(engine: &mut Engine) {
    engine.frame().unwrap();
    let stats = engine.frame().unwrap();
    assert_eq!(stats.lights, 4);
    assert_eq!(stats.culled, 0);
    let pixels = engine.read_pixels().unwrap();
    // Lavapipe made the reference; other drivers differ on silhouettes and
    // on the precision of pow/sqrt: 3 steps per channel, 2% of pixels.
    let tolerance = Tolerance {
        per_channel: 3,
        outlier_fraction: 0.02,
    };
    let reference = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference");
    assert_matches_reference(
        &reference,
        "deferred_showcase",
        160,
        120,
        &pixels,
        tolerance,
    );
}

#[test]
fn deferred_showcase_matches_its_reference() {
    assert_renders_its_reference(&mut showcase());
}

/// The showcase saved to a scene file, emptied and loaded back renders its
/// reference image, and saves the same text again.
#[test]
fn deferred_showcase_round_trips_through_a_scene_file() {
    let mut engine = showcase();
    let types = SceneTypes::default();
    let text = taos_samples::reload_through_scene_file(&mut engine, &types).unwrap();
    assert_eq!(save_scene(engine.scene(), &types).unwrap().text, text);
    assert_renders_its_reference(&mut engine);
}
