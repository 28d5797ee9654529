//! crafty_net: how crafty's server and clients talk.
//!
//! What this crate is:
//! - [`protocol`]: the versioned messages both sides send, encoded with
//!   postcard, with a size limit and checks on everything a client sends
//!   (a malformed or oversized message is an error, never a panic);
//! - [`link`]: the byte-transport trait the server and clients use (a
//!   message in, a message out), and [`MemoryNet`], an in-memory transport
//!   with a seeded link conditioner (latency, jitter, loss, and the
//!   reordering jitter causes) on a clock the test advances.
//!
//! What it is not (yet): the server, the client's prediction, or a socket
//! transport. Those build on this (issue 45).

pub mod link;
pub mod protocol;

pub use link::{Conditions, Link, LinkClosed, MemoryLink, MemoryNet};
pub use protocol::{
    BodyState, ClientMessage, EDITS_PER_MESSAGE, EditAction, INPUT_WINDOW, LoggedEdit,
    MAX_CHAT_CHARS, MAX_CLIENT_MESSAGE, MAX_NAME_CHARS, MAX_SERVER_MESSAGE, PROTOCOL_VERSION,
    ProtocolError, Refusal, RemotePlayer, ServerMessage, Token, peek_version, valid_name,
};
