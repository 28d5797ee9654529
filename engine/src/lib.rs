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
//! - the window driver (winit) and the mapping from window events to the
//!   loop's [`InputEvent`](game_loop::InputEvent)s.
//!
//! It is **not** the renderer (`taos_renderer`: the render graph, features
//! and presets) and holds no simulation logic of its own.
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
//! | crate | folder | what |
//! | --- | --- | --- |
//! | `taos_core` | `engine/core` | the simulation: no GPU, no window, no database |
//! | `taos_storage` | `engine/storage` | object stores (redb, IndexedDB, memory) and `taos-db` |
//! | `taos_engine` | `engine` | this facade |

#![forbid(unsafe_code)]

#[cfg(not(target_arch = "wasm32"))]
mod facade;
#[cfg(not(target_arch = "wasm32"))]
mod logging;
#[cfg(not(target_arch = "wasm32"))]
mod presenter;
#[cfg(not(target_arch = "wasm32"))]
mod window;

pub use taos_core;
pub use taos_core::*;
/// World persistence: the `taos_storage` crate.
pub use taos_storage as storage;

#[cfg(not(target_arch = "wasm32"))]
pub use facade::{Engine, EngineConfig, EngineError};
#[cfg(not(target_arch = "wasm32"))]
pub use logging::init_logging;
#[cfg(not(target_arch = "wasm32"))]
pub use window::{RunError, SetupError, control_flow_for, input_from_window_event, run_windowed};

/// The names a game needs: `use taos_engine::prelude::*;` (the core's
/// prelude: scene, objects, transforms, components, behaviours, the loop's
/// everyday types, and `Component`/`Resource` derives).
pub mod prelude {
    pub use taos_core::prelude::*;
}
