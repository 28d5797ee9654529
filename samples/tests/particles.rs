//! The `particles` sample as an image test, in each preset: the six
//! emitters and the two decals after a second of play (manual clock),
//! compared with a reference PNG.

use std::path::Path;

use taos_engine::{Engine, EngineConfig};
use taos_image_compare::{Tolerance, assert_matches_reference};
use taos_samples::{ParticlesOptions, ParticlesPreset, particles};

const SIZE: (u32, u32) = (192, 120);

#[test]
fn the_particles_sample_matches_its_references() {
    let reference = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference");
    for (preset, name) in [
        (ParticlesPreset::Forward, "particles_forward"),
        (ParticlesPreset::ForwardPlus, "particles_forward_plus"),
        (ParticlesPreset::Deferred, "particles_deferred"),
    ] {
        let options = ParticlesOptions {
            preset,
            ..ParticlesOptions::default()
        };
        let mut engine =
            Engine::headless(EngineConfig::new(SIZE.0, SIZE.1), options.renderer_preset())
                .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
        particles(&mut engine, options).unwrap();
        let mut stats = Default::default();
        for _ in 0..60 {
            stats = engine.frame().unwrap();
        }
        assert_eq!(stats.particle_emitters, 6, "{name}");
        assert!(stats.particles > 500, "{name}: {} alive", stats.particles);
        let pixels = engine.read_pixels().unwrap();
        // Lavapipe made the references; drivers differ on edges and sums.
        let tolerance = Tolerance {
            per_channel: 16,
            outlier_fraction: 0.02,
        };
        assert_matches_reference(&reference, name, SIZE.0, SIZE.1, &pixels, tolerance);
    }
}
