//! glTF import and spawn times, each beside a baseline measured in the
//! same run:
//!
//! - `nodes_10000`: the 10,000-node test scene
//!   ([`test_models::many_nodes`]). Baseline `gltf_crate_parse`: reading
//!   the file and `gltf::Gltf::from_slice` (the JSON parse and validation
//!   every importer on the `gltf` crate pays). Then `taos_import`
//!   ([`GltfModel::load`]: buffers, meshes, the node forest) and
//!   `load_and_spawn` ([`Engine::load_gltf`]: the import, the GPU upload
//!   and 10,000 GameObjects).
//! - `textures_8x512`: eight quads, each with its own 512 x 512 PNG
//!   ([`test_models::many_textures`]). Baseline `decode_only`: reading and
//!   decoding the eight PNGs one after the other with `image`. Then
//!   `taos_import` (decoding in parallel above 256 KiB) and
//!   `load_and_spawn` (plus the texture uploads with their mip chains,
//!   the GPU's work waited for).
//!
//! `load_and_spawn` runs in a fresh engine each iteration (made outside
//! the timing) so that assets do not pile up.
//!
//! Run: `cargo bench -p taos_benches --bench gltf -- --warm-up-time 1 --measurement-time 5`

use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::measurement::WallTime;
use criterion::{BatchSize, BenchmarkGroup, Criterion, criterion_group, criterion_main};
use taos_engine::gltf::GltfSpawnOptions;
use taos_engine::{Engine, EngineConfig};
use taos_gltf::{GltfModel, test_models};

/// An engine with no render features: spawning needs only its assets and scene.
fn bare_engine() -> Engine {
    Engine::headless(EngineConfig::new(64, 64), |_| {})
        .expect("benches need a GPU adapter (lavapipe on a machine without one)")
}

fn load_and_spawn(engine: &mut Engine, path: &Path) {
    let spawned = engine
        .load_gltf(path, &GltfSpawnOptions::default())
        .expect("the test model spawns");
    engine
        .renderer()
        .gpu()
        .device()
        .poll(wgpu::PollType::wait_indefinitely())
        .expect("the GPU finishes the uploads");
    black_box(spawned);
}

/// `load_and_spawn` in a fresh engine per iteration (made outside the timing).
fn bench_load_and_spawn(group: &mut BenchmarkGroup<'_, WallTime>, path: &Path) {
    group.bench_function("load_and_spawn", |b| {
        b.iter_batched(
            bare_engine,
            |mut engine| {
                load_and_spawn(&mut engine, path);
                engine
            },
            BatchSize::PerIteration,
        );
    });
}

fn nodes(c: &mut Criterion, dir: &Path) {
    let path = test_models::many_nodes(dir, test_models::MANY_NODES_DEFAULT).expect("writes");
    let mut group = c.benchmark_group("gltf/nodes_10000");
    group.sample_size(10);
    group.bench_function("gltf_crate_parse", |b| {
        b.iter(|| {
            let bytes = std::fs::read(&path).expect("reads");
            black_box(gltf::Gltf::from_slice(&bytes).expect("parses"))
        });
    });
    group.bench_function("taos_import", |b| {
        b.iter(|| black_box(GltfModel::load(&path).expect("imports")));
    });
    bench_load_and_spawn(&mut group, &path);
    group.finish();
}

fn textures(c: &mut Criterion, dir: &Path) {
    let path = test_models::many_textures(dir, 8, 512).expect("writes");
    let images = png_files(dir);
    assert_eq!(images.len(), 8, "one PNG per quad in {}", dir.display());
    let mut group = c.benchmark_group("gltf/textures_8x512");
    group.sample_size(10);
    group.bench_function("decode_only", |b| {
        b.iter(|| {
            for image in &images {
                let bytes = std::fs::read(image).expect("reads");
                black_box(image::load_from_memory(&bytes).expect("decodes").to_rgba8());
            }
        });
    });
    group.bench_function("taos_import", |b| {
        b.iter(|| black_box(GltfModel::load(&path).expect("imports")));
    });
    bench_load_and_spawn(&mut group, &path);
    group.finish();
}

fn png_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("lists")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "png"))
        .collect();
    files.sort();
    files
}

fn gltf_benches(c: &mut Criterion) {
    let nodes_dir = tempfile::tempdir().expect("a temporary directory");
    nodes(c, nodes_dir.path());
    let textures_dir = tempfile::tempdir().expect("a temporary directory");
    textures(c, textures_dir.path());
}

criterion_group!(benches, gltf_benches);
criterion_main!(benches);
