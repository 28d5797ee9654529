//! The `crafty-server` binary over real sockets on the loopback, driven by
//! bot clients over WebSocket: one player's edit reaches the other's world;
//! the server killed with SIGKILL mid-game and started again on the same
//! data keeps every acknowledged edit and each player's record; SIGTERM
//! says goodbye, saves and exits; a server nobody is connected to does not
//! wake. (Real processes and sockets run in real time: these tests wait
//! on the wall clock, briefly, where the in-process ones use a manual one.)

#![cfg(unix)]

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use crafty_client::bot::Bot;
use crafty_net::protocol::EditAction;
use crafty_server::socket::SocketLink;
use crafty_sim::world::BlockType;

struct Running {
    child: Child,
    address: String,
    lines: Receiver<String>,
}

fn start(data: &Path) -> Running {
    let mut child = Command::new(env!("CARGO_BIN_EXE_crafty-server"))
        .args(["--port", "0", "--seed", "5", "--data"])
        .arg(data)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let stdout = child.stdout.take().unwrap();
    let (send, lines) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = send.send(line);
        }
    });
    let first = lines
        .recv_timeout(Duration::from_secs(20))
        .expect("the server says where it listens");
    let address = first
        .split("listening on ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .unwrap_or_else(|| panic!("no address in {first:?}"))
        .to_owned();
    Running {
        child,
        address,
        lines,
    }
}

fn connect(server: &Running, name: &str, token: Option<crafty_net::Token>) -> Bot<SocketLink> {
    let link = SocketLink::connect(server.address.as_str()).expect("the client connects");
    Bot::join(name, link, token, 9)
}

/// Plays `bots` (standing still) until `done` holds, on the wall clock.
fn until(
    bots: &mut [&mut Bot<SocketLink>],
    what: &str,
    done: impl Fn(&[&mut Bot<SocketLink>]) -> bool,
) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !done(bots) {
        assert!(Instant::now() < deadline, "not within 20 s: {what}");
        for bot in bots.iter_mut() {
            bot.receive();
            if bot.player.is_some() {
                bot.send_flags(0);
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn terminate(mut server: Running) -> String {
    let pid = server.child.id().to_string();
    let status = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    assert!(status.success());
    let exit = server.child.wait().unwrap();
    assert!(exit.success(), "SIGTERM exits cleanly: {exit}");
    // The shutdown report: what was saved, then the ticks' times.
    let mut report = String::new();
    while let Ok(line) = server.lines.recv_timeout(Duration::from_secs(5)) {
        report.push_str(&line);
        report.push('\n');
    }
    report
}

#[test]
fn an_edit_reaches_the_other_player_and_outlives_a_killed_server() {
    let data = tempfile::tempdir().unwrap();
    let server = start(data.path());
    let mut ada = connect(&server, "ada", None);
    let mut bob = connect(&server, "bob", None);
    until(
        &mut [&mut ada, &mut bob],
        "both stand on the ground",
        |bots| {
            bots.iter()
                .all(|b| b.body.is_some_and(|body| body.on_ground))
        },
    );
    let feet = ada.feet().unwrap();
    let below = (feet - glam::Vec3::Y * 0.5).floor().as_ivec3();
    let target = if ada.world.as_ref().unwrap().block(below) == BlockType::Water {
        // In the sea: place on the water instead.
        ada.send_edit(below, EditAction::Place { block: 1 });
        BlockType::Stone
    } else {
        ada.send_edit(below, EditAction::Break);
        BlockType::Air
    };
    until(
        &mut [&mut ada, &mut bob],
        "the edit is answered and reaches bob",
        |bots| {
            bots[0].pending_edits() == 0
                && bots[1]
                    .world
                    .as_ref()
                    .is_some_and(|w| w.block(below) == target)
        },
    );
    assert_eq!(ada.accepted, [below], "acknowledged");
    let token = ada.token.unwrap();

    // SIGKILL: no goodbye, no last save.
    let mut killed = server;
    killed.child.kill().unwrap();
    killed.child.wait().unwrap();

    let server = start(data.path());
    let mut back = connect(&server, "ada", Some(token));
    let mut thief = connect(&server, "bob", None);
    until(
        &mut [&mut back, &mut thief],
        "ada is back with the world's log",
        |bots| {
            bots[0]
                .world
                .as_ref()
                .is_some_and(|w| w.block(below) == target)
                && bots[1].refused.is_some()
        },
    );
    assert!(
        back.refused.is_none(),
        "ada's token is hers: {:?}",
        back.refused
    );
    assert_eq!(thief.refused, Some(crafty_net::Refusal::NameTaken));
    let again = back.feet().unwrap();
    assert!(
        again.distance(feet) < 1.5,
        "ada is back near where she stood: {again} vs {feet}"
    );
    let last = terminate(server);
    assert!(last.contains("saved"), "{last}");
}

#[test]
fn a_server_nobody_is_connected_to_does_not_wake() {
    let data = tempfile::tempdir().unwrap();
    let server = start(data.path());
    std::thread::sleep(Duration::from_millis(1500));
    let last = terminate(server);
    assert!(last.contains(" 0 ticks; 0 idle wake-ups"), "{last}");
}
