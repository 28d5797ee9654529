//! The forward-plus preset on a real adapter (lavapipe in CI): the same
//! scene shaded by forward (every light for every fragment) and by
//! forward-plus (each tile's culled list) must give the same picture, so
//! the culling never drops a visible contribution; overflowing tiles are
//! counted; thousands of lights are all shaded; the compiled graph matches
//! its golden dump.

use std::path::{Path, PathBuf};

use glam::{Affine3A, Vec3, Vec4};
use taos_image_compare::{Tolerance, assert_matches_golden_text, assert_matches_reference};
use taos_renderer::features::{
    ForwardLitFeature, ForwardPlusFeature, LightBinding, TILE_SIZE, TonemapFeature,
    UNIFORM_LIGHT_CAP,
};
use taos_renderer::frame::{CameraView, DrawItem, PointLightData, SpotLightData, SunLight};
use taos_renderer::presets::{PresetOptions, forward_plus_preset, forward_preset};
use taos_renderer::resources::{AlphaMode, MeshData, PbrMaterial};
use taos_renderer::{FrameData, GpuContext, OffscreenTarget, RenderStats, Renderer, wgpu};

/// Not a multiple of the tile size: the right and bottom tiles are partial.
const WIDTH: u32 = 120;
const HEIGHT: u32 = 90;
const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

fn gpu() -> GpuContext {
    GpuContext::headless().unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"))
}

fn camera(size: (u32, u32)) -> CameraView {
    let eye = Vec3::new(0.0, 4.0, 9.0);
    let target = Vec3::new(0.0, 0.0, 0.0);
    let aspect = size.0 as f32 / size.1 as f32;
    CameraView {
        view: glam::camera::rh::view::look_at_mat4(eye, target, Vec3::Y),
        projection: glam::camera::rh::proj::directx::perspective(
            50f32.to_radians(),
            aspect,
            0.1,
            60.0,
        ),
        position: eye,
        forward: (target - eye).normalize(),
        near: 0.1,
        far: 60.0,
    }
}

/// The point of the ground plane (y = 0) seen at pixel `(x, y)` of the
/// default-sized image.
fn ground_at_pixel(camera: &CameraView, x: f32, y: f32) -> Vec3 {
    let ndc = Vec3::new(
        x / WIDTH as f32 * 2.0 - 1.0,
        1.0 - y / HEIGHT as f32 * 2.0,
        0.5,
    );
    let inverse = (camera.projection * camera.view).inverse();
    let through = inverse.project_point3(ndc);
    let direction = (through - camera.position).normalize();
    camera.position + direction * (-camera.position.y / direction.y)
}

/// A small deterministic generator (no dependency, same numbers everywhere).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }

    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next()
    }
}

fn color(rng: &mut Lcg) -> Vec3 {
    Vec3::new(
        rng.range(0.2, 1.0),
        rng.range(0.2, 1.0),
        rng.range(0.2, 1.0),
    )
}

/// Ground, a few boxes and balls (one of them blended glass), and no sun:
/// every bit of light on screen comes from the point and spot lights.
fn scene(renderer: &mut Renderer) -> Vec<DrawItem> {
    let (assets, gpu) = renderer.assets_mut();
    let plane = assets.add_mesh(gpu, "ground", &MeshData::plane(20.0));
    let cube = assets.add_mesh(gpu, "cube", &MeshData::cube(1.0));
    let ball = assets.add_mesh(gpu, "ball", &MeshData::sphere(0.6, 24, 12));
    let ground = assets.add_material(PbrMaterial {
        roughness: 0.8,
        ..PbrMaterial::color(Vec3::splat(0.7))
    });
    let shiny = assets.add_material(PbrMaterial {
        metallic: 0.2,
        roughness: 0.3,
        ..PbrMaterial::color(Vec3::new(0.8, 0.8, 0.75))
    });
    let glass = assets.add_material(PbrMaterial {
        alpha: AlphaMode::Blend,
        base_color: Vec4::new(0.6, 0.7, 0.9, 0.5),
        ..PbrMaterial::default()
    });
    let mut items = vec![DrawItem {
        mesh: plane,
        material: ground,
        world: Affine3A::IDENTITY,
        cast_shadows: false,
    }];
    for i in 0..9 {
        let x = (i % 3) as f32 * 2.5 - 2.5;
        let z = (i / 3) as f32 * 2.5 - 3.0;
        let (mesh, y) = if i % 2 == 0 { (cube, 0.5) } else { (ball, 0.6) };
        let material = if i == 4 { glass } else { shiny };
        items.push(DrawItem {
            mesh,
            material,
            world: Affine3A::from_translation(Vec3::new(x, y, z)),
            cast_shadows: true,
        });
    }
    items
}

/// 64 lights: random small points and spots over the field, plus the hard
/// cases: a point whose sphere is centred on a tile corner (straddling four
/// tiles), a point behind the camera that still lights the ground in front
/// of it, and spots whose narrow cones only graze the tiles around their
/// target.
fn lights(data: &mut FrameData, count: usize, seed: u64) {
    let camera = data.camera;
    let mut rng = Lcg(seed);
    let corner = ground_at_pixel(&camera, 2.0 * TILE_SIZE as f32, 2.0 * TILE_SIZE as f32);
    data.lights.points.push(PointLightData {
        position: corner + Vec3::Y * 0.2,
        color: Vec3::new(1.0, 0.3, 0.2),
        intensity: 3.0,
        range: 1.2,
    });
    data.lights.points.push(PointLightData {
        position: camera.position + Vec3::new(0.0, -1.0, 1.5),
        color: Vec3::new(0.3, 1.0, 0.4),
        intensity: 20.0,
        range: 9.0,
    });
    for k in 0..2 {
        let target = ground_at_pixel(
            &camera,
            (3 + 2 * k) as f32 * TILE_SIZE as f32,
            (3 + k) as f32 * TILE_SIZE as f32,
        );
        let position = target + Vec3::new(1.5, 3.0, 0.5 - k as f32);
        data.lights.spots.push(SpotLightData {
            position,
            direction: (target - position).normalize(),
            color: Vec3::new(1.0, 0.9, 0.5),
            intensity: 40.0,
            range: 8.0,
            inner_cos: 4f32.to_radians().cos(),
            outer_cos: 6f32.to_radians().cos(),
        });
    }
    // Denser scenes get smaller lights, as a real one would.
    let scale = (64.0 / count.max(1) as f32).sqrt().min(1.0);
    while data.lights.points.len() + data.lights.spots.len() < count {
        let position = Vec3::new(
            rng.range(-9.0, 9.0),
            rng.range(0.2, 1.6),
            rng.range(-9.0, 6.0),
        );
        if rng.next() < 0.8 {
            data.lights.points.push(PointLightData {
                position,
                color: color(&mut rng),
                intensity: rng.range(1.0, 4.0),
                range: rng.range(0.8, 2.5) * scale,
            });
        } else {
            let aim = Vec3::new(rng.range(-1.0, 1.0), -1.0, rng.range(-1.0, 1.0)).normalize();
            let outer: f32 = rng.range(10.0, 35.0);
            data.lights.spots.push(SpotLightData {
                position: position + Vec3::Y,
                direction: aim,
                color: color(&mut rng),
                intensity: rng.range(5.0, 15.0),
                range: rng.range(2.0, 5.0) * scale,
                inner_cos: (outer * 0.7).to_radians().cos(),
                outer_cos: outer.to_radians().cos(),
            });
        }
    }
}

fn frame_data(
    renderer: &Renderer,
    items: &[DrawItem],
    light_count: usize,
    size: (u32, u32),
) -> FrameData {
    let mut data = FrameData {
        camera: camera(size),
        size,
        ..FrameData::default()
    };
    lights(&mut data, light_count, 7);
    data.buckets
        .fill(items.iter().copied(), renderer.assets(), &data.camera);
    data
}

/// Renders `light_count` lights with the renderer `setup` builds; returns
/// the pixels and the stats of the last of two frames (the second frame
/// sees the first one's read-back counters).
fn render(
    setup: impl FnOnce(&mut Renderer),
    light_count: usize,
) -> (Vec<u8>, RenderStats, Renderer) {
    render_sized(setup, light_count, (WIDTH, HEIGHT))
}

fn render_sized(
    setup: impl FnOnce(&mut Renderer),
    light_count: usize,
    size: (u32, u32),
) -> (Vec<u8>, RenderStats, Renderer) {
    let gpu = gpu();
    let target = OffscreenTarget::new(&gpu, size.0, size.1, FORMAT).unwrap();
    let mut renderer = Renderer::new(gpu, FORMAT);
    setup(&mut renderer);
    let items = scene(&mut renderer);
    let mut data = frame_data(&renderer, &items, light_count, size);
    renderer.render(&mut data, target.texture()).unwrap();
    renderer
        .gpu()
        .device()
        .poll(wgpu::PollType::wait_indefinitely())
        .unwrap();
    let stats = renderer.render(&mut data, target.texture()).unwrap();
    let pixels = target.read_rgba8(renderer.gpu()).unwrap();
    (pixels, stats, renderer)
}

fn no_sun_options() -> PresetOptions {
    PresetOptions {
        shadow: None,
        ..PresetOptions::default()
    }
}

/// Largest per-channel difference, and where.
fn max_difference(a: &[u8], b: &[u8]) -> (u8, usize) {
    a.iter()
        .zip(b)
        .enumerate()
        .map(|(i, (x, y))| (x.abs_diff(*y), i / 4))
        .max()
        .unwrap_or((0, 0))
}

// Forward and forward-plus run the same BRDF on the same lights; only the
// order in which a fragment sums its lights differs (tile lists are filled
// by atomic appends), so the two images may differ by float rounding: at
// most 2 of 255 per channel after tonemapping and sRGB encoding. A light
// wrongly culled from a tile would show as a tile-shaped difference far
// above that.
const SAME_IMAGE: u8 = 2;

#[test]
fn forward_plus_matches_forward_with_64_lights() {
    let (forward, forward_stats, _) = render(forward_preset(no_sun_options()), 64);
    let (plus, plus_stats, renderer) = render(forward_plus_preset(no_sun_options()), 64);
    assert_eq!(
        renderer.feature_names().collect::<Vec<_>>(),
        ["Sky", "ForwardPlus", "Tonemap"]
    );
    assert_eq!((forward_stats.lights, plus_stats.lights), (64, 64));
    assert_eq!(plus_stats.light_tiles_overflowed, 0);
    let (difference, at) = max_difference(&forward, &plus);
    assert!(
        difference <= SAME_IMAGE,
        "forward-plus differs from forward by {difference} at pixel ({}, {})",
        at % WIDTH as usize,
        at / WIDTH as usize
    );
    // The lights matter: without them the picture is black, so the
    // comparison above could not pass by accident.
    let (dark, _, _) = render(forward_plus_preset(no_sun_options()), 0);
    assert!(max_difference(&dark, &plus).0 > 100);
    assert_matches_reference(
        &reference_dir(),
        "forward_plus_64_lights",
        WIDTH,
        HEIGHT,
        &plus,
        Tolerance {
            per_channel: 3,
            outlier_fraction: 0.01,
        },
    );
}

#[test]
fn every_case_alone_matches_forward() {
    // Each hard case on its own (the first four lights of the scene), so a
    // wrongly culled light cannot hide behind its neighbours.
    for case in 0..4 {
        let keep = |data: &mut FrameData| {
            let (points, spots) = (data.lights.points.clone(), data.lights.spots.clone());
            data.lights.points.clear();
            data.lights.spots.clear();
            match case {
                0 | 1 => data.lights.points.push(points[case]),
                _ => data.lights.spots.push(spots[case - 2]),
            }
        };
        let mut images = Vec::new();
        for plus in [false, true] {
            let gpu = gpu();
            let target = OffscreenTarget::new(&gpu, WIDTH, HEIGHT, FORMAT).unwrap();
            let mut renderer = Renderer::new(gpu, FORMAT);
            if plus {
                forward_plus_preset(no_sun_options())(&mut renderer);
            } else {
                forward_preset(no_sun_options())(&mut renderer);
            }
            let items = scene(&mut renderer);
            let mut data = frame_data(&renderer, &items, 64, (WIDTH, HEIGHT));
            keep(&mut data);
            renderer.render(&mut data, target.texture()).unwrap();
            images.push(target.read_rgba8(renderer.gpu()).unwrap());
        }
        let lit = images[0]
            .chunks_exact(4)
            .filter(|px| px[0] > 8 || px[1] > 8)
            .count();
        assert!(lit > 20, "case {case} lights {lit} pixels only");
        let (difference, at) = max_difference(&images[0], &images[1]);
        assert!(
            difference <= SAME_IMAGE,
            "case {case}: forward-plus differs by {difference} at ({}, {})",
            at % WIDTH as usize,
            at / WIDTH as usize
        );
    }
}

#[test]
fn overflowing_tiles_are_counted_and_full_tiles_are_not() {
    let small_tiles = |renderer: &mut Renderer| {
        let mut feature = ForwardPlusFeature::new();
        feature.max_lights_per_tile = 4;
        renderer
            .add_feature(feature)
            .add_feature(TonemapFeature::new(1.0, true));
    };
    let (_, stats, _) = render(small_tiles, 64);
    let tiles = WIDTH.div_ceil(TILE_SIZE) * HEIGHT.div_ceil(TILE_SIZE);
    assert!(
        stats.light_tiles_overflowed > 0 && stats.light_tiles_overflowed <= tiles,
        "{stats:?}"
    );
    let (_, stats, _) = render(forward_plus_preset(no_sun_options()), 64);
    assert_eq!(stats.light_tiles_overflowed, 0);
}

#[test]
fn four_thousand_lights_are_all_shaded() {
    // Larger than the other cases: at 120 x 90 a tile spans a ninth of the
    // view, too coarse for 4,096 lights to stay under 256 per tile.
    let size = (320, 180);
    let (forward, forward_stats, _) = render_sized(forward_preset(no_sun_options()), 4096, size);
    let (plus, plus_stats, _) = render_sized(forward_plus_preset(no_sun_options()), 4096, size);
    assert_eq!((forward_stats.lights, plus_stats.lights), (4096, 4096));
    assert_eq!(forward_stats.lights_dropped, 0);
    assert_eq!(plus_stats.light_tiles_overflowed, 0);
    let (difference, _) = max_difference(&forward, &plus);
    assert!(difference <= SAME_IMAGE, "differs by {difference}");
}

#[test]
fn the_forward_uniform_fallback_reports_what_it_drops() {
    let uniform = |renderer: &mut Renderer| {
        let mut feature = ForwardLitFeature::new();
        feature.light_binding = Some(LightBinding::Uniform);
        renderer
            .add_feature(feature)
            .add_feature(TonemapFeature::new(1.0, true));
    };
    let (_, stats, _) = render(uniform, 200);
    assert_eq!(stats.lights as usize, UNIFORM_LIGHT_CAP);
    assert_eq!(stats.lights_dropped as usize, 200 - UNIFORM_LIGHT_CAP);
    // Below the cap the fallback shades exactly what the storage path does.
    let (fallback, stats, _) = render(uniform, 64);
    assert_eq!(stats.lights_dropped, 0);
    let storage = |renderer: &mut Renderer| {
        renderer
            .add_feature(ForwardLitFeature::new())
            .add_feature(TonemapFeature::new(1.0, true));
    };
    let (pixels, _, _) = render(storage, 64);
    assert!(max_difference(&fallback, &pixels).0 <= SAME_IMAGE);
}

#[test]
fn repeated_meshes_are_drawn_instanced() {
    let (_, stats, _) = render(forward_preset(no_sun_options()), 4);
    // Ground, shiny boxes, shiny balls: three opaque batches, one glass ball.
    assert_eq!(stats.draw_calls, 4, "{stats:?}");
    let one_per_item = |renderer: &mut Renderer| {
        let mut feature = ForwardLitFeature::new();
        feature.instancing = false;
        renderer.add_feature(feature);
    };
    let (_, stats, _) = render(one_per_item, 4);
    assert_eq!(stats.draw_calls, 10);
}

#[test]
fn forward_plus_graph_matches_its_golden_dump() {
    let gpu = gpu();
    let target = OffscreenTarget::new(&gpu, WIDTH, HEIGHT, FORMAT).unwrap();
    let mut renderer = Renderer::new(gpu, FORMAT);
    forward_plus_preset(PresetOptions::default())(&mut renderer);
    let items = scene(&mut renderer);
    let mut data = frame_data(&renderer, &items, 64, (WIDTH, HEIGHT));
    data.lights.sun = Some(SunLight {
        direction: Vec3::new(-0.3, -1.0, -0.2).normalize(),
        color: Vec3::ONE,
        intensity: 2.0,
        cast_shadows: true,
        cascades: Default::default(),
    });
    let dump = renderer
        .dump_graph(&mut data, target.texture(), false)
        .unwrap();
    assert_matches_golden_text(&reference_dir(), "forward_plus_preset_graph.mmd", &dump);
}

fn reference_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference")
}
