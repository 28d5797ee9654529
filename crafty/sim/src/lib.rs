//! crafty_sim: the simulation of crafty, the Taos voxel game.
//!
//! A Minecraft-like world generated from a seed, meshed in plain Rust and
//! saved through the engine's storage trait as a seed plus an append-only
//! edit log; the player, weather and time of day that play in it, stepped by
//! the engine's fixed ticks.
//!
//! What this crate is:
//! - [`game`]: the session state the engine's fixed ticks advance.
//! - [`script`]: input scripts compiled into replays.
//! - [`view`]: the player's eye as the scene's camera and the sun.
//! - [`world`]: blocks, 32³ chunks, deterministic terrain, edits.
//! - [`mesh`]: chunk meshing into packed quads.
//! - [`lod`]: level-of-detail terrain for the far view.
//! - [`player`]: body and collision, view, targeting, break/place, inventory and hotbar.
//! - [`time_of_day`]: the sun angle and the moon phase.
//! - [`weather`]: clear, rain, snow and storms in spells from the seed.
//! - [`save`]: saved worlds: records, append-only edit logs, thumbnails, autosave.
//! - [`inventory`]: game mode, survival inventory and hotbar types.
//! - [`step`]: one multiplayer player's tick from its input, as the server
//!   steps it and as a client predicts it.
//!
//! What it is not: the GPU, a window, audio or the launcher. It depends on
//! the engine's core and storage crates (and crafty_net's plain protocol
//! types, for the step) only, never on wgpu, winit, egui or
//! kira, and builds for wasm32 (background jobs then run inline). The
//! `crafty` crate draws it, plays it in a window or a page, and re-exports
//! these modules under their old paths (`crafty::world`, ...). Nor is it a
//! general voxel library: its chunk size, block set and save format serve
//! this one game.

pub mod game;
pub mod inventory;
pub mod lod;
pub mod mesh;
pub mod player;
pub mod save;
pub mod script;
pub mod step;
pub mod time_of_day;
pub mod view;
pub mod weather;
mod worker_pool;
pub mod world;
