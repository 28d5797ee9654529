//! The network for real: WebSocket over TCP on std's blocking sockets, no
//! async runtime. Each connection is a [`SocketLink`] whose reader thread
//! puts its messages in an inbox and wakes the server's loop ([`Wake`]);
//! the loop sleeps on that channel until a message arrives or the next
//! tick is due, so a server with nobody connected does not wake at all.
//!
//! A client's messages are limited at the socket (twice
//! [`MAX_CLIENT_MESSAGE`]: a bigger one closes the connection before it is
//! read whole), and its inbox holds at most
//! [`INBOX_LIMIT`](crafty_net::socket::INBOX_LIMIT) messages between
//! ticks: a flood closes it.

use std::net::{TcpListener, TcpStream};
use std::sync::mpsc::Sender;
use std::time::Duration;

use crafty_net::MAX_CLIENT_MESSAGE;
pub use crafty_net::socket::SocketLink;
use crafty_net::socket::websocket_config;
use tungstenite::protocol::Role;

/// What wakes the server's loop.
#[derive(Debug)]
pub enum Wake {
    /// A client finished its WebSocket handshake.
    Connected(Box<SocketLink>),
    /// A message arrived, or a connection closed.
    Activity,
    /// Stop: save and exit (a signal).
    Shutdown,
}

/// Accepts connections on `listener` for ever (on its own thread): each
/// WebSocket handshake runs on a thread of its own, so a slow client holds
/// up nobody, and a finished one is handed to the loop as
/// [`Wake::Connected`].
///
/// # Errors
/// The thread could not be started.
pub fn accept_clients(listener: TcpListener, wake: Sender<Wake>) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name("crafty-server accept".to_owned())
        .spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else {
                    continue;
                };
                let wake = wake.clone();
                let _ = std::thread::Builder::new()
                    .name("crafty-server handshake".to_owned())
                    .spawn(move || handshake(stream, wake));
            }
        })?;
    Ok(())
}

fn handshake(stream: TcpStream, wake: Sender<Wake>) {
    // A client that never finishes its handshake is dropped.
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let config = websocket_config(MAX_CLIENT_MESSAGE * 2);
    let Ok(reader) = tungstenite::accept_with_config(stream, Some(config)) else {
        return;
    };
    let _ = reader.get_ref().set_read_timeout(None);
    let activity = wake.clone();
    let on_activity = Box::new(move || activity.send(Wake::Activity).is_ok());
    if let Ok(link) = SocketLink::start(reader, Role::Server, config, Some(on_activity)) {
        let _ = wake.send(Wake::Connected(Box::new(link)));
    }
}
