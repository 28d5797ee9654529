//! `forward_simple` as an image test, rendered headless on a real adapter.

use std::path::Path;

use taos_engine::scene_file::{SceneTypes, load_scene, save_scene};
use taos_engine::{Engine, EngineConfig};
use taos_image_compare::{Tolerance, assert_matches_golden_text, assert_matches_reference};

#[test]
fn forward_simple_matches_its_reference() {
    let preset = taos_samples::forward_simple_preset();
    let mut engine = Engine::headless(EngineConfig::new(160, 120), preset)
        .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    taos_samples::forward_simple(&mut engine).unwrap();
    let stats = engine.frame().unwrap();
    assert_eq!(
        (stats.passes, stats.culled),
        (4, 0),
        "shadow, sky, forward lit, tonemap"
    );
    engine.frame().unwrap();
    let pixels = engine.read_pixels().unwrap();
    // Lavapipe made the reference. Drivers differ on silhouette pixels and on
    // the precision of pow/sqrt in the BRDF: 3 steps per channel, and 2% of
    // pixels (about the sphere's outline) beyond that.
    let tolerance = Tolerance {
        per_channel: 3,
        outlier_fraction: 0.02,
    };
    let reference = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference");
    assert_matches_reference(&reference, "forward_simple", 160, 120, &pixels, tolerance);
}

/// The sample's scene saved to a scene file, emptied, loaded back from the
/// file: the same image as the reference, and saving again gives the same
/// text (`samples/tests/reference/forward_simple.scene.json` holds it, so
/// a change to the format shows in review).
#[test]
fn forward_simple_round_trips_through_a_scene_file() {
    let preset = taos_samples::forward_simple_preset();
    let mut engine = Engine::headless(EngineConfig::new(160, 120), preset)
        .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    taos_samples::forward_simple(&mut engine).unwrap();
    let types = SceneTypes::default();
    let saved = save_scene(engine.scene(), &types).unwrap();
    assert!(saved.skipped.is_empty());
    let reference = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference");
    assert_matches_golden_text(&reference, "forward_simple.scene.json", &saved.text);

    let scene = engine.scene_mut();
    for root in scene.roots() {
        scene.remove(root).unwrap();
    }
    assert!(scene.is_empty());
    let loaded = load_scene(
        scene,
        &saved.text,
        "forward_simple.scene.json",
        &types,
        None,
    )
    .unwrap();
    assert_eq!(loaded.objects.len(), 3);
    assert_eq!(save_scene(engine.scene(), &types).unwrap().text, saved.text);

    engine.frame().unwrap();
    engine.frame().unwrap();
    let pixels = engine.read_pixels().unwrap();
    let tolerance = Tolerance {
        per_channel: 3,
        outlier_fraction: 0.02,
    };
    assert_matches_reference(&reference, "forward_simple", 160, 120, &pixels, tolerance);
}

/// A click on the sphere selects it; a click on the sky selects nothing.
#[test]
fn a_click_picks_the_sphere() {
    let preset = taos_samples::forward_simple_preset();
    let mut engine = Engine::headless(EngineConfig::new(160, 120), preset)
        .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    taos_samples::forward_simple(&mut engine).unwrap();
    engine.frame().unwrap();
    assert_eq!(engine.output_size(), (160, 120));
    let hit = engine
        .pick(glam::Vec2::new(80.0, 65.0))
        .expect("the sphere");
    assert_eq!(engine.scene().name(hit.object), Some("Sphere"));
    assert!(engine.pick(glam::Vec2::new(2.0, 2.0)).is_none());
}

#[test]
fn sample_arguments_are_parsed_and_bad_ones_refused() {
    use taos_samples::SampleArgs;
    let args = |list: &[&str]| SampleArgs::parse(list.iter().map(|s| (*s).to_owned()));
    let parsed = args(&[
        "--headless",
        "--frames",
        "4",
        "--screenshot",
        "a.png",
        "--size",
        "64x32",
    ])
    .unwrap();
    assert!(parsed.headless);
    assert_eq!((parsed.frames, parsed.size), (4, (64, 32)));
    assert!(args(&["--frames"]).is_err());
    assert!(args(&["--size", "0x10"]).is_err());
    assert!(
        args(&["--bogus"])
            .unwrap_err()
            .to_string()
            .contains("--bogus")
    );
}
