//! HDR output on a real adapter (lavapipe in CI): the tonemap into an
//! `Rgba16Float` output keeps values above 1.0 where an SDR output clamps,
//! and the presets switch to HDR only when the output offers it.

mod support;

use support::hdr::{HdrSource, Rgba};
use support::{FORMAT, gpu};
use taos_renderer::features::{ACES_AT_PAPER_WHITE, TonemapFeature};
use taos_renderer::presets::{DeferredOptions, PresetOptions, deferred_preset, forward_preset};
use taos_renderer::{
    FrameData, HDR_OUTPUT_FORMAT, HdrFallback, OffscreenTarget, OutputColor, Renderer, wgpu,
};

/// One row of radiances, from dark to far beyond paper white.
const RADIANCES: [f32; 6] = [0.0, 0.18, 0.5, 1.0, 4.0, 20.0];
const WIDTH: u32 = RADIANCES.len() as u32;

fn ramp() -> Vec<Rgba> {
    RADIANCES.iter().map(|&v| [v, v * 0.5, v, 1.0]).collect()
}

/// Renders the ramp through a tonemap (exposure 1) into an output of
/// `format`; returns the renderer and its target after one frame.
fn tonemapped(format: wgpu::TextureFormat, aces: bool) -> (Renderer, OffscreenTarget) {
    let gpu = gpu();
    let target = OffscreenTarget::new(&gpu, WIDTH, 1, format).unwrap();
    let mut renderer = Renderer::new(gpu, format);
    let source = HdrSource::new(renderer.gpu(), WIDTH, 1, &ramp());
    renderer.add_feature(source);
    renderer.add_feature(TonemapFeature::new(1.0, aces));
    let mut data = FrameData {
        size: (WIDTH, 1),
        ..FrameData::default()
    };
    renderer.render(&mut data, target.texture()).unwrap();
    (renderer, target)
}

/// Half floats hold about three decimal digits.
fn assert_close(actual: f32, expected: f32, what: &str) {
    let tolerance = 2e-3 * expected.abs().max(1.0);
    assert!(
        (actual - expected).abs() <= tolerance,
        "{what}: {actual} vs {expected}"
    );
}

#[test]
fn a_float_output_keeps_linear_values_above_one_where_sdr_clamps() {
    let (renderer, hdr) = tonemapped(HDR_OUTPUT_FORMAT, false);
    assert_eq!(renderer.output_color(), OutputColor::Hdr);
    let hdr = hdr.read_rgba_f32(renderer.gpu()).unwrap();
    for (pixel, &radiance) in hdr.iter().zip(&RADIANCES) {
        // Linear (no sRGB encoding) and not clamped: the radiance itself.
        assert_close(pixel[0], radiance, "red");
        assert_close(pixel[1], radiance * 0.5, "green");
        assert_close(pixel[3], 1.0, "alpha");
    }
    assert!(hdr[4][0] > 3.9 && hdr[5][0] > 19.0, "{hdr:?}");

    let (renderer, sdr) = tonemapped(FORMAT, false);
    assert_eq!(renderer.output_color(), OutputColor::Sdr);
    let sdr = sdr.read_rgba8(renderer.gpu()).unwrap();
    let red: Vec<u8> = sdr.chunks_exact(4).map(|p| p[0]).collect();
    // 1.0, 4.0 and 20.0 all clamp to white; 0.5 is sRGB-encoded (187.5).
    assert_eq!(red[3..], [255, 255, 255]);
    assert!((187..=188).contains(&red[2]), "{red:?}");
    // Green at 4.0 (2.0) clamps too; at 20.0 it is 10 in the float output.
    assert_eq!(sdr[4 * 4 + 1], 255);
    assert!(hdr[5][1] > 9.9, "{hdr:?}");
}

#[test]
fn aces_into_a_float_output_keeps_paper_white_at_one_and_the_shoulder_above() {
    let (renderer, hdr) = tonemapped(HDR_OUTPUT_FORMAT, true);
    let hdr = hdr.read_rgba_f32(renderer.gpu()).unwrap();
    let red: Vec<f32> = hdr.iter().map(|p| p[0]).collect();
    assert_close(red[0], 0.0, "black");
    assert_close(red[3], 1.0, "paper white");
    // Above paper white, still rising, under the curve's limit
    // (2.51 / 2.43 / ACES(1), about 1.285).
    let limit = 2.51 / 2.43 / ACES_AT_PAPER_WHITE;
    assert!(red[4] > 1.1 && red[5] > red[4] && red[5] < limit, "{red:?}");
    for pair in red.windows(2) {
        assert!(pair[1] > pair[0], "monotonic: {red:?}");
    }

    // The SDR output cuts the same curve at 1.0: paper white is ACES(1) =
    // 0.80 (sRGB 231.6), 4.0 is 0.97 (sRGB 252.3), and 20.0 (1.02) clamps.
    let (renderer, sdr) = tonemapped(FORMAT, true);
    let sdr = sdr.read_rgba8(renderer.gpu()).unwrap();
    let sdr_red: Vec<u8> = sdr.chunks_exact(4).map(|p| p[0]).collect();
    assert!((231..=232).contains(&sdr_red[3]), "{sdr_red:?}");
    assert!((251..=253).contains(&sdr_red[4]), "{sdr_red:?}");
    assert_eq!(sdr_red[5], 255);
    assert_close(red[5], 1.021 / ACES_AT_PAPER_WHITE, "20.0 in HDR");
}

#[test]
fn presets_switch_to_hdr_only_when_it_is_offered() {
    let asking = PresetOptions {
        hdr_output: true,
        ..PresetOptions::default()
    };

    // A headless SDR output offers no HDR format: the preset stays SDR.
    let mut renderer = Renderer::new(gpu(), FORMAT);
    forward_preset(asking.clone())(&mut renderer);
    assert_eq!(renderer.output_format(), FORMAT);
    assert_eq!(renderer.output_color(), OutputColor::Sdr);

    // Offered (as a window with an scRGB surface does): the preset takes it
    // before setting up its features, and a frame renders into it.
    let context = gpu();
    let target = OffscreenTarget::new(&context, 16, 16, HDR_OUTPUT_FORMAT).unwrap();
    let mut renderer = Renderer::new(context, FORMAT);
    renderer.offer_hdr_output(Ok(HDR_OUTPUT_FORMAT));
    deferred_preset(DeferredOptions {
        common: asking.clone(),
        ..DeferredOptions::default()
    })(&mut renderer);
    assert_eq!(renderer.output_format(), HDR_OUTPUT_FORMAT);
    assert_eq!(renderer.output_color(), OutputColor::Hdr);
    let mut data = FrameData {
        size: (16, 16),
        ..FrameData::default()
    };
    renderer.render(&mut data, target.texture()).unwrap();

    // Not asked for: the offer is left alone.
    let mut renderer = Renderer::new(gpu(), FORMAT);
    renderer.offer_hdr_output(Ok(HDR_OUTPUT_FORMAT));
    forward_preset(PresetOptions::default())(&mut renderer);
    assert_eq!(renderer.output_format(), FORMAT);

    // Asked for after features were set up: refused, with the reason.
    let error = renderer.use_hdr_output().unwrap_err();
    assert!(
        matches!(error, HdrFallback::FeaturesAlreadySetUp { format, .. } if format == FORMAT),
        "{error}"
    );
    assert_eq!(renderer.output_format(), FORMAT);
}
