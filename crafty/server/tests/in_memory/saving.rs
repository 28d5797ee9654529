//! The server saves before it answers: an edit is acknowledged only once
//! its batch is stored, a failed save holds the answers until a save
//! succeeds, and a server that stops without warning comes back with every
//! acknowledged edit and every player's record.

use std::cell::Cell;
use std::sync::Arc;
use std::time::Duration;

use crafty_client::bot::Bot;
use crafty_net::protocol::EditAction;
use crafty_net::{Conditions, MemoryLink, MemoryNet};
use crafty_server::{SaveBatch, Server, ServerConfig, ServerStore};
use glam::IVec3;
use taos_storage::{MemoryBackend, MemoryDatabase, block_on};

const TICK: Duration = Duration::from_millis(50);

/// The server of the world saved in `store`, reading records from it.
fn load(store: &Arc<ServerStore<MemoryDatabase>>, config: ServerConfig) -> Server<MemoryLink> {
    Server::load(config, store).unwrap()
}

#[test]
fn acknowledged_edits_and_records_survive_a_server_that_dies() {
    let backend = MemoryBackend::new();
    let config = ServerConfig::default();
    let net = MemoryNet::new(Conditions::PERFECT, 1);
    let store = Arc::new(block_on(ServerStore::open(&backend, "server")).unwrap());
    let mut server = load(&store, config);
    let world_id = server.world_id();
    let (client, end) = net.connect();
    server.accept(end);
    let mut ada = Bot::join("ada", client, None, 3);
    for tick in 0..400 {
        ada.update(tick > 40);
        server.tick_saving(|batch: SaveBatch<'_>| block_on(store.save(&batch)));
        net.advance(TICK);
    }
    ada.receive();
    assert!(
        ada.accepted.len() > 5,
        "{} edits accepted",
        ada.accepted.len()
    );
    let token = ada.token.unwrap();
    let acknowledged: Vec<IVec3> = ada.accepted.clone();
    let blocks: Vec<_> = acknowledged
        .iter()
        .map(|&at| server.world().block(at))
        .collect();
    let made = server.edits_made();
    // The server dies: no shutdown, no last save.
    drop(server);

    let saved = block_on(store.load(config.seed)).unwrap();
    assert!(saved.tick > 350, "the clock was saved: {}", saved.tick);
    let record = block_on(store.load_record("ada")).unwrap().unwrap();
    assert_eq!(record.token, token);
    // Back on a new server: every acknowledged edit, ada's token still hers.
    let mut server = load(&store, config);
    assert_eq!(server.world_id(), world_id, "the same world");
    assert_eq!(server.edits_made(), made, "the log as the server had it");
    for (at, block) in acknowledged.iter().zip(&blocks) {
        assert_eq!(
            server.world().block(*at),
            *block,
            "{at} was acknowledged, not saved"
        );
    }
    let (client, end) = net.connect();
    server.accept(end);
    let mut back = Bot::join("ada", client, Some(token), 3);
    server.tick();
    back.receive();
    assert!(back.refused.is_none() && back.player.is_some());
    let at = back.feet().unwrap();
    let stood = glam::Vec3::new(record.state.x, record.state.y, record.state.z);
    // One tick of the new server has passed (a settling step).
    assert!(
        at.distance(stood) < 0.05,
        "back where the record says: {at} vs {stood}"
    );
    // Another seed's server cannot open this world.
    assert!(block_on(store.load(config.seed + 1)).is_err());
}

#[test]
fn a_failing_save_holds_every_answer_until_a_save_succeeds() {
    let net = MemoryNet::new(Conditions::PERFECT, 1);
    let mut server = Server::new(ServerConfig::default());
    let (client, end) = net.connect();
    server.accept(end);
    let mut ada = Bot::join("ada", client, None, 3);
    for _ in 0..40 {
        ada.update(false);
        server.tick();
    }
    let feet = ada.feet().unwrap().floor().as_ivec3();
    let below = feet - IVec3::Y;
    ada.send_edit(below, EditAction::Break);
    let failing = Cell::new(true);
    let mut saved_edits = 0;
    for _ in 0..5 {
        let report = server.tick_saving(|batch: SaveBatch<'_>| {
            saved_edits = batch.edits.len();
            if failing.get() {
                Err("disk full")
            } else {
                Ok(())
            }
        });
        assert!(report.save_failed);
        ada.receive();
        assert_eq!(ada.pending_edits(), 1, "no answer before it is saved");
    }
    assert_eq!(saved_edits, 1, "the edit waits in every retry");
    failing.set(false);
    let report = server.tick_saving(|batch: SaveBatch<'_>| {
        assert_eq!(batch.edits.len(), 1);
        Ok::<(), String>(())
    });
    assert!(!report.save_failed);
    ada.receive();
    assert_eq!(ada.pending_edits(), 0);
    assert_eq!(ada.accepted, [below]);
}
