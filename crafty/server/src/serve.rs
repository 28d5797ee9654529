//! [`serve`]: the server's loop on real sockets, run by the engine's
//! [`GameLoop`]: the server is a resource of the loop's scene and each
//! fixed tick (at the server's rate, presenting nothing) runs one server
//! tick. Between ticks the loop says when the next one is due
//! ([`LoopWake::At`]), and the server sleeps on its wake channel until
//! then or until a client's message arrives. With nobody connected the
//! loop is paused ([`LoopWake::OnEvent`]): the server sleeps until
//! somebody connects, with no tick and no timer. Each tick is saved
//! before its answers go out; a shutdown ([`Wake::Shutdown`], from SIGINT
//! or SIGTERM) says goodbye, saves every record and returns.

use std::net::TcpListener;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};

use bevy_ecs::prelude::Resource;
use bevy_ecs::world::World as Ecs;
use taos_core::Scene;
use taos_core::game_loop::{
    FixedStep, GameLoop, LoopConfig, LoopConfigError, LoopPolicy, PresentOn, Rate, RealClock,
    Wake as LoopWake,
};
use taos_storage::{Database, block_on};

use crate::socket::{ConnectionLimits, SocketLink, Wake, accept_clients_within};
use crate::{SaveBatch, Server, ServerConfig, ServerStore, StoreError};

/// What a [`serve`] run did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ServeStats {
    /// Ticks run.
    pub ticks: u64,
    /// Times the loop woke with nobody connected and nobody connecting
    /// (what an idle server should never do).
    pub idle_wakeups: u64,
    /// Records saved at shutdown.
    pub records_saved: usize,
    /// Edits in the world's log at shutdown.
    pub edits: usize,
}

/// Why [`serve`] stopped early.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ServeError {
    /// The store could not be read, or the final save failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The tick rate is not one the loop runs.
    #[error("the server's loop: {0}")]
    Loop(#[from] LoopConfigError),
    /// The accepting thread could not start.
    #[error("cannot accept connections: {0}")]
    Accept(#[from] std::io::Error),
}

/// Ticks a late loop catches up in one go before it gives up on the lost
/// time.
const MAX_CATCH_UP: u32 = 5;

/// The server and its database, in the loop's scene.
#[derive(Resource)]
struct Served<D: Database + Send + Sync + 'static> {
    server: Server<SocketLink>,
    store: ServerStore<D>,
    ticks: u64,
}

/// One fixed tick of the loop: one server tick, saved.
fn tick_server<D: Database + Send + Sync + 'static>(world: &mut Ecs) {
    let mut served = world.resource_mut::<Served<D>>();
    let Served {
        server,
        store,
        ticks,
    } = &mut *served;
    let report = server.tick_saving(|batch: SaveBatch<'_>| block_on(store.save(&batch)));
    *ticks += 1;
    for name in &report.joined {
        log::info!("{name} joined");
    }
}

/// The loop that paces the server: fixed ticks at `tick_hz`, a frame only
/// after a tick (so between ticks it asks to sleep until the next), and at
/// most [`MAX_CATCH_UP`] ticks after a stall.
fn server_loop(scene: Scene, tick_hz: u32) -> Result<GameLoop, LoopConfigError> {
    let mut step = FixedStep::new(Rate::hz(tick_hz)?);
    step.max_ticks_per_callback = MAX_CATCH_UP;
    step.present = PresentOn::Tick;
    let config = LoopConfig {
        policy: LoopPolicy::Fixed(step),
        ..LoopConfig::default()
    };
    GameLoop::new(scene, config, RealClock::new())
}

/// Runs a server for `config` on `listener`, with its world and players in
/// `store`, until a [`Wake::Shutdown`] arrives on `wakes` (`wake` is that
/// channel's sender, handed to the connections).
///
/// # Errors
/// The store could not be read, the final save failed, the tick rate is
/// not one the loop runs, or the accepting thread could not start.
pub fn serve<D: Database + Send + Sync + 'static>(
    config: ServerConfig,
    listener: TcpListener,
    store: ServerStore<D>,
    wake: Sender<Wake>,
    wakes: &Receiver<Wake>,
) -> Result<ServeStats, ServeError> {
    serve_within(
        config,
        ConnectionLimits::default(),
        listener,
        store,
        wake,
        wakes,
    )
}

/// [`serve`] with caps on open connections other than the default ones
/// (the binary's `--max-connections` and `--max-per-address`).
///
/// # Errors
/// As [`serve`].
pub fn serve_within<D: Database + Send + Sync + 'static>(
    config: ServerConfig,
    limits: ConnectionLimits,
    listener: TcpListener,
    store: ServerStore<D>,
    wake: Sender<Wake>,
    wakes: &Receiver<Wake>,
) -> Result<ServeStats, ServeError> {
    let saved = block_on(store.load(config.seed))?;
    let server: Server<SocketLink> =
        Server::with_world(config, saved.world, saved.records).resume_at(saved.tick);
    let mut scene = Scene::new();
    scene.world_mut().insert_resource(Served {
        server,
        store,
        ticks: 0,
    });
    scene.add_systems(tick_server::<D>);
    let mut game = server_loop(scene, config.tick_hz)?;
    accept_clients_within(listener, wake, limits)?;
    let mut stats = ServeStats::default();
    // Nobody is connected yet.
    game.pause();
    let mut next = LoopWake::OnEvent;
    loop {
        let woke = match next {
            LoopWake::OnEvent => wakes.recv().map_err(|_| RecvTimeoutError::Disconnected),
            LoopWake::At(due) => wakes.recv_timeout(due.saturating_sub(game.clock().now())),
            LoopWake::Now => Err(RecvTimeoutError::Timeout),
        };
        match woke {
            Ok(Wake::Connected(link)) => {
                if let Some(peer) = link.peer() {
                    log::info!("{peer} connected");
                }
                served::<D>(&mut game).server.accept(*link);
                if game.is_paused() {
                    game.resume();
                }
            }
            Ok(Wake::Activity) if game.is_paused() => stats.idle_wakeups += 1,
            Ok(Wake::Activity) | Err(RecvTimeoutError::Timeout) => {}
            Ok(Wake::Shutdown) | Err(RecvTimeoutError::Disconnected) => break,
        }
        next = game.on_clock().wake;
        if served::<D>(&mut game).server.connections() == 0 {
            game.pause();
            next = LoopWake::OnEvent;
        }
    }
    let Served {
        mut server,
        store,
        ticks,
    } = game
        .scene_mut()
        .world_mut()
        .remove_resource::<Served<D>>()
        .expect("the loop's scene holds the server until here");
    server.shut_down("the server is shutting down");
    stats.ticks = ticks;
    stats.records_saved = server.records().len();
    server.save_all(|batch: SaveBatch<'_>| block_on(store.save(&batch)))?;
    stats.edits = server.world().edits().len();
    Ok(stats)
}

/// The server in `game`'s scene.
fn served<D: Database + Send + Sync + 'static>(game: &mut GameLoop) -> &mut Served<D> {
    game.scene_mut()
        .world_mut()
        .resource_mut::<Served<D>>()
        .into_inner()
}
