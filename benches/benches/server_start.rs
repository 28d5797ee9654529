//! What starting crafty's server costs after a long history: the world of
//! 100,000 edits spread over 2,048 × 2,048 blocks, loaded from redb and
//! made into a `Server`, two ways, same run:
//! - `server_start/replay_log_100k`: the database holds the edit log (as
//!   a server that never folded would): read every edit and replay it;
//! - `server_start/chunks_100k`: the database holds the log folded into
//!   one snapshot per changed chunk (what the server keeps now): read the
//!   snapshots and lay them over the seed's world.
//!
//! Goal (issue 57): starting from chunks at least 10x faster than
//! replaying the log.
//!
//! Run: `cargo bench -p taos_benches --bench server_start -- --warm-up-time 1 --measurement-time 5`

use std::hint::black_box;
use std::sync::Arc;

use crafty::world::{BlockEdit, BlockType, World};
use crafty_net::{MemoryLink, WorldId};
use crafty_server::{SaveBatch, Server, ServerConfig, ServerStore};
use criterion::{Criterion, criterion_group, criterion_main};
use glam::IVec3;
use taos_engine::storage::{RedbBackend, RedbDatabase, block_on};

const EDITS: usize = 100_000;

fn edits() -> Vec<BlockEdit> {
    let blocks = [
        BlockType::Air,
        BlockType::Glass,
        BlockType::Planks,
        BlockType::Stone,
    ];
    (0..EDITS as i32)
        .map(|i| {
            let pos = IVec3::new(
                (i.wrapping_mul(7919)).rem_euclid(2048) - 1024,
                20 + (i.wrapping_mul(31)).rem_euclid(90),
                (i.wrapping_mul(104_729)).rem_euclid(2048) - 1024,
            );
            BlockEdit::new(pos, blocks[(i as usize) % blocks.len()])
        })
        .collect()
}

fn start(store: &Arc<ServerStore<RedbDatabase>>, config: ServerConfig) -> Server<MemoryLink> {
    Server::load(config, store).expect("the world loads")
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("a temp dir");
    let backend = RedbBackend::new(dir.path());
    let config = ServerConfig::default();
    let edits = edits();

    let log = Arc::new(block_on(ServerStore::open(&backend, "log")).expect("a database"));
    block_on(log.load(config.seed)).expect("a new world");
    for (n, batch) in edits.chunks(1000).enumerate() {
        let saved = SaveBatch {
            first: (n * 1000) as u64,
            edits: batch,
            records: Default::default(),
            seed: config.seed,
            tick: 0,
            world: WorldId([1; 16]),
            fold: Vec::new(),
        };
        block_on(log.save(&saved)).expect("a batch saves");
    }

    let chunks = Arc::new(block_on(ServerStore::open(&backend, "chunks")).expect("a database"));
    let mut world = World::new(config.seed);
    for edit in &edits {
        world
            .set_block(edit.pos(), edit.block)
            .expect("inside the world");
    }
    let mut server: Server<MemoryLink> = Server::with_world(config, world, Default::default());
    server
        .save_all(|batch: SaveBatch<'_>| block_on(chunks.save(&batch)))
        .expect("the fold saves");
    let changed = server.changed_chunks();
    drop(server);

    // Both start the same world.
    let (a, b) = (start(&log, config), start(&chunks, config));
    assert_eq!(a.edits_made(), b.edits_made());
    assert_eq!(b.changed_chunks(), changed);
    for edit in edits.iter().step_by(997) {
        assert_eq!(a.world().block(edit.pos()), b.world().block(edit.pos()));
    }
    println!("{EDITS} edits in {changed} changed chunks");

    let mut group = c.benchmark_group("server_start");
    group.sample_size(10);
    group.bench_function("replay_log_100k", |bench| {
        bench.iter(|| black_box(start(&log, config)));
    });
    group.bench_function("chunks_100k", |bench| {
        bench.iter(|| black_box(start(&chunks, config)));
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
