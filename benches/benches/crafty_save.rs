//! crafty's saved worlds: loading a long edit history, and what one autosave
//! costs once the history is long, against the original game's approach
//! (one record holding every edit as JSON, rewritten on every save).
//!
//! Cases (redb files in a temp directory, every write its own durable commit):
//! - `crafty_save/load_100k/{redb,memory}`: load a world of 100,000 edits
//!   saved over 50 autosaves (record, 50 segments, checksums) and replay it
//!   into a `World`; `redb_without_replay` stops after decoding the edits.
//! - `crafty_save/load_100k/reference_json_redb`: the original layout: read
//!   one JSON record with the 100,000 edits inline, parse it, replay.
//! - `crafty_save/autosave_1_edit_over_1M/segments_redb`: one new edit, then
//!   an autosave, with 1,000,000 edits already stored: one new segment plus
//!   the small record (merges of small segments included when they happen).
//! - `crafty_save/autosave_1_edit_over_1M/reference_json_redb`: one new edit,
//!   then the whole record with all edits rewritten as JSON.
//!
//! Run: `cargo bench -p taos_benches --bench crafty_save -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;

use crafty::inventory::GameMode;
use crafty::save::{PlaySnapshot, SaveSession, SavedWorld, WorldStore};
use crafty::world::{BlockEdit, BlockType, World};
use criterion::{Criterion, criterion_group, criterion_main};
use glam::IVec3;
use serde::{Deserialize, Serialize};
use taos_engine::storage::{
    Database, MemoryBackend, RedbBackend, RedbDatabase, StorageBackend, Transaction,
    TransactionMode, block_on,
};

const LOAD_EDITS: usize = 100_000;
const LOAD_AUTOSAVES: usize = 50;
const HISTORY_EDITS: usize = 1_000_000;

/// The `i`th edit of a deterministic session spread over a 512×512 area.
fn edit(i: usize) -> (IVec3, BlockType) {
    let i = i as i32;
    let pos = IVec3::new(
        (i.wrapping_mul(7919)).rem_euclid(512) - 256,
        20 + (i.wrapping_mul(31)).rem_euclid(100),
        (i.wrapping_mul(104_729)).rem_euclid(512) - 256,
    );
    let blocks = [
        BlockType::Air,
        BlockType::Glass,
        BlockType::Planks,
        BlockType::Cobblestone,
    ];
    (pos, blocks[(i as usize) % blocks.len()])
}

fn play(world: &mut World, from: usize, to: usize) {
    for i in from..to {
        let (pos, block) = edit(i);
        world.set_block(pos, block).unwrap();
    }
}

/// The original game's record: metadata plus every edit inline, as JSON.
#[derive(Serialize)]
struct ReferenceRecord<'a> {
    #[serde(flatten)]
    meta: &'a SavedWorld,
    edits: &'a [BlockEdit],
}

#[derive(Deserialize)]
struct ReferenceLoaded {
    seed: u64,
    edits: Vec<BlockEdit>,
}

fn put_reference(db: &RedbDatabase, meta: &SavedWorld, edits: &[BlockEdit]) -> usize {
    let bytes = serde_json::to_vec(&ReferenceRecord { meta, edits }).unwrap();
    block_on(
        db.transaction(&["worlds"], TransactionMode::ReadWrite, async |tx| {
            tx.put_raw("worlds", &meta.id, &bytes).await
        }),
    )
    .unwrap();
    bytes.len()
}

fn reference_db(dir: &std::path::Path) -> RedbDatabase {
    block_on(RedbBackend::new(dir).open("reference", 1, |up| {
        up.create_store("worlds")?;
        Ok(())
    }))
    .unwrap()
}

/// Saves a world of `edits` edits over `autosaves` autosaves; returns its id.
fn saved_world<B: StorageBackend>(
    store: &WorldStore<B>,
    edits: usize,
    autosaves: usize,
) -> (String, World, SaveSession) {
    let record = SavedWorld::create("Bench", 2024, GameMode::Creative, 0);
    let id = record.id.clone();
    let mut world = World::new(record.seed);
    let mut session = SaveSession::new(record);
    let snapshot = PlaySnapshot::of(session.record());
    let per = edits / autosaves;
    for round in 0..autosaves {
        play(&mut world, round * per, (round + 1) * per);
        block_on(session.autosave(store, &world, &snapshot, round as u64)).unwrap();
    }
    (id, world, session)
}

fn load(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let mut group = c.benchmark_group("crafty_save/load_100k");
    group.sample_size(20);

    let redb = block_on(WorldStore::open(&RedbBackend::new(dir.path()))).unwrap();
    let (id, world, _) = saved_world(&redb, LOAD_EDITS, LOAD_AUTOSAVES);
    group.bench_function("redb", |b| {
        b.iter(|| {
            let loaded = block_on(redb.load(&id)).unwrap();
            black_box(loaded.world())
        });
    });

    group.bench_function("redb_without_replay", |b| {
        b.iter(|| black_box(block_on(redb.load(&id)).unwrap()));
    });

    let memory = block_on(WorldStore::open(&MemoryBackend::new())).unwrap();
    let (mem_id, _, _) = saved_world(&memory, LOAD_EDITS, LOAD_AUTOSAVES);
    group.bench_function("memory", |b| {
        b.iter(|| {
            let loaded = block_on(memory.load(&mem_id)).unwrap();
            black_box(loaded.world())
        });
    });

    let reference = reference_db(dir.path());
    let meta = block_on(redb.load(&id)).unwrap().record;
    let bytes = put_reference(&reference, &meta, world.edits());
    println!("reference record with {LOAD_EDITS} edits: {bytes} bytes of JSON");
    group.bench_function("reference_json_redb", |b| {
        b.iter(|| {
            let bytes = block_on(reference.transaction(
                &["worlds"],
                TransactionMode::ReadOnly,
                async |tx| tx.get_raw("worlds", &id).await,
            ))
            .unwrap()
            .unwrap();
            let record: ReferenceLoaded = serde_json::from_slice(&bytes).unwrap();
            black_box(World::with_edits(record.seed, record.edits))
        });
    });
    group.finish();
}

fn autosave(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let mut group = c.benchmark_group("crafty_save/autosave_1_edit_over_1M");
    group.sample_size(10);

    let store = block_on(WorldStore::open(&RedbBackend::new(dir.path()))).unwrap();
    let (_, mut world, mut session) = saved_world(&store, HISTORY_EDITS, 1);
    let snapshot = PlaySnapshot::of(session.record());
    let mut next = HISTORY_EDITS;
    let mut bytes = 0;
    let mut saves = 0;
    group.bench_function("segments_redb", |b| {
        b.iter(|| {
            play(&mut world, next, next + 1);
            next += 1;
            let report =
                block_on(session.autosave(&store, &world, &snapshot, next as u64)).unwrap();
            bytes += report.segment_bytes;
            saves += 1;
        });
    });
    if saves > 0 {
        println!(
            "segments: {saves} autosaves wrote {bytes} segment bytes ({:.1} per autosave)",
            bytes as f64 / saves as f64
        );
    }

    let reference = reference_db(dir.path());
    let meta = session.record().clone();
    let mut edits = world.edits()[..HISTORY_EDITS].to_vec();
    let mut next = HISTORY_EDITS;
    let mut last = 0;
    group.bench_function("reference_json_redb", |b| {
        b.iter(|| {
            let (pos, block) = edit(next);
            edits.push(BlockEdit::new(pos, block));
            next += 1;
            last = put_reference(&reference, &meta, &edits);
        });
    });
    if last > 0 {
        println!("reference: each autosave rewrote {last} bytes of JSON");
    }
    group.finish();
}

criterion_group!(benches, load, autosave);
criterion_main!(benches);
