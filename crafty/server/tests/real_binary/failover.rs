//! Two `crafty-server` processes on one PostgreSQL database: the first
//! hosts the world, the second stands by; 8 bots play and edit on the
//! host; the host is killed with SIGKILL; the second takes the world over
//! within the lease timeout, every acknowledged edit is there, and the
//! bots come back as themselves. (Real processes and sockets: waits are
//! on the wall clock, with generous deadlines.)

#![cfg(unix)]

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crafty_client::bot::Bot;
use crafty_net::socket::SocketLink;
use crafty_sim::world::BlockType;
use glam::IVec3;
use taos_storage_postgres::LocalPostgres;

/// A running `crafty-server`, killed when dropped, and its stdout lines.
struct Running {
    child: Child,
    lines: mpsc::Receiver<String>,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Running {
    fn start(database: &str, world: &str) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_crafty-server"))
            .args(["--port", "0", "--seed", "3", "--lease-timeout", "2"])
            .args(["--database", database, "--world", world])
            .env("RUST_LOG", "warn")
            .stdout(Stdio::piped())
            .spawn()
            .expect("the server starts");
        let stdout = child.stdout.take().unwrap();
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = send.send(line);
            }
        });
        Self { child, lines }
    }

    /// Where it listens, once it does (within `within`).
    fn listening(&self, within: Duration) -> Option<String> {
        let deadline = Instant::now() + within;
        loop {
            let left = deadline.checked_duration_since(Instant::now())?;
            let line = self.lines.recv_timeout(left).ok()?;
            if let Some(rest) = line.split("listening on ").nth(1) {
                return rest.split(' ').next().map(str::to_owned);
            }
        }
    }
}

fn world_name() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    format!("failover-{}-{nanos}", std::process::id())
}

fn play(bots: &mut [Bot<SocketLink>], editing: bool, for_: Duration) {
    let until = Instant::now() + for_;
    while Instant::now() < until {
        for bot in bots.iter_mut() {
            bot.update(editing);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    for bot in bots.iter_mut() {
        bot.receive();
    }
}

#[test]
fn the_world_survives_its_host_killed_and_the_bots_come_back() {
    let postgres = LocalPostgres::from_env_or_start().expect("a PostgreSQL server for the test");
    let world = world_name();
    let mut host = Running::start(postgres.url(), &world);
    let address = host
        .listening(Duration::from_secs(20))
        .expect("the first server hosts the world");
    let standby = Running::start(postgres.url(), &world);
    assert_eq!(
        standby.listening(Duration::from_secs(3)),
        None,
        "the second stands by while the host lives"
    );

    let mut bots: Vec<Bot<SocketLink>> = (0..8)
        .map(|i| {
            let link = SocketLink::connect(address.as_str()).expect("a bot connects");
            Bot::join(&format!("bot{i}"), link, None, 40 + i)
        })
        .collect();
    play(&mut bots, false, Duration::from_secs(1));
    play(&mut bots, true, Duration::from_secs(6));
    // Settle: every copy of the world catches up with the host.
    play(&mut bots, false, Duration::from_secs(1));
    let edited: Vec<IVec3> = bots.iter().flat_map(|b| b.accepted.clone()).collect();
    assert!(edited.len() > 20, "{} edits acknowledged", edited.len());
    let truth: HashMap<IVec3, BlockType> = edited
        .iter()
        .map(|&at| (at, bots[0].world.as_ref().unwrap().block(at)))
        .collect();
    for bot in &bots {
        assert!(bot.goodbye.is_none(), "{}: {:?}", bot.name, bot.goodbye);
        let copy = bot.world.as_ref().unwrap();
        for (at, block) in &truth {
            assert_eq!(
                copy.block(*at),
                *block,
                "{} sees {at} differently",
                bot.name
            );
        }
    }
    let tokens: Vec<_> = bots.iter().map(|b| b.token.unwrap()).collect();

    // SIGKILL: no goodbye, no last save, no lease given up.
    host.child.kill().unwrap();
    host.child.wait().unwrap();
    let killed = Instant::now();
    let address = standby
        .listening(Duration::from_secs(20))
        .expect("the second server takes the world over");
    let took = killed.elapsed();
    println!("the standby took the world over {took:?} after the host was killed");
    assert!(took < Duration::from_secs(10), "{took:?}");

    // The bots come back as themselves.
    let mut back: Vec<Bot<SocketLink>> = bots
        .iter()
        .zip(&tokens)
        .enumerate()
        .map(|(i, (bot, token))| {
            let link = SocketLink::connect(address.as_str()).expect("a bot reconnects");
            Bot::join(&bot.name, link, Some(*token), 40 + i as u64)
        })
        .collect();
    play(&mut back, false, Duration::from_secs(3));
    for (bot, token) in back.iter().zip(&tokens) {
        assert!(bot.goodbye.is_none(), "{}: {:?}", bot.name, bot.goodbye);
        assert_eq!(bot.token, Some(*token), "{} is still themselves", bot.name);
    }
    // Every acknowledged edit is there, in every returning bot's copy
    // (sent by the new host, from the database).
    for bot in &back {
        let copy = bot.world.as_ref().unwrap();
        for (at, block) in &truth {
            assert_eq!(
                copy.block(*at),
                *block,
                "an acknowledged edit at {at} was lost"
            );
        }
    }
}
