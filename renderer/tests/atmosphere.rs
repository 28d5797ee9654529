//! The atmosphere sky on a real adapter (lavapipe in CI): a camera at the
//! ground looking towards the horizon, the sun at four elevations, compared
//! with reference images and checked pixel by pixel; the sky-view table
//! re-rendered only when the sun moves; bad settings and empty frames.

use std::path::{Path, PathBuf};

use glam::Vec3;
use taos_image_compare::{Tolerance, assert_matches_reference};
use taos_renderer::features::{Atmosphere, SkyFeature, SkyOption, TonemapFeature};
use taos_renderer::frame::{CameraView, CascadeSettings, SunLight};
use taos_renderer::resources::Assets;
use taos_renderer::{
    FeatureSetup, FrameData, GpuContext, OffscreenTarget, RenderFeature, RenderStats, Renderer,
    wgpu,
};

const SIZE: u32 = 128;
/// The camera looks this far above the horizon...
const PITCH_DEGREES: f32 = 30.0;
/// ...with this vertical (and horizontal) field of view: the image spans
/// elevations from -20 to +80 degrees at its centre column.
const FOV_DEGREES: f32 = 100.0;

/// Lavapipe is the reference device. Other drivers differ in the precision
/// of exp, acos and sqrt in the ray marches and of half-float filtering:
/// allow 3 steps per channel and 2% outliers (the sun's disk and the
/// horizon's edge).
const TOLERANCE: Tolerance = Tolerance {
    per_channel: 3,
    outlier_fraction: 0.02,
};

fn reference_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference")
}

/// Sky and tonemap (exposure 1, ACES), drawing into an sRGB target.
fn sky_renderer(atmosphere: Atmosphere) -> (Renderer, OffscreenTarget) {
    let gpu = GpuContext::headless().unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    let format = wgpu::TextureFormat::Rgba8UnormSrgb;
    let target = OffscreenTarget::new(&gpu, SIZE, SIZE, format).unwrap();
    let mut renderer = Renderer::new(gpu, format);
    renderer
        .add_feature(SkyFeature::new(SkyOption::Atmosphere(atmosphere)))
        .add_feature(TonemapFeature::new(1.0, true));
    (renderer, target)
}

/// Unit direction at `elevation` above the horizon, `azimuth` degrees
/// clockwise (seen from above) from -Z, the way the camera faces.
fn direction(elevation: f32, azimuth: f32) -> Vec3 {
    let (elevation, azimuth) = (elevation.to_radians(), azimuth.to_radians());
    Vec3::new(
        elevation.cos() * azimuth.sin(),
        elevation.sin(),
        -elevation.cos() * azimuth.cos(),
    )
}

/// A frame from 1.7 m above the ground, looking towards azimuth 0 and
/// `PITCH_DEGREES` up, with the sun at (`elevation`, `azimuth`).
fn frame(sun_elevation: f32, sun_azimuth: f32) -> FrameData {
    let eye = Vec3::new(0.0, 1.7, 0.0);
    let forward = direction(PITCH_DEGREES, 0.0);
    let view = glam::camera::rh::view::look_at_mat4(eye, eye + forward, Vec3::Y);
    let projection =
        glam::camera::rh::proj::directx::perspective(FOV_DEGREES.to_radians(), 1.0, 0.1, 100.0);
    let mut data = FrameData {
        camera: CameraView {
            view,
            projection,
            position: eye,
            forward,
            near: 0.1,
            far: 100.0,
        },
        size: (SIZE, SIZE),
        ..FrameData::default()
    };
    data.lights.sun = Some(SunLight {
        direction: -direction(sun_elevation, sun_azimuth),
        color: Vec3::ONE,
        intensity: 3.0,
        cast_shadows: false,
        cascades: CascadeSettings::default(),
    });
    data
}

fn render(renderer: &mut Renderer, target: &OffscreenTarget, data: &mut FrameData) -> RenderStats {
    renderer.render(data, target.texture()).unwrap()
}

/// RGB at (x, y), y down.
fn pixel(pixels: &[u8], x: u32, y: u32) -> [u8; 3] {
    let i = ((y * SIZE + x) * 4) as usize;
    [pixels[i], pixels[i + 1], pixels[i + 2]]
}

/// The image row of the horizon at the centre column.
fn horizon_row() -> u32 {
    let half_fov = (FOV_DEGREES / 2.0).to_radians();
    let ndc_y = (-PITCH_DEGREES.to_radians()).tan() / half_fov.tan();
    ((1.0 - ndc_y) / 2.0 * SIZE as f32) as u32
}

/// The four reference skies, each named with its sun: elevation, azimuth
/// from the camera's heading (degrees).
const SKIES: [(&str, f32, f32); 4] = [
    ("atmosphere_sunrise", 3.0, 0.0),
    ("atmosphere_noon", 75.0, 180.0),
    ("atmosphere_sunset", 1.0, 20.0),
    ("atmosphere_night", -12.0, 0.0),
];

#[test]
fn atmosphere_at_four_sun_elevations_matches_references() {
    let (mut renderer, target) = sky_renderer(Atmosphere::default());
    let info = renderer.gpu().adapter_info();
    eprintln!("adapter: {} ({:?})", info.name, info.backend);
    let horizon = horizon_row();
    for (name, elevation, azimuth) in SKIES {
        let mut data = frame(elevation, azimuth);
        render(&mut renderer, &target, &mut data);
        let pixels = target.read_rgba8(renderer.gpu()).unwrap();
        let top = pixel(&pixels, SIZE / 2, 2);
        let above_horizon = pixel(&pixels, SIZE / 2, horizon - 3);
        eprintln!("{name}: top {top:?}, centre above horizon {above_horizon:?}");
        match name {
            "atmosphere_noon" => {
                let [r, g, b] = top.map(i32::from);
                assert!(b > g && g > r && b > r + 60, "noon zenith {top:?}");
            }
            "atmosphere_sunset" => {
                // Beside the sun (which stands 20 degrees right of centre),
                // just above the horizon.
                let near_sun = pixel(&pixels, SIZE / 2 + 14, horizon - 2);
                eprintln!("{name}: near the sun {near_sun:?}");
                let [r, g, b] = near_sun.map(i32::from);
                assert!(r > b + 40 && r > g, "sunset horizon {near_sun:?}");
            }
            "atmosphere_night" => {
                for (i, channel) in pixels.chunks_exact(4).enumerate() {
                    assert!(
                        channel[..3].iter().all(|&c| c < 20),
                        "night pixel {i} too bright: {channel:?}"
                    );
                }
            }
            _ => {}
        }
        assert_matches_reference(&reference_dir(), name, SIZE, SIZE, &pixels, TOLERANCE);
    }
}

#[test]
fn sky_view_table_rerenders_only_when_the_sun_moves() {
    let (mut renderer, target) = sky_renderer(Atmosphere::default());
    let renders =
        |stats: RenderStats| (stats.transmittance_lut_renders, stats.sky_view_lut_renders);
    let mut data = frame(20.0, 0.0);
    let first = render(&mut renderer, &target, &mut data);
    assert_eq!(renders(first), (1, 1), "first frame renders every table");
    let same_sun = render(&mut renderer, &target, &mut data);
    assert_eq!(renders(same_sun), (0, 0), "same sun: nothing re-rendered");
    let mut data = frame(21.0, 0.0);
    let risen = render(&mut renderer, &target, &mut data);
    assert_eq!(renders(risen), (0, 1), "the sun rose: only the sky view");
    let again = render(&mut renderer, &target, &mut data);
    assert_eq!(renders(again), (0, 0));
    let mut data = frame(21.0, 90.0);
    let turned = render(&mut renderer, &target, &mut data);
    assert_eq!(
        renders(turned),
        (0, 0),
        "the sky view is laid out around the sun's azimuth: turning needs no render"
    );
}

#[test]
fn sky_feature_counts_its_sky_view_renders() {
    let gpu = GpuContext::headless().unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    let assets = Assets::new();
    let mut sky = SkyFeature::new(SkyOption::Atmosphere(Atmosphere::default()));
    sky.setup(FeatureSetup {
        gpu: &gpu,
        output_format: wgpu::TextureFormat::Rgba8UnormSrgb,
    });
    assert_eq!(sky.sky_view_renders(), 0, "nothing rendered before a frame");
    let low = frame(5.0, 0.0);
    sky.update(&low, &gpu, &assets);
    sky.update(&low, &gpu, &assets);
    assert_eq!(sky.sky_view_renders(), 1);
    sky.update(&frame(6.0, 0.0), &gpu, &assets);
    assert_eq!(sky.sky_view_renders(), 2);
    sky.sky = SkyOption::Atmosphere(Atmosphere {
        mie_anisotropy: 0.7,
        ..Atmosphere::default()
    });
    sky.update(&frame(6.0, 0.0), &gpu, &assets);
    assert_eq!(sky.sky_view_renders(), 3, "new settings: every table again");
}

#[test]
fn broken_settings_render_the_default_sky() {
    let broken = Atmosphere {
        planet_radius: f32::NAN,
        rayleigh_scattering: Vec3::splat(-1.0),
        mie_anisotropy: f32::INFINITY,
        sun_illuminance: f32::NEG_INFINITY,
        ..Atmosphere::default()
    };
    let (mut renderer, target) = sky_renderer(broken);
    let mut data = frame(10.0, 0.0);
    render(&mut renderer, &target, &mut data);
    let broken_pixels = target.read_rgba8(renderer.gpu()).unwrap();
    let (mut renderer, target) = sky_renderer(Atmosphere::default());
    render(&mut renderer, &target, &mut data);
    let default_pixels = target.read_rgba8(renderer.gpu()).unwrap();
    assert!(broken_pixels == default_pixels);
}

#[test]
fn no_sun_and_empty_frames_do_not_fail() {
    let (mut renderer, target) = sky_renderer(Atmosphere::default());
    let mut data = frame(10.0, 0.0);
    data.lights.sun = None;
    render(&mut renderer, &target, &mut data);
    let pixels = target.read_rgba8(renderer.gpu()).unwrap();
    // The default sun stands 30 degrees up, ahead: a lit, blue-ish sky.
    let [r, _, b] = pixel(&pixels, SIZE / 2, 10);
    assert!(
        b > r && b > 80,
        "default-sun sky {:?}",
        pixel(&pixels, SIZE / 2, 10)
    );
    data.size = (0, 0);
    let stats = render(&mut renderer, &target, &mut data);
    assert_eq!(stats.passes, 0, "an empty frame draws nothing");
}
