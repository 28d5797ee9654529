//! crafty_net: how crafty's server and clients talk.
//!
//! What this crate is:
//! - [`chunks`]: changed chunks as versioned, compressed snapshots;
//! - [`protocol`]: the versioned messages both sides send, encoded with
//!   postcard, with a size limit and checks on everything a client sends
//!   (a malformed or oversized message is an error, never a panic);
//! - [`link`]: the byte-transport trait the server and clients use (a
//!   message in, a message out), and [`MemoryNet`], an in-memory transport
//!   with a seeded link conditioner (latency, jitter, loss, and the
//!   reordering jitter causes) on a clock the test advances.
//!
//! - [`socket`] (native): [`SocketLink`](socket::SocketLink), WebSocket
//!   over TCP on std's blocking sockets, for native clients and the
//!   server's side of each connection, and
//!   [`PendingSocketLink`](socket::PendingSocketLink), one being connected
//!   on a thread of its own;
//! - `web_socket` (browser, wasm32): `WebSocketLink`, the page's
//!   WebSocket.
//!
//! What it is not: the server (`crafty_server`), a client's prediction or
//! its side of a game (`crafty_client`), or the player step they share
//! (`crafty_sim::step`). It knows bytes and messages, not the world.

pub mod chunks;
pub mod link;
pub mod protocol;
#[cfg(not(target_arch = "wasm32"))]
pub mod socket;
#[cfg(target_arch = "wasm32")]
pub mod web_socket;

pub use chunks::{
    ChunkData, ChunkSnapshot, MAX_WANTED_CHUNKS, REGION_CHUNKS, SnapshotError, WorldId, region_of,
};
pub use link::{Conditions, Link, LinkClosed, MemoryLink, MemoryNet};
pub use protocol::{
    BodyState, ClientMessage, EDITS_PER_MESSAGE, EditAction, INPUT_WINDOW, LoggedEdit,
    MAX_CHAT_CHARS, MAX_CLIENT_MESSAGE, MAX_NAME_CHARS, MAX_SERVER_MESSAGE, PROTOCOL_VERSION,
    ProtocolError, Refusal, RemotePlayer, ServerMessage, Token, clean_chat, peek_version,
    valid_name,
};
