//! [`SocketStream`]: a connection's bytes, plain TCP or TLS over it, in
//! halves a reader thread and a writer thread can each own.
//!
//! A TLS stream cannot be split with `try_clone` alone: the encryption
//! state is one. So the halves share one rustls connection under a mutex,
//! each with its own clone of the socket, and hold the lock only to
//! decrypt or encrypt, never while they wait on the socket:
//! - the reader waits for bytes on its socket, then (locked) hands them
//!   to rustls and takes out the plaintext, which it keeps until read;
//! - the writer (locked) hands rustls plaintext and takes out the
//!   records, then writes them to its socket. Only the writer writes to
//!   the socket, so records go out in the order they were made (anything
//!   rustls has to say on its own, such as an alert, goes out with the
//!   writer's next write).
//!
//! A plain stream is the socket itself, as fast as before.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use rustls::pki_types::ServerName;

use super::SocketError;
use super::tls::{TlsIdentity, TlsTrust};

/// How many bytes the reader takes from its socket at a time.
const READ_CHUNK: usize = 16 * 1024;

/// One half of a connection: plain TCP, or TLS sharing one rustls
/// connection with the other half (locked only to encrypt or decrypt).
pub struct SocketStream {
    tcp: TcpStream,
    tls: Option<TlsHalf>,
}

impl std::fmt::Debug for SocketStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SocketStream")
            .field("tcp", &self.tcp)
            .field("tls", &self.tls.is_some())
            .finish()
    }
}

/// This half's share of a TLS connection.
struct TlsHalf {
    conn: Arc<Mutex<rustls::Connection>>,
    /// Plaintext decrypted and not yet read.
    plaintext: Vec<u8>,
    /// How much of `plaintext` has been read.
    taken: usize,
    /// The peer's close_notify (or the socket's end) came: reads answer 0.
    ended: bool,
    /// Records made by the last write, to go to the socket.
    records: Vec<u8>,
}

impl TlsHalf {
    fn new(conn: Arc<Mutex<rustls::Connection>>) -> Self {
        Self {
            conn,
            plaintext: Vec::new(),
            taken: 0,
            ended: false,
            records: Vec::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, rustls::Connection> {
        self.conn.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

fn invalid(error: rustls::Error) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, error)
}

impl SocketStream {
    /// The socket as it is: `ws://`.
    #[must_use]
    pub fn plain(tcp: TcpStream) -> Self {
        Self { tcp, tls: None }
    }

    /// The server's side of a connection: the TLS handshake with
    /// `identity` (within the socket's timeouts, which the caller sets),
    /// or the socket as it is without one.
    ///
    /// # Errors
    /// The TLS handshake failed (a plain client, one that does not trust
    /// the certificate, a timeout).
    pub fn accept(tcp: TcpStream, identity: Option<&TlsIdentity>) -> Result<Self, SocketError> {
        let Some(identity) = identity else {
            return Ok(Self::plain(tcp));
        };
        let conn = rustls::ServerConnection::new(Arc::clone(identity.config()))
            .map_err(|e| SocketError::Tls(e.to_string()))?;
        Self::handshake(tcp, conn.into())
    }

    /// The client's side of a TLS connection to `host` (the name its
    /// certificate must hold, or an IP address), trusting `trust`.
    pub(super) fn connect_tls(
        tcp: TcpStream,
        host: &str,
        trust: &TlsTrust,
    ) -> Result<Self, SocketError> {
        let name = ServerName::try_from(host.to_owned())
            .map_err(|e| SocketError::Tls(format!("{host} is not a server name: {e}")))?;
        let conn = rustls::ClientConnection::new(Arc::clone(trust.config()), name)
            .map_err(|e| SocketError::Tls(e.to_string()))?;
        Self::handshake(tcp, conn.into())
    }

    fn handshake(mut tcp: TcpStream, mut conn: rustls::Connection) -> Result<Self, SocketError> {
        while conn.is_handshaking() {
            conn.complete_io(&mut tcp).map_err(handshake_error)?;
        }
        // What the handshake left to say (a server's session tickets).
        while conn.wants_write() {
            conn.write_tls(&mut tcp).map_err(handshake_error)?;
        }
        let conn = Arc::new(Mutex::new(conn));
        Ok(Self {
            tcp,
            tls: Some(TlsHalf::new(conn)),
        })
    }

    /// The socket (to set its timeouts, to shut it).
    #[must_use]
    pub fn tcp(&self) -> &TcpStream {
        &self.tcp
    }

    /// Whether this is TLS.
    #[must_use]
    pub fn is_tls(&self) -> bool {
        self.tls.is_some()
    }

    /// Another half over the same connection, for another thread: one
    /// half reads, the other writes.
    pub(super) fn try_clone(&self) -> std::io::Result<Self> {
        Ok(Self {
            tcp: self.tcp.try_clone()?,
            tls: self
                .tls
                .as_ref()
                .map(|tls| TlsHalf::new(Arc::clone(&tls.conn))),
        })
    }

    /// Sends TLS's close_notify (nothing on a plain stream).
    pub(super) fn close_notify(&mut self) -> std::io::Result<()> {
        let Some(tls) = &mut self.tls else {
            return Ok(());
        };
        tls.lock().send_close_notify();
        self.write(&[]).map(drop)
    }
}

/// The client's or the server's failed TLS handshake, said plainly.
fn handshake_error(error: std::io::Error) -> SocketError {
    if let Some(tls) = error
        .get_ref()
        .and_then(|e| e.downcast_ref::<rustls::Error>())
    {
        return match tls {
            rustls::Error::InvalidCertificate(_) => SocketError::Untrusted(tls.to_string()),
            _ => SocketError::Tls(tls.to_string()),
        };
    }
    if error.kind() == std::io::ErrorKind::UnexpectedEof {
        return SocketError::Tls("the peer closed the connection".to_owned());
    }
    SocketError::Io(error)
}

impl Read for SocketStream {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let Some(tls) = &mut self.tls else {
            return self.tcp.read(buf);
        };
        let mut chunk = [0; READ_CHUNK];
        while tls.taken == tls.plaintext.len() && !tls.ended {
            tls.plaintext.clear();
            tls.taken = 0;
            // Unlocked: the writer goes on meanwhile.
            let got = self.tcp.read(&mut chunk)?;
            let mut records = &chunk[..got];
            let mut conn = tls.conn.lock().unwrap_or_else(PoisonError::into_inner);
            loop {
                // Ok(0) marks the socket's end (when `got` is 0).
                conn.read_tls(&mut records)?;
                conn.process_new_packets().map_err(invalid)?;
                match conn.reader().read_to_end(&mut tls.plaintext) {
                    Ok(_) => tls.ended = true,
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                    // The socket ended without a close_notify: WebSocket
                    // has its own close, so this is only an end.
                    Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => tls.ended = true,
                    Err(e) => return Err(e),
                }
                if records.is_empty() {
                    break;
                }
            }
            if got == 0 {
                tls.ended = true;
            }
        }
        let left = &tls.plaintext[tls.taken..];
        let n = left.len().min(buf.len());
        buf[..n].copy_from_slice(&left[..n]);
        tls.taken += n;
        Ok(n)
    }
}

impl Write for SocketStream {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let Some(tls) = &mut self.tls else {
            return self.tcp.write(buf);
        };
        tls.records.clear();
        let written = {
            let mut conn = tls.conn.lock().unwrap_or_else(PoisonError::into_inner);
            let written = conn.writer().write(buf)?;
            while conn.wants_write() {
                conn.write_tls(&mut tls.records)?;
            }
            written
        };
        // Unlocked: the reader goes on meanwhile.
        self.tcp.write_all(&tls.records)?;
        Ok(written)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.tcp.flush()
    }
}
