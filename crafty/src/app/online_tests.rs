//! The window on a server, driven through the same [`App`] hooks the
//! window driver calls, on a headless engine: `--world join:Ada@ADDRESS`
//! joins the server's loop over a real socket; Ada's break reaches a bot
//! on the same server, the bot shows up on Ada's screen by name, the
//! server's token for Ada is kept, and when
//! the server shuts down the window goes back to the launcher saying so.
//! (The sockets and the server run in real time: the test paces its
//! frames at the server's tick, with deadlines.)

use std::net::TcpListener;
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

use crafty_client::bot::Bot;
use crafty_server::socket::{SocketLink, Wake};
use crafty_server::{ServerConfig, ServerStore, serve};
use taos_engine::storage::{MemoryBackend, RedbBackend, block_on};
use taos_engine::{App, Engine};

use super::{Crafty, Screen};
use crate::game::{state, state_mut};
use crate::save::WorldStore;
use crate::world::BlockType;

fn now() -> u64 {
    1_700_000_000_000
}

/// The window, and a bot on the same server once it joins.
struct Table {
    app: Crafty,
    engine: Engine,
    bot: Option<Bot<SocketLink>>,
    /// Where the window keeps its saves and settings.
    _dir: tempfile::TempDir,
}

impl Table {
    /// The window started with `--world join:Ada@ADDRESS`.
    fn joining(address: &str) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let store = block_on(WorldStore::open(&RedbBackend::new(dir.path()))).unwrap();
        let (mut engine, mut app) =
            super::tests::headless_app(store, &format!("join:Ada@{address}"), now);
        // Servers' chunks cached beside the saves, as `run` does.
        let chunks = block_on(crate::chunk_cache::ChunkStore::open(&RedbBackend::new(
            dir.path(),
        )));
        app.chunk_storage = super::chunk_storage(chunks);
        app.start(&mut engine).unwrap();
        Self {
            app,
            engine,
            bot: None,
            _dir: dir,
        }
    }

    /// One frame of the window (and a tick of the bot), then the rest of a
    /// server tick.
    fn frame(&mut self) {
        if let Some(bot) = &mut self.bot {
            bot.receive();
            if bot.is_playing() {
                bot.send_flags(0);
            }
        }
        self.app.update(&mut self.engine).unwrap();
        if matches!(self.app.screen, Screen::Playing(_)) {
            self.engine.game_loop().step();
        }
        std::thread::sleep(Duration::from_millis(50));
    }

    fn until(&mut self, what: &str, done: impl Fn(&Self) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(15);
        while !done(self) {
            assert!(Instant::now() < deadline, "timed out waiting: {what}");
            self.frame();
        }
    }

    /// Waits for the launcher to be back with a message; returns it.
    fn launcher_message(&mut self) -> String {
        self.until("the launcher with a message", |t| {
            matches!(&t.app.screen, Screen::Launcher(l) if l.error.is_some())
                && t.app.task.is_none()
        });
        let Screen::Launcher(launcher) = &self.app.screen else {
            unreachable!()
        };
        launcher.error.clone().unwrap_or_default()
    }

    fn bot(&self) -> &Bot<SocketLink> {
        self.bot.as_ref().unwrap()
    }
}

#[test]
fn the_window_joins_a_server_plays_with_others_and_returns_when_it_goes() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let (wake, wakes) = channel();
    let stop = wake.clone();
    let server = std::thread::spawn(move || {
        let store = block_on(ServerStore::open(&MemoryBackend::new(), "window")).unwrap();
        serve(ServerConfig::default(), listener, store, wake, &wakes).unwrap()
    });

    let mut table = Table::joining(&address);
    table.until(
        "the window plays on the server",
        |t| matches!(&t.app.screen, Screen::Playing(play) if play.is_online()),
    );
    table.bot = Some(Bot::join(
        "Bob",
        SocketLink::connect(&address).unwrap(),
        None,
        1,
    ));
    for _ in 0..30 {
        table.frame();
    }

    // Ada breaks the ground beside her, as play does.
    let game = table.engine.game_loop();
    let feet = state(game).player.body.position;
    let below = (feet - glam::Vec3::Y * 0.5).floor().as_ivec3() + glam::IVec3::X;
    assert!(state(game).world.block(below).is_solid());
    state_mut(game)
        .world
        .set_block(below, BlockType::Air)
        .unwrap();
    table.until("the bot sees Ada's break", |t| {
        t.bot()
            .world
            .as_ref()
            .is_some_and(|w| w.block(below) == BlockType::Air)
    });
    table.until("Ada sees Bob", |t| match &t.app.screen {
        Screen::Playing(play) => play
            .online()
            .is_some_and(|online| online.avatars().iter().any(|a| a.name == "Bob")),
        Screen::Launcher(_) => false,
    });

    // The server's token is kept (and stored) to come back as Ada.
    let Screen::Playing(play) = &table.app.screen else {
        unreachable!()
    };
    let token = play.online().unwrap().connection.token;
    assert!(token.is_some());
    // It joined with the chunk cache, stored beside the saves.
    let cache = play.online().unwrap().chunk_cache().expect("a chunk cache");
    assert!(cache.is_persistent());
    assert_eq!(table.app.settings.servers.token(&address, "Ada"), token);
    table.until("the token is stored", |t| t.app.servers_saved.is_none());

    stop.send(Wake::Shutdown).unwrap();
    let stats = server.join().unwrap();
    assert_eq!(stats.edits, 1);
    let message = table.launcher_message();
    assert!(
        message.contains(&format!("disconnected from {address}"))
            && message.contains("shutting down"),
        "{message}"
    );
}

#[test]
fn a_server_that_is_not_there_is_said_on_the_launcher_without_freezing_the_window() {
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut table = Table::joining(&format!("127.0.0.1:{port}"));
    let message = table.launcher_message();
    assert!(
        message.contains(&format!("could not join 127.0.0.1:{port}"))
            && message.contains("cannot reach"),
        "{message}"
    );
}
