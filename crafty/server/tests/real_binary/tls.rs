//! The `crafty-server` binary over `wss://` on the loopback, with a CA and
//! a certificate for `localhost` and 127.0.0.1 made at test time: a bot
//! that trusts the CA joins, edits and is sent states; one that does not
//! is refused as "not trusted"; a plain `ws://` client fails its
//! handshake and the server serves on; one over the connection cap is
//! told why over TLS too; bad certificate and key files stop the server
//! with a clear error. (The trust is given to the link, not
//! through `CRAFTY_CA_CERTS`: the test process's environment is left
//! alone.)

#![cfg(unix)]

use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crafty_client::bot::Bot;
use crafty_net::Link;
use crafty_net::socket::{PendingSocketLink, TlsTrust};
use crafty_server::socket::SocketLink;

/// A CA, a server certificate it signed for `localhost` and 127.0.0.1,
/// and the certificate's key, in PEM files.
struct Certificates {
    dir: tempfile::TempDir,
    ca: PathBuf,
    cert: PathBuf,
    key: PathBuf,
}

fn certificates() -> Certificates {
    let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    ca_params
        .distinguished_name
        .push(rcgen::DnType::CommonName, "crafty LAN CA");
    let ca_key = rcgen::KeyPair::generate().unwrap();
    let ca_cert = ca_params.self_signed(&ca_key).unwrap();
    let issuer = rcgen::Issuer::new(ca_params, ca_key);
    let params =
        rcgen::CertificateParams::new(vec!["localhost".to_owned(), "127.0.0.1".to_owned()])
            .unwrap();
    let key = rcgen::KeyPair::generate().unwrap();
    let cert = params.signed_by(&key, &issuer).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: String| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    Certificates {
        ca: write("ca.pem", ca_cert.pem()),
        cert: write("cert.pem", cert.pem()),
        key: write("key.pem", key.serialize_pem()),
        dir,
    }
}

/// A running `crafty-server`, killed when dropped.
struct Running {
    child: Child,
    port: u16,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start(data: &Path, certs: &Certificates, args: &[&str]) -> Running {
    let mut child = Command::new(env!("CARGO_BIN_EXE_crafty-server"))
        .args(["--port", "0", "--seed", "5", "--data"])
        .arg(data)
        .args(args)
        .arg("--tls-cert")
        .arg(&certs.cert)
        .arg("--tls-key")
        .arg(&certs.key)
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
    std::thread::spawn(move || lines.for_each(drop));
    assert!(first.ends_with(" over TLS"), "{first:?}");
    let address = first
        .split("listening on ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .unwrap_or_else(|| panic!("no address in {first:?}"));
    let port = address
        .rsplit_once(':')
        .and_then(|(_, port)| port.parse().ok())
        .unwrap_or_else(|| panic!("no port in {address:?}"));
    Running { child, port }
}

/// Plays `bot` (editing or not) until `done` holds, on the wall clock.
fn play_until(
    bot: &mut Bot<SocketLink>,
    editing: bool,
    what: &str,
    done: impl Fn(&Bot<SocketLink>) -> bool,
) {
    let deadline = Instant::now() + Duration::from_secs(15);
    while !done(bot) {
        assert!(Instant::now() < deadline, "not within 15 s: {what}");
        bot.update(editing);
        assert!(bot.goodbye.is_none(), "{what}: {:?}", bot.goodbye);
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn over_wss_a_trusting_bot_plays_an_untrusting_one_is_refused_and_plain_ws_fails_cleanly() {
    let certs = certificates();
    let data = tempfile::tempdir().unwrap();
    let server = start(data.path(), &certs, &[]);
    let trust = TlsTrust::with_ca_files(std::slice::from_ref(&certs.ca)).unwrap();

    // A bot that trusts the CA joins, is sent states, and edits.
    let address = format!("wss://localhost:{}", server.port);
    let link = SocketLink::connect_with(&address, &trust).expect("the bot connects over wss");
    let mut bot = Bot::join("ada", link, None, 3);
    play_until(&mut bot, false, "ada stands on the ground", |bot| {
        bot.body.is_some_and(|body| body.on_ground)
    });
    let first_tick = bot.tick;
    play_until(&mut bot, true, "ada's edits are acknowledged", |bot| {
        bot.accepted.len() >= 3 && bot.pending_edits() == 0
    });
    play_until(&mut bot, false, "states keep coming", |bot| {
        bot.tick > first_tick + 20
    });

    // One that trusts only the public CAs is refused, and told why.
    let refused = SocketLink::connect_with(&address, &TlsTrust::public().unwrap())
        .expect_err("the certificate is not trusted")
        .to_string();
    assert!(
        refused.contains("the server's certificate is not trusted: "),
        "{refused}"
    );
    let mut pending = PendingSocketLink::connect_with(
        &format!("wss://127.0.0.1:{}", server.port),
        TlsTrust::public().unwrap(),
    );
    let deadline = Instant::now() + Duration::from_secs(8);
    while !pending.is_closed() {
        assert!(Instant::now() < deadline, "the pending link never failed");
        pending.receive();
        std::thread::sleep(Duration::from_millis(5));
    }
    let reason = pending.close_reason().unwrap();
    assert!(reason.contains("is not trusted"), "{reason}");

    // A plain ws:// client fails its handshake at once, the server does
    // not hang on it, and a second bot joins.
    let started = Instant::now();
    let plain = SocketLink::connect(&format!("ws://127.0.0.1:{}", server.port));
    assert!(plain.is_err(), "a plain client is not served");
    let stream = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(8)))
        .unwrap();
    let raw = tungstenite::client(format!("ws://127.0.0.1:{}/", server.port), stream);
    assert!(raw.is_err(), "a raw plain upgrade fails");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    let link = SocketLink::connect_with(&format!("wss://127.0.0.1:{}/", server.port), &trust)
        .expect("a second bot connects");
    let mut bob = Bot::join("bob", link, None, 4);
    play_until(&mut bob, false, "bob joins", |bot| bot.player.is_some());
    play_until(&mut bot, false, "ada plays on", |bot| {
        bot.tick > first_tick + 40
    });
    assert!(bob.world.is_some());
}

#[test]
fn over_wss_a_connection_over_the_cap_is_told_why() {
    let certs = certificates();
    let data = tempfile::tempdir().unwrap();
    let server = start(data.path(), &certs, &["--max-connections", "1"]);
    let trust = TlsTrust::with_ca_files(std::slice::from_ref(&certs.ca)).unwrap();
    let address = format!("wss://localhost:{}", server.port);
    let first = SocketLink::connect_with(&address, &trust).expect("the first connects");
    let link = SocketLink::connect_with(&address, &trust).expect("the handshakes complete");
    let mut late = Bot::join("late", link, None, 1);
    let deadline = Instant::now() + Duration::from_secs(8);
    while late.goodbye.is_none() {
        assert!(Instant::now() < deadline, "the bot was never turned away");
        late.receive();
        std::thread::sleep(Duration::from_millis(5));
    }
    let said = late.goodbye.clone().unwrap();
    assert!(said.contains("the server is full"), "{said}");
    assert!(!first.is_closed());
}

/// Runs the server with `cert` and `key`; returns its exit code and
/// what it said on stderr.
fn refused_with(cert: &Path, key: &Path) -> (Option<i32>, String) {
    let data = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_crafty-server"))
        .args(["--port", "0", "--data"])
        .arg(data.path())
        .arg("--tls-cert")
        .arg(cert)
        .arg("--tls-key")
        .arg(key)
        .output()
        .unwrap();
    assert!(output.stdout.is_empty(), "it never listened");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn bad_certificate_and_key_files_stop_the_server_with_a_clear_error() {
    let certs = certificates();
    let missing = certs.dir.path().join("missing.pem");
    let (code, said) = refused_with(&missing, &certs.key);
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.contains("cannot read") && said.contains("missing.pem"),
        "{said}"
    );
    let garbage = certs.dir.path().join("garbage.pem");
    std::fs::write(
        &garbage,
        "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
    )
    .unwrap();
    let (code, said) = refused_with(&garbage, &certs.key);
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.contains(&format!(
            "the certificate in {} does not parse",
            garbage.display()
        )),
        "{said}"
    );
    let other = certs.dir.path().join("other-key.pem");
    std::fs::write(&other, rcgen::KeyPair::generate().unwrap().serialize_pem()).unwrap();
    let (code, said) = refused_with(&certs.cert, &other);
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("does not match the certificate"), "{said}");
    // The key where the certificate goes.
    let (code, said) = refused_with(&certs.key, &certs.key);
    assert_eq!(code, Some(1), "{said}");
    assert!(said.contains("holds no certificate"), "{said}");
    // One without the other is the command line's error (exit 2).
    let lone = Command::new(env!("CARGO_BIN_EXE_crafty-server"))
        .arg("--tls-cert")
        .arg(&certs.cert)
        .output()
        .unwrap();
    assert_eq!(lone.status.code(), Some(2));
}
