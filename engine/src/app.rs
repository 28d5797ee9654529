//! [`App`]: a game the engine's window loop runs, with the window events it
//! may want, a per-frame update, and a UI overlay.
//!
//! A game that only fills a scene uses [`Engine::run`](crate::Engine::run)
//! with a setup closure. A game with screens (a launcher, then play), pointer
//! lock, menus or its own save-on-quit implements `App` and calls
//! [`Engine::run_app`](crate::Engine::run_app): the same single event loop,
//! with the game's hooks in it.
//!
//! ```no_run
//! use taos_engine::prelude::*;
//! use taos_engine::{App, AppError, Engine, EngineConfig, Propagate, WindowEvent, egui};
//! use taos_renderer::presets::{PresetOptions, forward_preset};
//!
//! struct Viewer { clicks: u32 }
//!
//! impl App for Viewer {
//!     fn start(&mut self, engine: &mut Engine) -> Result<(), AppError> {
//!         let camera = engine.scene_mut().spawn("Camera");
//!         engine.scene_mut().add_component(camera, Camera::perspective(60.0, 0.1, 100.0, 1.0)?)?;
//!         Ok(())
//!     }
//!
//!     fn window_event(&mut self, engine: &mut Engine, event: &WindowEvent) -> Result<Propagate, AppError> {
//!         if let WindowEvent::Input { event: InputEvent::MouseDown(_), ui_consumed: false } = event {
//!             self.clicks += 1;
//!             engine.set_pointer_locked(true);
//!         }
//!         Ok(Propagate::Continue)
//!     }
//!
//!     fn ui(&mut self, _engine: &mut Engine, ui: &mut egui::Ui) {
//!         ui.label(format!("{} clicks", self.clicks));
//!     }
//! }
//!
//! Engine::run_app("viewer", EngineConfig::new(800, 600), forward_preset(PresetOptions::default()),
//!     Viewer { clicks: 0 })?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use glam::Vec2;

use crate::facade::Engine;
use crate::game_loop::InputEvent;

/// What a game's hooks may fail with: any error (`?` works on
/// `anyhow::Error` and on every `std::error::Error`). It ends the run and
/// comes back from [`Engine::run_app`](crate::Engine::run_app) as
/// [`RunError::App`](crate::RunError::App).
pub type AppError = Box<dyn std::error::Error + Send + Sync>;

/// A window event as a game sees it: no winit types.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum WindowEvent {
    /// A key, button, cursor or wheel event. `ui_consumed` is true when the
    /// UI overlay used it (typing in a text field, clicking a button); the
    /// engine then keeps it from the game loop.
    Input {
        /// The event.
        event: InputEvent,
        /// Whether the UI overlay took it.
        ui_consumed: bool,
    },
    /// Relative mouse motion in pixels, also while the pointer is locked
    /// (mouse look).
    MouseMotion {
        /// How far it moved (x right, y down).
        delta: Vec2,
    },
    /// The window gained (`true`) or lost keyboard focus. On loss the engine
    /// releases every held key and button.
    Focused(bool),
    /// The window's inner size changed (zero while minimised).
    Resized {
        /// New width in pixels.
        width: u32,
        /// New height in pixels.
        height: u32,
    },
    /// The window was hidden (`true`) or shown again.
    Occluded(bool),
    /// The user asked to close the window: save here. Returning
    /// [`Propagate::Stop`] keeps it open.
    CloseRequested,
}

/// Whether the engine goes on to handle an event after the game saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Propagate {
    /// The engine handles it as usual: input reaches the game loop, focus
    /// loss releases held input, close requested closes.
    #[default]
    Continue,
    /// The game handled it: input does not reach the loop, a close request
    /// is ignored.
    Stop,
}

/// A game run in a window by [`Engine::run_app`](crate::Engine::run_app)
/// (see the module docs). Every hook has a default that does nothing.
///
/// Per redraw, in order: [`update`](Self::update), [`ui`](Self::ui), then the
/// loop's clock callback (ticks, the scene rendered, the UI painted over it
/// after tonemapping).
pub trait App: 'static {
    /// Once, when the window and the engine exist: fill the scene, load
    /// assets, set up the loop.
    ///
    /// # Errors
    /// Ends the run before the first frame.
    fn start(&mut self, _engine: &mut Engine) -> Result<(), AppError> {
        Ok(())
    }

    /// A window event, after the UI overlay saw it and before the engine
    /// handles it.
    ///
    /// # Errors
    /// Ends the run (the window closes).
    fn window_event(
        &mut self,
        _engine: &mut Engine,
        _event: &WindowEvent,
    ) -> Result<Propagate, AppError> {
        Ok(Propagate::Continue)
    }

    /// Before each redraw's clock callback: per-frame work outside the
    /// simulation (streaming, uploads, autosave).
    ///
    /// # Errors
    /// Ends the run (the window closes).
    fn update(&mut self, _engine: &mut Engine) -> Result<(), AppError> {
        Ok(())
    }

    /// Builds this frame's UI overlay (egui), drawn over the scene after
    /// tonemapping. Not called by headless engines.
    fn ui(&mut self, _engine: &mut Engine, _ui: &mut egui::Ui) {}

    /// The run is ending on `error` (a hook, the GPU or the event loop
    /// failed) while the engine still exists: the last chance to save what
    /// the game holds (its game loop is still in `engine`). Not called when
    /// the window closes normally: that is [`WindowEvent::CloseRequested`].
    fn stopping(&mut self, _engine: &mut Engine, _error: &crate::RunError) {}
}
