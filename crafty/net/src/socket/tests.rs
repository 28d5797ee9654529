//! [`SocketLink`]'s limits over real sockets on the loopback: a peer that
//! does not read, a ping flood, a silent peer, the keep-alive, a close
//! that sends what was queued, and the threads ending.

use std::net::{TcpListener, TcpStream};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tungstenite::{Message, WebSocket};

use super::*;

/// A server link (`config`) and a raw tungstenite client on the loopback.
fn pair(config: LinkConfig, held: Option<Held>) -> (SocketLink, WebSocket<TcpStream>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap();
    let client = std::thread::spawn(move || {
        let stream = TcpStream::connect(address).unwrap();
        tungstenite::client(format!("ws://{address}/"), stream)
            .unwrap()
            .0
    });
    let (stream, _) = listener.accept().unwrap();
    let link = SocketLink::accept(stream, &config, None, held).unwrap();
    (link, client.join().unwrap())
}

fn until(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(8);
    while !done() {
        assert!(Instant::now() < deadline, "not within 8 s: {what}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Reads `client` until the connection ends; returns the binary messages
/// and whether a close frame came.
fn read_to_end(client: &mut WebSocket<TcpStream>) -> (Vec<Vec<u8>>, bool) {
    client
        .get_ref()
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

#[test]
fn a_peer_that_does_not_read_never_blocks_a_send_and_is_closed_as_too_slow() {
    let (mut link, client) = pair(LinkConfig::default(), None);
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

#[test]
fn close_sends_what_was_queued_then_a_close_frame() {
    let (mut link, mut client) = pair(LinkConfig::default(), None);
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

#[test]
fn a_ping_flood_closes_the_link_with_a_reason() {
    let config = LinkConfig {
        inbox_frames: 100,
        ..LinkConfig::default()
    };
    let (mut link, mut client) = pair(config, None);
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

#[test]
fn a_reader_that_keeps_up_is_not_a_flood() {
    let config = LinkConfig {
        inbox_frames: 100,
        ..LinkConfig::default()
    };
    let (mut link, mut client) = pair(config, None);
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

#[test]
fn a_silent_peer_is_closed_after_the_first_message_limit() {
    let config = LinkConfig {
        first_message: Some(Duration::from_millis(200)),
        ..LinkConfig::default()
    };
    let (mut link, mut client) = pair(config, None);
    until("the silent peer is closed", || {
        link.receive();
        link.is_closed()
    });
    let reason = link.close_reason().unwrap();
    assert!(reason.contains("said nothing"), "{reason}");
    let _ = read_to_end(&mut client);
}

#[test]
fn an_idle_link_pings_and_its_pongs_come_back() {
    let config = LinkConfig {
        keepalive: Duration::from_millis(50),
        silence: Duration::from_secs(2),
        ..LinkConfig::default()
    };
    let (link, mut client) = pair(config, None);
    client
        .get_ref()
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

#[test]
fn a_dropped_link_ends_its_threads_and_lets_go_of_what_it_held() {
    let held = Arc::new(());
    let (link, mut client) = pair(LinkConfig::default(), Some(Box::new(Arc::clone(&held))));
    assert_eq!(Arc::strong_count(&held), 2);
    drop(link);
    let (_, closed) = read_to_end(&mut client);
    assert!(closed);
    until("both threads end", || Arc::strong_count(&held) == 1);
}

#[test]
fn a_peer_that_closes_is_seen_closed_with_its_reason() {
    let (mut link, mut client) = pair(LinkConfig::default(), None);
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
