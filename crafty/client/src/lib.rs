//! crafty_client: what a crafty multiplayer client needs besides the
//! protocol, shared by the game (native and browser), the server's bots
//! and the server itself.
//!
//! - [`step`]: one player's tick from its input, as the server steps it and
//!   as a client predicts it (the single-player controller and voxel
//!   collision).
//! - [`Prediction`]: the client's own player, moved at once and corrected
//!   by the server, replaying the ticks the server has not answered.
//! - [`RemoteView`]: the other players, shown between the server's states.
//! - [`Connection`]: a client's side of a game on a server: the handshake,
//!   input, edits sent and answered, the server's edit log, the roster and
//!   chat.
//! - `socket` (native) and `web_socket` (browser): WebSocket
//!   [`Link`](crafty_net::Link)s.
//!
//! What it is not: a renderer or a window; the game shows what a
//! [`Connection`] holds.

pub mod connection;
pub mod prediction;
pub mod remote;
#[cfg(not(target_arch = "wasm32"))]
pub mod socket;
pub mod step;
#[cfg(target_arch = "wasm32")]
pub mod web_socket;

pub use connection::{Connection, ConnectionEvent};
pub use prediction::Prediction;
pub use remote::{RemoteView, Shown};
