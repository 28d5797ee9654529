//! The network for real: WebSocket over TCP on std's blocking sockets, no
//! async runtime. Each connection is a [`SocketLink`] whose reader thread
//! puts its messages in an inbox and wakes the server's loop ([`Wake`]);
//! the loop sleeps on that channel until a message arrives or the next
//! tick is due, so a server with nobody connected does not wake at all.
//! Sending never blocks the loop: each link's writer thread sends its
//! queue, and a client too slow to keep up is closed.
//!
//! A client's messages are limited at the socket (twice
//! [`MAX_CLIENT_MESSAGE`]: a bigger one closes the connection before it is
//! read whole), and every frame it sends (pings too) counts against
//! [`INBOX_LIMIT`](crafty_net::socket::INBOX_LIMIT) between ticks: a flood
//! closes it. A client that says nothing for [`FIRST_MESSAGE_TIMEOUT`]
//! after its handshake is closed at the socket (the server's own hello
//! deadline is usually sooner).
//!
//! Connections are capped ([`ConnectionLimits`]): in all, and from any
//! one address. One over a cap is answered politely: the WebSocket
//! handshake, then a close frame with code 1013 ("try again later") and
//! the reason ([`FULL`] or [`TOO_MANY_FROM_ADDRESS`]). A failing `accept`
//! (out of file descriptors) backs off, from [`ACCEPT_BACKOFF_MIN`]
//! doubling to [`ACCEPT_BACKOFF_MAX`], instead of spinning.
//!
//! With a [`TlsIdentity`] the server speaks only `wss://`: each
//! connection's TLS handshake runs on its handshake thread, within the
//! same [`HANDSHAKE_TIMEOUT`], before the WebSocket one (a refusal's too).
//! A client that does not speak TLS fails its handshake and is dropped.

use std::collections::HashMap;
use std::net::{IpAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use crafty_net::MAX_CLIENT_MESSAGE;
use crafty_net::socket::{HANDSHAKE_TIMEOUT, LinkConfig, SocketStream};
pub use crafty_net::socket::{SocketLink, TlsIdentity};
use tungstenite::protocol::CloseFrame;
use tungstenite::protocol::frame::coding::CloseCode;

/// What wakes the server's loop.
#[derive(Debug)]
pub enum Wake {
    /// A client finished its WebSocket handshake.
    Connected(Box<SocketLink>),
    /// Something happened that the loop should look at before its next
    /// tick. The server's own links do not send it (messages wait for the
    /// tick); a program driving [`serve`](crate::serve) may.
    Activity,
    /// Stop: save and exit (a signal).
    Shutdown,
}

/// The most connections open at once, by default (players, and clients
/// joining or being turned away by the server).
pub const MAX_CONNECTIONS: usize = 64;

/// The most connections open at once from one IP address, by default.
pub const MAX_PER_ADDRESS: usize = 8;

/// How long a client may take to send its first message after the
/// handshake before the socket closes it.
pub const FIRST_MESSAGE_TIMEOUT: Duration = Duration::from_secs(30);

/// The first pause after `accept` fails (doubled each failure in a row).
pub const ACCEPT_BACKOFF_MIN: Duration = Duration::from_millis(10);

/// The longest pause after `accept` fails.
pub const ACCEPT_BACKOFF_MAX: Duration = Duration::from_secs(1);

/// Connections being turned away at once; more are dropped without a
/// word (each refusal is a thread waiting on its client).
const REFUSING_AT_ONCE: usize = 16;

/// How long a refusal waits on its client at each step.
const REFUSAL_TIMEOUT: Duration = Duration::from_secs(2);

/// The close reason of a connection over [`ConnectionLimits::total`].
pub const FULL: &str = "the server is full";

/// The close reason of a connection over
/// [`ConnectionLimits::per_address`].
pub const TOO_MANY_FROM_ADDRESS: &str = "too many connections from your address";

/// Caps on open connections (each counts from `accept` until its link's
/// threads end).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// In all ([`MAX_CONNECTIONS`]).
    pub total: usize,
    /// From one IP address ([`MAX_PER_ADDRESS`]).
    pub per_address: usize,
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        Self {
            total: MAX_CONNECTIONS,
            per_address: MAX_PER_ADDRESS,
        }
    }
}

/// Connections open now, in all and by address.
#[derive(Debug, Default)]
struct Open {
    total: usize,
    by_address: HashMap<IpAddr, usize>,
}

/// One open connection's place in the count, given back when dropped.
#[derive(Debug)]
struct Slot {
    open: Arc<Mutex<Open>>,
    address: IpAddr,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        open.total = open.total.saturating_sub(1);
        if let Some(count) = open.by_address.get_mut(&self.address) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                open.by_address.remove(&self.address);
            }
        }
    }
}

/// A slot for a connection from `address`, or the reason there is none.
fn take_slot(
    open: &Arc<Mutex<Open>>,
    limits: ConnectionLimits,
    address: IpAddr,
) -> Result<Slot, &'static str> {
    let mut counts = open.lock().unwrap_or_else(PoisonError::into_inner);
    if counts.total >= limits.total {
        return Err(FULL);
    }
    let from_address = counts.by_address.entry(address).or_insert(0);
    if *from_address >= limits.per_address {
        return Err(TOO_MANY_FROM_ADDRESS);
    }
    *from_address += 1;
    counts.total += 1;
    Ok(Slot {
        open: Arc::clone(open),
        address,
    })
}

/// Accepts connections on `listener` for ever (on its own thread), with
/// the default [`ConnectionLimits`].
///
/// # Errors
/// The thread could not be started.
pub fn accept_clients(listener: TcpListener, wake: Sender<Wake>) -> std::io::Result<()> {
    accept_clients_within(listener, wake, ConnectionLimits::default(), None)
}

/// Accepts connections on `listener` for ever (on its own thread): each
/// WebSocket handshake runs on a thread of its own, so a slow client holds
/// up nobody, and a finished one is handed to the loop as
/// [`Wake::Connected`]. Connections over `limits` are turned away with a
/// close frame; see the [module docs](self). With `tls`, every
/// connection is TLS (`wss://`).
///
/// # Errors
/// The thread could not be started.
pub fn accept_clients_within(
    listener: TcpListener,
    wake: Sender<Wake>,
    limits: ConnectionLimits,
    tls: Option<TlsIdentity>,
) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name("crafty-server accept".to_owned())
        .spawn(move || accept_loop(&listener, &wake, limits, tls.map(Arc::new)))?;
    Ok(())
}

fn accept_loop(
    listener: &TcpListener,
    wake: &Sender<Wake>,
    limits: ConnectionLimits,
    tls: Option<Arc<TlsIdentity>>,
) {
    let open = Arc::new(Mutex::new(Open::default()));
    let refusing = Arc::new(AtomicUsize::new(0));
    let mut backoff = ACCEPT_BACKOFF_MIN;
    loop {
        let (stream, peer) = match listener.accept() {
            Ok(accepted) => {
                backoff = ACCEPT_BACKOFF_MIN;
                accepted
            }
            Err(error) => {
                // Out of file descriptors, most likely: wait for some to
                // close rather than spin.
                log::warn!("accepting a connection failed: {error}");
                std::thread::sleep(backoff);
                backoff = (backoff * 2).min(ACCEPT_BACKOFF_MAX);
                continue;
            }
        };
        match take_slot(&open, limits, peer.ip()) {
            Ok(slot) => {
                let wake = wake.clone();
                let tls = tls.clone();
                let _ = std::thread::Builder::new()
                    .name("crafty-server handshake".to_owned())
                    .spawn(move || handshake(stream, tls.as_deref(), wake, slot));
            }
            Err(reason) => {
                log::info!("{peer} turned away: {reason}");
                if refusing.fetch_add(1, Ordering::SeqCst) >= REFUSING_AT_ONCE {
                    refusing.fetch_sub(1, Ordering::SeqCst);
                    continue;
                }
                let done = Arc::clone(&refusing);
                let tls = tls.clone();
                let started = std::thread::Builder::new()
                    .name("crafty-server refusal".to_owned())
                    .spawn(move || {
                        refuse(stream, tls.as_deref(), reason);
                        done.fetch_sub(1, Ordering::SeqCst);
                    });
                if started.is_err() {
                    refusing.fetch_sub(1, Ordering::SeqCst);
                }
            }
        }
    }
}

/// The link configuration of a server's side of a connection.
#[must_use]
pub fn server_link_config() -> LinkConfig {
    LinkConfig {
        max_message: MAX_CLIENT_MESSAGE * 2,
        inbox_frames: crafty_net::socket::INBOX_LIMIT,
        first_message: Some(FIRST_MESSAGE_TIMEOUT),
        ..LinkConfig::default()
    }
}

fn handshake(stream: TcpStream, tls: Option<&TlsIdentity>, wake: Sender<Wake>, slot: Slot) {
    // No activity hook: the loop reads every connection at its ticks, so a
    // message need not wake it (with 200 players, a wake per message cost
    // 4,000 context switches a second and the tick's p99). The slot is
    // given back once the link and its threads are gone (or here, when
    // the handshake fails).
    match SocketLink::accept_with(
        stream,
        tls,
        &server_link_config(),
        None,
        Some(Box::new(slot)),
    ) {
        Ok(link) => {
            let _ = wake.send(Wake::Connected(Box::new(link)));
        }
        Err(error) => log::debug!("a handshake failed: {error}"),
    }
}

/// Completes the (TLS and) WebSocket handshake on `stream` and closes it
/// at once with code 1013 ("try again later") and `reason`.
fn refuse(stream: TcpStream, tls: Option<&TlsIdentity>, reason: &str) {
    let _ = stream.set_read_timeout(Some(REFUSAL_TIMEOUT.min(HANDSHAKE_TIMEOUT)));
    let _ = stream.set_write_timeout(Some(REFUSAL_TIMEOUT));
    let Ok(stream) = SocketStream::accept(stream, tls) else {
        return;
    };
    let config = crafty_net::socket::websocket_config(MAX_CLIENT_MESSAGE * 2);
    let Ok(mut socket) = tungstenite::accept_with_config(stream, Some(config)) else {
        return;
    };
    let frame = CloseFrame {
        code: CloseCode::Again,
        reason: reason.into(),
    };
    if socket.close(Some(frame)).is_err() {
        return;
    }
    // Wait (briefly) for the client's answering close frame, so it reads
    // ours before the socket goes.
    let deadline = std::time::Instant::now() + REFUSAL_TIMEOUT;
    while std::time::Instant::now() < deadline && socket.read().is_ok() {}
}
