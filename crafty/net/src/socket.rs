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

use crate::{Link, LinkClosed, MAX_SERVER_MESSAGE};
use tungstenite::protocol::{Role, WebSocketConfig};
use tungstenite::{Message, WebSocket};

/// Messages a connection may have waiting before it counts as a flood.
pub const INBOX_LIMIT: usize = 256;

/// How long a client waits for the server's half of the handshake.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// How long a send may block on a client that does not read.
const WRITE_TIMEOUT: Duration = Duration::from_secs(2);

/// Why a [`SocketLink`] could not be made.
#[derive(Debug, thiserror::Error)]
pub enum SocketError {
    /// The socket failed: connecting, configuring it, or starting its
    /// reader thread.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The peer did not answer the WebSocket handshake (it may not be a
    /// crafty server).
    #[error("no WebSocket handshake: {0}")]
    Handshake(String),
    /// The address could not be resolved.
    #[error("cannot find {address}: {source}")]
    Resolve {
        /// The address asked for.
        address: String,
        /// Why.
        source: std::io::Error,
    },
    /// The address resolved to nothing.
    #[error("{address} resolves to no address")]
    NoAddress {
        /// The address asked for.
        address: String,
    },
    /// No resolution of the address answered in time.
    #[error("cannot reach {address}: {source}")]
    Unreachable {
        /// The address asked for.
        address: String,
        /// Why the last resolution tried failed.
        source: std::io::Error,
    },
    /// The connection to `address` was made but the link was not.
    #[error("{address}: {source}")]
    At {
        /// The address asked for.
        address: String,
        /// Why.
        source: Box<SocketError>,
    },
}

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
    pub fn connect(address: impl ToSocketAddrs) -> Result<Self, SocketError> {
        let stream = TcpStream::connect(address)?;
        Self::over(stream)
    }

    /// The WebSocket handshake over a connected `stream`, as a client.
    fn over(stream: TcpStream) -> Result<Self, SocketError> {
        let url = format!("ws://{}/", stream.peer_addr()?);
        let config = websocket_config(MAX_SERVER_MESSAGE);
        // Something that is not a crafty server may never answer.
        stream.set_read_timeout(Some(HANDSHAKE_TIMEOUT))?;
        let (reader, _) = tungstenite::client::client_with_config(url, stream, Some(config))
            .map_err(|e| SocketError::Handshake(e.to_string()))?;
        reader.get_ref().set_read_timeout(None)?;
        Ok(Self::start(reader, Role::Client, config, None)?)
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

/// How long [`PendingSocketLink`] tries each of the address's resolutions.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// A [`SocketLink`] being connected on a thread of its own, so that a
/// window never waits on the network: messages sent meanwhile are queued
/// and go out once it is open; if it cannot be made, the link is closed
/// and [`close_reason`](Link::close_reason) says why.
#[derive(Debug)]
pub struct PendingSocketLink {
    state: Pending,
}

#[derive(Debug)]
enum Pending {
    Connecting {
        result: std::sync::mpsc::Receiver<Result<SocketLink, SocketError>>,
        queued: Vec<Vec<u8>>,
    },
    Open(Box<SocketLink>),
    Failed(String),
}

impl PendingSocketLink {
    /// Starts connecting to `address` (`host:port`), trying each address
    /// it resolves to for [`CONNECT_TIMEOUT`].
    #[must_use]
    pub fn connect(address: &str) -> Self {
        let (send, result) = std::sync::mpsc::channel();
        let address = address.to_owned();
        let started = std::thread::Builder::new()
            .name("crafty-net connect".to_owned())
            .spawn(move || {
                let _ = send.send(connect_within(&address, CONNECT_TIMEOUT));
            });
        let state = match started {
            Ok(_) => Pending::Connecting {
                result,
                queued: Vec::new(),
            },
            Err(e) => Pending::Failed(format!("cannot start connecting: {e}")),
        };
        Self { state }
    }

    /// Moves on once the connecting thread has answered.
    fn poll(&mut self) {
        let Pending::Connecting { result, queued } = &mut self.state else {
            return;
        };
        let answer = match result.try_recv() {
            Ok(answer) => answer,
            Err(std::sync::mpsc::TryRecvError::Empty) => return,
            Err(std::sync::mpsc::TryRecvError::Disconnected) => Err(SocketError::Io(
                std::io::Error::other("the connecting thread stopped"),
            )),
        };
        let queued = std::mem::take(queued);
        self.state = match answer {
            Ok(mut link) => {
                let sent = queued.into_iter().try_for_each(|m| link.send(m));
                match sent {
                    Ok(()) => Pending::Open(Box::new(link)),
                    Err(e) => Pending::Failed(e.to_string()),
                }
            }
            Err(reason) => Pending::Failed(reason.to_string()),
        };
    }
}

/// Connects to `address`, trying each of its resolutions for `timeout`.
fn connect_within(address: &str, timeout: Duration) -> Result<SocketLink, SocketError> {
    let resolved: Vec<SocketAddr> = address
        .to_socket_addrs()
        .map_err(|source| SocketError::Resolve {
            address: address.to_owned(),
            source,
        })?
        .collect();
    let mut last = SocketError::NoAddress {
        address: address.to_owned(),
    };
    for candidate in resolved {
        match TcpStream::connect_timeout(&candidate, timeout) {
            Ok(stream) => {
                return SocketLink::over(stream).map_err(|source| SocketError::At {
                    address: address.to_owned(),
                    source: Box::new(source),
                });
            }
            Err(source) => {
                last = SocketError::Unreachable {
                    address: address.to_owned(),
                    source,
                }
            }
        }
    }
    Err(last)
}

impl Link for PendingSocketLink {
    fn send(&mut self, message: Vec<u8>) -> Result<(), LinkClosed> {
        self.poll();
        match &mut self.state {
            Pending::Connecting { queued, .. } => {
                queued.push(message);
                Ok(())
            }
            Pending::Open(link) => link.send(message),
            Pending::Failed(_) => Err(LinkClosed),
        }
    }

    fn receive(&mut self) -> Option<Vec<u8>> {
        self.poll();
        match &mut self.state {
            Pending::Open(link) => link.receive(),
            _ => None,
        }
    }

    fn close(&mut self) {
        match &mut self.state {
            Pending::Open(link) => link.close(),
            Pending::Connecting { .. } => {
                self.state = Pending::Failed("closed while connecting".to_owned());
            }
            Pending::Failed(_) => {}
        }
    }

    fn is_closed(&self) -> bool {
        match &self.state {
            Pending::Connecting { .. } => false,
            Pending::Open(link) => link.is_closed(),
            Pending::Failed(_) => true,
        }
    }

    fn close_reason(&self) -> Option<String> {
        match &self.state {
            Pending::Failed(reason) => Some(reason.clone()),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;
    use std::time::Instant;

    fn settle(link: &mut PendingSocketLink, mut done: impl FnMut(&mut PendingSocketLink) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while !done(link) {
            assert!(Instant::now() < deadline, "the link never settled");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn a_server_that_is_not_there_closes_the_link_with_the_reason() {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let mut link = PendingSocketLink::connect(&format!("127.0.0.1:{port}"));
        // Queued while connecting, or refused at once: never a panic.
        let _ = link.send(vec![1]);
        settle(&mut link, |link| {
            link.receive();
            link.is_closed()
        });
        let reason = link.close_reason().unwrap();
        assert!(reason.contains("cannot reach"), "{reason}");
        assert!(link.send(vec![2]).is_err());
        let mut unknown = PendingSocketLink::connect("no-such-host.invalid:1");
        settle(&mut unknown, |link| {
            link.receive();
            link.is_closed()
        });
        assert!(unknown.close_reason().is_some());
    }

    #[test]
    fn what_is_sent_while_connecting_arrives_once_open() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap().to_string();
        let server = std::thread::spawn(move || {
            let (stream, _) = listener.accept().unwrap();
            let mut socket = tungstenite::accept(stream).unwrap();
            let first = socket.read().unwrap().into_data();
            socket.send(Message::Binary(vec![9, 9].into())).unwrap();
            let _ = socket.flush();
            first.to_vec()
        });
        let mut link = PendingSocketLink::connect(&address);
        link.send(vec![4, 2]).unwrap();
        let mut answer = None;
        settle(&mut link, |link| {
            answer = answer.take().or_else(|| link.receive());
            answer.is_some()
        });
        assert_eq!(answer, Some(vec![9, 9]));
        assert_eq!(server.join().unwrap(), vec![4, 2]);
    }
}
