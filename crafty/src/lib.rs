//! crafty: the Taos voxel game.
//!
//! A Minecraft-like world generated from a seed, meshed in plain Rust, drawn
//! by one [`RenderFeature`](taos_engine::renderer::RenderFeature), and saved through
//! the engine's storage trait as a seed plus an append-only edit log.
//!
//! The simulation (world, meshing, saves, player, weather, inventory, time
//! of day) is the GPU-free crate [`crafty_sim`], re-exported here under the
//! same paths (`crafty::world`, `crafty::save`, ...). What stays in this
//! crate is what draws and runs it:
//! - [`particles`]: block debris, rain splashes and snow puffs, as engine particle emitters.
//! - [`render`]: the GPU pipeline (sky, instanced chunk quads, water,
//!   block highlight, tonemap) as one render feature, fed through a handle.
//! - [`app`]: the window (natively) or the page (in the browser): launcher, play, HUD.
//! - [`session`]: one world being played: loop, mesher, renderer, saves.
//! - [`settings`]: the player's settings and key bindings, kept with the saves.
//! - [`cli`]: the command line (window or headless).
//! - [`headless`]: deterministic play without a window, for tests, demos and trailers.
//!
//! Re-exported from [`crafty_sim`]:
//! - [`game`]: the session state the engine's fixed ticks advance.
//! - [`script`]: input scripts compiled into replays.
//! - [`view`]: the player's eye as the renderer's camera.
//! - [`world`]: blocks, 32³ chunks, deterministic terrain, edits.
//! - [`mesh`]: chunk meshing into packed quads.
//! - [`player`]: body and collision, view, targeting, break/place, inventory and hotbar.
//! - [`time_of_day`]: the sun angle and the moon phase.
//! - [`weather`]: clear, rain, snow and storms in spells from the seed.
//! - [`save`]: saved worlds: records, append-only edit logs, thumbnails, autosave.
//! - [`inventory`]: game mode, survival inventory and hotbar types.
//!
//! Where the layers stop: the simulation never sees the GPU (it is another
//! crate, whose dependency graph `.ci/layers` checks); this crate's render
//! feature reads the simulation through a handle and writes nothing back.
//!
//! What it is not: a general voxel library. Its chunk size, block set and
//! save format serve this one game.

pub use crafty_sim::{
    game, inventory, lod, mesh, player, save, script, time_of_day, view, weather, world,
};

pub mod app;
pub mod chunk_cache;
pub mod cli;
// The headless runner writes saves and screenshots to files: native only.
#[cfg(not(target_arch = "wasm32"))]
pub mod headless;
pub mod online;
// In the library's own test binary (one link fewer than a tests/ file).
#[cfg(all(test, not(target_arch = "wasm32")))]
mod online_tests;
pub mod particles;
pub mod render;
pub mod servers;
pub mod session;
pub mod settings;
