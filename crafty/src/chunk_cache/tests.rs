//! The game's chunk cache: a rejoin after the game's cache object was
//! dropped and made again from the same database downloads no chunk; a
//! damaged record is skipped with a warning; the budget evicts the oldest
//! regions, in storage too; a full disk leaves the cache in memory and the
//! game going.

use std::rc::Rc;
use std::time::Duration;

use crafty_client::ChunkCache as _;
use crafty_net::{Conditions, MemoryNet, WorldId};
use crafty_server::{Server, ServerConfig};
use glam::IVec3;
use taos_engine::game_loop::ManualClock;
use taos_engine::storage::faults::{FileFaults, FileOp, InjectedError};
use taos_engine::storage::{
    Database as _, MemoryBackend, RedbBackend, Transaction as _, TransactionMode, block_on,
};

use super::record::{region_key, server_prefix};
use super::{ChunkStorage, ChunkStore, GameChunkCache, REGIONS_STORE};
use crate::game::state;
use crate::online::{JoinCost, Online};
use crate::render::CraftyPipelineFeature;
use crate::world::{BlockType, World};

const TICK: Duration = Duration::from_millis(50);

/// `count` edits spread over 1,000 × 1,000 blocks around the origin, from
/// a fixed seed, and where they are.
fn edited_world(seed: u64, count: usize) -> (World, Vec<IVec3>) {
    let mut world = World::new(seed);
    let mut rng = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move |n: u64| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng % n
    };
    let mut at = Vec::with_capacity(count);
    for _ in 0..count {
        let pos = IVec3::new(
            next(1000) as i32 - 500,
            30 + next(60) as i32,
            next(1000) as i32 - 500,
        );
        let block = [BlockType::Stone, BlockType::Air, BlockType::Sand][next(3) as usize];
        world.set_block(pos, block).unwrap();
        at.push(pos);
    }
    (world, at)
}

/// Joins `server` as the game does (its session and loop), with `cache`,
/// plays until the join's chunks stop coming, then leaves. Returns what
/// the join cost and whether the game's world showed every edit in
/// `check` as `truth` has it.
fn play_a_join(
    server: &mut Server<crafty_net::MemoryLink>,
    net: &MemoryNet,
    cache: GameChunkCache,
    token: Option<crafty_net::protocol::Token>,
    check: &[IVec3],
    truth: &World,
) -> (JoinCost, Option<crafty_net::protocol::Token>) {
    let (client, end) = net.connect();
    server.accept(end);
    let mut online = Online::join_cached("memory", "Ada", Box::new(client), token, cache);
    let mut welcome = None;
    for _ in 0..20 {
        server.tick();
        net.advance(TICK);
        welcome = online.welcome().expect("the server lets Ada in");
        if welcome.is_some() {
            break;
        }
    }
    let welcome = welcome.expect("welcomed");
    let (_, render) = CraftyPipelineFeature::new();
    let (_session, mut game) = online
        .start_session(&welcome, ManualClock::new(), render)
        .unwrap();
    for _ in 0..600 {
        game.step();
        online.sync(&mut game);
        server.tick();
        net.advance(TICK);
        if online.join_cost().is_some() {
            break;
        }
    }
    let cost = online
        .join_cost()
        .expect("the join's chunks stopped coming");
    let world = &state(&game).world;
    for at in check {
        assert_eq!(
            world.block(*at),
            truth.block(*at),
            "the game shows {at} wrong"
        );
    }
    let token = online.connection.token;
    online.leave();
    for _ in 0..5 {
        server.tick();
        net.advance(TICK);
    }
    (cost, token)
}

#[test]
fn a_rejoin_with_the_stored_cache_downloads_no_chunk() {
    let config = ServerConfig::default();
    let (world, edited) = edited_world(config.seed, 12_000);
    let truth = world.clone();
    let mut server = Server::with_world(config, world, Default::default());
    let net = MemoryNet::new(Conditions::PERFECT, 1);
    let dir = tempfile::tempdir().unwrap();
    let open = || -> Rc<dyn ChunkStorage> {
        Rc::new(block_on(ChunkStore::open(&RedbBackend::new(dir.path()))).unwrap())
    };
    // Spawn is near the origin: edits within 200 blocks of it are in view.
    let near: Vec<IVec3> = edited
        .iter()
        .filter(|at| at.x.abs() < 200 && at.z.abs() < 200)
        .copied()
        .collect();
    assert!(near.len() > 500, "{} edits near spawn", near.len());

    let cache = GameChunkCache::open("memory", Some(open()));
    let (cold, token) = play_a_join(&mut server, &net, cache, None, &near, &truth);
    assert_eq!(cold.from_cache, 0);
    assert!(cold.downloaded > 100, "{cold}");

    // The game restarts: a new cache object on the same database.
    let mut cache = GameChunkCache::open("memory", Some(open()));
    assert!(cache.poll_loaded());
    let loaded = cache.loaded();
    assert_eq!(loaded.chunks, cold.downloaded, "{loaded:?}");
    assert_eq!(loaded.skipped, 0);
    let (warm, _) = play_a_join(&mut server, &net, cache, token, &near, &truth);
    println!("cold join: {cold}; warm join: {warm}; stored: {loaded:?}");
    assert_eq!(warm.downloaded, 0, "{warm}");
    assert_eq!(warm.from_cache, cold.downloaded);
    let ratio = warm.chunk_bytes as f64 / cold.chunk_bytes as f64;
    assert!(
        ratio < 0.10,
        "a warm join costs {:.1}% of a cold one",
        ratio * 100.0
    );

    // Another server's cache is not this one's.
    let mut other = GameChunkCache::open("elsewhere:30000", Some(open()));
    assert!(other.poll_loaded());
    assert_eq!(other.loaded().regions, 0);
}

/// Puts one chunk of `world` in region `region` (its first column).
fn put_in_region(cache: &GameChunkCache, world: WorldId, region: [i32; 2], bytes: usize) {
    let at = [region[0] * 8, 2, region[1] * 8];
    cache.handle().put(world, at, 1, &vec![7; bytes]);
    cache.handle().put_region(world, region, (1, vec![(at, 1)]));
}

fn stored_keys(store: &ChunkStore<taos_engine::storage::MemoryDatabase>) -> Vec<String> {
    block_on(store.database().transaction(
        &[REGIONS_STORE],
        TransactionMode::ReadOnly,
        async |tx| tx.keys(REGIONS_STORE).await,
    ))
    .unwrap()
}

#[test]
fn a_record_that_does_not_read_is_skipped_with_a_warning() {
    let backend = MemoryBackend::new();
    let store = Rc::new(block_on(ChunkStore::open(&backend)).unwrap());
    let world = WorldId([4; 16]);
    let mut cache = GameChunkCache::open("srv:1", Some(store.clone()));
    assert!(cache.poll_loaded());
    put_in_region(&cache, world, [0, 0], 100);
    cache.flush(true);
    let bad = region_key("srv:1", world, [5, 5]);
    block_on(store.database().transaction(
        &[REGIONS_STORE],
        TransactionMode::ReadWrite,
        async |tx| tx.put_raw(REGIONS_STORE, &bad, b"\x00 damaged \xff").await,
    ))
    .unwrap();
    drop(cache);

    let mut cache = GameChunkCache::open("srv:1", Some(store.clone()));
    assert!(cache.poll_loaded());
    assert_eq!(cache.loaded().regions, 1);
    assert_eq!(cache.loaded().skipped, 1);
    assert!(
        cache.warnings().iter().any(|w| w.contains("is skipped")),
        "{:?}",
        cache.warnings()
    );
    assert_eq!(
        cache.handle().get(world, [0, 2, 0]),
        Some((1, vec![7; 100]))
    );
    // The damaged record goes with the next write.
    cache.flush(true);
    assert_eq!(
        stored_keys(&store),
        vec![region_key("srv:1", world, [0, 0])]
    );
}

#[test]
fn the_budget_evicts_the_oldest_regions_in_storage_too() {
    let store = Rc::new(block_on(ChunkStore::open(&MemoryBackend::new())).unwrap());
    let world = WorldId([5; 16]);
    let mut cache = GameChunkCache::open("srv:2", Some(store.clone())).with_budget(1_000);
    assert!(cache.poll_loaded());
    for x in 0..3 {
        put_in_region(&cache, world, [x, 0], 400);
    }
    cache.flush(true);
    assert_eq!(stored_keys(&store).len(), 2);
    // Region 1 is used: region 2 is now the oldest.
    assert!(cache.handle().get_region(world, [1, 0]).is_some());
    put_in_region(&cache, world, [3, 0], 400);
    cache.flush(true);
    let mut expected: Vec<String> = [[1, 0], [3, 0]]
        .iter()
        .map(|&region| region_key("srv:2", world, region))
        .collect();
    expected.sort();
    assert_eq!(stored_keys(&store), expected);
    assert_eq!(cache.bytes(), 800);
    assert!(cache.handle().get(world, [0, 2, 0]).is_none());

    // Read again with a smaller budget: the oldest go at once.
    drop(cache);
    let mut cache = GameChunkCache::open("srv:2", Some(store.clone())).with_budget(500);
    assert!(cache.poll_loaded());
    assert_eq!(cache.bytes(), 400);
    assert!(cache.handle().get(world, [24, 2, 0]).is_some());
    cache.flush(true);
    assert_eq!(stored_keys(&store).len(), 1);
    assert!(stored_keys(&store)[0].starts_with(&server_prefix("srv:2")));
}

#[test]
fn a_full_disk_leaves_the_cache_in_memory_and_the_game_going() {
    let dir = tempfile::tempdir().unwrap();
    let faults = FileFaults::new();
    let backend = RedbBackend::with_faults(dir.path(), faults.clone());
    let store: Rc<dyn ChunkStorage> = Rc::new(block_on(ChunkStore::open(&backend)).unwrap());
    let world = WorldId([6; 16]);
    let mut cache = GameChunkCache::open("full:3", Some(store));
    assert!(cache.poll_loaded());
    faults.fail_from(FileOp::Write, 0, InjectedError::Full);
    put_in_region(&cache, world, [0, 0], 100);
    cache.flush(true);
    assert!(!cache.is_persistent());
    assert!(
        cache.warnings()[0].contains("kept in memory only"),
        "{:?}",
        cache.warnings()
    );
    assert_eq!(cache.warnings().len(), 1);
    // Still a cache, in memory: later puts and gets work, flushes do nothing.
    put_in_region(&cache, world, [1, 0], 100);
    cache.flush(true);
    assert_eq!(
        cache.handle().get(world, [8, 2, 0]),
        Some((1, vec![7; 100]))
    );
    assert_eq!(cache.writes(), 0);
    assert_eq!(cache.warnings().len(), 1, "logged once");
}

#[test]
fn a_damaged_cache_file_is_made_afresh() {
    let dir = tempfile::tempdir().unwrap();
    let backend = RedbBackend::new(dir.path());
    let path = backend.path_of(super::CHUNK_CACHE_DATABASE).unwrap();
    std::fs::write(&path, b"not a database at all").unwrap();
    let store: Rc<dyn ChunkStorage> = Rc::new(block_on(ChunkStore::open(&backend)).unwrap());
    let mut cache = GameChunkCache::open("srv:4", Some(store));
    assert!(cache.poll_loaded());
    assert_eq!(cache.loaded().regions, 0);
    put_in_region(&cache, WorldId([8; 16]), [0, 0], 10);
    cache.flush(true);
    assert_eq!(cache.writes(), 1);
}
