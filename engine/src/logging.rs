//! Where the engine's warnings go: a logger on standard error.
//!
//! The engine and its crates report through the `log` facade (a torn save
//! segment dropped, a bad record skipped, a surface error, a watchdog
//! warning). Without a logger those reach no one, so [`init_logging`] installs
//! one; [`Engine::headless`](crate::Engine::headless) and
//! [`run_windowed`](crate::run_windowed) call it, and a binary that does not
//! go through them (a tool, or crafty's save browser) calls it first thing.

/// What is shown without `RUST_LOG` (the browser's console logger mutes the
/// same targets).
#[cfg(not(target_arch = "wasm32"))]
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
///
/// In the browser there is no standard error or `RUST_LOG`: the same
/// default filter's messages go to the page's console, and a panic's
/// message is shown in the page (with `show_page_error`).
pub fn init_logging() -> bool {
    #[cfg(not(target_arch = "wasm32"))]
    {
        env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(DEFAULT_FILTER))
            .format_timestamp(None)
            .try_init()
            .is_ok()
    }
    #[cfg(target_arch = "wasm32")]
    {
        let installed = log::set_logger(&console::CONSOLE).is_ok();
        if installed {
            log::set_max_level(log::LevelFilter::Warn);
            // A panic in wasm ends in an `unreachable` trap that says
            // nothing: say what panicked, in the console and the page.
            std::panic::set_hook(Box::new(|info| {
                crate::window::show_page_error(&format!("the game stopped: {info}"));
            }));
        }
        installed
    }
}

/// The browser console as a logger: errors through `console.error`, the
/// rest through `console.warn` (the default filter shows nothing milder).
#[cfg(target_arch = "wasm32")]
mod console {
    pub(super) static CONSOLE: Console = Console;

    pub(super) struct Console;

    /// Targets muted as the native default filter mutes them.
    const MUTED: [&str; 2] = ["wgpu_hal", "egui_wgpu::renderer"];

    impl log::Log for Console {
        fn enabled(&self, metadata: &log::Metadata<'_>) -> bool {
            let target = metadata.target();
            let muted = MUTED.iter().any(|m| target.starts_with(m));
            !muted || (target.starts_with("egui_wgpu") && metadata.level() <= log::Level::Error)
        }

        fn log(&self, record: &log::Record<'_>) {
            if !self.enabled(record.metadata()) {
                return;
            }
            let line = wasm_bindgen::JsValue::from_str(&format!(
                "[{} {}] {}",
                record.level(),
                record.target(),
                record.args()
            ));
            if record.level() == log::Level::Error {
                web_sys::console::error_1(&line);
            } else {
                web_sys::console::warn_1(&line);
            }
        }

        fn flush(&self) {}
    }
}
