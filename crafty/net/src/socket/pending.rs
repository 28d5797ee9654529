//! [`PendingSocketLink`]: a [`SocketLink`] connected on a thread of its
//! own.

use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::time::Duration;

use super::{SocketError, SocketLink, Target, TlsTrust};
use crate::{Link, LinkClosed};

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
    /// Starts connecting to `address` (`wss://host:port[/path]`, TLS
    /// trusting the public CAs and those
    /// [`CA_CERTS_ENV`](super::CA_CERTS_ENV) names; `ws://host:port` or
    /// `host:port`, plain), trying each address it resolves to for
    /// [`CONNECT_TIMEOUT`].
    #[must_use]
    pub fn connect(address: &str) -> Self {
        Self::connecting(address, None)
    }

    /// As [`connect`](Self::connect), trusting `trust` for `wss://` (the
    /// environment is not read).
    #[must_use]
    pub fn connect_with(address: &str, trust: TlsTrust) -> Self {
        Self::connecting(address, Some(trust))
    }

    fn connecting(address: &str, trust: Option<TlsTrust>) -> Self {
        let (send, result) = std::sync::mpsc::channel();
        let address = address.to_owned();
        let started = std::thread::Builder::new()
            .name("crafty-net connect".to_owned())
            .spawn(move || {
                let _ = send.send(connect_within(&address, trust, CONNECT_TIMEOUT));
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

/// Connects to `address`, trying each of its resolutions for `timeout`
/// (trusting `trust` for `wss://`, or what the environment names).
fn connect_within(
    address: &str,
    trust: Option<TlsTrust>,
    timeout: Duration,
) -> Result<SocketLink, SocketError> {
    let target = Target::parse(address)?;
    let trust = match trust {
        Some(trust) => Some(trust),
        None if target.tls => Some(TlsTrust::from_env()?),
        None => None,
    };
    let resolved: Vec<SocketAddr> = target
        .authority
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
                return SocketLink::over(stream, &target, trust.as_ref()).map_err(|source| {
                    SocketError::At {
                        address: address.to_owned(),
                        source: Box::new(source),
                    }
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
    use tungstenite::Message;

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
