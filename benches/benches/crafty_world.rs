//! crafty's world generation: how long one 32³ chunk takes to generate, by
//! the original hills generator (the baseline, measured in the same run)
//! and by the biome generator with caves, for a surface chunk (ground,
//! water, trees) and an underground chunk (caves). What flying over the
//! world costs a frame is the `crafty_flight` bench.
//!
//! Run: `cargo bench -p taos_benches --bench crafty_world -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use crafty::world::{ChunkPos, Terrain, TerrainGenerator};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

fn generation(c: &mut Criterion) {
    let mut group = c.benchmark_group("crafty_world/generate_chunk");
    group.throughput(Throughput::Elements(1));
    for (case, pos) in [
        ("surface", ChunkPos::new(1, 2, 1)),
        ("underground", ChunkPos::new(1, 1, 1)),
    ] {
        for generator in [TerrainGenerator::Hills, TerrainGenerator::Biomes] {
            let terrain = Terrain::with_generator(42, generator);
            let mut x = 0;
            group.bench_function(BenchmarkId::new(format!("{generator:?}"), case), |b| {
                b.iter(|| {
                    // A new column each time: nothing is cached between chunks.
                    x += 1;
                    black_box(terrain.generate(ChunkPos::new(pos.0.x + x, pos.0.y, pos.0.z)))
                });
            });
        }
    }
    group.finish();
}

criterion_group!(benches, generation);
criterion_main!(benches);
