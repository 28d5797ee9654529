//! Every sample whose scene is built in code, through a scene file: saved,
//! emptied and loaded back, it saves the same text again and renders the
//! same image as before (headless, lavapipe in CI). Each sample's file is
//! kept in `tests/reference/NAME.scene.json`, so a change to a sample's
//! scene shows as a diff. `forward_simple` and `deferred_showcase` check
//! the same against their reference images in their own tests; the
//! editor's level is a file already.

use taos_engine::renderer::Renderer;
use taos_engine::renderer::presets::{PresetOptions, forward_preset};
use taos_engine::scene_file::{SceneTypes, save_scene};
use taos_engine::{Engine, EngineConfig, scene_types};
use taos_image_compare::assert_matches_golden_text;

const SIZE: (u32, u32) = (128, 96);

fn round_trip(
    name: &str,
    preset: impl FnOnce(&mut Renderer),
    setup: impl FnOnce(&mut Engine) -> anyhow::Result<()>,
    types: &SceneTypes,
) {
    let mut engine = Engine::headless(EngineConfig::new(SIZE.0, SIZE.1), preset)
        .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    setup(&mut engine).unwrap();
    engine.frame().unwrap();
    engine.present().unwrap();
    let before = engine.read_pixels().unwrap();
    let text = taos_samples::reload_through_scene_file(&mut engine, types)
        .unwrap_or_else(|e| panic!("{name}: {e:#}"));
    assert_eq!(
        save_scene(engine.scene(), types).unwrap().text,
        text,
        "{name}"
    );
    // The sample's scene as a file to read and diff.
    let reference = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference");
    assert_matches_golden_text(&reference, &format!("{name}.scene.json"), &text);
    // Drawn as it is (no tick): nothing moves between the two renderings
    // but the trip through the file.
    engine.present().unwrap();
    engine.present().unwrap();
    let after = engine.read_pixels().unwrap();
    // The same renderer draws the same scene: a few pixels may differ by a
    // step where objects are drawn in another order.
    let outliers = before
        .chunks_exact(4)
        .zip(after.chunks_exact(4))
        .filter(|(a, b)| a.iter().zip(b.iter()).any(|(x, y)| x.abs_diff(*y) > 2))
        .count();
    let allowed = (SIZE.0 * SIZE.1) as usize / 500;
    if outliers > allowed {
        for (label, pixels) in [("before", &before), ("after", &after)] {
            let path = std::env::temp_dir().join(format!("{name}.{label}.png"));
            let _ = image::save_buffer(
                &path,
                pixels,
                SIZE.0,
                SIZE.1,
                image::ExtendedColorType::Rgba8,
            );
        }
    }
    assert!(
        outliers <= allowed,
        "{name} renders differently after its scene file: {outliers} pixels (allowed {allowed})"
    );
}

#[test]
fn many_lights_round_trips() {
    let options = taos_samples::ManyLightsOptions::default();
    round_trip(
        "many_lights",
        options.renderer_preset(),
        |engine| taos_samples::many_lights(engine, options),
        &scene_types(),
    );
}

#[test]
fn controllers_round_trips() {
    round_trip(
        "controllers",
        forward_preset(PresetOptions::default()),
        taos_samples::controllers,
        &scene_types(),
    );
}

#[test]
fn audio_round_trips() {
    round_trip(
        "audio",
        forward_preset(PresetOptions::default()),
        taos_samples::audio_scene,
        &scene_types(),
    );
}

#[test]
fn physics_round_trips() {
    round_trip(
        "physics",
        forward_preset(PresetOptions::default()),
        taos_samples::physics,
        &scene_types(),
    );
}

#[test]
fn shooter_round_trips() {
    round_trip(
        "shooter",
        taos_samples::shooter_preset(),
        taos_samples::shooter,
        &scene_types(),
    );
}
