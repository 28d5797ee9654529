//! crafty on a server, as the window plays it: two crafty clients (the
//! game's own session and loop, joined through [`Online`]) over real
//! WebSocket connections on the loopback to the server's own loop. One
//! player breaks a block the way play does (in the game's world); the
//! other's game world shows it; both see each other with their names.
//! The server is stopped with the player still on it: the edit is in the
//! server's saved world.
//!
//! The clients' loops tick on a manual clock; the sockets and the server
//! run in real time, so the test waits on them (briefly, with a deadline).

use std::net::TcpListener;
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use crafty::game::state;
use crafty::online::{Online, connect};
use crafty::render::CraftyPipelineFeature;
use crafty::session::Session;
use crafty::world::BlockType;
use crafty_client::ConnectionEvent;
use crafty_server::socket::Wake;
use crafty_server::{ServerConfig, ServerStore, serve};
use glam::IVec3;
use taos_engine::game_loop::{GameLoop, ManualClock};
use taos_engine::storage::{MemoryBackend, block_on};

struct Client {
    online: Online,
    game: GameLoop,
    _session: Session,
}

fn join(address: &str, name: &str) -> Client {
    let link = connect(address).expect("the server is reachable");
    let mut online = Online::join(address, name, link, None);
    let deadline = Instant::now() + Duration::from_secs(10);
    let welcome = loop {
        if let Some(welcome) = online.welcome().expect("the server lets the player in") {
            break welcome;
        }
        assert!(Instant::now() < deadline, "no welcome");
        std::thread::sleep(Duration::from_millis(5));
    };
    let (_, render) = CraftyPipelineFeature::new();
    let (session, game) = online
        .start_session(&welcome, ManualClock::new(), render)
        .expect("the server's tick rate is playable");
    Client {
        online,
        game,
        _session: session,
    }
}

/// One tick of both clients, then a server tick's wait: the clients play
/// at the server's pace, as real ones do.
fn tick(clients: &mut [&mut Client]) {
    for client in clients.iter_mut() {
        client.game.step();
        for event in client.online.sync(&mut client.game) {
            if let ConnectionEvent::Closed(reason) = event {
                panic!(
                    "{} was disconnected: {reason}",
                    client.online.connection.name
                );
            }
        }
    }
    std::thread::sleep(Duration::from_millis(50));
}

#[test]
fn one_players_break_reaches_the_others_game_and_the_server_keeps_it() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let backend = MemoryBackend::new();
    let store = block_on(ServerStore::open(&backend, "online-test")).unwrap();
    let (wake, wakes) = channel();
    let stop = wake.clone();
    let config = ServerConfig {
        seed: 5,
        ..ServerConfig::default()
    };
    let server = std::thread::spawn(move || {
        serve(config, listener, store, wake, &wakes).expect("the server runs")
    });

    let mut ada = join(&address, "Ada");
    let mut bob = join(&address, "Bob");
    // Both worlds load and the players land.
    for _ in 0..40 {
        tick(&mut [&mut ada, &mut bob]);
    }
    let feet = state(&ada.game).player.body.position;
    let below = (feet - glam::Vec3::Y * 0.5).floor().as_ivec3() + IVec3::new(2, 0, 0);
    let before = state(&bob.game).world.block(below);
    assert!(before.is_solid(), "the ground under Ada is {before:?}");
    // Ada breaks the block the way play does: in her game's world.
    let _ = crafty::game::state_mut(&mut ada.game)
        .world
        .set_block(below, BlockType::Air);
    let deadline = Instant::now() + Duration::from_secs(10);
    while state(&bob.game).world.block(below) != BlockType::Air {
        assert!(
            Instant::now() < deadline,
            "Bob never saw Ada's break at {below}: Ada accepted {:?}, refused {}, pending {}, \
             goodbye {:?}; Bob has {} edits, Ada at {:?}",
            ada.online.connection.accepted,
            ada.online.connection.refused_edits,
            ada.online.connection.pending_edits(),
            ada.online.connection.goodbye,
            bob.online.connection.edits_seen,
            ada.online.connection.feet(),
        );
        tick(&mut [&mut ada, &mut bob]);
    }
    assert_eq!(ada.online.connection.pending_edits(), 0);
    assert_eq!(ada.online.connection.accepted, vec![below]);
    // Each sees the other, by name.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let names: Vec<String> = bob.online.avatars().into_iter().map(|a| a.name).collect();
        if names == ["Ada"] {
            break;
        }
        assert!(Instant::now() < deadline, "Bob sees {names:?}");
        tick(&mut [&mut ada, &mut bob]);
    }
    // Chat reaches the other player.
    bob.online.connection.say("hello Ada");
    let deadline = Instant::now() + Duration::from_secs(10);
    while ada.online.connection.chat.is_empty() {
        assert!(Instant::now() < deadline, "no chat");
        tick(&mut [&mut ada, &mut bob]);
    }
    assert_eq!(
        ada.online.connection.chat,
        vec![("Bob".to_owned(), "hello Ada".to_owned())]
    );

    stop.send(Wake::Shutdown).unwrap();
    let stats = server.join().unwrap();
    assert_eq!(stats.records_saved, 2);
    // What the server saved, read back as a restarted server would.
    let store = block_on(ServerStore::open(&backend, "online-test")).unwrap();
    let world = block_on(store.load(config.seed)).unwrap().world;
    assert_eq!(world.block(below), BlockType::Air);
    // The players heard why the server went.
    ada.online.connection.receive();
    assert_eq!(
        ada.online.connection.goodbye.as_deref(),
        Some("the server is shutting down")
    );
}
