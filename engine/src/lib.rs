//! # taos_engine
//!
//! The Taos facade: one dependency for a game. It re-exports the simulation
//! core ([`taos_core`]: scene, GameObjects, transforms, time, behaviours,
//! components, the game loop) and world persistence ([`storage`], the
//! `taos_storage` crate), and adds what needs a GPU or a window:
//!
//! - [`Engine`]: a scene, its game loop and a renderer, headless
//!   ([`Engine::headless`]) or in a window ([`run_windowed`]);
//! - the presenter that turns a [`Scene`] into the renderer's frame data each
//!   frame (camera, mesh draws, lights);
//! - the window driver (winit), the one event loop a game runs in, with an
//!   [`App`]'s hooks: window events (focus, resize, close requested), a
//!   per-frame update, pointer lock, switching screens
//!   ([`Engine::set_game_loop`]), and a UI overlay ([`egui`]) drawn after
//!   tonemapping that sees window events first, and the render-graph overlay
//!   (F3, [`Engine::set_graph_overlay`]: passes, resources, CPU and GPU
//!   times);
//! - the mapping from window events and gamepads to the loop's
//!   [`InputEvent`](game_loop::InputEvent)s, the on-screen touch controls'
//!   overlay ([`touch_overlay`]), and the logger.
//!
//! It is **not** the renderer ([`renderer`], the `taos_renderer` crate it
//! re-exports: the render graph, features and presets) and holds no
//! simulation logic of its own.
//!
//! Where this layer stops: it is the top of the engine and the one crate a
//! game depends on. The [`Engine`] owns the game loop, the renderer and the
//! sound side by side; each frame it lends the latter two to the loop as a
//! [`FramePresenter`](game_loop::FramePresenter) and gets the frame's result
//! back from that call. The loop never owns the renderer.
//!
//! ```
//! use taos_engine::prelude::*;
//!
//! let mut scene = Scene::new();
//! let parent = scene.spawn("Parent");
//! let child = scene.spawn_child(parent, "Child").unwrap();
//! scene.object_mut(parent).unwrap().position_mut().x += 5.0;
//! assert_eq!(scene.object_mut(child).unwrap().world_position().x, 5.0);
//! ```
//!
//! ## Crates
//! | crate | folder | what | stops before |
//! | --- | --- | --- | --- |
//! | `taos_core` | `engine/core` | the simulation: scenes, input, the loop, replay | a GPU, a window, sound, a database |
//! | `taos_storage` | `engine/storage` | object stores (redb, IndexedDB, memory) | the ECS, a GPU, a tool's crates |
//! | `taos_db` | `engine/db` | the `taos-db` tool (backup, restore, export, import) | (never linked by a game) |
//! | `taos_gltf` | `engine/gltf` | the glTF importer's CPU half | a GPU, the ECS |
//! | `taos_audio` | `engine/audio` | sound sources, listener and mixer (kira), re-exported as [`audio`] | a GPU, a window |
//! | `taos_physics` | `engine/physics` | rigid bodies and colliders (rapier3d), re-exported as [`physics`] | a GPU, a window, sound, a database |
//! | `taos_renderer` | `renderer` | the renderer, re-exported as [`renderer`] | the ECS |
//! | `taos_engine` | `engine` | this facade | |
//!
//! The rules are checked on the crate graph by `.ci/layers`; the book's
//! architecture chapter draws them.

#![forbid(unsafe_code)]

mod app;
mod args;
mod asset_lookup;
pub mod assets;
pub mod bindings_store;
mod builtin_assets;
mod decals;
pub mod editor;
mod facade;
// Spawning glTF models into a scene lives in `gltf_spawn/`, apart from the
// importer crate `taos_gltf` (`engine/gltf/`); the public path stays `gltf`.
#[path = "gltf_spawn/mod.rs"]
pub mod gltf;
mod graph_overlay;
mod handles;
mod headless_app;
mod headless_ui;
pub mod hot_reload;
mod logging;
mod main_entry;
mod notice;
pub mod particles;
mod picking;
mod presenter;
pub mod saves;
mod scene_files;
pub mod task;
pub mod touch_overlay;
mod ui;
mod window;

/// Sound: the `taos_audio` crate (`AudioSource`, `AudioListener`, clips, the mixer).
pub use taos_audio as audio;
pub use taos_core;
pub use taos_core::*;
/// Decoded glTF images kept between loads ([`Assets::with_import_cache`]).
pub use taos_import_cache as import_cache;
/// Rigid-body physics: the `taos_physics` crate (`RigidBody`, `Collider`,
/// `Shape`, the `Physics` resource with its events and queries, snapshots).
pub use taos_physics as physics;
/// The renderer: the `taos_renderer` crate (GPU context, render graph,
/// features, presets, the asset store's meshes and materials).
pub use taos_renderer as renderer;
/// World persistence: the `taos_storage` crate.
pub use taos_storage as storage;

pub use app::{App, AppError, Propagate, WindowEvent};
pub use args::{ENGINE_PAGE_PARAMETERS, args, args_from_query};
pub use assets::{AssetPath, Assets};
pub use builtin_assets::{DEFAULT_MATERIAL, Shape};
pub use decals::Decal;
/// The immediate-mode UI library of the overlay ([`App::ui`]), re-exported
/// so a game builds its UI against the same version.
pub use egui;
pub use facade::{Engine, EngineConfig, EngineError, FrameTime, WindowStats};
pub use handles::AssetHandle;
pub use headless_app::HeadlessApp;
pub use logging::init_logging;
pub use main_entry::run_main;
pub use notice::show_notice;
pub use saves::Saves;
pub use scene_files::scene_types;
/// The future [`Engine::capture_later`] returns.
pub use taos_renderer::PendingReadback;
pub use task::{Progress, ProgressReporter, Task};
#[cfg(target_arch = "wasm32")]
pub use window::show_page_error;
pub use window::{
    RunError, SetupError, input_from_window_event, run_windowed, text_from_window_event,
    window_event_from_device,
};

/// Clock types that work on every platform: `std::time::Instant` panics in
/// the browser (wasm32 has no clock of its own), so games use these (on
/// native targets they are std's own types). `.ci` forbids std's `Instant`
/// and `SystemTime::now` in the workspace through clippy's
/// `disallowed-types` and `disallowed-methods` (`clippy.toml`).
pub mod time {
    pub use std::time::Duration;
    pub use web_time::{Instant, SystemTime, UNIX_EPOCH};
}

/// The names a game needs: `use taos_engine::prelude::*;` (the core's
/// prelude: scene, objects, transforms, components, behaviours, tags, the
/// loop's everyday types, and `Component`/`Resource` derives), the
/// [`Engine`] with its [`EngineConfig`] and the [`App`] hooks,
/// [`AssetHandle`] (`mesh_id.handle()`), the [`Decal`] component, and sound's [`AudioSource`](audio::AudioSource)
/// and [`PlaySound`](audio::PlaySound).
pub mod prelude {
    pub use crate::audio::{AudioSource, PlaySound};
    pub use crate::particles::{ParticleEffect, ParticleEmitter};
    pub use crate::{App, AssetHandle, Decal, Engine, EngineConfig};
    pub use taos_core::prelude::*;
}
