//! Particles: a full engine frame (spawning, simulation, sorting where
//! blending needs it, drawing; the GPU's work waited for) at 640 x 360 with
//! one emitter holding about N living particles, against the same frame
//! without the emitter (the baseline, measured in the same run). The GPU
//! path at 100k and 1M (additive), 100k alpha-blended (sorted), and the
//! CPU path (WebGL2's) at 50k. After each case one line gives the
//! particle feature's CPU time (spawning; on the CPU path also the step,
//! sort and upload) and the GPU time of each pass where the device has
//! timestamp queries.
//!
//! Run: `cargo bench -p taos_benches --bench particles -- --warm-up-time 1 --measurement-time 5`
//! (a filter such as `cpu_` runs only those cases, with the baseline: `-- 'no_emitter|cpu_'`)

use std::hint::black_box;
use std::sync::Arc;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use glam::{Quat, Vec3};
use taos_benches::{frame_waited, gpu_pass_times};
use taos_engine::particles::{
    EmitterShape, FloatRange, ParticleBlend, ParticleEffect, ParticleEmitter, ParticleFeature,
    ParticlePath,
};
use taos_engine::prelude::*;
use taos_engine::{Engine, EngineConfig};
use taos_renderer::presets::{PresetOptions, forward_preset};

/// Seconds every particle lives: the emitter spawns N / LIFETIME per second.
const LIFETIME: f32 = 2.0;

fn effect(count: u32, blend: ParticleBlend) -> ParticleEffect {
    ParticleEffect {
        name: format!("bench {count}"),
        max_particles: count,
        rate: count as f32 / LIFETIME,
        shape: EmitterShape::Box {
            half_extents: Vec3::new(4.0, 1.0, 2.0),
        },
        lifetime: FloatRange::constant(LIFETIME),
        speed: FloatRange::new(0.1, 0.5),
        gravity: Vec3::new(0.0, -0.3, 0.0),
        drag: 0.2,
        size: FloatRange::constant(0.04),
        blend,
        ..Default::default()
    }
}

/// A camera over a floor; with `emitter`, one emitter run until full.
fn engine(emitter: Option<(ParticleEffect, ParticlePath)>) -> Engine {
    let mut engine = Engine::headless(
        EngineConfig::new(640, 360),
        forward_preset(PresetOptions {
            shadow: None,
            ..PresetOptions::default()
        }),
    )
    .expect("benches need a GPU adapter (lavapipe on a machine without one)");
    engine.renderer().set_gpu_timings(true);
    let scene = engine.scene_mut();
    let view = glam::camera::rh::view::look_at_mat4(Vec3::new(0.0, 2.0, 9.0), Vec3::Y, Vec3::Y);
    let (_, rotation, position) = view.inverse().to_scale_rotation_translation();
    let camera = scene.spawn_with("Camera", Transform::from_trs(position, rotation, Vec3::ONE));
    scene
        .add_component(
            camera,
            Camera::perspective(60.0, 0.1, 100.0, 16.0 / 9.0).unwrap(),
        )
        .unwrap();
    if let Some((effect, path)) = emitter {
        let count = effect.max_particles;
        engine
            .renderer()
            .feature_mut::<ParticleFeature>()
            .expect("the preset has particles")
            .set_path(path);
        let scene = engine.scene_mut();
        let object = scene.spawn_with(
            "Emitter",
            Transform::from_trs(Vec3::new(0.0, 1.5, 0.0), Quat::IDENTITY, Vec3::ONE),
        );
        scene
            .add_component(object, ParticleEmitter::new(Arc::new(effect)))
            .unwrap();
        // Past one lifetime (60 frames a second): the ring is full.
        for _ in 0..(LIFETIME * 60.0) as usize + 10 {
            engine.frame().unwrap();
        }
        let alive = engine
            .renderer()
            .feature::<ParticleFeature>()
            .unwrap()
            .alive();
        assert!(alive * 10 >= count * 9, "{alive} of {count} alive");
    } else {
        engine.frame().unwrap();
    }
    engine
}

fn particles(c: &mut Criterion) {
    let mut group = c.benchmark_group("particles");
    group.sample_size(10);
    let mut baseline = engine(None);
    group.bench_function("no_emitter", |b| {
        b.iter(|| black_box(frame_waited(&mut baseline).draw_calls));
    });
    let cases = [
        (
            "gpu_additive",
            100_000,
            ParticleBlend::Additive,
            ParticlePath::Gpu,
        ),
        (
            "gpu_additive",
            1_000_000,
            ParticleBlend::Additive,
            ParticlePath::Gpu,
        ),
        (
            "gpu_alpha_sorted",
            100_000,
            ParticleBlend::Alpha,
            ParticlePath::Gpu,
        ),
        (
            "cpu_additive",
            50_000,
            ParticleBlend::Additive,
            ParticlePath::Cpu,
        ),
        (
            "cpu_alpha_sorted",
            50_000,
            ParticleBlend::Alpha,
            ParticlePath::Cpu,
        ),
    ];
    for (name, count, blend, path) in cases {
        // Built on the first sample only: a filtered-out case costs nothing.
        let mut built: Option<Engine> = None;
        group.bench_with_input(BenchmarkId::new(name, count), &count, |b, _| {
            let engine = built.get_or_insert_with(|| engine(Some((effect(count, blend), path))));
            b.iter(|| black_box(frame_waited(engine).particles));
        });
        if let Some(mut engine) = built {
            let cpu = engine
                .renderer()
                .feature::<ParticleFeature>()
                .map_or(0.0, |feature| feature.cpu_time().as_secs_f64() * 1e3);
            let gpu = gpu_pass_times(&mut engine).unwrap_or_default();
            println!("{name}/{count}: particle CPU work {cpu:.2} ms; {gpu}");
        }
    }
    group.finish();
}

criterion_group!(benches, particles);
criterion_main!(benches);
