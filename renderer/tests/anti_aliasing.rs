//! Anti-aliasing on a real adapter (lavapipe in CI). Temporal: convergence
//! on a static scene, edge aliasing against a supersampled ground truth,
//! the trail a moving object leaves, and the history's resets.
//! Multisampled: edges with intermediate coverage through the forward and
//! forward-plus presets, over the sky, with TAA too.

mod support;

use glam::{Affine3A, Quat, Vec3};
use support::{FORMAT, gpu, reference_dir};
use taos_image_compare::{Tolerance, assert_matches_reference};
use taos_renderer::features::{SkyOption, TaaFeature, TaaOptions, supported_msaa_samples};
use taos_renderer::frame::{CameraView, DrawItem, MovingDraw};
use taos_renderer::presets::{PresetOptions, forward_plus_preset, forward_preset};
use taos_renderer::resources::{MaterialId, MeshData, MeshId, PbrMaterial};
use taos_renderer::{FrameData, OffscreenTarget, Renderer};

const SIZE: (u32, u32) = (160, 120);
const BACKGROUND: Vec3 = Vec3::new(0.02, 0.03, 0.05);

fn camera(size: (u32, u32)) -> CameraView {
    let eye = Vec3::new(0.0, 0.0, 6.0);
    CameraView {
        view: glam::camera::rh::view::look_at_mat4(eye, Vec3::ZERO, Vec3::Y),
        projection: glam::camera::rh::proj::directx::perspective(
            50f32.to_radians(),
            size.0 as f32 / size.1 as f32,
            0.1,
            60.0,
        ),
        position: eye,
        forward: Vec3::NEG_Z,
        near: 0.1,
        far: 60.0,
    }
}

fn options(taa: Option<TaaOptions>) -> PresetOptions {
    PresetOptions {
        sky: SkyOption::Color(BACKGROUND),
        shadow: None,
        aces: false,
        taa,
        ..PresetOptions::default()
    }
}

fn msaa(samples: u32) -> PresetOptions {
    PresetOptions {
        msaa: samples,
        ..options(None)
    }
}

/// A renderer, an offscreen target and the frame data it renders.
struct Harness {
    renderer: Renderer,
    target: OffscreenTarget,
    data: FrameData,
    cube: MeshId,
    glow: MaterialId,
}

impl Harness {
    fn new(size: (u32, u32), taa: Option<TaaOptions>) -> Self {
        Self::with(size, forward_preset(options(taa)))
    }

    fn with(size: (u32, u32), setup: impl FnOnce(&mut Renderer)) -> Self {
        let gpu = gpu();
        let target = OffscreenTarget::new(&gpu, size.0, size.1, FORMAT).unwrap();
        let mut renderer = Renderer::new(gpu, FORMAT);
        setup(&mut renderer);
        let (assets, gpu) = renderer.assets_mut();
        let cube = assets.add_mesh(gpu, "cube", &MeshData::cube(1.0));
        let glow = assets.add_material(PbrMaterial {
            emissive: Vec3::splat(0.8),
            ..PbrMaterial::color(Vec3::ZERO)
        });
        let data = FrameData {
            camera: camera(size),
            size,
            ..FrameData::default()
        };
        Self {
            renderer,
            target,
            data,
            cube,
            glow,
        }
    }

    /// Draws `items` this frame and returns the output (sRGB bytes).
    fn frame(&mut self, items: &[MovingDraw]) -> Vec<u8> {
        self.data.buckets.fill(
            items.iter().copied(),
            self.renderer.assets(),
            &self.data.camera,
        );
        self.data.time.frame += 1;
        self.renderer
            .render(&mut self.data, self.target.texture())
            .unwrap();
        self.target.read_rgba8(self.renderer.gpu()).unwrap()
    }

    fn item(&self, world: Affine3A) -> DrawItem {
        DrawItem {
            mesh: self.cube,
            material: self.glow,
            world,
            cast_shadows: false,
        }
    }

    /// Thin glowing bars at several angles: the worst case for aliasing.
    fn thin_bars(&self) -> Vec<MovingDraw> {
        let bars = [
            (-2.4, 4.0),
            (-1.5, 17.0),
            (-0.6, 33.0),
            (0.4, 52.0),
            (1.4, 71.0),
            (2.3, 86.0),
        ];
        bars.iter()
            .map(|&(x, degrees)| {
                let world = Affine3A::from_scale_rotation_translation(
                    Vec3::new(0.025, 4.0, 0.025),
                    Quat::from_rotation_z(f32::to_radians(degrees)),
                    Vec3::new(x, 0.0, 0.0),
                );
                MovingDraw::from(self.item(world))
            })
            .collect()
    }
}

fn srgb_to_linear(byte: u8) -> f64 {
    let c = f64::from(byte) / 255.0;
    if c <= 0.040_45 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// Linear luminance per pixel.
fn luminance(pixels: &[u8]) -> Vec<f64> {
    pixels
        .chunks_exact(4)
        .map(|p| {
            0.2126 * srgb_to_linear(p[0])
                + 0.7152 * srgb_to_linear(p[1])
                + 0.0722 * srgb_to_linear(p[2])
        })
        .collect()
}

/// Mean absolute difference per channel, in 0..255 steps.
fn mean_difference(a: &[u8], b: &[u8]) -> f64 {
    let sum: u64 = a
        .iter()
        .zip(b)
        .map(|(x, y)| u64::from(x.abs_diff(*y)))
        .sum();
    sum as f64 / a.len() as f64
}

/// Box-filters a `factor` times larger luminance image down to `size`.
fn downsample(large: &[f64], size: (u32, u32), factor: u32) -> Vec<f64> {
    let (w, h) = (size.0 as usize, size.1 as usize);
    let f = factor as usize;
    let mut small = vec![0.0; w * h];
    for y in 0..h * f {
        for x in 0..w * f {
            small[(y / f) * w + x / f] += large[y * w * f + x];
        }
    }
    small.iter().map(|v| v / (f * f) as f64).collect()
}

/// Mean absolute luminance error against `truth`, and the share of pixels
/// more than 0.05 off.
fn error_against(truth: &[f64], image: &[f64]) -> (f64, f64) {
    let errors: Vec<f64> = truth
        .iter()
        .zip(image)
        .map(|(t, i)| (t - i).abs())
        .collect();
    let mean = errors.iter().sum::<f64>() / errors.len() as f64;
    let bad = errors.iter().filter(|e| **e > 0.05).count() as f64 / errors.len() as f64;
    (mean, bad)
}

#[test]
fn a_static_scene_converges_within_sixteen_frames() {
    let mut taa = Harness::new(SIZE, Some(TaaOptions::default()));
    let bars = taa.thin_bars();
    let frames: Vec<Vec<u8>> = (0..20).map(|_| taa.frame(&bars)).collect();
    let steps: Vec<f64> = frames
        .windows(2)
        .map(|pair| mean_difference(&pair[0], &pair[1]))
        .collect();
    eprintln!("mean change between consecutive frames (0..255): {steps:.3?}");
    // Without TAA the jittered frames would differ by the first step every
    // frame; with it the change dies down as the history fills.
    assert!(steps[0] > 1.0, "the jitter moves nothing: {steps:?}");
    // By frame 16 the change is a tenth of the first (measured: 1.36 ->
    // 0.13 steps of 255 on average), and what is left sits on the bars'
    // edges: 2.4% of channels change by more than 2 steps.
    assert!(
        steps[15] < 0.2 && steps[15] < steps[0] * 0.15,
        "no convergence by frame 16: {steps:?}"
    );
    let (a, b) = (&frames[16], &frames[17]);
    let changed = a
        .iter()
        .zip(b.iter())
        .filter(|(x, y)| x.abs_diff(**y) > 2)
        .count();
    let share = changed as f64 / a.len() as f64;
    eprintln!("share of channels changing by more than 2 steps at frame 17: {share:.4}");
    assert!(share < 0.04, "{share}");
    assert_matches_reference(
        &reference_dir(),
        "post_taa",
        SIZE.0,
        SIZE.1,
        &frames[16],
        Tolerance {
            per_channel: 4,
            outlier_fraction: 0.01,
        },
    );
}

#[test]
fn thin_geometry_aliases_less_than_without_anti_aliasing() {
    const FACTOR: u32 = 4;
    let large = (SIZE.0 * FACTOR, SIZE.1 * FACTOR);
    let mut truth = Harness::new(large, None);
    let bars = truth.thin_bars();
    let truth = downsample(&luminance(&truth.frame(&bars)), SIZE, FACTOR);
    let mut plain = Harness::new(SIZE, None);
    let no_aa = luminance(&plain.frame(&bars));
    let mut taa = Harness::new(SIZE, Some(TaaOptions::default()));
    let mut resolved = Vec::new();
    for _ in 0..24 {
        resolved = taa.frame(&bars);
    }
    let resolved = luminance(&resolved);
    let (no_aa_error, taa_error) = (
        error_against(&truth, &no_aa),
        error_against(&truth, &resolved),
    );
    eprintln!(
        "against 16x supersampling: no AA mean {:.4}, {:.2}% pixels off by > 0.05; \
         TAA mean {:.4}, {:.2}% off",
        no_aa_error.0,
        no_aa_error.1 * 100.0,
        taa_error.0,
        taa_error.1 * 100.0
    );
    assert!(
        taa_error.0 < no_aa_error.0 * 0.6,
        "TAA {taa_error:?} vs no AA {no_aa_error:?}"
    );
    assert!(
        taa_error.1 < no_aa_error.1 * 0.5,
        "TAA {taa_error:?} vs no AA {no_aa_error:?}"
    );
}

/// A glowing block moving right by `step` metres a frame, at frame `frame`.
fn block(harness: &Harness, frame: u32, step: f32, motion_vectors: bool) -> MovingDraw {
    let at = |frame: u32| {
        Affine3A::from_scale_rotation_translation(
            Vec3::new(0.6, 1.2, 0.6),
            Quat::IDENTITY,
            Vec3::new(-2.5 + step * frame as f32, 0.0, 0.0),
        )
    };
    MovingDraw {
        item: harness.item(at(frame)),
        previous_world: if motion_vectors {
            at(frame.saturating_sub(1))
        } else {
            at(frame)
        },
    }
}

/// How far, in pixels, the TAA image stays lit to the left of where the
/// block (moving right) really is: its trail.
fn trail_length(reference: &[f64], resolved: &[f64], width: usize) -> usize {
    let background = reference[0];
    let lit = |v: f64| (v - background).abs() > 0.02;
    let mut longest = 0;
    for (row_ref, row) in reference.chunks(width).zip(resolved.chunks(width)) {
        let Some(left_edge) = row_ref.iter().position(|v| lit(*v)) else {
            continue;
        };
        if let Some(first) = row[..left_edge].iter().position(|v| lit(*v)) {
            longest = longest.max(left_edge - first);
        }
    }
    longest
}

#[test]
fn a_moving_object_leaves_no_trail() {
    // 0.05 m a frame is about 1.3 pixels at this distance; 0.15 is about 4.
    for step in [0.05, 0.15] {
        let mut taa = Harness::new(SIZE, Some(TaaOptions::default()));
        let mut resolved = Vec::new();
        let frames = 24;
        for frame in 0..=frames {
            resolved = taa.frame(&[block(&taa, frame, step, true)]);
        }
        let drawn = taa.renderer.feature::<TaaFeature>().unwrap().moved_draws();
        assert_eq!(drawn, 1, "the moving block gets motion vectors");
        let mut plain = Harness::new(SIZE, None);
        let reference = plain.frame(&[block(&plain, frames, step, true)]);
        let trail = trail_length(
            &luminance(&reference),
            &luminance(&resolved),
            SIZE.0 as usize,
        );
        eprintln!("step {step} m/frame: trail {trail} px");
        assert!(
            trail <= MAX_TRAIL,
            "a {trail}-pixel trail at {step} m/frame"
        );
    }
}

/// The longest trail a moving object may leave, in pixels (measured: 1 at
/// 1.3 pixels a frame, 2 at 4 pixels a frame): its anti-aliased edge.
const MAX_TRAIL: usize = 2;

#[test]
fn the_callers_camera_comes_back_unjittered() {
    let mut taa = Harness::new(SIZE, Some(TaaOptions::default()));
    let bars = taa.thin_bars();
    let before = taa.data.camera;
    taa.frame(&bars);
    taa.frame(&bars);
    assert_eq!(taa.data.camera, before);
    let feature = taa.renderer.feature::<TaaFeature>().unwrap();
    assert!(feature.next_jitter().length() > 0.0);
}

#[test]
fn the_history_starts_over_on_cuts_resizes_and_requests() {
    let mut taa = Harness::new(SIZE, Some(TaaOptions::default()));
    let bars = taa.thin_bars();
    let reset = |h: &Harness| {
        h.renderer
            .feature::<TaaFeature>()
            .unwrap()
            .history_was_reset()
    };
    taa.frame(&bars);
    assert!(reset(&taa), "the first frame has no history");
    taa.frame(&bars);
    assert!(!reset(&taa));
    // A small move is reprojected.
    taa.data.camera.position.x += 0.05;
    taa.frame(&bars);
    assert!(!reset(&taa));
    // A jump is a cut.
    taa.data.camera.position.x += 40.0;
    taa.frame(&bars);
    assert!(reset(&taa), "a camera jump is a cut");
    taa.frame(&bars);
    assert!(!reset(&taa));
    // Asked for.
    taa.renderer
        .feature_mut::<TaaFeature>()
        .unwrap()
        .reset_history();
    taa.frame(&bars);
    assert!(reset(&taa));
    // Frames rendered without TAA in between.
    taa.data.time.frame += 5;
    taa.frame(&bars);
    assert!(reset(&taa));
    // A resize.
    let small = (SIZE.0 / 2, SIZE.1 / 2);
    taa.target = OffscreenTarget::new(taa.renderer.gpu(), small.0, small.1, FORMAT).unwrap();
    taa.data.size = small;
    taa.data.camera = camera(small);
    let pixels = taa.frame(&bars);
    assert!(reset(&taa), "a resize starts over");
    assert_eq!(pixels.len(), (small.0 * small.1 * 4) as usize);
    taa.frame(&bars);
    assert!(!reset(&taa));
}

// --- MSAA --------------------------------------------------------------------

/// Share of pixels strictly between the background and the bars' colour:
/// partly covered ones.
fn intermediate_share(pixels: &[u8]) -> f64 {
    let luma = luminance(pixels);
    let (background, lit) = (luma[0], luma.iter().copied().fold(0.0, f64::max));
    let between = luma
        .iter()
        .filter(|l| **l > background + 0.01 && **l < lit - 0.01)
        .count();
    between as f64 / luma.len() as f64
}

#[test]
fn msaa_edges_carry_intermediate_coverage_in_both_forward_presets() {
    type Preset = fn(PresetOptions) -> Box<dyn FnOnce(&mut Renderer)>;
    let presets: [(&str, Preset); 2] = [
        ("forward", |o| Box::new(forward_preset(o))),
        ("forward_plus", |o| Box::new(forward_plus_preset(o))),
    ];
    for (name, preset) in presets {
        let mut plain = Harness::with(SIZE, preset(msaa(1)));
        let bars = plain.thin_bars();
        let aliased = plain.frame(&bars);
        let mut smooth = Harness::with(SIZE, preset(msaa(4)));
        let resolved = smooth.frame(&bars);
        let (before, after) = (intermediate_share(&aliased), intermediate_share(&resolved));
        eprintln!("{name}: partly covered pixels without MSAA {before:.4}, with 4x {after:.4}");
        assert!(before < 0.001, "{name}: {before}");
        assert!(after > 0.02, "{name}: {after}");
        // Away from the bars the sky shows through unchanged.
        assert_eq!(
            &aliased[..4 * SIZE.0 as usize],
            &resolved[..4 * SIZE.0 as usize]
        );
        // And against 16x supersampling it is closer than without.
        if name == "forward" {
            let mut truth = Harness::new((SIZE.0 * 4, SIZE.1 * 4), None);
            let truth = downsample(&luminance(&truth.frame(&bars)), SIZE, 4);
            let errors = (
                error_against(&truth, &luminance(&aliased)).0,
                error_against(&truth, &luminance(&resolved)).0,
            );
            eprintln!("mean error against 16x supersampling, no AA and 4x MSAA: {errors:.4?}");
            assert!(errors.1 < errors.0 * 0.6, "{errors:?}");
            assert_matches_reference(
                &reference_dir(),
                "post_msaa",
                SIZE.0,
                SIZE.1,
                &resolved,
                Tolerance {
                    per_channel: 3,
                    outlier_fraction: 0.01,
                },
            );
        }
    }
}

#[test]
fn msaa_and_taa_run_together_with_depth_of_field() {
    let mut both = Harness::with(
        SIZE,
        forward_plus_preset(PresetOptions {
            msaa: 4,
            taa: Some(TaaOptions::default()),
            dof: Some(Default::default()),
            ..options(None)
        }),
    );
    let bars = both.thin_bars();
    let mut pixels = Vec::new();
    for _ in 0..4 {
        pixels = both.frame(&bars);
    }
    assert!(intermediate_share(&pixels) > 0.02);
}

#[test]
fn sample_counts_fall_to_what_the_device_renders() {
    let gpu = gpu();
    assert_eq!(supported_msaa_samples(&gpu, 1), 1);
    assert_eq!(supported_msaa_samples(&gpu, 0), 1);
    // Every WebGPU device renders 4x.
    assert_eq!(supported_msaa_samples(&gpu, 4), 4);
    // A count between supported ones falls to the one below.
    assert_eq!(
        supported_msaa_samples(&gpu, 3),
        supported_msaa_samples(&gpu, 2)
    );
    assert_eq!(supported_msaa_samples(&gpu, 7), 4);
    let most = supported_msaa_samples(&gpu, 64);
    assert!(most >= 4 && most.is_power_of_two(), "{most}");
}
