//! [`serve`]: the server's loop on real sockets. It sleeps on the wake
//! channel until a client's message arrives or the next tick is due, and
//! with nobody connected it sleeps until somebody connects: no tick, no
//! timer. Each tick is saved before its answers go out; a shutdown
//! ([`Wake::Shutdown`], from SIGINT or SIGTERM) says goodbye, saves every
//! record and returns.

use std::net::TcpListener;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use taos_storage::{Database, block_on};

use crate::socket::{SocketLink, Wake, accept_clients};
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

/// Ticks a late loop catches up before it gives up on the lost time.
const MAX_CATCH_UP: u32 = 5;

/// Runs a server for `config` on `listener`, with its world and players in
/// `store`, until a [`Wake::Shutdown`] arrives on `wakes` (`wake` is that
/// channel's sender, handed to the connections).
///
/// # Errors
/// The store could not be read, the final save failed, or the accepting
/// thread could not start.
pub fn serve<D: Database>(
    config: ServerConfig,
    listener: TcpListener,
    store: &ServerStore<D>,
    wake: Sender<Wake>,
    wakes: &Receiver<Wake>,
) -> Result<ServeStats, StoreError> {
    let saved = block_on(store.load(config.seed))?;
    let mut server: Server<SocketLink> =
        Server::with_world(config, saved.world, saved.records).resume_at(saved.tick);
    accept_clients(listener, wake).map_err(|e| StoreError::Io(e.to_string()))?;
    let period = Duration::from_secs_f64(1.0 / f64::from(config.tick_hz.max(1)));
    let mut stats = ServeStats::default();
    let mut next = Instant::now() + period;
    loop {
        let idle = server.connections() == 0;
        let woke = if idle {
            wakes.recv().map_err(|_| RecvTimeoutError::Disconnected)
        } else {
            wakes.recv_timeout(next.saturating_duration_since(Instant::now()))
        };
        match woke {
            Ok(Wake::Connected(link)) => {
                if let Some(peer) = link.peer() {
                    log::info!("{peer} connected");
                }
                server.accept(*link);
            }
            Ok(Wake::Activity) if idle => stats.idle_wakeups += 1,
            Ok(Wake::Activity) | Err(RecvTimeoutError::Timeout) => {}
            Ok(Wake::Shutdown) | Err(RecvTimeoutError::Disconnected) => break,
        }
        let now = Instant::now();
        if server.connections() == 0 {
            next = now + period;
            continue;
        }
        let mut caught_up = 0;
        while now >= next {
            let report = server.tick_saving(|batch: SaveBatch<'_>| block_on(store.save(&batch)));
            stats.ticks += 1;
            for name in &report.joined {
                log::info!("{name} joined");
            }
            caught_up += 1;
            next += period;
            if caught_up == MAX_CATCH_UP {
                // Too far behind (a stall): drop the lost time, not the players.
                next = now + period;
                break;
            }
        }
    }
    server.shut_down("the server is shutting down");
    let records = server.records().len();
    server.save_all(|batch: SaveBatch<'_>| block_on(store.save(&batch)))?;
    stats.records_saved = records;
    stats.edits = server.world().edits().len();
    Ok(stats)
}
