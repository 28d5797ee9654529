//! Where a client connects: `wss://host[:port][/path]` (TLS),
//! `ws://host[:port][/path]`, or a bare `host:port` (plain).

use super::SocketError;

/// A parsed server address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Target {
    /// `wss://`.
    pub(super) tls: bool,
    /// `host:port`, to resolve (a URL without a port gets 443 or 80).
    pub(super) authority: String,
    /// The host alone (no brackets around an IPv6 address): the name the
    /// server's certificate must hold.
    pub(super) host: String,
    /// The request's path (`/` by default).
    pub(super) path: String,
}

impl Target {
    /// Parses `address`.
    pub(super) fn parse(address: &str) -> Result<Self, SocketError> {
        let bad = |why: &str| SocketError::Address {
            address: address.to_owned(),
            reason: why.to_owned(),
        };
        let (tls, rest, default_port) = if let Some(rest) = address.strip_prefix("wss://") {
            (true, rest, Some(443))
        } else if let Some(rest) = address.strip_prefix("ws://") {
            (false, rest, Some(80))
        } else if address.contains("://") {
            return Err(bad("only ws:// and wss:// are spoken"));
        } else {
            (false, address, None)
        };
        let (authority, path) = match rest.find('/') {
            Some(at) => (&rest[..at], &rest[at..]),
            None => (rest, "/"),
        };
        if authority.is_empty() {
            return Err(bad("no host"));
        }
        // The host, and whether a port follows it.
        let (host, has_port) = if let Some(inner) = authority.strip_prefix('[') {
            let Some((host, after)) = inner.split_once(']') else {
                return Err(bad("an unclosed [ in the host"));
            };
            (host, after.starts_with(':'))
        } else {
            match authority.rsplit_once(':') {
                Some((host, _)) => (host, true),
                None => (authority, false),
            }
        };
        if host.is_empty() {
            return Err(bad("no host"));
        }
        let authority = match (has_port, default_port) {
            (true, _) => authority.to_owned(),
            (false, Some(port)) => format!("{authority}:{port}"),
            (false, None) => return Err(bad("no port (host:port)")),
        };
        Ok(Self {
            tls,
            authority,
            host: host.to_owned(),
            path: path.to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(address: &str) -> (bool, String, String, String) {
        let t = Target::parse(address).unwrap();
        (t.tls, t.authority, t.host, t.path)
    }

    #[test]
    fn the_forms_a_client_may_give_parse() {
        let s = String::from;
        assert_eq!(
            parsed("127.0.0.1:30000"),
            (false, s("127.0.0.1:30000"), s("127.0.0.1"), s("/"))
        );
        assert_eq!(
            parsed("ws://localhost:1/x"),
            (false, s("localhost:1"), s("localhost"), s("/x"))
        );
        assert_eq!(
            parsed("wss://play.example.org"),
            (
                true,
                s("play.example.org:443"),
                s("play.example.org"),
                s("/")
            )
        );
        assert_eq!(
            parsed("wss://[::1]:9/crafty"),
            (true, s("[::1]:9"), s("::1"), s("/crafty"))
        );
        for bad in [
            "http://x:1",
            "wss://",
            "localhost",
            "wss://[::1",
            "ws://:80",
        ] {
            assert!(Target::parse(bad).is_err(), "{bad}");
        }
    }
}
