//! crafty_client: what a crafty multiplayer client needs besides the
//! protocol and its transports, shared by the game (native and browser)
//! and the headless bot.
//!
//! - [`Prediction`]: the client's own player, moved at once and corrected
//!   by the server, replaying the ticks the server has not answered.
//! - [`RemoteView`]: the other players, shown between the server's states.
//! - [`Connection`]: a client's side of a game on a server: the handshake,
//!   input, edits sent and answered, the server's edit log, the roster and
//!   chat.
//! - [`ChunkCache`]: the changed chunks a client was sent, by world,
//!   chunk and version, so a rejoin costs only what changed.
//! - [`bot`]: [`Bot`](bot::Bot), a headless client for tests, benches and
//!   load tests (and the `crafty-bot` binary).
//!
//! Moved, still reachable here: the player step the server shares is
//! `crafty_sim::step` (re-exported as [`step`]); the WebSocket links are
//! `crafty_net::socket` (native, re-exported as `socket`) and
//! `crafty_net::web_socket` (browser, re-exported as `web_socket`).
//!
//! What it is not: a renderer or a window; the game shows what a
//! [`Connection`] holds.

pub mod bot;
pub mod chunk_cache;
pub mod connection;
pub mod prediction;
pub mod remote;

#[cfg(not(target_arch = "wasm32"))]
pub use crafty_net::socket;
#[cfg(target_arch = "wasm32")]
pub use crafty_net::web_socket;
pub use crafty_sim::step;

pub use chunk_cache::{ChunkCache, MemoryChunkCache, RegionListing, SharedChunkCache};
pub use connection::{Connection, ConnectionEvent};
pub use prediction::Prediction;
pub use remote::{RemoteView, Shown};
