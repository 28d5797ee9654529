//! Load and join runs of `crafty-server` on the loopback, with real
//! sockets: the figures in docs/src/multiplayer.md come from here.
//!
//! ```text
//! cargo build --release -p crafty_server --bin crafty-server --example load
//! # 200 bots (this process) walking and editing for 5 minutes, one client
//! # that stops reading among them:
//! target/release/examples/load play --bots 200 --seconds 300 --stalled
//! # joins after 100,000 edits: a new player, one coming back with its cache:
//! target/release/examples/load joins --edits 100000
//! ```
//!
//! `play` prints the server's tick times and memory (from its shutdown
//! report), the bytes each player received per second, and the longest gap
//! between two states any bot saw. `joins` prints the server's start time,
//! a new player's time to its welcome and to its last chunk and its bytes,
//! and a returning player's bytes.

use std::io::{BufRead, BufReader, Write as _};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use clap::Parser as _;
use crafty_client::SharedChunkCache;
use crafty_client::bot::Bot;
use crafty_net::protocol::{ClientMessage, PROTOCOL_VERSION, TickInput};
use crafty_net::socket::SocketLink;
use crafty_net::{Link, LinkClosed};
use crafty_server::{SaveBatch, Server, ServerConfig, ServerStore};
use crafty_sim::world::{BlockType, World};
use glam::IVec3;
use taos_storage::{RedbBackend, block_on};

#[derive(Debug, clap::Parser)]
#[command(
    name = "load",
    about = "Load and join runs of crafty-server on the loopback"
)]
enum Cli {
    /// Bots walking and editing on one server.
    Play {
        /// Bots to run (in this process).
        #[arg(long, default_value_t = 200)]
        bots: usize,
        /// How long, in seconds.
        #[arg(long, default_value_t = 300)]
        seconds: u64,
        /// Add a client that says hello and never reads.
        #[arg(long)]
        stalled: bool,
        /// The crafty-server binary (next to this example's folder by default).
        #[arg(long)]
        server: Option<PathBuf>,
    },
    /// A new and a returning player's join after many edits.
    Joins {
        /// Edits spread over 2,048 × 2,048 blocks around the spawn.
        #[arg(long, default_value_t = 100_000)]
        edits: usize,
        /// The crafty-server binary.
        #[arg(long)]
        server: Option<PathBuf>,
    },
}

fn main() {
    match Cli::parse() {
        Cli::Play {
            bots,
            seconds,
            stalled,
            server,
        } => play(bots, seconds, stalled, &binary(server)),
        Cli::Joins { edits, server } => joins(edits, &binary(server)),
    }
}

fn binary(given: Option<PathBuf>) -> PathBuf {
    given.unwrap_or_else(|| {
        let me = std::env::current_exe().expect("this program's path");
        let dir = me
            .parent()
            .and_then(Path::parent)
            .expect("target/<profile>");
        dir.join("crafty-server")
    })
}

/// A running server and its stdout lines.
struct Running {
    child: Child,
    lines: mpsc::Receiver<String>,
    address: String,
}

fn start(binary: &Path, data: &Path, args: &[String]) -> (Running, Duration) {
    let started = Instant::now();
    let mut child = Command::new(binary)
        .args(["--port", "0", "--data"])
        .arg(data)
        .args(args)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", binary.display()));
    let stdout = child.stdout.take().expect("piped");
    let (send, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = send.send(line);
        }
    });
    let first = lines
        .recv_timeout(Duration::from_secs(120))
        .expect("the server says where it listens");
    let took = started.elapsed();
    let address = first
        .split("listening on ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .expect("an address")
        .to_owned();
    (
        Running {
            child,
            lines,
            address,
        },
        took,
    )
}

impl Running {
    /// SIGINT, then its shutdown report.
    fn stop(mut self) -> Vec<String> {
        let _ = Command::new("kill")
            .args(["-INT", &self.child.id().to_string()])
            .status();
        let _ = self.child.wait();
        self.lines.try_iter().collect()
    }
}

/// A link that notes the longest wait between two states.
struct Timed {
    link: SocketLink,
    last: Option<Instant>,
    gaps: Vec<Duration>,
}

impl Link for Timed {
    fn send(&mut self, message: Vec<u8>) -> Result<(), LinkClosed> {
        self.link.send(message)
    }

    fn receive(&mut self) -> Option<Vec<u8>> {
        let bytes = self.link.receive()?;
        if bytes.first() == Some(&2) {
            // Variant 2 is a state (cheaper than decoding every one twice).
            let now = Instant::now();
            if let Some(last) = self.last.replace(now) {
                self.gaps.push(now - last);
            }
        }
        Some(bytes)
    }

    fn close(&mut self) {
        self.link.close();
    }

    fn is_closed(&self) -> bool {
        self.link.is_closed()
    }

    fn close_reason(&self) -> Option<String> {
        self.link.close_reason()
    }
}

fn play(bots: usize, seconds: u64, stalled: bool, binary: &Path) {
    let data = tempfile::tempdir().expect("a temp dir");
    let room = (bots + 20).to_string();
    let args: Vec<String> = [
        "--max-players",
        &room,
        "--max-connections",
        &room,
        "--max-per-address",
        &room,
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    let (server, _) = start(binary, data.path(), &args);
    let mut players: Vec<Bot<Timed>> = Vec::with_capacity(bots);
    for i in 0..bots {
        let link = SocketLink::connect(server.address.as_str()).expect("a bot connects");
        let timed = Timed {
            link,
            last: None,
            gaps: Vec::new(),
        };
        players.push(Bot::join(&format!("bot{i}"), timed, None, i as u64 + 1));
        if i % 20 == 19 {
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    let mut slow = stalled.then(|| stalled_client(&server.address));
    let tick = Duration::from_millis(50);
    let started = Instant::now();
    let mut next = started;
    let mut received_at_start = 0;
    let mut warmed = false;
    while started.elapsed() < Duration::from_secs(seconds) {
        for bot in &mut players {
            bot.update(true);
        }
        if let Some(socket) = &mut slow {
            // Input, so it is not silent; never a read.
            let input = ClientMessage::Input {
                last_tick: started.elapsed().as_millis() as u64 / 50 + 1,
                ticks: vec![TickInput {
                    flags: 0,
                    yaw: 0.0,
                    pitch: 0.0,
                }],
                edits_seen: 0,
            };
            let _ = socket.write_all(&frame(&input.encode().expect("encodes")));
        }
        if !warmed && started.elapsed() > Duration::from_secs(10) {
            warmed = true;
            received_at_start = players.iter().map(|b| b.bytes_received).sum::<u64>();
            for bot in &mut players {
                bot.link.gaps.clear();
            }
        }
        next += tick;
        std::thread::sleep(next.saturating_duration_since(Instant::now()));
    }
    let measured = started.elapsed().as_secs_f64() - 10.0;
    let received: u64 = players.iter().map(|b| b.bytes_received).sum::<u64>() - received_at_start;
    let gone: Vec<String> = players
        .iter()
        .filter_map(|b| b.goodbye.clone().map(|g| format!("{}: {g}", b.name)))
        .collect();
    let mut gaps: Vec<Duration> = players.iter().flat_map(|b| b.link.gaps.clone()).collect();
    gaps.sort();
    let at = |p: f64| gaps[((gaps.len() - 1) as f64 * p).round() as usize];
    let report = server.stop();
    println!(
        "{bots} bots for {seconds} s{}",
        if stalled { ", one client stalled" } else { "" }
    );
    for line in &report {
        println!("  server: {line}");
    }
    println!(
        "  received {:.1} KB/s per player; state gaps p50 {:?}, p99 {:?}, worst {:?} (5 ticks = 250 ms)",
        received as f64 / bots as f64 / measured / 1000.0,
        at(0.5),
        at(0.99),
        at(1.0)
    );
    println!(
        "  {} bots disconnected{}",
        gone.len(),
        if gone.is_empty() {
            String::new()
        } else {
            format!(": {}", gone.join("; "))
        }
    );
}

/// A WebSocket client that says hello and never reads again (a raw socket:
/// its frames are written by hand, masked as a client's must be).
fn stalled_client(address: &str) -> TcpStream {
    let stream = TcpStream::connect(address).expect("connects");
    let (mut socket, _) =
        tungstenite::client(format!("ws://{address}/"), stream).expect("upgrades");
    let hello = ClientMessage::Hello {
        version: PROTOCOL_VERSION,
        name: "stalled".to_owned(),
        token: None,
        view: 16,
    };
    socket
        .send(tungstenite::Message::Binary(
            hello.encode().expect("encodes").into(),
        ))
        .expect("says hello");
    socket.into_inner()
}

/// A masked binary WebSocket frame holding `payload` (under 64 KiB).
fn frame(payload: &[u8]) -> Vec<u8> {
    let mut out = vec![0x82];
    if payload.len() < 126 {
        out.push(0x80 | payload.len() as u8);
    } else {
        out.push(0x80 | 126);
        out.extend_from_slice(&(payload.len() as u16).to_be_bytes());
    }
    let mask = [0x12, 0x34, 0x56, 0x78];
    out.extend_from_slice(&mask);
    out.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    out
}

fn joins(count: usize, binary: &Path) {
    let data = tempfile::tempdir().expect("a temp dir");
    let config = ServerConfig::default();
    let blocks = [
        BlockType::Air,
        BlockType::Glass,
        BlockType::Planks,
        BlockType::Stone,
    ];
    let edits: Vec<(IVec3, BlockType)> = (0..count as i32)
        .map(|i| {
            let at = IVec3::new(
                (i.wrapping_mul(7919)).rem_euclid(2048) - 1024 + 64,
                20 + (i.wrapping_mul(31)).rem_euclid(90),
                (i.wrapping_mul(104_729)).rem_euclid(2048) - 1024 + 64,
            );
            (at, blocks[(i as usize) % blocks.len()])
        })
        .collect();
    let mut world = World::new(config.seed);
    for &(at, block) in &edits {
        world.set_block(at, block).expect("inside the world");
    }
    let replayed = Instant::now();
    let again = World::with_edits(config.seed, world.edits().to_vec());
    let replay = replayed.elapsed();
    drop(again);
    {
        let backend = RedbBackend::new(data.path());
        let store = block_on(ServerStore::open(&backend, "crafty-server")).expect("a database");
        let mut server: Server<crafty_net::MemoryLink> =
            Server::with_world(config, world, Default::default());
        server
            .save_all(|batch: SaveBatch<'_>| block_on(store.save(&batch)))
            .expect("saved");
        println!(
            "{count} edits in {} changed chunks",
            server.changed_chunks()
        );
    }
    let (server, started) = start(binary, data.path(), &[]);
    println!(
        "server start (process, load, listen) {started:?}; replaying the same log alone takes {replay:?}"
    );
    let cache = SharedChunkCache::default();
    let (cold, token) = join_once(&server.address, None, &cache);
    let (warm, _) = join_once(&server.address, token, &cache);
    println!(
        "new player: welcome after {:?}, last chunk after {:?}, {} chunks, {} B of chunks ({} B in all)",
        cold.welcome, cold.settled, cold.chunks, cold.chunk_bytes, cold.bytes
    );
    println!(
        "returning player: welcome after {:?}, {} chunks from its cache, {} downloaded, {} B of chunks ({:.1}% of the new player's)",
        warm.welcome,
        warm.cached,
        warm.chunks,
        warm.chunk_bytes,
        warm.chunk_bytes as f64 / cold.chunk_bytes.max(1) as f64 * 100.0
    );
    for line in server.stop() {
        println!("  server: {line}");
    }
}

struct Join {
    welcome: Duration,
    settled: Duration,
    chunks: usize,
    cached: usize,
    chunk_bytes: u64,
    bytes: u64,
}

fn join_once(
    address: &str,
    token: Option<crafty_net::Token>,
    cache: &SharedChunkCache,
) -> (Join, Option<crafty_net::Token>) {
    let started = Instant::now();
    let link = SocketLink::connect(address).expect("connects");
    let mut bot = Bot::join("joiner", link, token, 1).caching(Box::new(cache.clone()));
    let mut welcome = None;
    let mut last_chunk = started;
    let mut seen = (0, 0);
    while last_chunk.elapsed() < Duration::from_secs(2) {
        bot.send_flags(0);
        bot.receive();
        if welcome.is_none() && bot.player.is_some() {
            welcome = Some(started.elapsed());
            last_chunk = Instant::now();
        }
        if (bot.chunks_fetched, bot.chunks_cached) != seen {
            seen = (bot.chunks_fetched, bot.chunks_cached);
            last_chunk = Instant::now();
        }
        assert!(bot.goodbye.is_none(), "{:?}", bot.goodbye);
        // One input a tick, as a client sends.
        std::thread::sleep(Duration::from_millis(50));
    }
    let join = Join {
        welcome: welcome.unwrap_or_default(),
        settled: last_chunk - started,
        chunks: bot.chunks_fetched,
        cached: bot.chunks_cached,
        chunk_bytes: bot.chunk_bytes,
        bytes: bot.bytes_received,
    };
    let token = bot.token;
    bot.leave();
    std::thread::sleep(Duration::from_millis(300));
    (join, token)
}
