//! One engine frame of a 10,000-MeshRenderer scene: scene walk, bucketing,
//! feature updates, graph build, compile, execute and submit, on a headless
//! 64 x 64 target (small, so the software rasteriser's pixel work stays out
//! of the way; its per-draw vertex work is in the figure when the driver
//! runs it on the submitting thread).
//!
//! Cases: `bucket_10k` (the presenter's scene walk and bucketing alone, the
//! allocation-free part), `frame_10k_no_shadow` (forward preset without
//! shadows), `frame_10k` (with three shadow cascades: each caster drawn once
//! more for every cascade its bounds overlap).
//!
//! `frame_10k_instanced_waited` and `frame_10k_one_draw_each_waited`: the
//! forward pass alone (no shadows, no sky) with the 10,000 cubes grouped into
//! one instanced draw call, and with one draw call per cube, each waited for
//! until the device is idle.
//!
//! `frame_10k_half_visible_culled` and `frame_10k_half_visible_unculled` (and
//! their `_waited` twins): the same 10,000 cubes seen from a camera that has
//! about half of them behind or beside it, forward preset without shadows,
//! with the camera's frustum culling on and off
//! ([`DrawBuckets::frustum_culling`]). The engine keeps its buckets to
//! itself, so these drive the frame by hand: scene walk,
//! bucketing, `Renderer::render` (feature updates, graph, encode, submit),
//! then a wait for the device. The plain pair times until the submit (the
//! engine's own CPU cost, which a real GPU would not hide); the `_waited` pair
//! until the device is idle, so it adds lavapipe's vertex and pixel work,
//! which is a GPU's work elsewhere and noisy here (it shares the cores).
//!
//! Run: `cargo bench -p taos_benches --bench engine_frame`

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use taos_engine::prelude::*;
use taos_engine::{Engine, EngineConfig, MeshDraw};
use taos_renderer::features::{ForwardLitFeature, TonemapFeature};
use taos_renderer::frame::{CameraView, DrawBuckets, DrawItem};
use taos_renderer::presets::{PresetOptions, forward_preset};
use taos_renderer::resources::{MaterialId, MeshData, MeshId, PbrMaterial};
use taos_renderer::{FrameData, OffscreenTarget, Renderer};

const OBJECTS: u32 = 10_000;

fn build(shadows: bool) -> (Engine, GameObject) {
    let eye = Transform::from_trs(
        Vec3::new(0.0, 30.0, 60.0),
        Quat::from_rotation_x(-0.5),
        Vec3::ONE,
    );
    build_with(
        shadows,
        eye,
        Camera::perspective(60.0, 0.1, 500.0, 1.0).unwrap(),
    )
}

/// The 100 x 100 grid of cubes on the XZ plane (x, z in -50..50), a sun, and
/// a camera at `eye`; returns the engine and the camera object.
fn build_with(shadows: bool, eye: Transform, lens: Camera) -> (Engine, GameObject) {
    let options = PresetOptions {
        shadow: if shadows {
            Some(Default::default())
        } else {
            None
        },
        ..PresetOptions::default()
    };
    build_on(Box::new(forward_preset(options)), eye, lens)
}

/// The forward pass alone (no shadows, no sky), instanced or one draw call
/// per cube.
fn build_instancing(instancing: bool) -> Engine {
    let setup = move |renderer: &mut Renderer| {
        let mut lit = ForwardLitFeature::new();
        lit.instancing = instancing;
        renderer
            .add_feature(lit)
            .add_feature(TonemapFeature::new(1.0, true));
    };
    let eye = Transform::from_trs(
        Vec3::new(0.0, 30.0, 60.0),
        Quat::from_rotation_x(-0.5),
        Vec3::ONE,
    );
    let lens = Camera::perspective(60.0, 0.1, 500.0, 1.0).unwrap();
    build_on(Box::new(setup), eye, lens).0
}

fn build_on(
    setup: Box<dyn FnOnce(&mut Renderer)>,
    eye: Transform,
    lens: Camera,
) -> (Engine, GameObject) {
    let mut engine = Engine::headless(EngineConfig::new(64, 64), setup)
        .expect("benches need a GPU adapter (lavapipe on a machine without one)");
    let (assets, gpu) = engine.renderer().assets_mut();
    let cube = assets.add_mesh(gpu, "cube", &MeshData::cube(0.5));
    let grey = assets.add_material(PbrMaterial::default());
    let scene = engine.scene_mut();
    for i in 0..OBJECTS {
        let (x, z) = ((i % 100) as f32 - 50.0, (i / 100) as f32 - 50.0);
        let object = scene.spawn_with("Cube", Transform::from_position(Vec3::new(x, 0.0, z)));
        scene
            .add_component(
                object,
                MeshRenderer::new(MeshHandle(cube.0), MaterialHandle(grey.0)),
            )
            .unwrap();
    }
    let sun = scene.spawn("Sun");
    scene
        .add_component(
            sun,
            DirectionalLight::new(Vec3::new(-0.3, -1.0, -0.2), Vec3::ONE, 3.0),
        )
        .unwrap();
    let camera = scene.spawn_with("Camera", eye);
    scene.add_component(camera, lens).unwrap();
    (engine, camera)
}

/// What the presenter hands the renderer for `camera` (after a frame has
/// settled its matrices).
fn camera_view(engine: &Engine, camera: GameObject) -> CameraView {
    let lens = engine.scene().get_component::<Camera>(camera).unwrap();
    let (near, far) = match lens.projection {
        Projection::Perspective { near, far, .. } | Projection::Orthographic { near, far, .. } => {
            (near, far)
        }
    };
    let view = lens.view();
    let to_world = view.inverse();
    CameraView {
        view,
        projection: lens.projection_matrix(),
        position: to_world.w_axis.truncate(),
        forward: -to_world.z_axis.truncate().normalize(),
        near,
        far,
    }
}

/// One frame driven by hand (the engine's presenter minus lights), so the
/// buckets' `frustum_culling` switch is reachable.
struct HandFrame {
    engine: Engine,
    target: OffscreenTarget,
    draws: Vec<MeshDraw>,
    data: FrameData,
}

impl HandFrame {
    /// 10,000 cubes and a camera 30 up and 10 back from the grid's middle,
    /// looking 45 degrees down along -Z with a 90-degree field of view: about
    /// half the grid lies behind, under or beside it.
    fn half_visible(frustum_culling: bool) -> Self {
        let eye = Transform::from_trs(
            Vec3::new(0.0, 30.0, 10.0),
            Quat::from_rotation_x(-45f32.to_radians()),
            Vec3::ONE,
        );
        let lens = Camera::perspective(90.0, 0.1, 500.0, 1.0).unwrap();
        let (mut engine, camera) = build_with(false, eye, lens);
        engine.frame().unwrap();
        let mut data = FrameData {
            camera: camera_view(&engine, camera),
            size: (64, 64),
            ..FrameData::default()
        };
        data.buckets.frustum_culling = frustum_culling;
        let format = wgpu::TextureFormat::Rgba8UnormSrgb;
        let target = OffscreenTarget::new(engine.renderer().gpu(), 64, 64, format).unwrap();
        Self {
            engine,
            target,
            draws: Vec::new(),
            data,
        }
    }

    /// One frame: returns the time until it was submitted, or with `waited`
    /// until the device finished it (it waits for the device either way).
    fn frame(&mut self, waited: bool) -> Duration {
        let start = Instant::now();
        let scene = self.engine.scene_mut();
        scene.collect_mesh_renderers_into(&mut self.draws);
        let items = self.draws.iter().map(|d| DrawItem {
            mesh: MeshId(d.renderer.mesh.0),
            material: MaterialId(d.renderer.material.0),
            world: d.world,
            cast_shadows: d.renderer.cast_shadows,
        });
        let renderer = self.engine.renderer();
        let data = &mut self.data;
        data.buckets.fill(items, renderer.assets(), &data.camera);
        black_box(renderer.render(data, self.target.texture()).unwrap());
        let submitted = start.elapsed();
        renderer
            .gpu()
            .device()
            .poll(wgpu::PollType::wait_indefinitely())
            .unwrap();
        if waited { start.elapsed() } else { submitted }
    }
}

fn frames(c: &mut Criterion) {
    let mut group = c.benchmark_group("engine_frame");
    group.sample_size(10);

    let (mut engine, camera) = build(false);
    engine.frame().unwrap();
    let mut draws = Vec::new();
    let mut buckets = DrawBuckets::default();
    let view = camera_view(&engine, camera);
    group.bench_function("bucket_10k", |b| {
        b.iter(|| {
            let scene = engine.scene_mut();
            scene.collect_mesh_renderers_into(&mut draws);
            let items = draws.iter().map(|d| DrawItem {
                mesh: MeshId(d.renderer.mesh.0),
                material: MaterialId(d.renderer.material.0),
                world: d.world,
                cast_shadows: d.renderer.cast_shadows,
            });
            buckets.fill(items, engine.renderer().assets(), &view);
            black_box(buckets.opaque.len())
        });
    });
    group.bench_function("frame_10k_no_shadow", |b| {
        b.iter(|| black_box(engine.frame().unwrap()));
    });
    drop(engine);

    let (mut engine, _) = build(true);
    engine.frame().unwrap();
    group.bench_function("frame_10k", |b| {
        b.iter(|| black_box(engine.frame().unwrap()));
    });
    drop(engine);

    for (name, instancing) in [
        ("frame_10k_instanced_waited", true),
        ("frame_10k_one_draw_each_waited", false),
    ] {
        let mut engine = build_instancing(instancing);
        let stats = engine.frame().unwrap();
        println!("{name}: {} draw calls", stats.draw_calls);
        group.bench_function(name, |b| {
            b.iter(|| {
                let stats = engine.frame().unwrap();
                engine
                    .renderer()
                    .gpu()
                    .device()
                    .poll(wgpu::PollType::wait_indefinitely())
                    .unwrap();
                black_box(stats)
            });
        });
    }

    for (name, culling, waited) in [
        ("frame_10k_half_visible_culled", true, false),
        ("frame_10k_half_visible_unculled", false, false),
        ("frame_10k_half_visible_culled_waited", true, true),
        ("frame_10k_half_visible_unculled_waited", false, true),
    ] {
        let mut hand = HandFrame::half_visible(culling);
        hand.frame(waited);
        let buckets = &hand.data.buckets;
        println!(
            "{name}: {} drawn, {} culled",
            buckets.opaque.len(),
            buckets.culled
        );
        group.bench_function(name, |b| {
            b.iter_custom(|iters| (0..iters).map(|_| hand.frame(waited)).sum());
        });
    }
    group.finish();
}

criterion_group!(benches, frames);
criterion_main!(benches);
