//! crafty: the Taos voxel game.
//!
//! A Minecraft-like world generated from a seed, meshed in plain Rust, drawn
//! by one [`RenderFeature`](taos_renderer::RenderFeature), and saved through
//! the engine's storage trait as a seed plus an append-only edit log.
//!
//! What this crate is:
//! - [`world`]: blocks, 32³ chunks, deterministic terrain, edits.
//! - [`mesh`]: chunk meshing into packed quads.
//! - [`render`]: the GPU pipeline (sky, instanced chunk quads, water,
//!   block highlight, tonemap) as one render feature, fed through a handle.
//!
//! What it is not: a general voxel library. Its chunk size, block set and
//! save format serve this one game.

pub mod mesh;
pub mod render;
pub mod world;
