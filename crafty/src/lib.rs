//! crafty: the Taos voxel game.
//!
//! A Minecraft-like world generated from a seed, meshed in plain Rust, drawn
//! by one [`RenderFeature`](taos_renderer::RenderFeature), and saved through
//! the engine's storage trait as a seed plus an append-only edit log.
//!
//! What this crate is:
//! - [`world`]: blocks, 32³ chunks, deterministic terrain, edits.
//! - [`mesh`]: chunk meshing into packed quads.
//! - [`save`]: saved worlds: records, append-only edit logs, thumbnails, autosave.
//! - [`inventory`]: game mode, survival inventory and hotbar types.
//!
//! What it is not: a general voxel library. Its chunk size, block set and
//! save format serve this one game.

pub mod inventory;
pub mod mesh;
pub mod save;
pub mod world;
