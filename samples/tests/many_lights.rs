//! `many_lights` as an image test: 256 drifting lights through the
//! forward-plus preset, compared with a reference PNG and with the forward
//! and deferred presets' pictures of the same frame.

use std::path::Path;

use taos_engine::{Engine, EngineConfig};
use taos_image_compare::{Tolerance, assert_matches_reference};
use taos_samples::{LightsPreset, ManyLightsOptions, many_lights};

const SIZE: (u32, u32) = (192, 108);

fn render(preset: LightsPreset, lights: u32) -> Vec<u8> {
    let options = ManyLightsOptions {
        preset,
        lights,
        spots: true,
    };
    let mut engine = Engine::headless(EngineConfig::new(SIZE.0, SIZE.1), options.renderer_preset())
        .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    many_lights(&mut engine, options).unwrap();
    // A few frames: the lights drift from their homes (manual clock, so
    // every run sees the same positions).
    for _ in 0..3 {
        let stats = engine.frame().unwrap();
        assert_eq!(stats.lights, lights);
        assert_eq!((stats.lights_dropped, stats.light_tiles_overflowed), (0, 0));
    }
    engine.read_pixels().unwrap()
}

#[test]
fn many_lights_matches_its_reference_and_the_forward_preset() {
    let plus = render(LightsPreset::ForwardPlus, 256);
    let forward = render(LightsPreset::Forward, 256);
    let worst = |a: &[u8], b: &[u8]| a.iter().zip(b).map(|(a, b)| a.abs_diff(*b)).max();
    // Same lights, same BRDF; only the order of summation differs.
    let difference = worst(&plus, &forward);
    assert!(
        difference <= Some(2),
        "forward-plus differs from forward by {difference:?}"
    );
    // Deferred also rebuilds positions from depth and quantises albedo and
    // normals in its G-buffer: one step more.
    for preset in [LightsPreset::Deferred, LightsPreset::DeferredVolumes] {
        let difference = worst(&render(preset, 256), &forward);
        assert!(
            difference <= Some(3),
            "{preset:?} differs from forward by {difference:?}"
        );
    }
    // Lavapipe made the reference; other drivers differ on silhouettes.
    let tolerance = Tolerance {
        per_channel: 3,
        outlier_fraction: 0.02,
    };
    let reference = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference");
    assert_matches_reference(&reference, "many_lights", SIZE.0, SIZE.1, &plus, tolerance);
}

#[test]
fn many_lights_arguments() {
    let parse = |list: &[&str]| ManyLightsOptions::parse(list.iter().map(|s| (*s).to_owned()));
    let (args, options) = parse(&["--preset", "forward", "--lights", "64", "--headless"]).unwrap();
    assert!(args.headless);
    assert_eq!(
        options,
        ManyLightsOptions {
            preset: LightsPreset::Forward,
            lights: 64,
            spots: true,
        }
    );
    assert!(!parse(&["--no-spots"]).unwrap().1.spots);
    assert_eq!(parse(&[]).unwrap().1, ManyLightsOptions::default());
    assert_eq!(
        parse(&["--preset", "deferred-volumes"]).unwrap().1.preset,
        LightsPreset::DeferredVolumes
    );
    assert!(parse(&["--preset", "backwards"]).is_err());
    assert!(parse(&["--lights", "many"]).is_err());
}
