//! crafty's world generation: how long one 32³ chunk takes to generate, by
//! the original hills generator (the baseline, measured in the same run)
//! and by the biome generator with caves, for a surface chunk (ground,
//! water, trees) and an underground chunk (caves).
//!
//!
//! And `flight`: the CPU side of every frame (the tick, then handing
//! chunks to the generator and mesher workers and meshes to the renderer's
//! handle; no GPU) while flying 64 chunks (2048 blocks) in a straight line
//! at 20 blocks a second over a biome world, at view distance 8 and 16 with
//! background generation, and at 8 with everything generated in the tick
//! (how crafty worked before: the baseline). Criterion times whole flights;
//! the median and worst frame of each case, and the chunks resident at the
//! end with the bytes their blocks take (32 KiB for a chunk of mixed blocks,
//! nothing for one of a single kind: air, rock, water), are printed after
//! it.
//!
//! Run: `cargo bench -p taos_benches --bench crafty_world -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;
use std::time::{Duration, Instant};

use crafty::game::{state, state_mut, teleport};
use crafty::inventory::GameMode;
use crafty::render::CraftyPipelineFeature;
use crafty::save::{PlayerState, SavedWorld};
use crafty::session::{MESH_JOBS_PER_FRAME, MESH_UPLOADS_PER_FRAME, Session};
use crafty::world::{CHUNK_VOLUME, ChunkPos, Terrain, TerrainGenerator};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use glam::Vec3;
use taos_engine::game_loop::{ActionFlags, ManualClock};

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

/// Blocks flown each 60 Hz frame: 20 blocks a second.
const STEP: f32 = 1.0 / 3.0;
/// 64 chunks.
const FLIGHT: f32 = 2048.0;

/// One flight; returns every frame's CPU time, and the chunks loaded at the
/// end and the bytes their blocks take.
fn fly(radius: i32, background: bool) -> (Vec<Duration>, usize, usize) {
    let mut record = SavedWorld::create("Flight", 42, GameMode::Creative, 0)
        .with_generator(TerrainGenerator::Biomes);
    record.player = PlayerState {
        x: 16.5,
        y: 120.0,
        z: 16.5,
        yaw: 0.0,
        pitch: -0.2,
    };
    let (_, render) = CraftyPipelineFeature::new();
    let (mut session, mut game) = Session::fresh(record, ManualClock::new(), render);
    state_mut(&mut game).set_view_radius(radius);
    state_mut(&mut game).set_background_generation(background);
    session.finish_meshing(&mut game);
    let frames = (FLIGHT / STEP) as usize;
    let mut times = Vec::with_capacity(frames);
    for frame in 0..frames {
        let start = Instant::now();
        let z = 16.5 - frame as f32 * STEP;
        teleport(&mut game, Vec3::new(16.5, 120.0, z));
        game.step_with(ActionFlags(0));
        session.sync_render(&mut game, MESH_JOBS_PER_FRAME, MESH_UPLOADS_PER_FRAME);
        times.push(start.elapsed());
    }
    let world = &state(&game).world;
    (times, world.loaded_chunks().count(), world.block_bytes())
}

fn flight(c: &mut Criterion) {
    let mut group = c.benchmark_group("crafty_world/flight_64_chunks");
    group.sample_size(10);
    let mut report = Vec::new();
    for (radius, background) in [(8, true), (16, true), (8, false)] {
        let name = if background { "background" } else { "in_tick" };
        let mut frames = Vec::new();
        let mut chunks = 0;
        let mut bytes = 0;
        group.bench_function(BenchmarkId::new(name, format!("view_{radius}")), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let (times, loaded, block_bytes) = fly(radius, background);
                    total += times.iter().sum::<Duration>();
                    frames.extend(times);
                    chunks = loaded;
                    bytes = block_bytes;
                }
                total
            });
        });
        frames.sort_unstable();
        let median = frames.get(frames.len() / 2).copied().unwrap_or_default();
        let worst = frames.last().copied().unwrap_or_default();
        let mib = bytes as f64 / (1024.0 * 1024.0);
        let flat = (chunks * CHUNK_VOLUME) as f64 / (1024.0 * 1024.0);
        report.push(format!(
            "{name} view {radius}: median frame {median:?}, worst {worst:?} over {} frames; {chunks} chunks resident ({mib:.0} MiB of blocks, {flat:.0} MiB if every chunk were an array)",
            frames.len()
        ));
    }
    group.finish();
    for line in report {
        println!("crafty_world/flight: {line}");
    }
}

criterion_group!(benches, generation, flight);
criterion_main!(benches);
