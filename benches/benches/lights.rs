//! Forward vs forward-plus vs deferred (tiled lights and light volumes) on
//! the `many_lights` sample: 64, 256 and 1,024
//! drifting point lights over a field of 144 boxes and balls, 640 x 360,
//! one full engine frame each (behaviours, bucketing, the graph, and the
//! GPU's work waited for).
//!
//! Run: `cargo bench -p taos_benches --bench lights -- --warm-up-time 1 --measurement-time 5`

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use taos_benches::frame_waited;
use taos_engine::{Engine, EngineConfig};
use taos_samples::{LightsPreset, ManyLightsOptions, many_lights};

fn engine(preset: LightsPreset, lights: u32) -> Engine {
    let options = ManyLightsOptions {
        preset,
        lights,
        spots: false,
    };
    let mut engine = Engine::headless(EngineConfig::new(640, 360), options.renderer_preset())
        .expect("benches need a GPU adapter (lavapipe on a machine without one)");
    many_lights(&mut engine, options).expect("the sample scene builds");
    let stats = engine.frame().expect("renders");
    assert_eq!(stats.lights, lights);
    engine
}

fn lights(c: &mut Criterion) {
    let mut group = c.benchmark_group("lights");
    group.sample_size(10);
    for count in [64, 256, 1024] {
        for (name, preset) in [
            ("forward", LightsPreset::Forward),
            ("forward_plus", LightsPreset::ForwardPlus),
            ("deferred_tiled", LightsPreset::Deferred),
            ("deferred_volumes", LightsPreset::DeferredVolumes),
        ] {
            let mut engine = engine(preset, count);
            group.bench_with_input(BenchmarkId::new(name, count), &count, |b, _| {
                b.iter(|| black_box(frame_waited(&mut engine).lights));
            });
        }
    }
    group.finish();
}

criterion_group!(benches, lights);
criterion_main!(benches);
