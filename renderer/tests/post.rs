//! The post effects on a real adapter (lavapipe in CI), fed known HDR
//! images (`support::hdr`) or the lit test scene through each preset.

mod support;

use glam::Vec3;
use support::hdr::{FarDepth, HdrProbe, HdrSource, Rgba, channel_sums};
use support::*;
use taos_image_compare::{Tolerance, assert_matches_golden_text, assert_matches_reference};
use taos_renderer::features::{
    BloomFeature, BloomOptions, DofFeature, DofOptions, SkyOption, TaaOptions,
};
use taos_renderer::frame::{CameraView, SunLight};
use taos_renderer::presets::{PresetOptions, forward_plus_preset, forward_preset};
use taos_renderer::{FrameData, GpuContext, OffscreenTarget, Renderer};

const SIZE: u32 = 128;

/// Registers features on a renderer (a preset, or one effect).
type Setup = Box<dyn FnOnce(&mut Renderer)>;

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
fn run_on(pixels: &[Rgba], effect: Option<Setup>, frames: usize) -> Vec<Rgba> {
    let gpu: GpuContext = gpu();
    let target = OffscreenTarget::new(&gpu, SIZE, SIZE, FORMAT).unwrap();
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

fn with_bloom(options: BloomOptions) -> Option<Setup> {
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

/// Mean red radiance of each row, over the middle half of the columns.
fn row_profile(pixels: &[Rgba]) -> Vec<f64> {
    let columns = SIZE / 4..3 * SIZE / 4;
    (0..SIZE)
        .map(|y| {
            let sum: f64 = columns
                .clone()
                .map(|x| f64::from(pixels[(y * SIZE + x) as usize][0]))
                .sum();
            sum / columns.len() as f64
        })
        .collect()
}

#[test]
fn an_out_of_focus_edge_fades_smoothly_without_bands() {
    // Bright above the middle row, black below; depth at infinity, so the
    // whole frame is in the far field at the largest blur radius.
    let mut pixels = vec![[0.0, 0.0, 0.0, 1.0]; (SIZE * SIZE) as usize];
    for pixel in &mut pixels[..(SIZE * SIZE / 2) as usize] {
        *pixel = [1.0, 1.0, 1.0, 1.0];
    }
    let dof = DofOptions {
        focus_distance: 2.0,
        aperture_f_stops: 0.01,
        max_radius: 16.0,
        ..DofOptions::default()
    };
    let effect: Setup = Box::new(move |renderer: &mut Renderer| {
        renderer.add_feature(FarDepth);
        renderer.add_feature(DofFeature::new(dof));
    });
    let profile = row_profile(&run_on(&pixels, Some(effect), 1));
    // The blur spans the 32 rows around the edge; far from it, nothing moves.
    let middle = (SIZE / 2) as usize;
    assert!(
        profile[middle - 20] > 0.98 && profile[middle + 20] < 0.02,
        "{profile:?}"
    );
    assert!(
        profile[middle - 4] < 0.9 && profile[middle + 3] > 0.1,
        "{profile:?}"
    );
    // A smooth fade: the slope changes little from row to row. The same
    // spiral of samples at every pixel made a staircase instead, one step
    // per sample row.
    let steps: Vec<f64> = profile.windows(2).map(|w| w[0] - w[1]).collect();
    let roughness = steps
        .windows(2)
        .map(|w| (w[1] - w[0]).abs())
        .fold(0.0, f64::max);
    eprintln!("largest change of slope between rows: {roughness:.4}");
    assert!(
        steps.iter().all(|&s| s > -0.01),
        "the fade goes back: {steps:?}"
    );
    assert!(roughness < 0.02, "bands: {roughness} in {steps:?}");
}

// --- Effects on the lit test scene, through the presets ---------------------

const SCENE_SIZE: (u32, u32) = (320, 180);

fn dof_camera() -> CameraView {
    camera(SCENE_SIZE)
}

/// The lit test scene under a sun, seen by `camera`; the last of two frames.
fn render_scene_with(setup: impl FnOnce(&mut Renderer), camera: CameraView) -> Vec<u8> {
    let gpu = gpu();
    let target = OffscreenTarget::new(&gpu, SCENE_SIZE.0, SCENE_SIZE.1, FORMAT).unwrap();
    let mut renderer = Renderer::new(gpu, FORMAT);
    setup(&mut renderer);
    let items = scene(&mut renderer);
    let mut data = FrameData {
        camera,
        size: SCENE_SIZE,
        ..FrameData::default()
    };
    data.lights.sun = Some(SunLight {
        direction: Vec3::new(-0.3, -1.0, -0.4).normalize(),
        color: Vec3::ONE,
        intensity: 3.0,
        cast_shadows: true,
        cascades: Default::default(),
    });
    data.buckets
        .fill(items.iter().copied(), renderer.assets(), &data.camera);
    renderer.render(&mut data, target.texture()).unwrap();
    renderer.render(&mut data, target.texture()).unwrap();
    target.read_rgba8(renderer.gpu()).unwrap()
}

/// Root-mean-square luminance step between neighbouring pixels in a square
/// of half-size `r` around `(cx, cy)`: how sharp the edges there are (a
/// blur spreads an edge's step over several pixels, which the squares
/// count for less; the plain mean would not change).
fn edge_contrast(pixels: &[u8], (cx, cy): (i32, i32), r: i32) -> f64 {
    let width = SCENE_SIZE.0 as i32;
    let luma = |x: i32, y: i32| {
        let i = ((y * width + x) * 4) as usize;
        0.2126 * f64::from(pixels[i])
            + 0.7152 * f64::from(pixels[i + 1])
            + 0.0722 * f64::from(pixels[i + 2])
    };
    let mut sum = 0.0;
    let mut count = 0.0;
    for y in cy - r..cy + r {
        for x in cx - r..cx + r {
            sum += (luma(x + 1, y) - luma(x, y)).powi(2) + (luma(x, y + 1) - luma(x, y)).powi(2);
            count += 2.0;
        }
    }
    (sum / count).sqrt()
}

/// Where a world point lands in the frame, in pixels.
fn pixel_of(camera: &CameraView, world: Vec3) -> (i32, i32) {
    let ndc = (camera.projection * camera.view).project_point3(world);
    (
        ((ndc.x * 0.5 + 0.5) * SCENE_SIZE.0 as f32) as i32,
        ((0.5 - ndc.y * 0.5) * SCENE_SIZE.1 as f32) as i32,
    )
}

fn preset_with(options: PresetOptions) -> impl FnOnce(&mut Renderer) {
    forward_preset(options)
}

#[test]
fn depth_of_field_keeps_the_focus_plane_sharp_and_blurs_the_far_field() {
    let camera = dof_camera();
    // Focus on the near row's middle ball (z = 2); the far row is at z = -3.
    let near_ball = Vec3::new(0.0, 0.6, 2.0);
    let far_box = Vec3::new(-2.5, 0.5, -3.0);
    let far_box_right = Vec3::new(2.5, 0.5, -3.0);
    let focus = near_ball.distance(camera.position);
    // A wide aperture for 180 pixels of height 8 m away (at 1080 p the
    // same blur takes an aperture six times narrower, focused at 2 m
    // another four times).
    let dof = DofOptions {
        focus_distance: focus,
        aperture_f_stops: 0.02,
        ..DofOptions::default()
    };
    let sharp = render_scene_with(preset_with(PresetOptions::default()), camera);
    let blurred = render_scene_with(
        preset_with(PresetOptions {
            dof: Some(dof),
            ..PresetOptions::default()
        }),
        camera,
    );
    let in_focus = (
        edge_contrast(&sharp, pixel_of(&camera, near_ball), 14),
        edge_contrast(&blurred, pixel_of(&camera, near_ball), 14),
    );
    eprintln!("edge contrast in focus, without and with DoF: {in_focus:?}");
    assert!(
        in_focus.1 > in_focus.0 * 0.9,
        "focus plane lost edges: {in_focus:?}"
    );
    for far in [far_box, far_box_right] {
        let at = pixel_of(&camera, far);
        let (before, after) = (edge_contrast(&sharp, at, 8), edge_contrast(&blurred, at, 8));
        eprintln!("edge contrast far at {at:?}, without and with DoF: {before} -> {after}");
        assert!(
            after < before * 0.7,
            "far field not blurred at {at:?}: {before} -> {after}"
        );
    }
    assert_matches_reference(
        &reference_dir(),
        "post_dof",
        SCENE_SIZE.0,
        SCENE_SIZE.1,
        &blurred,
        Tolerance {
            per_channel: 3,
            outlier_fraction: 0.01,
        },
    );
}

#[test]
fn bloom_through_a_preset_matches_its_reference() {
    let camera = dof_camera();
    let plain = render_scene_with(preset_with(PresetOptions::default()), camera);
    let bloomed = render_scene_with(
        preset_with(PresetOptions {
            bloom: Some(BloomOptions {
                intensity: 0.3,
                ..BloomOptions::default()
            }),
            ..PresetOptions::default()
        }),
        camera,
    );
    assert!(max_difference(&plain, &bloomed).0 > 10);
    assert_matches_reference(
        &reference_dir(),
        "post_bloom",
        SCENE_SIZE.0,
        SCENE_SIZE.1,
        &bloomed,
        Tolerance {
            per_channel: 3,
            outlier_fraction: 0.01,
        },
    );
}

/// Every post effect that exists, on.
fn every_effect() -> PresetOptions {
    PresetOptions {
        sky: SkyOption::Color(Vec3::new(0.3, 0.5, 0.8)),
        taa: Some(TaaOptions::default()),
        msaa: 4,
        dof: Some(DofOptions::default()),
        bloom: Some(BloomOptions::default()),
        ..PresetOptions::default()
    }
}

#[test]
fn forward_and_forward_plus_graphs_with_every_effect_match_their_golden_dumps() {
    let presets: [(&str, Setup); 2] = [
        (
            "forward_every_effect_graph.mmd",
            Box::new(forward_preset(every_effect())),
        ),
        (
            "forward_plus_every_effect_graph.mmd",
            Box::new(forward_plus_preset(every_effect())),
        ),
    ];
    for (golden, setup) in presets {
        let gpu = gpu();
        let target = OffscreenTarget::new(&gpu, WIDTH, HEIGHT, FORMAT).unwrap();
        let mut renderer = Renderer::new(gpu, FORMAT);
        setup(&mut renderer);
        let names: Vec<_> = renderer.feature_names().collect();
        assert_eq!(
            &names[names.len() - 5..],
            ["Taa", "Particles", "DepthOfField", "Bloom", "Tonemap"]
        );
        let items = scene(&mut renderer);
        let mut data = frame_data(&renderer, &items, 64, (WIDTH, HEIGHT));
        // A first frame, so TAA has a history; then one item moves.
        renderer.render(&mut data, target.texture()).unwrap();
        data.buckets
            .fill(with_one_moved(&items), renderer.assets(), &data.camera);
        let dump = renderer
            .dump_graph(&mut data, target.texture(), false)
            .unwrap();
        assert_matches_golden_text(&reference_dir(), golden, &dump);
        // And it runs.
        renderer.render(&mut data, target.texture()).unwrap();
    }
}
