//! What switching one effect costs: turning bloom off and on again with
//! `Renderer::set_enabled` (the features, their pipelines and the baked sky
//! kept) against rebuilding every feature with `Engine::set_preset` (every
//! pipeline compiled again, the sky's tables and image-based light baked
//! again), each followed by the next frame with the GPU's work waited for.
//! A plain frame is measured in the same run as the baseline. The scene is
//! the deferred showcase's (atmosphere sky, image-based light) through the
//! forward preset with bloom, at 160 x 90: the switch, not the pixels, is
//! what is measured.
//!
//! Run: `cargo bench -p taos_benches --bench feature_toggle -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use taos_benches::frame_waited;
use taos_engine::{Engine, EngineConfig};
use taos_renderer::features::{BloomFeature, BloomOptions};
use taos_renderer::presets::{PresetOptions, forward_preset};
use taos_samples::{deferred_showcase, deferred_showcase_options};

fn options() -> PresetOptions {
    PresetOptions {
        bloom: Some(BloomOptions::default()),
        ..deferred_showcase_options().common
    }
}

fn engine() -> Engine {
    let mut engine = Engine::headless(EngineConfig::new(160, 90), forward_preset(options()))
        .expect("benches need a GPU adapter (lavapipe on a machine without one)");
    deferred_showcase(&mut engine).expect("the sample scene builds");
    frame_waited(&mut engine);
    engine
}

fn switch_bloom(engine: &mut Engine, on: bool) {
    engine
        .renderer()
        .set_enabled::<BloomFeature>(on)
        .expect("the preset registers bloom");
}

fn feature_toggle(c: &mut Criterion) {
    let mut group = c.benchmark_group("feature_toggle_160x90");
    group.sample_size(10);
    let mut engine = engine();
    group.bench_function("frame", |b| {
        b.iter(|| black_box(frame_waited(&mut engine).passes))
    });
    group.bench_function("toggle_off_on_then_frame", |b| {
        b.iter(|| {
            switch_bloom(&mut engine, false);
            switch_bloom(&mut engine, true);
            black_box(frame_waited(&mut engine).passes)
        })
    });
    group.bench_function("set_preset_then_frame", |b| {
        b.iter(|| {
            engine.set_preset(forward_preset(options()));
            black_box(frame_waited(&mut engine).passes)
        })
    });
    group.finish();
}

criterion_group!(benches, feature_toggle);
criterion_main!(benches);
