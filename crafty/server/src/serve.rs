//! [`serve`]: the server's loop on real sockets, run by the engine's
//! [`GameLoop`]: the server is a resource of the loop's scene and each
//! fixed tick (at the server's rate, presenting nothing) runs one server
//! tick. Between ticks the loop says when the next one is due
//! ([`LoopWake::At`]), and the server sleeps on its wake channel until
//! then (a client's message waits in its inbox for the tick: waking for
//! each would cost a context switch a message). With nobody connected the
//! loop is paused ([`LoopWake::OnEvent`]): the server sleeps until
//! somebody connects, with no tick and no timer. Each tick is saved
//! before its answers go out; a shutdown ([`Wake::Shutdown`], from SIGINT
//! or SIGTERM) says goodbye, saves every record and returns.

use std::net::TcpListener;
use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use bevy_ecs::prelude::Resource;
use bevy_ecs::world::World as Ecs;
use taos_core::Scene;
use taos_core::game_loop::{
    FixedStep, GameLoop, LoopConfig, LoopConfigError, LoopPolicy, PresentOn, Rate, RealClock,
    Wake as LoopWake,
};
use taos_storage::{Database, block_on};

use crate::lease::RENEW_EVERY;
use crate::socket::{ConnectionLimits, SocketLink, TlsIdentity, Wake, accept_clients_within};
use crate::{SaveBatch, Server, ServerConfig, ServerStore, StoreError};

/// How often (in ticks) a running server forgets records unused for
/// [`ServerConfig::forget_after`]: hourly at 20 Hz.
const FORGET_EVERY_TICKS: u64 = 20 * 3600;

/// What a [`serve`] run did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ServeStats {
    /// Ticks run.
    pub ticks: u64,
    /// Times the loop woke with nobody connected and nobody connecting
    /// (what an idle server should never do).
    pub idle_wakeups: u64,
    /// Records saved at shutdown.
    pub records_saved: usize,
    /// Edits in the world's log at shutdown (every edit ever made).
    pub edits: u64,
    /// Chunks that differ from the seed's terrain at shutdown.
    pub changed_chunks: usize,
    /// Records forgotten for being unused too long.
    pub records_forgotten: usize,
    /// The median time one tick took (reading, stepping, saving, sending).
    pub tick_p50: Duration,
    /// The 99th percentile of a tick's time.
    pub tick_p99: Duration,
    /// The longest tick.
    pub tick_max: Duration,
    /// The median time a tick's save took (part of the tick's time).
    pub save_p50: Duration,
    /// The 99th percentile of a save's time.
    pub save_p99: Duration,
    /// The server's resident memory after its first minute of ticks
    /// (Linux; `None` elsewhere or before a minute).
    pub memory_first_minute: Option<u64>,
    /// Its resident memory at its last whole minute of ticks.
    pub memory_last_minute: Option<u64>,
    /// Its resident memory after each whole minute of ticks, in order.
    pub memory_by_minute: Vec<u64>,
}

/// The `p` quantile of sorted microseconds.
fn percentile(sorted: &[u32], p: f64) -> Duration {
    let index = (sorted.len().saturating_sub(1) as f64 * p).round() as usize;
    Duration::from_micros(sorted.get(index).copied().map_or(0, u64::from))
}

/// This process's resident memory in bytes (Linux's `/proc`; `None`
/// elsewhere).
fn resident_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
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
    store: Arc<ServerStore<D>>,
    ticks: u64,
    /// The store failed in a way that ends serving (the lease was lost).
    fatal: Option<StoreError>,
    forgotten: usize,
    /// Each tick's time, in microseconds.
    tick_micros: Vec<u32>,
    /// Each tick's save's time, in microseconds.
    save_micros: Vec<u32>,
    /// Resident memory after each whole minute of ticks.
    memory: Vec<u64>,
}

/// One fixed tick of the loop: one server tick, saved.
fn tick_server<D: Database + Send + Sync + 'static>(world: &mut Ecs) {
    let mut served = world.resource_mut::<Served<D>>();
    let Served {
        server,
        store,
        ticks,
        fatal,
        forgotten,
        tick_micros,
        save_micros,
        memory,
    } = &mut *served;
    let started = Instant::now();
    let mut lost = None;
    let mut saving = Duration::ZERO;
    let report = server.tick_saving(|batch: SaveBatch<'_>| {
        let began = Instant::now();
        let saved = block_on(store.save(&batch));
        saving = began.elapsed();
        saved.inspect_err(|error| {
            if matches!(error, StoreError::LeaseLost { .. }) {
                lost = Some(error.to_string());
            }
        })
    });
    if let Some(holder) = lost {
        *fatal = Some(StoreError::LeaseLost { holder });
    }
    *ticks += 1;
    tick_micros.push(u32::try_from(started.elapsed().as_micros()).unwrap_or(u32::MAX));
    save_micros.push(u32::try_from(saving.as_micros()).unwrap_or(u32::MAX));
    if ticks.is_multiple_of(u64::from(server.config().tick_hz) * 60)
        && let Some(bytes) = resident_memory()
    {
        memory.push(bytes);
    }
    if server.tick_count().is_multiple_of(FORGET_EVERY_TICKS) {
        *forgotten += forget_old_records(store, server.config(), server.tick_count());
    }
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
        None,
        listener,
        store,
        wake,
        wakes,
    )
}

/// [`serve`] with caps on open connections other than the default ones
/// (the binary's `--max-connections` and `--max-per-address`), and over
/// TLS (`wss://`) when given a `tls` identity (`--tls-cert`, `--tls-key`).
///
/// # Errors
/// As [`serve`].
pub fn serve_within<D: Database + Send + Sync + 'static>(
    config: ServerConfig,
    limits: ConnectionLimits,
    tls: Option<TlsIdentity>,
    listener: TcpListener,
    store: ServerStore<D>,
    wake: Sender<Wake>,
    wakes: &Receiver<Wake>,
) -> Result<ServeStats, ServeError> {
    let started = Instant::now();
    let store = Arc::new(store);
    let server: Server<SocketLink> = Server::load(config, &store)?;
    log::info!(
        "world {} loaded in {:.0?}: {} edits, {} chunks changed",
        server.world_id(),
        started.elapsed(),
        server.edits_made(),
        server.changed_chunks()
    );
    let forgotten = forget_old_records(&store, &config, server.tick_count());
    let mut scene = Scene::new();
    scene.world_mut().insert_resource(Served {
        server,
        store,
        ticks: 0,
        fatal: None,
        forgotten,
        tick_micros: Vec::new(),
        save_micros: Vec::new(),
        memory: Vec::new(),
    });
    scene.add_systems(tick_server::<D>);
    let mut game = server_loop(scene, config.tick_hz)?;
    accept_clients_within(listener, wake, limits, tls)?;
    let mut stats = ServeStats::default();
    // Nobody is connected yet.
    game.pause();
    let mut next = LoopWake::OnEvent;
    let mut renewed = Instant::now();
    let mut fatal = None;
    let leased = served::<D>(&mut game).store.hosts_under_lease();
    loop {
        // The lease's beat goes on while the server sleeps too (a server
        // without a lease sleeps until somebody connects).
        let until_renewal = if leased {
            RENEW_EVERY.saturating_sub(renewed.elapsed())
        } else {
            std::time::Duration::MAX
        };
        let woke = match next {
            LoopWake::OnEvent if !leased => {
                wakes.recv().map_err(|_| RecvTimeoutError::Disconnected)
            }
            LoopWake::OnEvent => wakes.recv_timeout(until_renewal),
            LoopWake::At(due) => {
                wakes.recv_timeout(due.saturating_sub(game.clock().now()).min(until_renewal))
            }
            LoopWake::Now => Err(RecvTimeoutError::Timeout),
        };
        if leased && renewed.elapsed() >= RENEW_EVERY {
            renewed = Instant::now();
            if let Err(error) = block_on(served::<D>(&mut game).store.renew()) {
                match error {
                    StoreError::LeaseLost { .. } => {
                        fatal = Some(error);
                        break;
                    }
                    other => log::warn!("renewing the lease failed (tried again): {other}"),
                }
            }
        }
        if let Some(error) = served::<D>(&mut game).fatal.take() {
            fatal = Some(error);
            break;
        }
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
            Err(RecvTimeoutError::Timeout) if game.is_paused() => {}
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
        forgotten,
        mut tick_micros,
        mut save_micros,
        memory,
        ..
    } = game
        .scene_mut()
        .world_mut()
        .remove_resource::<Served<D>>()
        .expect("the loop's scene holds the server until here");
    stats.ticks = ticks;
    stats.records_forgotten = forgotten;
    stats.edits = server.edits_made();
    stats.changed_chunks = server.changed_chunks();
    tick_micros.sort_unstable();
    save_micros.sort_unstable();
    stats.tick_p50 = percentile(&tick_micros, 0.5);
    stats.tick_p99 = percentile(&tick_micros, 0.99);
    stats.tick_max = percentile(&tick_micros, 1.0);
    stats.save_p50 = percentile(&save_micros, 0.5);
    stats.save_p99 = percentile(&save_micros, 0.99);
    stats.memory_first_minute = memory.first().copied();
    stats.memory_last_minute = memory.last().copied();
    stats.memory_by_minute = memory;
    if let Some(error) = fatal {
        // Another server hosts the world: say so and write nothing more.
        server.shut_down("this server stopped hosting the world: join again");
        return Err(error.into());
    }
    server.shut_down("the server is shutting down");
    stats.records_saved = server.records().len();
    server.save_all(|batch: SaveBatch<'_>| block_on(store.save(&batch)))?;
    if let Err(error) = block_on(store.release()) {
        log::warn!("giving the lease up failed (it times out instead): {error}");
    }
    Ok(stats)
}

/// Forgets the records unused for the configured time; logs and counts.
fn forget_old_records<D: Database>(
    store: &ServerStore<D>,
    config: &ServerConfig,
    tick: u64,
) -> usize {
    let Some(before) = tick.checked_sub(config.ticks(config.forget_after)) else {
        return 0;
    };
    match block_on(store.forget_records(before)) {
        Ok(0) => 0,
        Ok(forgotten) => {
            log::info!(
                "forgot {forgotten} records unused for {:?}",
                config.forget_after
            );
            forgotten
        }
        Err(error) => {
            log::warn!("forgetting old records failed (tried again later): {error}");
            0
        }
    }
}

/// The server in `game`'s scene.
fn served<D: Database + Send + Sync + 'static>(game: &mut GameLoop) -> &mut Served<D> {
    game.scene_mut()
        .world_mut()
        .resource_mut::<Served<D>>()
        .into_inner()
}
