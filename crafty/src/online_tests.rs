//! crafty on a server, as the window plays it: two crafty clients (the
//! game's own session and loop, joined through [`Online`]) over real
//! WebSocket connections on the loopback to the server's own loop. One
//! player breaks a block the way play does (in the game's world); the
//! other's game world shows it; both see each other with their names. A
//! place the survival rules refuse rolls back with the server's count of
//! the player's belongings; a player coming back with their token finds
//! their belongings, place and the edited world.
//! The server is stopped with the player still on it: the edit is in the
//! server's saved world.
//!
//! The clients' loops tick on a manual clock; the sockets and the server
//! run in real time, so the test waits on them (briefly, with a deadline).

use std::net::TcpListener;
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use crate::game::state;
use crate::inventory::GameMode;
use crate::online::{Online, connect};
use crate::render::CraftyPipelineFeature;
use crate::session::Session;
use crate::world::BlockType;
use crafty_client::ConnectionEvent;
use crafty_net::protocol::Token;
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

fn join(address: &str, name: &str, token: Option<Token>) -> Client {
    let link = connect(address).expect("the server is reachable");
    let mut online = Online::join(address, name, link, token);
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
        mode: GameMode::Survival,
        ..ServerConfig::default()
    };
    let server = std::thread::spawn(move || {
        serve(config, listener, store, wake, &wakes).expect("the server runs")
    });

    let mut ada = join(&address, "Ada", None);
    let mut bob = join(&address, "Bob", None);
    // Both worlds load and the players land.
    for _ in 0..40 {
        tick(&mut [&mut ada, &mut bob]);
    }
    let feet = state(&ada.game).player.body.position;
    let below = (feet - glam::Vec3::Y * 0.5).floor().as_ivec3() + IVec3::new(2, 0, 0);
    let before = state(&bob.game).world.block(below);
    assert!(before.is_solid(), "the ground under Ada is {before:?}");
    // Ada breaks the block the way play does: in her game's world.
    let _ = crate::game::state_mut(&mut ada.game)
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
    // She places glass she does not have: the server refuses, the hole
    // comes back, and her belongings are the server's (the sand she dug).
    let _ = crate::game::state_mut(&mut ada.game)
        .world
        .set_block(below, BlockType::Glass);
    let deadline = Instant::now() + Duration::from_secs(10);
    // The answer, then the server's count (they may arrive a moment apart).
    while ada.online.connection.refused_edits == 0
        || ada.online.connection.pending_edits() > 0
        || state(&ada.game).player.inventory.stacks().is_empty()
    {
        assert!(Instant::now() < deadline, "the glass was never answered");
        tick(&mut [&mut ada, &mut bob]);
    }
    assert_eq!(state(&ada.game).world.block(below), BlockType::Air);
    let stacks = state(&ada.game).player.inventory.stacks().to_vec();
    assert_eq!(stacks, vec![(before.drop().unwrap(), 1)]);
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

    // Ada leaves and comes back with her token: her world as edited, her
    // belongings and her place are there from the first tick.
    let token = ada.online.connection.token;
    let place = state(&ada.game).player.body.position;
    ada.online.leave();
    for _ in 0..5 {
        tick(&mut [&mut bob]);
    }
    let mut back = join(&address, "Ada", token);
    tick(&mut [&mut back]);
    assert_eq!(
        state(&back.game).player.inventory.stacks(),
        &[(before.drop().unwrap(), 1)]
    );
    assert!(state(&back.game).player.body.position.distance(place) < 0.5);
    let deadline = Instant::now() + Duration::from_secs(10);
    while state(&back.game).world.block(below) != BlockType::Air {
        assert!(
            Instant::now() < deadline,
            "the returning player's world lacks the edit"
        );
        tick(&mut [&mut back, &mut bob]);
    }
    let mut ada = back;

    stop.send(Wake::Shutdown).unwrap();
    let stats = server.join().unwrap();
    assert_eq!(stats.records_saved, 2);
    // What the server saved, read back as a restarted server would.
    let store = block_on(ServerStore::open(&backend, "online-test")).unwrap();
    let saved = block_on(store.load(config.seed)).unwrap();
    let restarted: crafty_server::Server<crafty_net::MemoryLink> =
        crafty_server::Server::from_saved(config, saved, Box::new(|_| Ok(None)));
    assert_eq!(restarted.world().block(below), BlockType::Air);
    // The players heard why the server went.
    let deadline = Instant::now() + Duration::from_secs(10);
    while ada.online.connection.goodbye.is_none() {
        assert!(Instant::now() < deadline, "no goodbye");
        ada.online.connection.receive();
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(
        ada.online.connection.goodbye.as_deref(),
        Some("the server is shutting down")
    );
}

/// Everything the server says on joining (the welcome, the player's
/// belongings, the world's edits) may come in one batch: the game gets all
/// of it, not just the welcome; and its sky follows the server's clock.
#[test]
fn what_comes_with_the_welcome_reaches_the_game() {
    use crate::inventory::{InventoryState, ItemStack};
    use crate::save::PlayerState;
    use crafty_net::{Conditions, MemoryNet};
    use crafty_server::{PlayerRecord, Server};
    use std::collections::BTreeMap;

    let config = ServerConfig {
        seed: 5,
        mode: GameMode::Survival,
        ..ServerConfig::default()
    };
    let mut world = crate::world::World::new(config.seed);
    let dug = IVec3::new(64, 61, 64);
    world.set_block(dug, BlockType::Air).unwrap();
    let token = Token([3; 16]);
    let mut inventory = InventoryState::default();
    inventory.stacks.push(ItemStack {
        block_type: BlockType::Sand,
        count: 7,
    });
    let record = PlayerRecord {
        token,
        state: PlayerState {
            x: 64.5,
            y: 70.0,
            z: 64.5,
            yaw: 0.0,
            pitch: 0.0,
        },
        mode: GameMode::Survival,
        inventory,
        last_seen: 0,
    };
    let mut server =
        Server::with_world(config, world, BTreeMap::from([("Ada".to_owned(), record)]));
    let net = MemoryNet::new(Conditions::PERFECT, 1);
    let (client, end) = net.connect();
    server.accept(end);
    let mut online = Online::join("memory", "Ada", Box::new(client), Some(token));
    // Hello, then the server's answers; then the first input asks for the log.
    server.tick();
    let welcome = online.welcome().unwrap().expect("welcomed");
    let (_, render) = CraftyPipelineFeature::new();
    let (_session, mut game) = online
        .start_session(&welcome, ManualClock::new(), render)
        .unwrap();
    game.step();
    online.sync(&mut game);
    assert_eq!(
        state(&game).player.inventory.stacks(),
        &[(BlockType::Sand, 7)]
    );
    // The sky is where an hour (and the tick just played) puts it.
    let mut sky = crate::time_of_day::TimeOfDay::new(crate::save::START_SUN_ANGLE, 0.0);
    sky.advance(3_600.0);
    sky.advance(1.0 / 20.0);
    assert!((state(&game).time.sun_angle - sky.sun_angle).abs() < 1e-3);
    // The dug chunk comes as the server lists its region, is asked for and
    // sent: a few ticks.
    for _ in 0..20 {
        if state(&game).world.block(dug) == BlockType::Air {
            break;
        }
        server.tick();
        game.step();
        online.sync(&mut game);
    }
    assert_eq!(state(&game).world.block(dug), BlockType::Air);
}
