//! What crafty's server costs: CPU per tick and bytes per second per
//! player with 8, 32 and 64 bots walking and editing (each edits about once
//! every 15 ticks while it walks), and what an idle server costs.
//!
//! The bots and the server run in one process over an in-memory network
//! (50 ms each way, 10 ms of jitter, no loss). Each case runs 60 s of game
//! time at 20 Hz (1,200 ticks). Only `Server::tick` is timed, with its
//! saving to an in-memory database; the bots' own work is not. Bytes are
//! what the server sent after the first 10 s, per player and per second.
//!
//! Idle: the real loop (`serve`, on the engine's `GameLoop`) on a loopback
//! socket with nobody connected, for 60 s (`TAOS_IDLE_SECONDS` to change
//! it): the process's CPU time from `/proc/self/stat` and the loop's
//! wake-ups.
//!
//! Targets (issue 45):
//! - 32 bots: 99th percentile under 10 ms a tick;
//! - under 30 KB/s per player;
//! - idle under 0.5% of a core, with no wake-ups.
//!
//! It is a plain timed program, not a criterion loop: a tick's cost depends
//! on the ticks before it (where the bots are, what they have built).
//!
//! Run: `cargo bench -p taos_benches --bench server` (about a minute).

use std::sync::mpsc;
use std::time::{Duration, Instant};

use crafty_client::bot::Bot;
use crafty_net::{Conditions, MemoryLink, MemoryNet};
use crafty_server::socket::Wake;
use crafty_server::{SaveBatch, Server, ServerConfig, ServerStore, serve};
use taos_storage::{MemoryBackend, block_on};

const HZ: u32 = 20;
const TICKS: usize = 1_200;
const WARM_UP: usize = 200;

struct Case {
    bots: usize,
    ticks: Vec<Duration>,
    bytes_per_player_second: f64,
    edits: usize,
}

fn run(bots: usize) -> Case {
    let net = MemoryNet::new(
        Conditions::new(Duration::from_millis(50), Duration::from_millis(10), 0.0),
        7,
    );
    let backend = MemoryBackend::new();
    let store = block_on(ServerStore::open(&backend, "bench")).expect("a memory database opens");
    let mut server = Server::new(ServerConfig {
        max_players: 64,
        ..ServerConfig::default()
    });
    let mut players: Vec<Bot<MemoryLink>> = (0..bots)
        .map(|i| {
            let (client, end) = net.connect();
            server.accept(end);
            Bot::join(&format!("bot{i}"), client, None, i as u64 + 1)
        })
        .collect();
    let mut ticks = Vec::with_capacity(TICKS);
    let mut received_at_warm_up = 0;
    let tick = Duration::from_secs(1) / HZ;
    for t in 0..TICKS {
        for bot in &mut players {
            bot.update(t > 40);
        }
        let started = Instant::now();
        server.tick_saving(|batch: SaveBatch<'_>| block_on(store.save(&batch)));
        ticks.push(started.elapsed());
        net.advance(tick);
        if t + 1 == WARM_UP {
            received_at_warm_up = received(&players);
        }
    }
    for bot in &mut players {
        bot.receive();
    }
    let total = received(&players) - received_at_warm_up;
    let seconds = (TICKS - WARM_UP) as f64 / f64::from(HZ);
    Case {
        bots,
        ticks,
        bytes_per_player_second: total as f64 / bots as f64 / seconds,
        edits: server.edits_made() as usize,
    }
}

/// Bytes the bots have received from the server: what it sent them.
fn received(bots: &[Bot<MemoryLink>]) -> u64 {
    bots.iter().map(|bot| bot.link.bytes_received()).sum()
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[index]
}

/// The process's user plus system CPU time, from `/proc/self/stat`.
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command's closing parenthesis; utime and stime are
    // the 14th and 15th fields of the line, in clock ticks (100 a second).
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(Duration::from_millis((utime + stime) * 10))
}

fn idle() {
    let backend = MemoryBackend::new();
    let store = block_on(ServerStore::open(&backend, "idle")).expect("a memory database opens");
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a loopback port");
    let (wake, wakes) = mpsc::channel();
    let stop = wake.clone();
    let seconds = std::env::var("TAOS_IDLE_SECONDS")
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(60);
    let waiter = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_secs(seconds));
        let _ = stop.send(Wake::Shutdown);
    });
    let before = cpu_time();
    let started = Instant::now();
    let stats = serve(ServerConfig::default(), listener, store, wake, &wakes).expect("it serves");
    let wall = started.elapsed();
    let after = cpu_time();
    let _ = waiter.join();
    match (before, after) {
        (Some(before), Some(after)) => {
            let used = after.saturating_sub(before);
            println!(
                "idle {:.1} s: {} wake-ups, {} ticks, CPU {:?} ({:.3}% of a core)",
                wall.as_secs_f64(),
                stats.idle_wakeups,
                stats.ticks,
                used,
                used.as_secs_f64() / wall.as_secs_f64() * 100.0
            );
        }
        _ => println!(
            "idle {:.1} s: {} wake-ups, {} ticks (no /proc for CPU time)",
            wall.as_secs_f64(),
            stats.idle_wakeups,
            stats.ticks
        ),
    }
}

fn main() {
    let rounds: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(1);
    for bots in [8, 32, 64] {
        for _ in 0..rounds {
            let case = run(bots);
            let mut sorted = case.ticks.clone();
            sorted.sort();
            println!(
                "{:>2} bots: tick median {:?}, p99 {:?}, worst {:?}; {:.1} KB/s per player; {} edits",
                case.bots,
                percentile(&sorted, 0.5),
                percentile(&sorted, 0.99),
                sorted[sorted.len() - 1],
                case.bytes_per_player_second / 1000.0,
                case.edits
            );
        }
    }
    idle();
}
