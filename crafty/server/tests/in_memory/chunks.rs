//! The world as chunks, not as a history: a joiner is sent the changed
//! chunks within its view (compressed) and sees every edited block there
//! as the server has it; one coming back with a warm cache is sent only
//! the versions; the log folds into chunk snapshots in the database, so a
//! start reads the changed chunks and a short tail, never every edit; and
//! players' records are read when they join and forgotten when unused.

use std::sync::Arc;
use std::time::Duration;

use crafty_client::SharedChunkCache;
use crafty_client::bot::Bot;
use crafty_net::{Conditions, MemoryLink, MemoryNet};
use crafty_server::{FOLD_EDITS, PlayerRecord, SaveBatch, Server, ServerConfig, ServerStore};
use crafty_sim::world::{BlockType, ChunkPos, World};
use glam::IVec3;
use taos_storage::{MemoryBackend, MemoryDatabase, block_on};

const TICK: Duration = Duration::from_millis(50);

/// `count` edits spread over 1,600 × 1,600 blocks around the origin, from
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
            next(1600) as i32 - 800,
            30 + next(60) as i32,
            next(1600) as i32 - 800,
        );
        let block = [BlockType::Stone, BlockType::Air, BlockType::Sand][next(3) as usize];
        world.set_block(pos, block).unwrap();
        at.push(pos);
    }
    (world, at)
}

/// Plays `bot` (standing still) until its chunk requests are answered.
fn settle(server: &mut Server<MemoryLink>, net: &MemoryNet, bot: &mut Bot) {
    for _ in 0..200 {
        bot.send_flags(0);
        bot.receive();
        server.tick();
        net.advance(TICK);
    }
    bot.receive();
}

#[test]
fn a_joiner_gets_the_chunks_in_view_and_a_returning_one_only_the_versions() {
    let config = ServerConfig::default();
    let (world, edited) = edited_world(config.seed, 30_000);
    let truth = world.clone();
    let mut server = Server::with_world(config, world, Default::default());
    assert_eq!(server.edits_made(), 30_000);
    let net = MemoryNet::new(Conditions::PERFECT, 1);
    let cache = SharedChunkCache::default();

    let (client, end) = net.connect();
    server.accept(end);
    let mut cold = Bot::join("ada", client, None, 1).caching(Box::new(cache.clone()));
    settle(&mut server, &net, &mut cold);
    assert!(cold.goodbye.is_none(), "{:?}", cold.goodbye);
    let feet = cold.feet().unwrap().as_ivec3();
    let (centre, _) = ChunkPos::of_block(feet);
    let in_view = |at: &IVec3| {
        let (chunk, _) = ChunkPos::of_block(*at);
        (chunk.0.x - centre.0.x).abs() <= 16 && (chunk.0.z - centre.0.z).abs() <= 16
    };
    let copy = cold.world.as_ref().unwrap();
    let mut seen = 0;
    for at in edited.iter().filter(|at| in_view(at)) {
        assert_eq!(copy.block(*at), truth.block(*at), "ada sees {at} wrong");
        seen += 1;
    }
    assert!(seen > 5_000, "{seen} edits in view");
    assert!(cold.chunks_fetched > 500, "{} chunks", cold.chunks_fetched);
    assert_eq!(cold.chunks_cached, 0);
    let token = cold.token;
    cold.leave();
    settle(&mut server, &net, &mut cold);

    // Back with a warm cache: the versions only.
    let (client, end) = net.connect();
    server.accept(end);
    let mut warm = Bot::join("ada", client, token, 1).caching(Box::new(cache.clone()));
    settle(&mut server, &net, &mut warm);
    assert_eq!(warm.chunks_fetched, 0);
    assert_eq!(warm.chunks_cached, cold.chunks_fetched);
    let copy = warm.world.as_ref().unwrap();
    for at in edited.iter().filter(|at| in_view(at)) {
        assert_eq!(
            copy.block(*at),
            truth.block(*at),
            "ada (warm) sees {at} wrong"
        );
    }
    let ratio = warm.chunk_bytes as f64 / cold.chunk_bytes as f64;
    println!(
        "join after 30,000 edits: cold {} B of chunks ({} chunks), warm {} B ({:.1}%)",
        cold.chunk_bytes,
        cold.chunks_fetched,
        warm.chunk_bytes,
        ratio * 100.0
    );
    assert!(
        ratio < 0.10,
        "a warm join costs {:.1}% of a cold one",
        ratio * 100.0
    );
}

#[test]
fn an_edit_made_after_a_snapshot_is_not_undone_by_it() {
    // The snapshot of a chunk and the live log reach a joiner in either
    // order; the newer news wins.
    let config = ServerConfig::default();
    let (world, _) = edited_world(config.seed, 2_000);
    let mut server = Server::with_world(config, world, Default::default());
    let net = MemoryNet::new(Conditions::new(TICK, TICK, 0.0), 2);
    let mut bots: Vec<Bot> = ["ada", "bob"]
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let (client, end) = net.connect();
            server.accept(end);
            Bot::join(name, client, None, 3 + i as u64)
        })
        .collect();
    for tick in 0..600 {
        for bot in &mut bots {
            bot.update(tick > 20);
        }
        server.tick();
        net.advance(TICK);
    }
    for _ in 0..100 {
        for bot in &mut bots {
            bot.update(false);
        }
        server.tick();
        net.advance(TICK);
    }
    let edited: Vec<IVec3> = bots.iter().flat_map(|b| b.accepted.clone()).collect();
    assert!(edited.len() > 10);
    for bot in &bots {
        let copy = bot.world.as_ref().unwrap();
        for &at in &edited {
            assert_eq!(
                copy.block(at),
                server.world().block(at),
                "{} at {at}",
                bot.name
            );
        }
    }
}

fn open(backend: &MemoryBackend) -> Arc<ServerStore<MemoryDatabase>> {
    Arc::new(block_on(ServerStore::open(backend, "world")).unwrap())
}

/// The server of the world saved in `store`, reading records from it.
fn load(store: &Arc<ServerStore<MemoryDatabase>>, config: ServerConfig) -> Server<MemoryLink> {
    Server::load(config, store).unwrap()
}

#[test]
fn the_log_folds_into_chunks_and_a_start_reads_chunks_and_a_short_tail() {
    let backend = MemoryBackend::new();
    let config = ServerConfig::default();
    let store = open(&backend);
    let (world, edited) = edited_world(config.seed, 20_000);
    let truth = world.clone();
    let mut server: Server<MemoryLink> = Server::with_world(config, world, Default::default());
    let id = server.world_id();
    server
        .save_all(|batch: SaveBatch<'_>| block_on(store.save(&batch)))
        .unwrap();
    let saved = block_on(store.load(config.seed)).unwrap();
    assert_eq!(saved.folded, 20_000);
    assert!(saved.tail.is_empty(), "folded: no log to replay");
    assert_eq!(saved.snapshots.len(), server.changed_chunks());
    assert_eq!(saved.world, id);

    // Edits after the fold are saved as a short log, and a start after a
    // crash has both.
    let mut server = load(&store, config);
    let net = MemoryNet::new(Conditions::PERFECT, 1);
    let (client, end) = net.connect();
    server.accept(end);
    let mut ada = Bot::join("ada", client, None, 9);
    for tick in 0..300 {
        ada.update(tick > 30);
        server.tick_saving(|batch: SaveBatch<'_>| block_on(store.save(&batch)));
        net.advance(TICK);
    }
    ada.receive();
    assert!(ada.accepted.len() > 5);
    let after: Vec<(IVec3, BlockType)> = ada
        .accepted
        .iter()
        .map(|&at| (at, server.world().block(at)))
        .collect();
    drop(server);
    let saved = block_on(store.load(config.seed)).unwrap();
    assert!(!saved.tail.is_empty() && (saved.tail.len() as u64) < FOLD_EDITS);
    let server = load(&store, config);
    assert_eq!(server.world_id(), id);
    for (at, block) in &after {
        assert_eq!(server.world().block(*at), *block, "{at} after the fold");
    }
    let touched: std::collections::HashSet<IVec3> = after.iter().map(|(at, _)| *at).collect();
    for at in edited.iter().filter(|at| !touched.contains(at)).step_by(7) {
        assert_eq!(
            server.world().block(*at),
            truth.block(*at),
            "{at} from the chunks"
        );
    }
}

#[test]
fn records_are_read_on_joining_and_forgotten_when_unused() {
    let backend = MemoryBackend::new();
    let config = ServerConfig::default();
    let store = open(&backend);
    let mut server = load(&store, config);
    let net = MemoryNet::new(Conditions::PERFECT, 1);
    let mut bots: Vec<Bot> = ["ada", "bob"]
        .iter()
        .map(|name| {
            let (client, end) = net.connect();
            server.accept(end);
            Bot::join(name, client, None, 2)
        })
        .collect();
    for _ in 0..30 {
        for bot in &mut bots {
            bot.update(false);
        }
        server.tick_saving(|batch: SaveBatch<'_>| block_on(store.save(&batch)));
        net.advance(TICK);
    }
    let ada_token = bots[0].token.unwrap();
    bots[0].leave();
    for _ in 0..5 {
        bots[1].update(false);
        server.tick_saving(|batch: SaveBatch<'_>| block_on(store.save(&batch)));
        net.advance(TICK);
    }
    // Saved and gone: not held in memory.
    assert_eq!(server.records().len(), 1, "only bob's, who plays");
    let ada: PlayerRecord = block_on(store.load_record("ada")).unwrap().unwrap();
    assert_eq!(ada.token, ada_token);
    // She comes back: read from the database, still hers.
    let (client, end) = net.connect();
    server.accept(end);
    let mut back = Bot::join("Ada", client, Some(ada_token), 2);
    server.tick_saving(|batch: SaveBatch<'_>| block_on(store.save(&batch)));
    back.receive();
    assert!(back.refused.is_none() && back.player.is_some());
    assert_eq!(back.token, Some(ada_token));
    back.leave();
    // Bob plays on: his record is saved now and then with the tick.
    for _ in 0..120 {
        bots[1].update(false);
        back.receive();
        server.tick_saving(|batch: SaveBatch<'_>| block_on(store.save(&batch)));
        net.advance(TICK);
    }
    let ada = block_on(store.load_record("ada")).unwrap().unwrap();
    let bob = block_on(store.load_record("bob")).unwrap().unwrap();
    assert!(
        ada.last_seen < 50 && bob.last_seen >= 100,
        "{} {}",
        ada.last_seen,
        bob.last_seen
    );
    // Records unused since tick 50 are forgotten, the one in use is not.
    assert_eq!(block_on(store.forget_records(50)).unwrap(), 1);
    assert!(block_on(store.load_record("ada")).unwrap().is_none());
    assert!(block_on(store.load_record("bob")).unwrap().is_some());
    // Forgotten means a stranger: her old token gets her a new player.
    let (client, end) = net.connect();
    server.accept(end);
    let mut stranger = Bot::join("ada", client, Some(ada_token), 2);
    server.tick_saving(|batch: SaveBatch<'_>| block_on(store.save(&batch)));
    stranger.receive();
    assert!(stranger.player.is_some());
    assert_ne!(stranger.token, Some(ada_token));
}

#[test]
fn one_server_hosts_under_the_lease_and_a_presumed_dead_one_cannot_write() {
    use crafty_server::StoreError;
    use crafty_server::lease::{Claim, HostId};
    let backend = MemoryBackend::new();
    let config = ServerConfig::default();
    let (first, second) = (open(&backend), open(&backend));
    let (a, b) = (HostId::new(), HostId::new());
    assert_eq!(
        block_on(first.claim(a, "a:1", None)).unwrap(),
        Claim::Hosting
    );
    let Claim::HeldBy(lease) = block_on(second.claim(b, "b:1", None)).unwrap() else {
        panic!("the lease is a's");
    };
    assert_eq!((lease.holder, lease.address.as_str()), (a, "a:1"));
    // The host's beat moves on: a stale beat no longer takes it.
    block_on(first.renew()).unwrap();
    assert!(matches!(
        block_on(second.claim(b, "b:1", Some(lease.beat))).unwrap(),
        Claim::HeldBy(_)
    ));
    // Its beat stands still (it hangs): the other takes the world.
    let beat = block_on(first.lease()).unwrap().unwrap().beat;
    assert_eq!(
        block_on(second.claim(b, "b:1", Some(beat))).unwrap(),
        Claim::Hosting
    );
    // The old host wakes up: it may not write, and knows it.
    let (world, _) = edited_world(config.seed, 10);
    let mut zombie: Server<MemoryLink> = Server::with_world(config, world, Default::default());
    let refused = zombie.save_all(|batch: SaveBatch<'_>| block_on(first.save(&batch)));
    assert!(
        matches!(refused, Err(StoreError::LeaseLost { .. })),
        "{refused:?}"
    );
    assert!(matches!(
        block_on(first.renew()),
        Err(StoreError::LeaseLost { .. })
    ));
    // The new host writes; a clean shutdown gives the lease up.
    let mut host: Server<MemoryLink> = load(&second, config);
    host.save_all(|batch: SaveBatch<'_>| block_on(second.save(&batch)))
        .unwrap();
    block_on(second.release()).unwrap();
    assert!(block_on(second.lease()).unwrap().is_none());
    assert_eq!(
        block_on(first.claim(a, "a:1", None)).unwrap(),
        Claim::Hosting
    );
}
