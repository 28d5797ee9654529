//! crafty: the Taos voxel game.
//!
//! A Minecraft-like world generated from a seed, meshed in plain Rust, drawn
//! by one [`RenderFeature`](taos_renderer::RenderFeature), and saved through
//! the engine's storage trait as a seed plus an append-only edit log.
//!
//! What this crate is:
//! - [`world`]: blocks, 32³ chunks, deterministic terrain, edits.
//! - [`mesh`]: chunk meshing into packed quads.
//!
//! What it is not: a general voxel library. Its chunk size, block set and
//! save format serve this one game.

pub mod mesh;
pub mod world;
