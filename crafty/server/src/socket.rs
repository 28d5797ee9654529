//! The network for real: WebSocket over TCP on std's blocking sockets, no
//! async runtime. Each connection has a reader thread that puts its
//! messages in an inbox and wakes the server's loop ([`Wake`]); the loop
//! sleeps on that channel until a message arrives or the next tick is due,
//! so a server with nobody connected does not wake at all.
//!
//! A client's messages are limited at the socket (twice
//! [`MAX_CLIENT_MESSAGE`]: a bigger one
//! closes the connection before it is read whole), and its inbox holds at
//! most [`INBOX_LIMIT`] messages between ticks: a flood closes it.

use std::collections::VecDeque;
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use crafty_net::{Link, LinkClosed, MAX_CLIENT_MESSAGE, MAX_SERVER_MESSAGE};
use tungstenite::protocol::{Role, WebSocketConfig};
use tungstenite::{Message, WebSocket};

/// Messages a connection may have waiting before it counts as a flood.
pub const INBOX_LIMIT: usize = 256;

/// How long a send may block on a client that does not read.
const WRITE_TIMEOUT: Duration = Duration::from_secs(2);

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

#[derive(Debug, Default)]
struct Inbox {
    messages: VecDeque<Vec<u8>>,
    closed: bool,
}

/// One end of a WebSocket connection as a [`Link`].
#[derive(Debug)]
pub struct SocketLink {
    writer: WebSocket<TcpStream>,
    inbox: Arc<Mutex<Inbox>>,
    peer: Option<SocketAddr>,
}

impl SocketLink {
    /// Connects to a server at `address` (a client, a bot, a test).
    ///
    /// # Errors
    /// The connection or the WebSocket handshake failed.
    pub fn connect(address: impl ToSocketAddrs) -> Result<Self, String> {
        let stream = TcpStream::connect(address).map_err(|e| e.to_string())?;
        let url = format!("ws://{}/", stream.peer_addr().map_err(|e| e.to_string())?);
        let config = config(MAX_SERVER_MESSAGE);
        let (reader, _) = tungstenite::client::client_with_config(url, stream, Some(config))
            .map_err(|e| e.to_string())?;
        Self::start(reader, Role::Client, config, None).map_err(|e| e.to_string())
    }

    /// The peer's address.
    #[must_use]
    pub fn peer(&self) -> Option<SocketAddr> {
        self.peer
    }

    /// Splits a WebSocket into a writer (this link) and a reader thread
    /// filling the inbox, waking `wake` on every message.
    fn start(
        mut reader: WebSocket<TcpStream>,
        role: Role,
        config: WebSocketConfig,
        wake: Option<Sender<Wake>>,
    ) -> std::io::Result<Self> {
        let stream = reader.get_mut();
        let peer = stream.peer_addr().ok();
        stream.set_write_timeout(Some(WRITE_TIMEOUT))?;
        let writer = WebSocket::from_raw_socket(stream.try_clone()?, role, Some(config));
        let inbox = Arc::new(Mutex::new(Inbox::default()));
        let filled = Arc::clone(&inbox);
        std::thread::Builder::new()
            .name("crafty-net reader".to_owned())
            .spawn(move || read_into(reader, &filled, wake.as_ref()))?;
        Ok(Self {
            writer,
            inbox,
            peer,
        })
    }

    fn inbox(&self) -> std::sync::MutexGuard<'_, Inbox> {
        self.inbox.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Reads messages into `inbox` until the connection ends or floods.
fn read_into(mut reader: WebSocket<TcpStream>, inbox: &Mutex<Inbox>, wake: Option<&Sender<Wake>>) {
    loop {
        let message = reader.read();
        let mut held = inbox.lock().unwrap_or_else(PoisonError::into_inner);
        match message {
            Ok(Message::Binary(bytes)) => {
                if held.messages.len() >= INBOX_LIMIT {
                    // A flood: the server would disconnect it anyway.
                    held.closed = true;
                } else {
                    held.messages.push_back(bytes.to_vec());
                }
            }
            Ok(Message::Close(_)) | Err(_) => held.closed = true,
            // Pings are answered by the reader; text is not this protocol.
            Ok(Message::Text(_)) => held.closed = true,
            Ok(_) => continue,
        }
        let closed = held.closed;
        drop(held);
        if let Some(wake) = wake
            && wake.send(Wake::Activity).is_err()
        {
            return;
        }
        if closed {
            let _ = reader.get_mut().shutdown(std::net::Shutdown::Both);
            return;
        }
    }
}

fn config(max_message: usize) -> WebSocketConfig {
    WebSocketConfig::default()
        .max_message_size(Some(max_message))
        .max_frame_size(Some(max_message))
}

impl Link for SocketLink {
    fn send(&mut self, message: Vec<u8>) -> Result<(), LinkClosed> {
        if self.inbox().closed {
            return Err(LinkClosed);
        }
        if self.writer.send(Message::Binary(message.into())).is_err() {
            self.inbox().closed = true;
            return Err(LinkClosed);
        }
        Ok(())
    }

    fn receive(&mut self) -> Option<Vec<u8>> {
        self.inbox().messages.pop_front()
    }

    fn close(&mut self) {
        let _ = self.writer.close(None);
        let _ = self.writer.flush();
        let _ = self.writer.get_mut().shutdown(std::net::Shutdown::Both);
        self.inbox().closed = true;
    }

    fn is_closed(&self) -> bool {
        let inbox = self.inbox();
        inbox.closed && inbox.messages.is_empty()
    }
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
    let config = config(MAX_CLIENT_MESSAGE * 2);
    let Ok(reader) = tungstenite::accept_with_config(stream, Some(config)) else {
        return;
    };
    let _ = reader.get_ref().set_read_timeout(None);
    if let Ok(link) = SocketLink::start(reader, Role::Server, config, Some(wake.clone())) {
        let _ = wake.send(Wake::Connected(Box::new(link)));
    }
}
