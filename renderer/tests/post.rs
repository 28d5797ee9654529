//! The post effects on a real adapter (lavapipe in CI), fed known HDR
//! images (`support::hdr`) or the lit test scene through each preset.

mod support;

use support::hdr::{HdrProbe, HdrSource, Rgba, channel_sums};
use support::*;
use taos_renderer::features::{BloomFeature, BloomOptions};
use taos_renderer::{FrameData, GpuContext, Renderer};

const SIZE: u32 = 128;

/// Black, with a 4 x 4 block of radiance 50 in the middle.
fn bright_spot() -> Vec<Rgba> {
    let mut pixels = vec![[0.0, 0.0, 0.0, 1.0]; (SIZE * SIZE) as usize];
    for y in 62..66 {
        for x in 62..66 {
            pixels[(y * SIZE + x) as usize] = [50.0, 40.0, 30.0, 1.0];
        }
    }
    pixels
}

/// Runs `source`, then `effect` (if any), then a probe, for `frames` frames;
/// returns what the probe saw last.
fn run_on(
    pixels: &[Rgba],
    effect: Option<Box<dyn FnOnce(&mut Renderer)>>,
    frames: usize,
) -> Vec<Rgba> {
    let gpu: GpuContext = gpu();
    let target = taos_renderer::OffscreenTarget::new(&gpu, SIZE, SIZE, FORMAT).unwrap();
    let mut renderer = Renderer::new(gpu, FORMAT);
    let source = HdrSource::new(renderer.gpu(), SIZE, SIZE, pixels);
    renderer.add_feature(source);
    if let Some(effect) = effect {
        effect(&mut renderer);
    }
    let probe = HdrProbe::new(renderer.gpu(), SIZE, SIZE);
    renderer.add_feature(probe);
    let mut data = FrameData {
        size: (SIZE, SIZE),
        ..FrameData::default()
    };
    for _ in 0..frames {
        renderer.render(&mut data, target.texture()).unwrap();
    }
    let probe: &HdrProbe = renderer.feature().unwrap();
    probe.read(renderer.gpu())
}

fn with_bloom(options: BloomOptions) -> Option<Box<dyn FnOnce(&mut Renderer)>> {
    Some(Box::new(move |renderer: &mut Renderer| {
        renderer.add_feature(BloomFeature::new(options));
    }))
}

#[test]
fn bloom_at_intensity_zero_leaves_the_frame_untouched() {
    let spot = bright_spot();
    let plain = run_on(&spot, None, 1);
    let zero = run_on(
        &spot,
        with_bloom(BloomOptions {
            intensity: 0.0,
            ..BloomOptions::default()
        }),
        1,
    );
    assert_eq!(plain, zero);
}

#[test]
fn bloom_spreads_a_bright_spot_and_keeps_its_energy() {
    let spot = bright_spot();
    let before = run_on(&spot, None, 1);
    let after = run_on(
        &spot,
        with_bloom(BloomOptions {
            intensity: 0.3,
            ..BloomOptions::default()
        }),
        1,
    );
    let at = |pixels: &[Rgba], x: u32, y: u32| pixels[(y * SIZE + x) as usize];
    // Dark before, lit after: 6 and 20 pixels from the spot's edge.
    for (x, y) in [(71, 64), (64, 85), (45, 45)] {
        assert_eq!(at(&before, x, y)[0], 0.0);
        assert!(
            at(&after, x, y)[0] > 1e-3,
            "({x}, {y}): {:?}",
            at(&after, x, y)
        );
    }
    // The spot gave up about the intensity's share.
    let centre = at(&after, 63, 63)[0];
    assert!(centre < 50.0 * 0.8 && centre > 50.0 * 0.6, "{centre}");
    // The glow falls off with distance.
    assert!(at(&after, 70, 64)[0] > at(&after, 80, 64)[0]);
    assert!(at(&after, 80, 64)[0] > at(&after, 100, 64)[0]);
    // Energy moves but is neither made nor lost.
    let (sum_before, sum_after) = (channel_sums(&before), channel_sums(&after));
    for c in 0..3 {
        let ratio = sum_after[c] / sum_before[c];
        assert!(
            (ratio - 1.0).abs() < ENERGY_TOLERANCE,
            "channel {c}: {ratio}"
        );
    }
}

/// How far bloom's total energy may drift: half floats round every level
/// and the composite.
const ENERGY_TOLERANCE: f64 = 0.02;

#[test]
fn a_bloom_threshold_keeps_dim_light_out_of_the_glow() {
    let spot = bright_spot();
    let mut banded = spot.clone();
    // A dim wide band at the top: under the threshold.
    for pixel in &mut banded[..(SIZE * 16) as usize] {
        *pixel = [0.5, 0.5, 0.5, 1.0];
    }
    let options = BloomOptions {
        intensity: 0.3,
        threshold: 2.0,
        knee: 0.5,
        ..BloomOptions::default()
    };
    let with_band = run_on(&banded, with_bloom(options), 1);
    let without = run_on(&spot, with_bloom(options), 1);
    let at = |pixels: &[Rgba], x: u32, y: u32| pixels[(y * SIZE + x) as usize];
    // Below the band, where its glow would reach, only the spot's is.
    for y in [18, 24, 30] {
        let (a, b) = (at(&with_band, 64, y), at(&without, 64, y));
        assert!((a[1] - b[1]).abs() < 1e-4, "row {y}: {a:?} vs {b:?}");
    }
    // Without the threshold the band does glow there.
    let unthresholded = run_on(
        &banded,
        with_bloom(BloomOptions {
            threshold: 0.0,
            ..options
        }),
        1,
    );
    assert!(at(&unthresholded, 64, 24)[1] > at(&without, 64, 24)[1] + 1e-2);
    // The spot still glows.
    assert!(at(&with_band, 71, 64)[0] > 1e-3);
}
