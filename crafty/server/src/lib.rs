//! crafty_server: crafty's multiplayer server, as a library (the
//! `crafty-server` binary wraps it).
//!
//! One [`Server`] owns one world and every player's record. Clients
//! connect through any [`Link`](crafty_net::Link) and send their action
//! flags each tick; the server steps each player with the same
//! [`PlayerController`](taos_core::controllers::PlayerController) and voxel
//! collision single-player crafty uses, so a client cannot move faster or
//! fly where the rules do not let it: it only says which keys are down.
//! Edits are checked (reach, what is there) and answered by sequence
//! number.
//!
//! [`ServerStore`] keeps the world (a snapshot per changed chunk and the
//! edit log's tail) and the players' records in a database behind the
//! engine's storage trait; [`Server::tick_saving`] acknowledges nothing
//! before it is saved. A joining player is sent the changed chunks in its
//! view ([`ChunkVersions`](crafty_net::ServerMessage::ChunkVersions)),
//! not the world's history. Several servers can share one database
//! (PostgreSQL), one hosting each world under a [`lease`].
//!
//! [`socket`] carries it over WebSocket on std's blocking sockets, and
//! [`serve`] is the loop the `crafty-server` binary runs: the engine's
//! game loop at the server's tick rate, sleeping until a message arrives
//! or a tick is due, and paused (not waking at all) with nobody
//! connected.
//!
//! The player step it shares with clients lives in `crafty_sim::step`, the
//! socket link in `crafty_net::socket`; client prediction and the headless
//! bot (`crafty_client::bot`) live in `crafty_client`, which this crate
//! does not depend on.

pub mod lease;
mod serve;
mod server;
pub mod socket;
mod store;

pub use serve::{ServeError, ServeStats, serve, serve_within};
pub use server::{
    CHAT_TICKS, CHUNK_BYTES_PER_TICK, EDITS_PER_SECOND, FOLD_EDITS, FoldedChunk, MAX_VIEW_CHUNKS,
    PlayerRecord, RECORD_SAVE_TICKS, RecordSource, SaveBatch, Server, ServerConfig, TickReport,
    VIEW_DISTANCE, record_key,
};
pub use store::{SavedServer, ServerStore, StoreError};
