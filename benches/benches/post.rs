//! What each post effect costs: the `deferred_showcase` scene (a grid of
//! PBR spheres) at 1280 x 720 through the forward preset, with no effect
//! (the baseline, measured in the same run), bloom, depth of field, TAA,
//! 4x MSAA, and all of them; one full engine frame each with the GPU's
//! work waited for. After each, the GPU time of every pass of its last
//! timed frame is printed.
//!
//! Run: `cargo bench -p taos_benches --bench post -- --warm-up-time 1 --measurement-time 5`

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use taos_benches::{frame_waited, gpu_pass_times};
use taos_engine::{Engine, EngineConfig};
use taos_renderer::features::{BloomOptions, DofOptions, TaaOptions};
use taos_renderer::presets::{PresetOptions, forward_preset};
use taos_samples::deferred_showcase;

fn engine(options: PresetOptions) -> Engine {
    let mut engine = Engine::headless(EngineConfig::new(1280, 720), forward_preset(options))
        .expect("benches need a GPU adapter (lavapipe on a machine without one)");
    deferred_showcase(&mut engine).expect("the sample scene builds");
    engine.frame().expect("renders");
    engine
}

/// Each configuration: a name and its preset options.
fn configurations() -> Vec<(&'static str, PresetOptions)> {
    let with = |edit: fn(&mut PresetOptions)| {
        let mut options = PresetOptions::default();
        edit(&mut options);
        options
    };
    vec![
        ("none", PresetOptions::default()),
        ("bloom", with(|o| o.bloom = Some(BloomOptions::default()))),
        ("dof", with(|o| o.dof = Some(DofOptions::default()))),
        ("taa", with(|o| o.taa = Some(TaaOptions::default()))),
        ("msaa4", with(|o| o.msaa = 4)),
        (
            "every_effect",
            with(|o| {
                o.bloom = Some(BloomOptions::default());
                o.dof = Some(DofOptions::default());
                o.taa = Some(TaaOptions::default());
                o.msaa = 4;
            }),
        ),
    ]
}

/// Prints the GPU time of each pass of the last timed frame (lavapipe
/// has timestamp queries): where an effect's cost goes.
fn print_gpu_passes(name: &str, engine: &mut Engine) {
    match gpu_pass_times(engine) {
        Some(times) => eprintln!("{name}: {times}"),
        None => eprintln!("{name}: no GPU timings on this device"),
    }
}

fn post(c: &mut Criterion) {
    let mut group = c.benchmark_group("post_1280x720");
    group.sample_size(10);
    for (name, options) in configurations() {
        let mut engine = engine(options);
        group.bench_function(name, |b| {
            b.iter(|| black_box(frame_waited(&mut engine).passes))
        });
        print_gpu_passes(name, &mut engine);
    }
    group.finish();
}

criterion_group!(benches, post);
criterion_main!(benches);
