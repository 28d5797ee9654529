//! One engine frame of a 10,000-MeshRenderer scene: scene walk, bucketing,
//! feature updates, graph build, compile, execute and submit, on a headless
//! 64 x 64 target (small, so the software rasteriser's pixel work stays out
//! of the way; its per-draw vertex work is in the figure when the driver
//! runs it on the submitting thread).
//!
//! Cases: `bucket_10k` (the presenter's scene walk and bucketing alone, the
//! allocation-free part), `frame_10k_no_shadow` (forward preset without
//! shadows), `frame_10k` (with three shadow cascades: every caster drawn
//! three more times).
//!
//! Run: `cargo bench -p taos_benches --bench engine_frame`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use taos_engine::prelude::*;
use taos_engine::{Engine, EngineConfig};
use taos_renderer::frame::{DrawBuckets, DrawItem};
use taos_renderer::presets::{PresetOptions, forward_preset};
use taos_renderer::resources::{MaterialId, MeshData, MeshId, PbrMaterial};

const OBJECTS: u32 = 10_000;

fn build(shadows: bool) -> Engine {
    let options = PresetOptions {
        shadow: if shadows {
            Some(Default::default())
        } else {
            None
        },
        ..PresetOptions::default()
    };
    let mut engine = Engine::headless(EngineConfig::new(64, 64), forward_preset(options))
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
    let eye = Transform::from_trs(
        Vec3::new(0.0, 30.0, 60.0),
        Quat::from_rotation_x(-0.5),
        Vec3::ONE,
    );
    let camera = scene.spawn_with("Camera", eye);
    scene
        .add_component(camera, Camera::perspective(60.0, 0.1, 500.0, 1.0).unwrap())
        .unwrap();
    engine
}

fn frames(c: &mut Criterion) {
    let mut group = c.benchmark_group("engine_frame");
    group.sample_size(10);

    let mut engine = build(false);
    engine.frame().unwrap();
    let mut draws = Vec::new();
    let mut buckets = DrawBuckets::default();
    let eye = Vec3::new(0.0, 30.0, 60.0);
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
            buckets.fill(items, engine.renderer().assets(), eye, Vec3::NEG_Z);
            black_box(buckets.opaque.len())
        });
    });
    group.bench_function("frame_10k_no_shadow", |b| {
        b.iter(|| black_box(engine.frame().unwrap()));
    });
    drop(engine);

    let mut engine = build(true);
    engine.frame().unwrap();
    group.bench_function("frame_10k", |b| {
        b.iter(|| black_box(engine.frame().unwrap()));
    });
    group.finish();
}

criterion_group!(benches, frames);
criterion_main!(benches);
