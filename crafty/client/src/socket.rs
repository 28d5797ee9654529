//! [`SocketLink`]: WebSocket over TCP on std's blocking sockets, no async
//! runtime, for native clients ([`SocketLink::connect`]) and the server's
//! side of each connection ([`SocketLink::start`]). Each link has a reader
//! thread that puts its messages in an inbox and calls an activity hook,
//! so a server's loop can sleep until a message arrives.
//!
//! What a link reads is limited at the socket (its `max_message`: a bigger
//! message closes the connection before it is read whole), and its inbox
//! holds at most [`INBOX_LIMIT`] messages between reads: a flood closes
//! it.

use std::collections::VecDeque;
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use crafty_net::{Link, LinkClosed, MAX_SERVER_MESSAGE};
use tungstenite::protocol::{Role, WebSocketConfig};
use tungstenite::{Message, WebSocket};

/// Messages a connection may have waiting before it counts as a flood.
pub const INBOX_LIMIT: usize = 256;

/// How long a send may block on a client that does not read.
const WRITE_TIMEOUT: Duration = Duration::from_secs(2);

/// Called by a link's reader thread after each message or when the
/// connection closes; returning `false` stops the reader (nobody listens).
pub type OnActivity = Box<dyn Fn() -> bool + Send>;

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
        let config = websocket_config(MAX_SERVER_MESSAGE);
        let (reader, _) = tungstenite::client::client_with_config(url, stream, Some(config))
            .map_err(|e| e.to_string())?;
        Self::start(reader, Role::Client, config, None).map_err(|e| e.to_string())
    }

    /// The peer's address.
    #[must_use]
    pub fn peer(&self) -> Option<SocketAddr> {
        self.peer
    }

    /// Splits an open WebSocket into a writer (this link) and a reader
    /// thread filling the inbox, calling `on_activity` after every message.
    ///
    /// # Errors
    /// The socket could not be cloned or configured, or the thread not
    /// started.
    pub fn start(
        mut reader: WebSocket<TcpStream>,
        role: Role,
        config: WebSocketConfig,
        on_activity: Option<OnActivity>,
    ) -> std::io::Result<Self> {
        let stream = reader.get_mut();
        let peer = stream.peer_addr().ok();
        stream.set_write_timeout(Some(WRITE_TIMEOUT))?;
        let writer = WebSocket::from_raw_socket(stream.try_clone()?, role, Some(config));
        let inbox = Arc::new(Mutex::new(Inbox::default()));
        let filled = Arc::clone(&inbox);
        std::thread::Builder::new()
            .name("crafty-net reader".to_owned())
            .spawn(move || read_into(reader, &filled, on_activity.as_ref()))?;
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
fn read_into(
    mut reader: WebSocket<TcpStream>,
    inbox: &Mutex<Inbox>,
    on_activity: Option<&OnActivity>,
) {
    loop {
        let message = reader.read();
        let mut held = inbox.lock().unwrap_or_else(PoisonError::into_inner);
        match message {
            Ok(Message::Binary(bytes)) => {
                if held.messages.len() >= INBOX_LIMIT {
                    // A flood: the reader would disconnect it anyway.
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
        if let Some(on_activity) = on_activity
            && !on_activity()
        {
            return;
        }
        if closed {
            let _ = reader.get_mut().shutdown(std::net::Shutdown::Both);
            return;
        }
    }
}

/// A WebSocket configuration that refuses messages and frames over
/// `max_message` bytes.
#[must_use]
pub fn websocket_config(max_message: usize) -> WebSocketConfig {
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
