//! What each post effect costs: the `deferred_showcase` scene (a grid of
//! PBR spheres) at 1280 x 720 through the forward preset, with no effect
//! (the baseline, measured in the same run), bloom, depth of field, and
//! both; one full engine frame each with the GPU's work waited for.
//!
//! Run: `cargo bench -p taos_benches --bench post -- --warm-up-time 1 --measurement-time 5`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use taos_benches::frame_waited;
use taos_engine::{Engine, EngineConfig};
use taos_renderer::features::{BloomOptions, DofOptions};
use taos_renderer::presets::{PresetOptions, forward_preset};
use taos_samples::deferred_showcase;

fn engine(options: PresetOptions) -> Engine {
    let mut engine = Engine::headless(EngineConfig::new(1280, 720), forward_preset(options))
        .expect("benches need a GPU adapter (lavapipe on a machine without one)");
    deferred_showcase(&mut engine).expect("the sample scene builds");
    engine.frame().expect("renders");
    engine
}

fn post(c: &mut Criterion) {
    let mut group = c.benchmark_group("post_1280x720");
    group.sample_size(10);
    let bloom = Some(BloomOptions::default());
    let dof = Some(DofOptions::default());
    for (name, options) in [
        ("none", PresetOptions::default()),
        (
            "bloom",
            PresetOptions {
                bloom,
                ..PresetOptions::default()
            },
        ),
        (
            "dof",
            PresetOptions {
                dof,
                ..PresetOptions::default()
            },
        ),
        (
            "bloom_and_dof",
            PresetOptions {
                bloom,
                dof,
                ..PresetOptions::default()
            },
        ),
    ] {
        let mut engine = engine(options);
        group.bench_function(name, |b| {
            b.iter(|| black_box(frame_waited(&mut engine).passes))
        });
    }
    group.finish();
}

criterion_group!(benches, post);
criterion_main!(benches);
