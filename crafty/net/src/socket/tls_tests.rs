//! `wss://` over the loopback: a CA and a certificate for `localhost` and
//! 127.0.0.1 made at test time; a client that trusts the CA talks, one
//! that does not is refused as "not trusted"; plain and TLS peers that
//! meet fail their handshakes at once; bad certificate and key files are
//! said plainly. (The limits over TLS: `tests.rs`, run both ways.)

use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use super::*;

/// A CA, and a server certificate it signed, in PEM files.
pub(super) struct Fixture {
    _dir: tempfile::TempDir,
    pub(super) ca: PathBuf,
    pub(super) cert: PathBuf,
    pub(super) key: PathBuf,
    /// Another key (not the certificate's).
    pub(super) other_key: PathBuf,
}

impl Fixture {
    pub(super) fn identity(&self) -> TlsIdentity {
        TlsIdentity::from_pem_files(&self.cert, &self.key).unwrap()
    }

    pub(super) fn trust(&self) -> TlsTrust {
        TlsTrust::with_ca_files(std::slice::from_ref(&self.ca)).unwrap()
    }
}

/// The test process's certificates, made once.
pub(super) fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
        ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        ca_params
            .distinguished_name
            .push(rcgen::DnType::CommonName, "crafty test CA");
        let ca_key = rcgen::KeyPair::generate().unwrap();
        let ca_cert = ca_params.self_signed(&ca_key).unwrap();
        let issuer = rcgen::Issuer::new(ca_params, ca_key);
        let params =
            rcgen::CertificateParams::new(vec!["localhost".to_owned(), "127.0.0.1".to_owned()])
                .unwrap();
        let key = rcgen::KeyPair::generate().unwrap();
        let cert = params.signed_by(&key, &issuer).unwrap();
        let other = rcgen::KeyPair::generate().unwrap();
        let dir = tempfile::tempdir().unwrap();
        let write = |name: &str, text: String| {
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            path
        };
        Fixture {
            ca: write("ca.pem", ca_cert.pem()),
            cert: write("cert.pem", cert.pem()),
            key: write("key.pem", key.serialize_pem()),
            other_key: write("other-key.pem", other.serialize_pem()),
            _dir: dir,
        }
    })
}

/// A TLS server on the loopback accepting one connection; its link (or
/// why there is none) comes back on the join handle.
fn tls_server() -> (
    u16,
    std::thread::JoinHandle<Result<SocketLink, SocketError>>,
) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let identity = fixture().identity();
    let server = std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        SocketLink::accept_with(stream, Some(&identity), &LinkConfig::default(), None, None)
    });
    (port, server)
}

fn until(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(8);
    while !done() {
        assert!(Instant::now() < deadline, "not within 8 s: {what}");
        std::thread::sleep(Duration::from_millis(2));
    }
}

#[test]
fn a_client_that_trusts_the_ca_talks_both_ways_over_wss() {
    let (port, server) = tls_server();
    let mut client = SocketLink::connect_with(
        &format!("wss://localhost:{port}/crafty"),
        &fixture().trust(),
    )
    .unwrap();
    let mut server = server.join().unwrap().unwrap();
    // Big messages span many TLS records; many small ones, many writes.
    let big: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
    client.send(big.clone()).unwrap();
    for i in 0..200u8 {
        server.send(vec![i; 100]).unwrap();
    }
    server.send(big.clone()).unwrap();
    let mut heard = None;
    until("the client's message arrives", || {
        heard = heard.take().or_else(|| server.receive());
        heard.is_some()
    });
    assert_eq!(heard.as_deref(), Some(big.as_slice()));
    let mut got = Vec::new();
    until("the server's messages arrive", || {
        while let Some(message) = client.receive() {
            got.push(message);
        }
        got.len() == 201
    });
    assert!(
        got[..200]
            .iter()
            .enumerate()
            .all(|(i, m)| m == &vec![i as u8; 100])
    );
    assert_eq!(got[200], big);
    client.close();
    until("the server sees the close", || {
        server.receive();
        server.is_closed()
    });
    assert_eq!(server.close_reason().as_deref(), Some("closed by the peer"));
}

#[test]
fn a_client_that_does_not_trust_the_certificate_is_refused_with_the_reason() {
    let (port, server) = tls_server();
    let error = SocketLink::connect_with(
        &format!("wss://localhost:{port}"),
        &TlsTrust::public().unwrap(),
    )
    .unwrap_err();
    let reason = error.to_string();
    assert!(
        reason.starts_with("the server's certificate is not trusted: "),
        "{reason}"
    );
    assert!(server.join().unwrap().is_err());
    // Through a pending link, the reason is the link's close reason.
    let (port, server) = tls_server();
    let mut link = PendingSocketLink::connect_with(
        &format!("wss://127.0.0.1:{port}"),
        TlsTrust::public().unwrap(),
    );
    until("the pending link fails", || {
        link.receive();
        link.is_closed()
    });
    let reason = link.close_reason().unwrap();
    assert!(
        reason.contains("the server's certificate is not trusted"),
        "{reason}"
    );
    assert!(server.join().unwrap().is_err());
}

#[test]
fn plain_and_tls_peers_fail_their_handshakes_at_once() {
    let started = Instant::now();
    // A plain client at a TLS server.
    let (port, server) = tls_server();
    let plain = SocketLink::connect(&format!("127.0.0.1:{port}"));
    assert!(plain.is_err());
    let refused = server.join().unwrap().unwrap_err().to_string();
    assert!(refused.contains("TLS handshake"), "{refused}");
    // A TLS client at a plain server.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        SocketLink::accept(stream, &LinkConfig::default(), None, None)
    });
    let error = SocketLink::connect_with(&format!("wss://localhost:{port}"), &fixture().trust())
        .unwrap_err()
        .to_string();
    assert!(error.contains("TLS") || error.contains("closed"), "{error}");
    assert!(server.join().unwrap().is_err());
    // Neither waited for the handshake timeout.
    assert!(
        started.elapsed() < HANDSHAKE_TIMEOUT / 2,
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn bad_certificate_and_key_files_are_said_plainly() {
    let f = fixture();
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.pem");
    let garbage = dir.path().join("garbage.pem");
    std::fs::write(
        &garbage,
        "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
    )
    .unwrap();
    let empty = dir.path().join("empty.pem");
    std::fs::write(&empty, "nothing here\n").unwrap();
    let said = |cert: &PathBuf, key: &PathBuf| {
        TlsIdentity::from_pem_files(cert, key)
            .unwrap_err()
            .to_string()
    };
    let missing_said = said(&missing, &f.key);
    assert!(missing_said.starts_with("cannot read "), "{missing_said}");
    let garbage_said = said(&garbage, &f.key);
    assert!(
        garbage_said.starts_with(&format!(
            "the certificate in {} does not parse: ",
            garbage.display()
        )),
        "{garbage_said}"
    );
    let empty_said = said(&empty, &f.key);
    assert!(empty_said.contains("holds no certificate"), "{empty_said}");
    let key_said = said(&f.cert, &empty);
    assert!(key_said.starts_with("the key in "), "{key_said}");
    let mismatch = said(&f.cert, &f.other_key);
    assert!(
        mismatch.contains("does not match the certificate"),
        "{mismatch}"
    );
    // A CA file for clients is checked the same way.
    let trust = TlsTrust::with_ca_files(&[garbage]).unwrap_err().to_string();
    assert!(trust.contains("does not parse"), "{trust}");
}
