//! The two ways a game runs in a window, on the [`Engine`]: a scene filled
//! once ([`Engine::run`]) or a whole [`App`] ([`Engine::run_app`]).

use taos_renderer::Renderer;

use super::{RunError, SetupError, run_app, run_windowed};
use crate::app::App;
use crate::facade::{Engine, EngineConfig};

impl Engine {
    /// Opens a window titled `title`, builds an engine on it with `preset`,
    /// lets `setup` fill the scene, and runs the winit event loop until the
    /// window closes (see [`run_windowed`]).
    ///
    /// # Errors
    /// [`RunError`] (no display: the message says how to run headless).
    pub fn run(
        title: &str,
        config: EngineConfig,
        preset: impl FnOnce(&mut Renderer) + 'static,
        setup: impl FnOnce(&mut Engine) -> Result<(), SetupError> + 'static,
    ) -> Result<(), RunError> {
        run_windowed(title, config, preset, setup)
    }

    /// Opens a window titled `title`, builds an engine on it with `preset`,
    /// and runs `app` in the one winit event loop until the window closes or
    /// the app calls [`request_exit`](Self::request_exit): its window events,
    /// per-frame update and UI overlay (see [`App`]).
    ///
    /// The window driver follows the loop's `Wake`: it sleeps until an event
    /// or the next due frame, tick or timer; paints a paused game on expose,
    /// resize and UI input without ticking it; and lets go of held keys when
    /// focus leaves. Window events reach the UI overlay first, then
    /// [`App::window_event`], then the engine.
    ///
    /// # Errors
    /// [`RunError::NoDisplay`] with a hint when there is no display,
    /// [`RunError::Setup`] with what [`App::start`] returned,
    /// [`RunError::App`] with a later hook's error, [`RunError::Update`] when
    /// a behaviour fails while running, or what building the window, surface
    /// or engine reported.
    pub fn run_app(
        title: &str,
        config: EngineConfig,
        preset: impl FnOnce(&mut Renderer) + 'static,
        app: impl App,
    ) -> Result<(), RunError> {
        run_app(title, config, preset, app)
    }
}
