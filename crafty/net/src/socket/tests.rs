//! [`SocketLink`]'s limits over real sockets on the loopback: a peer that
//! does not read, a ping flood, a silent peer, the keep-alive, a close
//! that sends what was queued, and the threads ending; each over plain
//! TCP (`plain::…`) and over TLS (`over_tls::…`).

use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tungstenite::{Message, WebSocket};

use super::*;

/// The client's end of a test connection.
type Client = WebSocket<SocketStream>;

/// A server link (`config`) and a raw tungstenite client on the loopback,
/// over TLS when `tls`.
fn pair(tls: bool, config: LinkConfig, held: Option<Held>) -> (SocketLink, Client) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    let client = std::thread::spawn(move || {
        let tcp = TcpStream::connect(address).unwrap();
        let stream = if tls {
            SocketStream::connect_tls(tcp, "localhost", &super::tls_tests::fixture().trust())
                .unwrap()
        } else {
            SocketStream::plain(tcp)
        };
        tungstenite::client(format!("ws://{address}/"), stream)
            .unwrap()
            .0
    });
    let (stream, _) = listener.accept().unwrap();
    let identity = tls.then(|| super::tls_tests::fixture().identity());
    let link = SocketLink::accept_with(stream, identity.as_ref(), &config, None, held).unwrap();
    (link, client.join().unwrap())
}

/// Each test, over plain TCP and over TLS.
macro_rules! both_ways {
    ($($name:ident),* $(,)?) => {
        mod plain {
            $(#[test]
            fn $name() {
                super::$name(false);
            })*
        }
        mod over_tls {
            $(#[test]
            fn $name() {
                super::$name(true);
            })*
        }
    };
}

both_ways!(
    a_peer_that_does_not_read_never_blocks_a_send_and_is_closed_as_too_slow,
    close_sends_what_was_queued_then_a_close_frame,
    a_ping_flood_closes_the_link_with_a_reason,
    a_reader_that_keeps_up_is_not_a_flood,
    a_silent_peer_is_closed_after_the_first_message_limit,
    an_idle_link_pings_and_its_pongs_come_back,
    a_dropped_link_ends_its_threads_and_lets_go_of_what_it_held,
    a_peer_that_closes_is_seen_closed_with_its_reason,
);

fn until(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(8);
    while !done() {
        assert!(Instant::now() < deadline, "not within 8 s: {what}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Reads `client` until the connection ends; returns the binary messages
/// and whether a close frame came.
fn read_to_end(client: &mut Client) -> (Vec<Vec<u8>>, bool) {
    client
        .get_ref()
        .tcp()
        .set_read_timeout(Some(Duration::from_secs(8)))
        .unwrap();
    let mut messages = Vec::new();
    let mut closed = false;
    loop {
        match client.read() {
            Ok(Message::Binary(bytes)) => messages.push(bytes.to_vec()),
            Ok(Message::Close(_)) => closed = true,
            Ok(_) => {}
            Err(_) => return (messages, closed),
        }
    }
}

fn a_peer_that_does_not_read_never_blocks_a_send_and_is_closed_as_too_slow(tls: bool) {
    let (mut link, client) = pair(tls, LinkConfig::default(), None);
    let started = Instant::now();
    let mut sent = 0;
    // 64 KiB messages: the kernel's buffers fill after a few MiB at most,
    // then the queue (1 MiB) fills.
    while link.send(vec![7; 64 * 1024]).is_ok() {
        sent += 1;
        assert!(sent < 100_000, "the queue never filled");
    }
    // Every send returned at once (the old link blocked 2 s on one).
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert!(link.is_closed());
    let reason = link.close_reason().unwrap();
    assert!(reason.starts_with("too slow"), "{reason}");
    assert!(link.send(vec![1]).is_err());
    drop(client);
}

fn close_sends_what_was_queued_then_a_close_frame(tls: bool) {
    let (mut link, mut client) = pair(tls, LinkConfig::default(), None);
    for i in 0..50u8 {
        link.send(vec![i; 1000]).unwrap();
    }
    let started = Instant::now();
    link.close();
    assert!(started.elapsed() < Duration::from_millis(500));
    assert!(link.send(vec![1]).is_err());
    let (messages, closed) = read_to_end(&mut client);
    assert_eq!(messages.len(), 50);
    assert!(messages.iter().enumerate().all(|(i, m)| m[0] as usize == i));
    assert!(closed, "a close frame came last");
}

fn a_ping_flood_closes_the_link_with_a_reason(tls: bool) {
    let config = LinkConfig {
        inbox_frames: 100,
        ..LinkConfig::default()
    };
    let (mut link, mut client) = pair(tls, config, None);
    for _ in 0..1000 {
        if client.write(Message::Ping(Vec::new().into())).is_err() {
            break;
        }
    }
    let _ = client.flush();
    until("the flood closes the link", || {
        link.receive();
        link.is_closed()
    });
    let reason = link.close_reason().unwrap();
    assert!(reason.contains("flooded"), "{reason}");
    // The peer sees the connection end.
    let (_, _) = read_to_end(&mut client);
}

fn a_reader_that_keeps_up_is_not_a_flood(tls: bool) {
    let config = LinkConfig {
        inbox_frames: 100,
        ..LinkConfig::default()
    };
    let (mut link, mut client) = pair(tls, config, None);
    let mut got = 0;
    for round in 0..10u8 {
        for _ in 0..50 {
            client.write(Message::Binary(vec![round].into())).unwrap();
        }
        client.flush().unwrap();
        until("the round arrives", || {
            while link.receive().is_some() {
                got += 1;
            }
            got == 50 * (usize::from(round) + 1)
        });
    }
    assert!(!link.is_closed(), "{:?}", link.close_reason());
}

fn a_silent_peer_is_closed_after_the_first_message_limit(tls: bool) {
    let config = LinkConfig {
        first_message: Some(Duration::from_millis(200)),
        ..LinkConfig::default()
    };
    let (mut link, mut client) = pair(tls, config, None);
    until("the silent peer is closed", || {
        link.receive();
        link.is_closed()
    });
    let reason = link.close_reason().unwrap();
    assert!(reason.contains("said nothing"), "{reason}");
    let _ = read_to_end(&mut client);
}

fn an_idle_link_pings_and_its_pongs_come_back(tls: bool) {
    let config = LinkConfig {
        keepalive: Duration::from_millis(50),
        silence: Duration::from_secs(2),
        ..LinkConfig::default()
    };
    let (link, mut client) = pair(tls, config, None);
    client
        .get_ref()
        .tcp()
        .set_read_timeout(Some(Duration::from_secs(8)))
        .unwrap();
    // The client answers each ping (tungstenite does it as it reads): the
    // link hears from it and stays open past its silence limit.
    let started = Instant::now();
    let mut pings = 0;
    while started.elapsed() < Duration::from_millis(2500) {
        if let Ok(Message::Ping(_)) = client.read() {
            pings += 1;
        }
    }
    assert!(pings >= 5, "{pings} pings");
    assert!(!link.is_closed(), "{:?}", link.close_reason());
}

fn a_dropped_link_ends_its_threads_and_lets_go_of_what_it_held(tls: bool) {
    let held = Arc::new(());
    let (link, mut client) = pair(
        tls,
        LinkConfig::default(),
        Some(Box::new(Arc::clone(&held))),
    );
    assert_eq!(Arc::strong_count(&held), 2);
    drop(link);
    let (_, closed) = read_to_end(&mut client);
    assert!(closed);
    until("both threads end", || Arc::strong_count(&held) == 1);
}

fn a_peer_that_closes_is_seen_closed_with_its_reason(tls: bool) {
    let (mut link, mut client) = pair(tls, LinkConfig::default(), None);
    client
        .close(Some(tungstenite::protocol::CloseFrame {
            code: tungstenite::protocol::frame::coding::CloseCode::Normal,
            reason: "bye".into(),
        }))
        .unwrap();
    until("the link sees the close", || {
        link.receive();
        link.is_closed()
    });
    assert_eq!(
        link.close_reason().as_deref(),
        Some("closed by the peer: bye")
    );
    let (_, closed) = read_to_end(&mut client);
    assert!(closed, "the close was answered");
}
