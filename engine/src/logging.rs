//! Where the engine's warnings go: a logger on standard error.
//!
//! The engine and its crates report through the `log` facade (a torn save
//! segment dropped, a bad record skipped, a surface error, a watchdog
//! warning). Without a logger those reach no one, so [`init_logging`] installs
//! one; [`Engine::headless`](crate::Engine::headless) and
//! [`run_windowed`](crate::run_windowed) call it, and a binary that does not
//! go through them (a tool, or crafty's save browser) calls it first thing.

/// What is shown without `RUST_LOG`.
const DEFAULT_FILTER: &str = "warn,wgpu_hal=off,egui_wgpu::renderer=error";

/// Installs a logger on standard error, filtered by `RUST_LOG`
/// (`RUST_LOG=info`, `RUST_LOG=taos_core=debug,warn`, ...); without
/// `RUST_LOG`, warnings and errors are shown, except `wgpu_hal`'s (it logs
/// an error for every graphics backend it probes and does not find, e.g.
/// EGL on a machine with only Vulkan; real GPU failures reach the engine as
/// `Result`s), and egui's note that the UI overlay paints into an sRGB
/// surface (it does, on purpose: the scene's output is sRGB; egui's colours
/// come out a little lighter than it intends). Returns `false` (and changes
/// nothing) when the program already installed a logger, so a game's own
/// choice always wins and calling it twice is harmless.
pub fn init_logging() -> bool {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(DEFAULT_FILTER))
        .format_timestamp(None)
        .try_init()
        .is_ok()
}
