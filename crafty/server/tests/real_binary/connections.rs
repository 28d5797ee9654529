//! The `crafty-server` binary's connections over real sockets on the
//! loopback: a client that stops reading holds up nobody and is closed;
//! connections over the caps are turned away with a WebSocket close frame
//! (1013, "try again later") and a bot joins once there is room; a ping
//! flood is disconnected while a bot plays on. (Real processes and sockets
//! run in real time: these tests wait on the wall clock, with generous
//! deadlines.)

#![cfg(unix)]

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crafty_client::bot::Bot;
use crafty_net::protocol::{ClientMessage, PROTOCOL_VERSION, ServerMessage};
use crafty_net::{Link, LinkClosed};
use crafty_server::socket::{FULL, SocketLink, TOO_MANY_FROM_ADDRESS};
use crafty_server::{SaveBatch, ServerStore};
use crafty_sim::world::{BlockEdit, BlockType};
use glam::IVec3;
use taos_storage::{RedbBackend, block_on};
use tungstenite::protocol::frame::coding::CloseCode;
use tungstenite::{Message, WebSocket};

const SEED: u64 = 5;

/// A running `crafty-server`, killed when dropped.
struct Running {
    child: Child,
    address: String,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(data: &Path, args: &[&str]) -> Running {
    let mut child = Command::new(env!("CARGO_BIN_EXE_crafty-server"))
        .args(["--port", "0", "--seed", &SEED.to_string(), "--data"])
        .arg(data)
        .args(args)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let stdout = child.stdout.take().unwrap();
    let mut lines = BufReader::new(stdout).lines();
    let first = lines
        .next()
        .and_then(Result::ok)
        .expect("the server says where it listens");
    // Keep draining stdout so the server never blocks on it.
    std::thread::spawn(move || lines.for_each(drop));
    let address = first
        .split("listening on ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .unwrap_or_else(|| panic!("no address in {first:?}"))
        .to_owned();
    Running { child, address }
}

/// A raw WebSocket client that has finished its upgrade.
fn upgraded(server: &Running) -> WebSocket<TcpStream> {
    let stream = TcpStream::connect(&server.address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(8)))
        .unwrap();
    let url = format!("ws://{}/", server.address);
    tungstenite::client(url, stream)
        .expect("the upgrade completes")
        .0
}

/// Reads `socket` until the server ends the connection; panics if it
/// is still open after 8 s (the read timeout). Returns the close frame's
/// code and reason, if one came.
fn read_to_the_end(socket: &mut WebSocket<TcpStream>) -> Option<(CloseCode, String)> {
    let deadline = Instant::now() + Duration::from_secs(8);
    let mut close = None;
    loop {
        assert!(Instant::now() < deadline, "the server never closed it");
        match socket.read() {
            Ok(Message::Close(frame)) => {
                close = frame.map(|f| (f.code, f.reason.to_string()));
                let _ = socket.flush();
            }
            Ok(_) => {}
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                panic!("the server never closed it");
            }
            Err(_) => return close,
        }
    }
}

/// When each state arrived, and its tick.
type Arrivals = Arc<Mutex<Vec<(Instant, u64)>>>;

/// A socket link that notes when each state arrives, and its tick.
struct Watched {
    link: SocketLink,
    states: Arrivals,
}

impl Link for Watched {
    fn send(&mut self, message: Vec<u8>) -> Result<(), LinkClosed> {
        self.link.send(message)
    }

    fn receive(&mut self) -> Option<Vec<u8>> {
        let bytes = self.link.receive()?;
        if let Ok(ServerMessage::State { tick, .. }) = ServerMessage::decode(&bytes) {
            self.states.lock().unwrap().push((Instant::now(), tick));
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

/// A bot that walks, and the arrival of each of its states.
fn watched_bot(server: &Running, name: &str) -> (Bot<Watched>, Arrivals) {
    let link = SocketLink::connect(server.address.as_str()).expect("the bot connects");
    let states = Arc::new(Mutex::new(Vec::new()));
    let watched = Watched {
        link,
        states: Arc::clone(&states),
    };
    (Bot::join(name, watched, None, 3), states)
}

/// Plays `bot` until `done` holds (panics after `within`).
fn play_until<L: Link>(
    bot: &mut Bot<L>,
    within: Duration,
    what: &str,
    done: impl Fn(&Bot<L>) -> bool,
) {
    let deadline = Instant::now() + within;
    while !done(bot) {
        assert!(Instant::now() < deadline, "not within {within:?}: {what}");
        bot.update(false);
        assert!(bot.goodbye.is_none(), "{what}: {:?}", bot.goodbye);
        std::thread::sleep(Duration::from_millis(3));
    }
}

/// Chunks near the spawn (one region, chunk columns 0..8 × 0..8 at
/// height 2) filled with edits before the server starts, each a few
/// kilobytes compressed: what a client asks for is what fills a stalled
/// client's buffers.
const FILLED_CHUNKS: i32 = 8;
const EDITS_PER_CHUNK: usize = 4000;

fn fill_the_world(data: &Path) {
    let backend = RedbBackend::new(data);
    let store = block_on(ServerStore::open(&backend, "crafty-server")).unwrap();
    block_on(store.load(SEED)).unwrap();
    let mut rng = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move |n: u64| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % n) as i32
    };
    let blocks = [
        BlockType::Stone,
        BlockType::Sand,
        BlockType::Air,
        BlockType::Dirt,
    ];
    let mut edits = Vec::new();
    for cx in 0..FILLED_CHUNKS {
        for cz in 0..FILLED_CHUNKS {
            for _ in 0..EDITS_PER_CHUNK {
                let at = IVec3::new(cx * 32 + next(32), 64 + next(32), cz * 32 + next(32));
                edits.push(BlockEdit::new(at, blocks[next(4) as usize]));
            }
        }
    }
    let batch = SaveBatch {
        first: 0,
        edits: &edits,
        records: BTreeMap::new(),
        seed: SEED,
        tick: 0,
        world: crafty_net::WorldId([5; 16]),
        fold: Vec::new(),
    };
    block_on(store.save(&batch)).unwrap();
}

#[test]
fn a_client_that_stops_reading_holds_up_nobody_and_is_closed() {
    let data = tempfile::tempdir().unwrap();
    fill_the_world(data.path());
    // 120 ticks a second: up to 64 KiB of chunks a tick for each client
    // that asks, about 7.5 MB a second.
    let server = start(data.path(), &["--tick-hz", "120"]);
    let (mut bot, states) = watched_bot(&server, "steady");
    // The stalled client says hello, asks for the chunks again and again,
    // and never reads.
    let mut stalled = upgraded(&server);
    let say = |socket: &mut WebSocket<TcpStream>, message: ClientMessage| {
        socket
            .send(Message::Binary(message.encode().unwrap().into()))
            .unwrap();
    };
    let hello = ClientMessage::Hello {
        version: PROTOCOL_VERSION,
        name: "stalled".to_owned(),
        token: None,
        view: 8,
    };
    say(&mut stalled, hello);
    std::thread::sleep(Duration::from_millis(300));
    say(
        &mut stalled,
        ClientMessage::WantRegions {
            regions: vec![[0, 0]],
        },
    );
    std::thread::sleep(Duration::from_millis(300));
    let chunks: Vec<[i32; 3]> = (0..FILLED_CHUNKS)
        .flat_map(|x| (0..FILLED_CHUNKS).map(move |z| [x, 2, z]))
        .collect();
    for _ in 0..60 {
        for batch in chunks.chunks(32).cycle().take(8) {
            let wanted = ClientMessage::WantChunks {
                chunks: batch.to_vec(),
            };
            if stalled
                .send(Message::Binary(wanted.encode().unwrap().into()))
                .is_err()
            {
                break;
            }
        }
        std::thread::sleep(Duration::from_millis(25));
    }
    let started = Instant::now();
    // While the chunks are sent (the stalled client's buffers fill and
    // its queue overflows on the way), the bot's states keep coming.
    play_until(
        &mut bot,
        Duration::from_secs(20),
        "the bot has every chunk",
        |bot| bot.chunks_fetched >= (FILLED_CHUNKS * FILLED_CHUNKS) as usize,
    );
    let took = started.elapsed();
    // Every tick's state, in order, none held up: the worst gap between
    // two states on the wall clock is far below the 2 s a blocked send
    // stalled the server for.
    let states = states.lock().unwrap().clone();
    assert!(states.len() > 100, "{} states", states.len());
    let worst = states
        .windows(2)
        .map(|pair| pair[1].0 - pair[0].0)
        .max()
        .unwrap();
    let ticks: Vec<u64> = states.iter().map(|s| s.1).collect();
    assert!(
        ticks.windows(2).all(|pair| pair[1] == pair[0] + 1),
        "a state for every tick"
    );
    println!(
        "{} states over {took:?} while the chunks were sent; the worst gap {worst:?}",
        states.len()
    );
    assert!(worst < Duration::from_secs(1), "a gap of {worst:?}");
    // The stalled client was closed: what was in its buffers, then the end.
    let close = read_to_the_end(&mut stalled);
    assert!(
        close.is_none(),
        "closed as too slow, not politely: {close:?}"
    );
}

/// Opens `count` silent WebSocket connections; the first `admitted` stay
/// open, the rest are closed with 1013 and `reason`.
fn over_the_cap(server: &Running, count: usize, admitted: usize, reason: &str) {
    let mut open = Vec::new();
    for i in 0..count {
        let mut socket = upgraded(server);
        if i < admitted {
            open.push(socket);
            continue;
        }
        let close = read_to_the_end(&mut socket);
        assert_eq!(
            close,
            Some((CloseCode::Again, reason.to_owned())),
            "connection {i}"
        );
    }
    // The admitted ones are still open (a ping at most has come).
    for socket in &mut open {
        socket
            .get_ref()
            .set_read_timeout(Some(Duration::from_millis(20)))
            .unwrap();
        match socket.read() {
            Ok(Message::Ping(_)) => {}
            Err(tungstenite::Error::Io(e))
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            other => panic!("an admitted connection: {other:?}"),
        }
    }
    // A bot is turned away too, and told why.
    let link = SocketLink::connect(server.address.as_str()).expect("the upgrade completes");
    let mut turned_away = Bot::join("late", link, None, 1);
    let deadline = Instant::now() + Duration::from_secs(8);
    while turned_away.goodbye.is_none() {
        assert!(Instant::now() < deadline, "the bot was never turned away");
        turned_away.receive();
        std::thread::sleep(Duration::from_millis(5));
    }
    let goodbye = turned_away.goodbye.clone().unwrap();
    assert!(goodbye.contains(reason), "{goodbye}");
    drop(turned_away);
    // Once the silent ones go, there is room again.
    drop(open);
    let deadline = Instant::now() + Duration::from_secs(8);
    loop {
        let link = SocketLink::connect(server.address.as_str()).expect("the bot connects");
        let mut bot = Bot::join("player", link, None, 2);
        let waited = Instant::now() + Duration::from_secs(2);
        while bot.goodbye.is_none() && !bot.is_playing() && Instant::now() < waited {
            bot.update(false);
            std::thread::sleep(Duration::from_millis(5));
        }
        if bot.is_playing() {
            return;
        }
        assert!(Instant::now() < deadline, "no room: {:?}", bot.goodbye);
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn connections_over_the_total_cap_are_told_the_server_is_full() {
    let data = tempfile::tempdir().unwrap();
    let server = start(
        data.path(),
        &["--max-connections", "20", "--max-per-address", "1000"],
    );
    over_the_cap(&server, 200, 20, FULL);
}

#[test]
fn connections_over_the_cap_from_one_address_are_told_so() {
    let data = tempfile::tempdir().unwrap();
    let server = start(
        data.path(),
        &["--max-connections", "1000", "--max-per-address", "5"],
    );
    over_the_cap(&server, 200, 5, TOO_MANY_FROM_ADDRESS);
}

#[test]
fn a_ping_flood_is_disconnected_and_the_server_plays_on() {
    let data = tempfile::tempdir().unwrap();
    let server = start(data.path(), &[]);
    let (mut bot, states) = watched_bot(&server, "steady");
    play_until(&mut bot, Duration::from_secs(8), "the bot plays", |bot| {
        bot.is_playing()
    });
    let mut flood = upgraded(&server);
    for _ in 0..10_000 {
        if flood.write(Message::Ping(Vec::new().into())).is_err() {
            break;
        }
    }
    let _ = flood.flush();
    let close = read_to_the_end(&mut flood);
    assert!(close.is_none(), "cut off, not closed politely: {close:?}");
    // The bot plays on: forty more states.
    let before = states.lock().unwrap().len();
    play_until(
        &mut bot,
        Duration::from_secs(8),
        "forty more states",
        |_| states.lock().unwrap().len() >= before + 40,
    );
}

#[test]
fn running_out_of_file_descriptors_backs_off_instead_of_spinning() {
    let data = tempfile::tempdir().unwrap();
    let binary = env!("CARGO_BIN_EXE_crafty-server");
    // 48 file descriptors: the listener, the database and the standard
    // streams leave room for a few dozen connections.
    let script = format!(
        "ulimit -n 48 && exec '{binary}' --port 0 --seed {SEED} --data '{}' \
         --max-connections 1000 --max-per-address 1000",
        data.path().display()
    );
    let mut child = Command::new("sh")
        .args(["-c", &script])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = lines.next().and_then(Result::ok).unwrap_or_default();
    std::thread::spawn(move || lines.for_each(drop));
    let failures = Arc::new(Mutex::new(0usize));
    let counted = Arc::clone(&failures);
    let stderr = BufReader::new(child.stderr.take().unwrap());
    std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            if line.contains("accepting a connection failed") {
                *counted.lock().unwrap() += 1;
            }
        }
    });
    let server = Running {
        child,
        address: first
            .split("listening on ")
            .nth(1)
            .and_then(|rest| rest.split(' ').next())
            .unwrap_or_else(|| panic!("no address in {first:?}"))
            .to_owned(),
    };
    // Silent TCP connections (no upgrade) hold a descriptor each until the
    // handshake times out: past the limit, accept fails.
    let silent: Vec<TcpStream> = (0..80)
        .map(|_| TcpStream::connect(&server.address).unwrap())
        .collect();
    let deadline = Instant::now() + Duration::from_secs(8);
    while *failures.lock().unwrap() == 0 {
        assert!(Instant::now() < deadline, "accept never failed");
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_secs(1));
    // Backing off from 10 ms, doubling to 1 s: a handful of tries in that
    // second, where a spinning loop fails thousands of times.
    let tries = *failures.lock().unwrap();
    println!("{tries} failed accepts in about a second");
    assert!(tries < 30, "{tries} failed accepts");
    // Once the descriptors are free again, a bot joins.
    drop(silent);
    let deadline = Instant::now() + Duration::from_secs(8);
    let mut bot = loop {
        if let Ok(link) = SocketLink::connect(server.address.as_str()) {
            break Bot::join("player", link, None, 2);
        }
        assert!(Instant::now() < deadline, "the server never accepted again");
        std::thread::sleep(Duration::from_millis(50));
    };
    play_until(&mut bot, Duration::from_secs(8), "the bot plays", |bot| {
        bot.is_playing()
    });
}

#[test]
fn help_names_the_connection_caps() {
    let out = Command::new(env!("CARGO_BIN_EXE_crafty-server"))
        .arg("--help")
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&out.stdout);
    for option in ["--max-connections", "--max-per-address", "1013"] {
        assert!(help.contains(option), "{option} missing from:\n{help}");
    }
}
