//! `audio` as an image test, and its offline mix: audible, both channels, the
//! length asked for.

use std::path::Path;

use taos_engine::renderer::presets::{PresetOptions, forward_preset};
use taos_engine::{Engine, EngineConfig};
use taos_image_compare::{Tolerance, assert_matches_reference};
use taos_samples::{audio_scene, mix_to_wav};

fn engine() -> Engine {
    let mut engine = Engine::headless(
        EngineConfig::new(160, 120),
        forward_preset(PresetOptions::default()),
    )
    .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    audio_scene(&mut engine).unwrap();
    engine
}

#[test]
fn audio_matches_its_reference() {
    let mut engine = engine();
    for _ in 0..30 {
        engine.frame().unwrap();
    }
    let pixels = engine.read_pixels().unwrap();
    let tolerance = Tolerance {
        per_channel: 3,
        outlier_fraction: 0.02,
    };
    let reference = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference");
    assert_matches_reference(&reference, "audio", 160, 120, &pixels, tolerance);
}

#[test]
fn the_offline_mix_is_a_stereo_wav_of_the_asked_length() {
    let mut engine = engine();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mix.wav");
    let levels = mix_to_wav(&mut engine, &path, 2.0).unwrap();
    assert_eq!(levels.len(), 2);
    for (left, right) in &levels {
        assert!(*left > 0.005 && *right > 0.005, "audible: {levels:?}");
    }
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(&bytes[..4], b"RIFF");
    assert_eq!(bytes.len(), 44 + 2 * 44_100 * 4);
}
