//! [`SocketLink`]: WebSocket over TCP on std's blocking sockets, no async
//! runtime, for native clients ([`SocketLink::connect`]) and the server's
//! side of each connection ([`SocketLink::accept`]).
//!
//! Each link has two threads of its own:
//! - a reader that puts the peer's messages in an inbox and calls an
//!   activity hook, so a server's loop can sleep until a message arrives;
//! - a writer that sends what [`send`](Link::send) queued, so sending
//!   never blocks the caller (a server's tick thread is never held up by
//!   a client that stops reading).
//!
//! Limits (each closes the link, and [`close_reason`](Link::close_reason)
//! says which):
//! - what a link reads is limited at the socket (its `max_message`: a
//!   bigger message closes the connection before it is read whole);
//! - every frame the reader receives (messages, pings, pongs) counts
//!   against [`INBOX_LIMIT`] until the owner next finds the inbox empty
//!   ([`receive`](Link::receive) answering `None`): a flood of messages
//!   or of pings closes it;
//! - the outgoing queue holds at most [`SEND_QUEUE_MESSAGES`] messages and
//!   [`SEND_QUEUE_BYTES`] bytes not yet written: a peer that reads slower
//!   than it is sent to is "too slow" and closed;
//! - a write the peer accepts nothing of for [`WRITE_TIMEOUT`] fails, and
//!   a peer heard nothing from for [`SILENCE_LIMIT`] is gone.
//!
//! Keep-alive: the writer sends a WebSocket ping every [`KEEPALIVE`],
//! busy or not, so a NAT keeps the connection's mapping, the peer (whose
//! WebSocket answers with a pong) is heard from at least that often even
//! when it has nothing to say, and a dead peer is noticed (the writes
//! fill its buffers and fail, or [`SILENCE_LIMIT`] passes).
//!
//! [`close`](Link::close) (or dropping the link) hands the writer what is
//! still queued and a close frame to send; the caller does not wait for
//! it. Either end's close, and every limit above, ends both threads.
//!
//! `wss://`: a client given a `wss://host:port` address
//! ([`SocketLink::connect`]) speaks TLS, verifying the server's
//! certificate for `host` against a [`TlsTrust`] (the public CAs, plus
//! the PEM files named in [`CA_CERTS_ENV`], `CRAFTY_CA_CERTS`, separated
//! by `:`, or given to [`SocketLink::connect_with`]); a server given a
//! [`TlsIdentity`] ([`SocketLink::accept_with`]) speaks only TLS. The two
//! threads and every limit above stay as they are: they share the one
//! TLS connection ([`SocketStream`]), each locking it only to encrypt or
//! decrypt.

use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::Duration;

use crate::{Link, LinkClosed, MAX_SERVER_MESSAGE};
use tungstenite::Message;
use tungstenite::protocol::{Role, WebSocketConfig};

mod address;
mod pending;
mod stream;
#[cfg(test)]
mod tests;
mod threads;
mod tls;
#[cfg(test)]
mod tls_tests;

use address::Target;
pub use pending::{CONNECT_TIMEOUT, PendingSocketLink};
pub use stream::SocketStream;
use threads::{ReadHalf, Shared};
pub use tls::{CA_CERTS_ENV, TlsError, TlsIdentity, TlsTrust};

/// Frames (messages, pings, pongs) a connection may receive between two
/// reads that empty its inbox before it counts as a flood. A server reads
/// every connection each tick, so at 20 Hz this is 256 frames in 50 ms.
pub const INBOX_LIMIT: usize = 256;

/// Frames a client's link takes between reads that empty its inbox: its
/// own server sends a state every tick and chunks in bursts, and a game
/// that hitches for seconds must not count that as a flood (the browser's
/// link keeps 4,096 messages).
pub const CLIENT_INBOX_LIMIT: usize = 4096;

/// Messages a link may have queued and not yet written before its peer
/// counts as too slow (at 20 states a second, about 13 s of them).
pub const SEND_QUEUE_MESSAGES: usize = 256;

/// Bytes a link may have queued and not yet written before its peer
/// counts as too slow (1 MiB).
pub const SEND_QUEUE_BYTES: usize = 1 << 20;

/// How often the writer sends a ping (whether or not it is sending
/// anything else).
pub const KEEPALIVE: Duration = Duration::from_secs(5);

/// How long a link waits to hear anything (a message, a ping, a pong)
/// from its peer before it counts the peer as gone: six keep-alives.
pub const SILENCE_LIMIT: Duration = Duration::from_secs(30);

/// How long a write may wait for a peer that accepts none of it.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// How long either side waits for the other's half of the WebSocket
/// handshake.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// Why a [`SocketLink`] could not be made.
#[derive(Debug, thiserror::Error)]
pub enum SocketError {
    /// The socket failed: connecting, configuring it, or starting its
    /// threads.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The peer did not answer the WebSocket handshake (it may not be a
    /// crafty server).
    #[error("no WebSocket handshake: {0}")]
    Handshake(String),
    /// The TLS handshake failed (the peer does not speak TLS, or not the
    /// same).
    #[error("the TLS handshake failed: {0}")]
    Tls(String),
    /// The server's certificate does not verify for its name against
    /// what the client trusts.
    #[error("the server's certificate is not trusted: {0}")]
    Untrusted(String),
    /// The client's CA certificates could not be read.
    #[error("{0}")]
    Trust(#[from] TlsError),
    /// The address is not `host:port`, `ws://…` or `wss://…`.
    #[error("{address} is not a server address: {reason}")]
    Address {
        /// The address given.
        address: String,
        /// Why.
        reason: String,
    },
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

/// Something a link holds until its threads have ended and it is dropped
/// (a server's count of open connections, released then).
pub type Held = Box<dyn Send + Sync>;

/// A link's limits and timers; the defaults are this module's constants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinkConfig {
    /// The largest message (and frame) read from the peer, in bytes.
    pub max_message: usize,
    /// Frames received between reads that empty the inbox
    /// ([`CLIENT_INBOX_LIMIT`] by default, a client's; a server's links
    /// take [`INBOX_LIMIT`]).
    pub inbox_frames: usize,
    /// Messages queued unsent ([`SEND_QUEUE_MESSAGES`]).
    pub queue_messages: usize,
    /// Bytes queued unsent ([`SEND_QUEUE_BYTES`]).
    pub queue_bytes: usize,
    /// Time between the writer's pings ([`KEEPALIVE`]).
    pub keepalive: Duration,
    /// Time without hearing from the peer before it is gone
    /// ([`SILENCE_LIMIT`]).
    pub silence: Duration,
    /// How long a peer may take to send its first message (a server's
    /// safety net for clients that never say hello); `None`: no limit.
    pub first_message: Option<Duration>,
}

impl Default for LinkConfig {
    fn default() -> Self {
        Self {
            max_message: MAX_SERVER_MESSAGE,
            inbox_frames: CLIENT_INBOX_LIMIT,
            queue_messages: SEND_QUEUE_MESSAGES,
            queue_bytes: SEND_QUEUE_BYTES,
            keepalive: KEEPALIVE,
            silence: SILENCE_LIMIT,
            first_message: None,
        }
    }
}

impl LinkConfig {
    /// The WebSocket configuration: messages and frames over
    /// `max_message` are refused.
    #[must_use]
    pub fn websocket(&self) -> WebSocketConfig {
        websocket_config(self.max_message)
    }
}

/// One end of a WebSocket connection as a [`Link`]; see the [module
/// docs](self).
#[derive(Debug)]
pub struct SocketLink {
    shared: Arc<Shared>,
    peer: Option<SocketAddr>,
}

impl SocketLink {
    /// Connects to a server at `address`: `wss://host:port[/path]` (TLS,
    /// trusting the public CAs and those [`CA_CERTS_ENV`] names), or
    /// `ws://host:port[/path]` or `host:port` (plain).
    ///
    /// # Errors
    /// The address, the connection, the TLS handshake (the server's
    /// certificate not trusted: [`SocketError::Untrusted`]) or the
    /// WebSocket handshake failed.
    pub fn connect(address: &str) -> Result<Self, SocketError> {
        let target = Target::parse(address)?;
        let trust = if target.tls {
            Some(TlsTrust::from_env()?)
        } else {
            None
        };
        Self::connect_to(&target, trust.as_ref())
    }

    /// Connects to a server at `address` as [`connect`](Self::connect)
    /// does, trusting `trust` for `wss://` (the environment is not read).
    ///
    /// # Errors
    /// As [`connect`](Self::connect).
    pub fn connect_with(address: &str, trust: &TlsTrust) -> Result<Self, SocketError> {
        Self::connect_to(&Target::parse(address)?, Some(trust))
    }

    fn connect_to(target: &Target, trust: Option<&TlsTrust>) -> Result<Self, SocketError> {
        let stream = TcpStream::connect(target.authority.as_str())?;
        Self::over(stream, target, trust)
    }

    /// The TLS handshake when `target` is `wss://` (trusting `trust`, the
    /// public CAs without one), then the WebSocket handshake, as a client.
    fn over(
        stream: TcpStream,
        target: &Target,
        trust: Option<&TlsTrust>,
    ) -> Result<Self, SocketError> {
        let config = LinkConfig::default();
        // Something that is not a crafty server may never answer.
        stream.set_read_timeout(Some(HANDSHAKE_TIMEOUT))?;
        stream.set_write_timeout(Some(HANDSHAKE_TIMEOUT))?;
        let (stream, url) = if target.tls {
            let public;
            let trust = match trust {
                Some(trust) => trust,
                None => {
                    public = TlsTrust::public()?;
                    &public
                }
            };
            let url = format!("ws://{}{}", target.authority, target.path);
            (SocketStream::connect_tls(stream, &target.host, trust)?, url)
        } else {
            let url = format!("ws://{}{}", stream.peer_addr()?, target.path);
            (SocketStream::plain(stream), url)
        };
        let (reader, _) = tungstenite::client::client_with_config(
            url,
            ReadHalf::new(stream),
            Some(config.websocket()),
        )
        .map_err(|e| match e {
            // What a TLS server answers a plain request with (an alert).
            tungstenite::HandshakeError::Failure(tungstenite::Error::Protocol(
                tungstenite::error::ProtocolError::HttparseError(_),
            )) if !target.tls => SocketError::Handshake(format!("{e} (is it a wss:// server?)")),
            e => SocketError::Handshake(e.to_string()),
        })?;
        Self::start(reader, Role::Client, &config, None, None)
    }

    /// The server's side of the WebSocket handshake over an accepted
    /// `stream` (waiting at most [`HANDSHAKE_TIMEOUT`] for the client),
    /// then the link, calling `on_activity` after every message and
    /// holding `held` until its threads have ended and it is dropped.
    ///
    /// # Errors
    /// The handshake failed, or the socket could not be configured or its
    /// threads started.
    pub fn accept(
        stream: TcpStream,
        config: &LinkConfig,
        on_activity: Option<OnActivity>,
        held: Option<Held>,
    ) -> Result<Self, SocketError> {
        Self::accept_with(stream, None, config, on_activity, held)
    }

    /// As [`accept`](Self::accept), with the TLS handshake first when
    /// given an `identity` (`wss://`; the same [`HANDSHAKE_TIMEOUT`] holds
    /// for both handshakes together).
    ///
    /// # Errors
    /// The TLS or the WebSocket handshake failed, or the socket could not
    /// be configured or its threads started.
    pub fn accept_with(
        stream: TcpStream,
        identity: Option<&TlsIdentity>,
        config: &LinkConfig,
        on_activity: Option<OnActivity>,
        held: Option<Held>,
    ) -> Result<Self, SocketError> {
        // A client that never finishes its handshake is dropped.
        stream.set_read_timeout(Some(HANDSHAKE_TIMEOUT))?;
        stream.set_write_timeout(Some(HANDSHAKE_TIMEOUT))?;
        let stream = SocketStream::accept(stream, identity)?;
        let reader =
            tungstenite::accept_with_config(ReadHalf::new(stream), Some(config.websocket()))
                .map_err(|e| SocketError::Handshake(e.to_string()))?;
        Self::start(reader, Role::Server, config, on_activity, held)
    }

    /// The peer's address.
    #[must_use]
    pub fn peer(&self) -> Option<SocketAddr> {
        self.peer
    }

    /// Splits an open WebSocket into its reader and writer threads.
    fn start(
        mut reader: tungstenite::WebSocket<ReadHalf>,
        role: Role,
        config: &LinkConfig,
        on_activity: Option<OnActivity>,
        held: Option<Held>,
    ) -> Result<Self, SocketError> {
        let half = reader.get_mut();
        // From here on the writer thread does all the writing.
        half.discard_writes();
        let stream = half.stream();
        let peer = stream.peer_addr().ok();
        stream.set_write_timeout(Some(WRITE_TIMEOUT))?;
        let writer = tungstenite::WebSocket::from_raw_socket(
            half.socket().try_clone()?,
            role,
            Some(config.websocket()),
        );
        let shared = Arc::new(Shared::new(stream.try_clone()?, config, held));
        threads::spawn(reader, writer, &shared, on_activity)?;
        Ok(Self { shared, peer })
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
    /// Queues `message` for the writer thread; never blocks. A full queue
    /// closes the link (the peer is too slow).
    fn send(&mut self, message: Vec<u8>) -> Result<(), LinkClosed> {
        self.shared.queue(Message::Binary(message.into()))
    }

    fn receive(&mut self) -> Option<Vec<u8>> {
        self.shared.take()
    }

    /// Hands the writer what is queued and a close frame to send (best
    /// effort); returns at once.
    fn close(&mut self) {
        self.shared.close();
    }

    fn is_closed(&self) -> bool {
        self.shared.is_closed()
    }

    fn close_reason(&self) -> Option<String> {
        self.shared.reason()
    }
}

impl Drop for SocketLink {
    /// Closes the link as [`close`](Link::close) does: its threads end.
    fn drop(&mut self) {
        self.shared.close();
    }
}
