//! [`HeadlessApp`]: the same [`App`] a window runs, run without one: its
//! hooks, frames, screenshots with the UI drawn, and window events sent by
//! the caller through the window's own routing. How a game is tested end to
//! end, and how it runs on a machine without a display.

use taos_renderer::{RenderStats, Renderer};

use crate::app::{App, WindowEvent};
use crate::facade::{Engine, EngineConfig, EngineError};
use crate::headless_ui::HeadlessUi;
use crate::window::RunError;
use crate::window::route::route_event;

/// An [`App`] on a headless [`Engine`] (offscreen frames on a manual clock).
///
/// Per [`frame`](Self::frame), in the window's order: [`App::update`],
/// [`App::ui`], one tick of the loop with the scene rendered and the UI
/// painted over it. A paused loop ticks as it does in a window: not at all
/// (the frame shows the current state; [`step`](Self::step) single-steps). [`send`](Self::send) hands a [`WindowEvent`] to the UI,
/// the app and the engine exactly as the window driver does, so pointer
/// clicks reach UI buttons and mouse motion reaches the controllers.
///
/// ```no_run
/// use taos_engine::prelude::*;
/// use taos_engine::{App, AppError, Engine, EngineConfig, HeadlessApp, egui};
/// use taos_engine::renderer::presets::{PresetOptions, forward_preset};
///
/// struct Counter(u32);
///
/// impl App for Counter {
///     fn update(&mut self, _engine: &mut Engine) -> Result<(), AppError> {
///         self.0 += 1;
///         Ok(())
///     }
///
///     fn ui(&mut self, _engine: &mut Engine, ui: &mut egui::Ui) {
///         ui.label(format!("frame {}", self.0));
///     }
/// }
///
/// let mut run = HeadlessApp::new(EngineConfig::new(320, 240), forward_preset(PresetOptions::default()), Counter(0))?;
/// for _ in 0..3 {
///     run.frame()?;
/// }
/// run.engine_mut().screenshot("counter.png")?; // the label is in the picture
/// assert_eq!(run.app().0, 3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct HeadlessApp<A: App> {
    engine: Engine,
    app: A,
    ui: HeadlessUi,
}

impl<A: App> std::fmt::Debug for HeadlessApp<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HeadlessApp")
            .field("engine", &self.engine)
            .finish_non_exhaustive()
    }
}

impl<A: App> HeadlessApp<A> {
    /// Builds a headless engine of `config`'s size with `preset`, gives it a
    /// UI overlay, and runs [`App::start`].
    ///
    /// # Errors
    /// [`RunError::Engine`] when the engine cannot be built (no adapter, a
    /// zero size, a bad loop configuration), [`RunError::Setup`] with what
    /// [`App::start`] returned.
    pub fn new(
        config: EngineConfig,
        preset: impl FnOnce(&mut Renderer),
        mut app: A,
    ) -> Result<Self, RunError> {
        let mut engine = Engine::headless(config, preset)?;
        let max_texture = engine
            .renderer()
            .gpu()
            .device()
            .limits()
            .max_texture_dimension_2d as usize;
        let ui = HeadlessUi::new(max_texture);
        engine.attach_ui(ui.context().clone());
        app.start(&mut engine).map_err(RunError::Setup)?;
        Ok(Self { engine, app, ui })
    }

    /// One frame as a window's redraw runs it: [`App::update`], [`App::ui`],
    /// then one tick of the loop (none while it is paused:
    /// [`Engine::frame`]), the scene rendered and the UI painted.
    ///
    /// # Errors
    /// [`RunError::App`] when a hook fails, [`RunError::Update`] when a
    /// behaviour or command fails, [`RunError::Engine`] when the frame does
    /// not render. [`App::stopping`] runs first, as in a window.
    pub fn frame(&mut self) -> Result<RenderStats, RunError> {
        self.run_frame(Engine::frame)
    }

    /// [`frame`](Self::frame) with exactly one tick, also while the loop is
    /// paused (which it stays): single-stepping ([`Engine::step`]).
    ///
    /// # Errors
    /// As [`frame`](Self::frame).
    pub fn step(&mut self) -> Result<RenderStats, RunError> {
        self.run_frame(Engine::step)
    }

    fn run_frame(
        &mut self,
        render: fn(&mut Engine) -> Result<RenderStats, EngineError>,
    ) -> Result<RenderStats, RunError> {
        let result = self.try_frame(render);
        if let Err(error) = &result {
            self.app.stopping(&mut self.engine, error);
        }
        result
    }

    fn try_frame(
        &mut self,
        render: fn(&mut Engine) -> Result<RenderStats, EngineError>,
    ) -> Result<RenderStats, RunError> {
        self.app.update(&mut self.engine).map_err(RunError::App)?;
        let size = self.engine.game_loop().frame_info().size;
        let dt =
            std::time::Duration::from_nanos(self.engine.game_loop().config().tick_interval_nanos());
        let (engine, app) = (&mut self.engine, &mut self.app);
        let frame = self.ui.run(size, dt, |ui| app.ui(engine, ui));
        self.engine.set_ui_frame(frame);
        render(&mut self.engine).map_err(|error| match error {
            EngineError::Update(error) => RunError::Update(error),
            other => RunError::Engine(other),
        })
    }

    /// Hands `event` to the UI overlay, then to [`App::window_event`], then
    /// to the engine (input to the loop, resizes, focus), as a window does.
    /// Returns whether the run should end: a close request the app did not
    /// stop, or [`Engine::request_exit`].
    ///
    /// # Errors
    /// [`RunError::App`] when [`App::window_event`] fails.
    pub fn send(&mut self, event: WindowEvent) -> Result<bool, RunError> {
        let event = match event {
            WindowEvent::Input { event, ui_consumed } => WindowEvent::Input {
                ui_consumed: ui_consumed | self.ui.on_input(&event),
                event,
            },
            other => other,
        };
        route_event(&mut self.engine, &mut self.app, event)
    }

    /// The engine (scene, loop, renderer, screenshots).
    #[must_use]
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The engine, mutable.
    pub fn engine_mut(&mut self) -> &mut Engine {
        &mut self.engine
    }

    /// The app.
    #[must_use]
    pub fn app(&self) -> &A {
        &self.app
    }

    /// The app, mutable.
    pub fn app_mut(&mut self) -> &mut A {
        &mut self.app
    }

    /// The engine and the app at once, both mutable, while the run goes
    /// on (to call an app's method that takes the engine).
    pub fn parts_mut(&mut self) -> (&mut Engine, &mut A) {
        (&mut self.engine, &mut self.app)
    }

    /// Ends the run, handing back the engine and the app.
    #[must_use]
    pub fn into_parts(self) -> (Engine, A) {
        (self.engine, self.app)
    }
}
