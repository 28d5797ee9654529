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
//! [`ServerStore`] keeps the world's edit log and the players' records in
//! a database behind the engine's storage trait; [`Server::tick_saving`]
//! acknowledges nothing before it is saved.
//!
//! What it is not (yet): client prediction, or a socket transport (issue
//! 45 goes on).

mod server;
mod store;

pub use server::{PlayerRecord, RECORD_SAVE_TICKS, SaveBatch, Server, ServerConfig, TickReport};
pub use store::{SavedServer, ServerStore, StoreError};
