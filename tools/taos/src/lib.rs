//! `taos`, the command-line tool of the Taos engine: builds any game crate
//! for the browser and serves the result, and imports a folder's glTF
//! models ahead of time into the import cache.
//!
//! ```sh
//! cargo install --path tools/taos    # once
//! cd my_game
//! taos web build                     # -> <workspace>/dist/<bin>/
//! taos web serve                     # -> http://127.0.0.1:8080/
//! taos assets assets                 # fills the import cache (see `prepare`)
//! ```
//!
//! `taos web build` finds the game with `cargo metadata`, installs the
//! `wasm-bindgen` CLI at the exact version the game's `Cargo.lock` pins,
//! builds the binary for `wasm32-unknown-unknown` with the `web` profile,
//! runs `wasm-bindgen --target web` and `wasm-opt -Os` (where a usable one
//! exists), writes a page from a template, copies the `assets/` folder and
//! reports the wasm's size. `taos web serve` is a small static file server
//! on std's `TcpListener` that serves `.wasm` as `application/wasm` and
//! refuses any path outside its folder.
//!
//! With `--watch DIR`, `taos web serve` is also a development server for
//! assets: it watches the game's asset folder, copies each changed file
//! into the served `assets/` folder and pushes its path to the page
//! (server-sent events on `/__taos/changes`), where the game's hot reload
//! picks it up. What it is not: a bundler (no npm packages, no JS
//! minifying), a code reloader (a changed Rust file needs `taos web build`)
//! or a production web server (no HTTPS, no compression): serve the built
//! folder with any static server for that.
//!
//! The binary (`src/main.rs`) is only the command line; the logic lives in
//! this library so it can be tested without a wasm build or a network.

pub mod assets;
pub mod build;
pub mod changes;
pub mod lock;
pub mod metadata;
pub mod mime;
pub mod page;
pub mod prepare;
pub mod process;
pub mod request;
pub mod serve;
pub mod size;
pub mod tools;
pub mod watch;

#[cfg(test)]
pub(crate) mod test_dir;
