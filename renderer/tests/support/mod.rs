//! What the lit-preset GPU tests share: a ground with boxes, balls and one
//! glass ball, a camera over it, deterministic point and spot lights, and
//! rendering two frames into an offscreen target.

#![allow(dead_code)] // each test binary uses its own part

pub(crate) mod hdr;

use std::path::{Path, PathBuf};

use glam::{Affine3A, Vec3, Vec4};
use taos_renderer::features::TILE_SIZE;
use taos_renderer::frame::{CameraView, DrawItem, MovingDraw, PointLightData, SpotLightData};
use taos_renderer::presets::PresetOptions;
use taos_renderer::resources::{AlphaMode, MeshData, PbrMaterial};
use taos_renderer::{FrameData, GpuContext, OffscreenTarget, RenderStats, Renderer, wgpu};

/// Not a multiple of the tile size: the right and bottom tiles are partial.
pub(crate) const WIDTH: u32 = 120;
pub(crate) const HEIGHT: u32 = 90;
pub(crate) const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

pub(crate) fn gpu() -> GpuContext {
    GpuContext::headless().unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"))
}

pub(crate) fn camera(size: (u32, u32)) -> CameraView {
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
pub(crate) fn ground_at_pixel(camera: &CameraView, x: f32, y: f32) -> Vec3 {
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
pub(crate) struct Lcg(pub(crate) u64);

impl Lcg {
    pub(crate) fn next(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }

    pub(crate) fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next()
    }
}

pub(crate) fn color(rng: &mut Lcg) -> Vec3 {
    Vec3::new(
        rng.range(0.2, 1.0),
        rng.range(0.2, 1.0),
        rng.range(0.2, 1.0),
    )
}

/// Ground, a few boxes and balls (one of them blended glass), and no sun:
/// every bit of light on screen comes from the point and spot lights.
pub(crate) fn scene(renderer: &mut Renderer) -> Vec<DrawItem> {
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
pub(crate) fn lights(data: &mut FrameData, count: usize, seed: u64) {
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

pub(crate) fn frame_data(
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
pub(crate) fn render(
    setup: impl FnOnce(&mut Renderer),
    light_count: usize,
) -> (Vec<u8>, RenderStats, Renderer) {
    render_sized(setup, light_count, (WIDTH, HEIGHT))
}

pub(crate) fn render_sized(
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

pub(crate) fn no_sun_options() -> PresetOptions {
    PresetOptions {
        shadow: None,
        ..PresetOptions::default()
    }
}

/// Largest per-channel difference, and where.
pub(crate) fn max_difference(a: &[u8], b: &[u8]) -> (u8, usize) {
    a.iter()
        .zip(b)
        .enumerate()
        .map(|(i, (x, y))| (x.abs_diff(*y), i / 4))
        .max()
        .unwrap_or((0, 0))
}

pub(crate) fn reference_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference")
}

/// The scene's draws with the first one moved since the last frame (so
/// TAA draws motion vectors).
pub(crate) fn with_one_moved(items: &[DrawItem]) -> Vec<MovingDraw> {
    items
        .iter()
        .enumerate()
        .map(|(i, item)| MovingDraw {
            item: *item,
            previous_world: if i == 0 {
                Affine3A::from_translation(Vec3::X * 0.1) * item.world
            } else {
                item.world
            },
        })
        .collect()
}
