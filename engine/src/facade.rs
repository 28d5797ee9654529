//! The [`Engine`] facade: a scene, its game loop and a renderer, headless or
//! in a window.
//!
//! ```no_run
//! use taos_engine::prelude::*;
//! use taos_engine::{Engine, EngineConfig};
//! use taos_renderer::presets::{PresetOptions, forward_preset};
//!
//! let mut engine = Engine::headless(EngineConfig::new(320, 240), forward_preset(PresetOptions::default()))?;
//! let camera = engine.scene_mut().spawn("Camera");
//! engine.scene_mut().add_component(camera, Camera::perspective(60.0, 0.1, 100.0, 4.0 / 3.0)?)?;
//! engine.frame()?;
//! engine.screenshot("frame.png")?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::path::Path;
use std::sync::Arc;

use taos_audio::{Audio, AudioOutput};
use taos_renderer::{Frame, GpuContext, OffscreenTarget, PendingReadback, RenderStats, Renderer};
use winit::window::{CursorGrabMode, Window};

use crate::Scene;
use crate::app::App;
use crate::game_loop::{Clock, GameLoop, LoopConfig, ManualClock, RealClock};
use crate::presenter::{FrameOutput, Output, RenderPresenter};
use crate::ui::UiPainter;
use crate::window::{RunError, SetupError, run_app, run_windowed};

/// How to build an [`Engine`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EngineConfig {
    /// Output width in pixels (the window's initial width).
    pub width: u32,
    /// Output height in pixels.
    pub height: u32,
    /// Loop policy, frame cap, auto-pause, watchdog.
    pub loop_config: LoopConfig,
    /// How far each [`Engine::frame`] moves the simulation.
    pub frame_time: FrameTime,
}

impl FrameTime {
    /// `self`, or `fallback` for [`Auto`](Self::Auto).
    fn or(self, fallback: Self) -> Self {
        match self {
            Self::Auto => fallback,
            chosen => chosen,
        }
    }
}

impl EngineConfig {
    /// `width` x `height`, variable steps, [`FrameTime::Auto`].
    #[must_use]
    pub fn new(width: u32, height: u32) -> Self {
        Self {
            width,
            height,
            loop_config: LoopConfig::default(),
            frame_time: FrameTime::Auto,
        }
    }
}

/// How far one [`Engine::frame`] moves the simulation.
///
/// ```
/// use std::time::Duration;
/// use taos_engine::game_loop::ManualClock;
/// use taos_engine::{Engine, EngineConfig, FrameTime};
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// # if taos_engine::renderer::GpuContext::headless().is_err() { return Ok(()); }
/// let clock = ManualClock::new();
/// let config = EngineConfig { frame_time: FrameTime::Measured, ..EngineConfig::new(64, 64) };
/// let mut engine = Engine::headless_with_clock(config, |_| {}, clock.clone())?;
/// engine.frame()?; // the first frame measures from here
/// clock.advance(Duration::from_millis(250));
/// engine.frame()?;
/// // The variable policy clamps a long frame to 100 ms.
/// assert!((engine.scene().time().elapsed() - 0.1).abs() < 1e-6);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum FrameTime {
    /// [`Measured`](Self::Measured) where the clock moves by itself (a
    /// window's real clock, or the clock given to
    /// [`Engine::headless_with_clock`]); [`OneTick`](Self::OneTick) on the
    /// manual clock [`Engine::headless`] makes, which only the engine
    /// could move.
    #[default]
    Auto,
    /// The time the engine's clock says passed since the previous frame,
    /// as the loop's policy takes it: the variable policy runs one step of
    /// it clamped to 100 ms, the fixed policy the whole ticks due (capped
    /// per frame, the rest carried). See [`GameLoop::advance`].
    Measured,
    /// Exactly one tick per frame (1/60 s, or the fixed policy's
    /// interval), whatever the clock says: reproducible frames for tests,
    /// captures and tools ([`Engine::step`] does it for one frame).
    OneTick,
}

/// Building or running an engine failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EngineError {
    /// No usable GPU.
    #[error(transparent)]
    Gpu(#[from] taos_renderer::ContextError),
    /// The output target could not be made or read.
    #[error(transparent)]
    Target(#[from] taos_renderer::ReadbackError),
    /// The loop configuration is invalid.
    #[error(transparent)]
    Loop(#[from] crate::game_loop::LoopConfigError),
    /// The last frame failed to render.
    #[error("rendering failed")]
    Render(#[source] taos_renderer::RenderError),
    /// A behaviour or a queued command failed during the frame (the first
    /// such error; every one is logged).
    #[error(transparent)]
    Update(#[from] crate::UpdateError),
    /// A screenshot could not be written.
    #[error("cannot write screenshot {path}: {source}")]
    Screenshot {
        /// The file.
        path: std::path::PathBuf,
        /// The encoder's error.
        source: image::ImageError,
    },
    /// This engine renders to a window: screenshots come from the window system.
    #[error("screenshots read the offscreen target; this engine renders to a window")]
    NotHeadless,
}

/// A scene, its [`GameLoop`], and a renderer with the features a preset registered.
pub struct Engine {
    game: GameLoop,
    /// What draws the scene: the renderer and its output. Lent to the loop
    /// for each frame; the frame's result comes back from that call.
    pub(crate) render: RenderPresenter,
    /// The sound system: it follows the scene's sources and listener each frame.
    audio: Audio,
    /// The window, for a windowed engine.
    window: Option<Arc<Window>>,
    /// The UI overlay's context, for a windowed engine.
    ui_context: Option<egui::Context>,
    exit_requested: bool,
    /// The earliest wake-up a game asked for outside the loop's own.
    wake_at: Option<web_time::Instant>,
    pub(crate) stats: WindowStats,
    /// The render-graph overlay's state.
    pub(crate) graph_overlay: crate::graph_overlay::GraphOverlay,
    /// The built-in shapes and default material.
    pub(crate) builtins: crate::builtin_assets::BuiltinAssets,
    /// Meshes' triangles, read back for exact picking.
    pub(crate) pick_triangles: crate::picking::TriangleCache,
    /// The names of spawned models' meshes and materials.
    pub(crate) model_names: crate::asset_lookup::ModelAssetNames,
    /// How far a [`frame`](Self::frame) moves the simulation (never `Auto`).
    frame_time: FrameTime,
}

/// What the window driver did so far (how often the event loop woke, how
/// often it redrew): the numbers behind an idle-CPU claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct WindowStats {
    /// Times the event loop woke up (for events, timers or redraws).
    pub wakeups: u64,
    /// Redraw callbacks handled (each runs the loop's clock callback).
    pub redraws: u64,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine").field("game", &self.game).finish()
    }
}

/// A windowed engine's sound output: the device, unless `TAOS_AUDIO=off`
/// (CI, screen recordings, a shared machine).
fn windowed_audio_output() -> AudioOutput {
    if std::env::var("TAOS_AUDIO").is_ok_and(|v| v.eq_ignore_ascii_case("off")) {
        log::info!("audio: TAOS_AUDIO=off; the game runs silent");
        AudioOutput::Silent
    } else {
        AudioOutput::Device
    }
}

/// Output format of headless engines (what screenshots read back).
const HEADLESS_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

impl Engine {
    /// An engine rendering `width` x `height` offscreen frames, driven by a
    /// [`ManualClock`] of its own: with [`FrameTime::Auto`] each
    /// [`frame`](Self::frame) runs one tick (1/60 s, or the fixed
    /// interval), so a test or tool gets the same frames every run.
    ///
    /// # Errors
    /// [`EngineError::Gpu`] without an adapter, [`EngineError::Target`] for a
    /// zero size, [`EngineError::Loop`] for a bad loop configuration.
    pub fn headless(
        config: EngineConfig,
        preset: impl FnOnce(&mut Renderer),
    ) -> Result<Self, EngineError> {
        let stepping = config.frame_time.or(FrameTime::OneTick);
        Self::headless_on(config, preset, ManualClock::new(), stepping)
    }

    /// [`headless`](Self::headless) on `clock` (a [`RealClock`] for a
    /// headless game that runs in real time, or a [`ManualClock`] the
    /// caller advances): with [`FrameTime::Auto`] each
    /// [`frame`](Self::frame) advances the time `clock` measured since the
    /// previous frame ([`FrameTime::Measured`]).
    ///
    /// # Errors
    /// As [`headless`](Self::headless).
    pub fn headless_with_clock(
        config: EngineConfig,
        preset: impl FnOnce(&mut Renderer),
        clock: impl Clock + 'static,
    ) -> Result<Self, EngineError> {
        let stepping = config.frame_time.or(FrameTime::Measured);
        Self::headless_on(config, preset, clock, stepping)
    }

    fn headless_on(
        config: EngineConfig,
        preset: impl FnOnce(&mut Renderer),
        clock: impl Clock + 'static,
        stepping: FrameTime,
    ) -> Result<Self, EngineError> {
        crate::init_logging();
        let gpu = GpuContext::headless()?;
        let target = OffscreenTarget::new(&gpu, config.width, config.height, HEADLESS_FORMAT)?;
        let mut renderer = Renderer::new(gpu, HEADLESS_FORMAT);
        preset(&mut renderer);
        let mut engine = Self::assemble(
            config,
            renderer,
            Output::Offscreen(target),
            clock,
            Audio::new(AudioOutput::Silent),
        )?;
        engine.frame_time = stepping;
        Ok(engine)
    }

    fn assemble(
        config: EngineConfig,
        renderer: Renderer,
        output: Output,
        clock: impl Clock + 'static,
        audio: Audio,
    ) -> Result<Self, EngineError> {
        let mut renderer = renderer;
        let builtins = crate::builtin_assets::BuiltinAssets::upload(&mut renderer);
        let mut game = GameLoop::new(Scene::new(), config.loop_config, clock)?;
        game.set_size(config.width, config.height);
        builtins.name_in(game.scene_mut());
        Ok(Self {
            game,
            render: RenderPresenter::new(renderer, output),
            audio,
            window: None,
            ui_context: None,
            exit_requested: false,
            wake_at: None,
            stats: WindowStats::default(),
            graph_overlay: crate::graph_overlay::GraphOverlay::default(),
            builtins,
            pick_triangles: crate::picking::TriangleCache::default(),
            model_names: crate::asset_lookup::ModelAssetNames::default(),
            frame_time: FrameTime::OneTick,
        })
    }

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

    pub(crate) fn windowed(
        config: EngineConfig,
        renderer: Renderer,
        surface: taos_renderer::WindowSurface,
        window: Arc<Window>,
        ui_context: egui::Context,
    ) -> Result<Self, EngineError> {
        let format = surface.format();
        let ui = UiPainter::new(renderer.gpu(), format);
        let mut engine = Self::assemble(
            config,
            renderer,
            Output::Window(surface),
            RealClock::new(),
            Audio::new(windowed_audio_output()),
        )?;
        engine.frame_time = config.frame_time.or(FrameTime::Measured);
        engine.render.ui = Some(ui);
        engine.window = Some(window);
        engine.ui_context = Some(ui_context);
        Ok(engine)
    }

    /// Replaces the running game loop with `next` (its scene, clock, policy
    /// and state) and returns the one that ran: how a game switches screens,
    /// e.g. from a launcher to a world, on one window. The renderer, the
    /// output and the sound stay with the engine; the frame hooks move to
    /// `next` ([`GameLoop::hand_over`]). A windowed engine's loop should run on a
    /// [`RealClock`], a headless one's on a [`ManualClock`].
    pub fn set_game_loop(&mut self, mut next: GameLoop) -> GameLoop {
        self.game.hand_over(&mut next);
        let previous = std::mem::replace(&mut self.game, next);
        // Object handles of the old scene mean nothing in the new one: the
        // camera is found (and takes the output's aspect) again, and the old
        // scene's sounds stop.
        self.render.camera = None;
        self.audio.forget_sources();
        self.name_builtin_assets();
        previous
    }

    /// Chooses the camera frames are drawn from: `Some(object)` (an object
    /// with a [`Camera`](crate::Camera); while it is inactive or loses its
    /// camera the first active camera draws instead), or `None` for the
    /// first active camera (the default). The choice belongs to the scene
    /// ([`Scene::set_render_camera`](crate::Scene::set_render_camera)): a
    /// behaviour sees it as [`RenderContext::camera`](crate::RenderContext),
    /// and a new game loop's scene starts with its own. The newly chosen
    /// camera takes the output's aspect ratio on the next frame.
    pub fn set_camera(&mut self, camera: Option<crate::GameObject>) {
        self.game.scene_mut().set_render_camera(camera);
    }

    /// The camera frames are drawn from now (see [`set_camera`](Self::set_camera)).
    #[must_use]
    pub fn camera(&self) -> Option<crate::GameObject> {
        self.game.scene().render_camera()
    }

    /// Whether this engine draws into a window (`false`: headless).
    #[must_use]
    pub fn is_windowed(&self) -> bool {
        self.window.is_some()
    }

    /// Locks the pointer to the window and hides it (mouse look), or frees
    /// and shows it. Returns whether the pointer is now held: `false` when
    /// the platform refused (the error is logged) or the engine is headless.
    pub fn set_pointer_locked(&mut self, locked: bool) -> bool {
        let Some(window) = &self.window else {
            return false;
        };
        let grab = if locked {
            window
                .set_cursor_grab(CursorGrabMode::Locked)
                .or_else(|_| window.set_cursor_grab(CursorGrabMode::Confined))
        } else {
            window.set_cursor_grab(CursorGrabMode::None)
        };
        window.set_cursor_visible(!locked);
        match grab {
            Ok(()) => locked,
            Err(error) => {
                log::warn!("pointer lock unavailable: {error}");
                false
            }
        }
    }

    /// Shows or hides the mouse cursor over the window.
    pub fn set_cursor_visible(&mut self, visible: bool) {
        if let Some(window) = &self.window {
            window.set_cursor_visible(visible);
        }
    }

    /// Sets the window's title (in the browser, the page's title).
    pub fn set_title(&mut self, title: &str) {
        if let Some(window) = &self.window {
            window.set_title(title);
            // A canvas has no title bar: the page's (its tab's) title.
            #[cfg(target_arch = "wasm32")]
            if let Some(document) = web_sys::window().and_then(|w| w.document()) {
                document.set_title(title);
            }
        }
    }

    /// Asks for a redraw soon, even if the loop is paused (a UI change).
    pub fn request_redraw(&self) {
        if let Some(window) = &self.window {
            window.request_redraw();
        }
    }

    /// Ends [`run_app`](Self::run_app) after the current event, as if the
    /// window closed (without asking the app again).
    pub fn request_exit(&mut self) {
        self.exit_requested = true;
    }

    /// Asks the window driver to run a frame by `at` even if the loop has
    /// nothing due then (a deadline outside the simulation: an autosave, the
    /// end of a measurement). [`App::update`](crate::App::update) runs then.
    /// The earliest request wins; each is used once.
    pub fn wake_at(&mut self, at: web_time::Instant) {
        self.wake_at = Some(self.wake_at.map_or(at, |earlier| earlier.min(at)));
    }

    /// The answer of `task` if it has come (once), else `None` with a frame
    /// asked for soon (16 ms) so the game's [`App::update`](crate::App::update)
    /// looks again even when nothing else would wake the window. The way to
    /// wait for saves and assets in a per-frame hook, natively and in the
    /// browser alike (see [`Task`](crate::Task)).
    pub fn poll<T>(&mut self, task: &mut crate::Task<T>) -> Option<T> {
        let answer = task.take();
        if answer.is_none() && !task.is_taken() {
            self.wake_at(crate::time::Instant::now() + std::time::Duration::from_millis(16));
        }
        answer
    }

    pub(crate) fn take_wake_at(&mut self) -> Option<web_time::Instant> {
        self.wake_at.take()
    }

    /// Whether [`request_exit`](Self::request_exit) was called: the run
    /// ends after the current event.
    #[must_use]
    pub fn exit_requested(&self) -> bool {
        self.exit_requested
    }

    /// The UI overlay's egui context (to load textures, set styles);
    /// `None` for a headless engine.
    #[must_use]
    pub fn ui_context(&self) -> Option<&egui::Context> {
        self.ui_context.as_ref()
    }

    /// Renders the scene (`true`, the default), or only the UI overlay over a
    /// plain backdrop (`false`: a launcher or menu screen costs no scene
    /// rendering).
    pub fn show_scene(&mut self, show: bool) {
        self.render.show_scene = show;
    }

    /// The colour behind the UI while the scene is hidden (linear RGBA).
    pub fn set_backdrop(&mut self, rgba: [f64; 4]) {
        let [r, g, b, a] = rgba;
        self.render.backdrop = wgpu::Color { r, g, b, a };
    }

    /// What the window driver did so far (zero for a headless engine).
    #[must_use]
    pub fn window_stats(&self) -> WindowStats {
        self.stats
    }

    /// Gives a headless engine a UI overlay: `context` is what
    /// [`ui_context`](Self::ui_context) returns, and its frames are painted
    /// over the offscreen output (in screenshots too).
    pub(crate) fn attach_ui(&mut self, context: egui::Context) {
        let format = match &self.render.output {
            Output::Offscreen(target) => target.format(),
            Output::Window(surface) => surface.format(),
        };
        self.render.ui = Some(UiPainter::new(self.render.renderer.gpu(), format));
        self.ui_context = Some(context);
    }

    pub(crate) fn set_ui_frame(&mut self, frame: crate::ui::UiFrame) {
        let render = &mut self.render;
        if let Some(ui) = &mut render.ui {
            ui.set(render.renderer.gpu(), frame);
        }
    }

    /// The scene.
    pub fn scene_mut(&mut self) -> &mut Scene {
        self.game.scene_mut()
    }

    /// The scene, read-only.
    #[must_use]
    pub fn scene(&self) -> &Scene {
        self.game.scene()
    }

    /// The game loop (hooks, input, pause, recording).
    pub fn game_loop(&mut self) -> &mut GameLoop {
        &mut self.game
    }

    /// The loop's clock callback, presenting through the engine's renderer
    /// and sound: what the window driver calls on each redraw.
    pub(crate) fn on_clock(
        &mut self,
    ) -> (
        crate::game_loop::CallbackOutcome,
        Option<Result<RenderStats, taos_renderer::RenderError>>,
    ) {
        let mut output = FrameOutput {
            render: &mut self.render,
            audio: &mut self.audio,
        };
        self.game.on_clock_through(&mut output)
    }

    /// The renderer: its assets (meshes, materials, textures) and GPU.
    pub fn renderer(&mut self) -> &mut Renderer {
        &mut self.render.renderer
    }

    /// Replaces the renderer's features with those `preset` registers
    /// (another preset, or the same one with other settings), between
    /// frames: the old features are destroyed
    /// ([`Renderer::clear_features`]). Meshes, materials and textures stay
    /// uploaded, the scene is untouched; the new features compile their
    /// pipelines (and bake the sky) on the next frame. The output format
    /// stays what the first preset chose (HDR output is not switched). To
    /// switch one effect off and on, register it and use
    /// [`Renderer::set_enabled`]: nothing is rebuilt.
    pub fn set_preset(&mut self, preset: impl FnOnce(&mut Renderer)) {
        let renderer = self.renderer();
        renderer.clear_features();
        preset(renderer);
    }

    /// Runs `hook` at the top of every frame, before the scene updates.
    pub fn before_frame(&mut self, hook: impl FnMut(&mut Scene) + Send + 'static) {
        self.game.before_frame(hook);
    }

    /// Runs `hook` after every frame has been submitted, with the loop's
    /// [`FrameInfo`](crate::game_loop::FrameInfo) (ticks, size, timings, warnings).
    pub fn after_frame(&mut self, hook: impl FnMut(&crate::game_loop::FrameInfo) + Send + 'static) {
        self.game.after_frame(hook);
    }

    /// Runs `hook` on the live [`Frame`] after every feature added its passes
    /// and before the graph compiles: add a one-off pass with
    /// `frame.graph.add_pass(..)`, reassign `frame.hdr`, or read the frame
    /// data (`frame.data`: camera, lights, buckets).
    pub fn before_render(&mut self, hook: impl for<'a> FnMut(&mut Frame<'a>) + Send + 'static) {
        self.render.before_render.push(Box::new(hook));
    }

    /// One whole frame now: the loop's ticks (time, timers, behaviours and
    /// systems, transforms), then `update_render`, bucketing, the features'
    /// updates, a fresh graph, compile and one submit, then `after_frame` hooks.
    ///
    /// How much time it simulates is the config's [`FrameTime`]: with
    /// [`FrameTime::Measured`] (a windowed engine, or
    /// [`headless_with_clock`](Self::headless_with_clock)) the time the
    /// clock measured since the previous frame, clamped to 100 ms under the
    /// variable policy ([`GameLoop::advance`]); with
    /// [`FrameTime::OneTick`] (what [`headless`](Self::headless) picks for
    /// its own manual clock) exactly one tick.
    ///
    /// While the loop is paused ([`GameLoop::pause`], or auto-paused) no
    /// tick runs: the frame shows the current state, as a window's paused
    /// frames do, and the scene's time stands still. After
    /// [`GameLoop::resume`] frames tick again: the paused time is not
    /// simulated later. [`step`](Self::step) runs one tick, paused or not.
    ///
    /// # Errors
    /// [`EngineError::Update`] if a behaviour or command failed (the frame
    /// still rendered), [`EngineError::Render`] if the frame failed to
    /// render. Both are also logged.
    pub fn frame(&mut self) -> Result<RenderStats, EngineError> {
        if self.frame_time == FrameTime::Measured {
            let mut output = FrameOutput {
                render: &mut self.render,
                audio: &mut self.audio,
            };
            let (_, rendered) = self.game.advance_through(&mut output);
            return self.frame_result(rendered);
        }
        let tick = !self.game.is_paused();
        self.frame_ticking(tick)
    }

    /// Exactly one tick and a frame, also while the loop is paused (which it
    /// stays): single-stepping a paused game, [`GameLoop::step`] with the
    /// frame rendered.
    ///
    /// # Errors
    /// As [`frame`](Self::frame).
    pub fn step(&mut self) -> Result<RenderStats, EngineError> {
        self.frame_ticking(true)
    }

    /// A frame with one tick, or with none (the current state presented).
    fn frame_ticking(&mut self, tick: bool) -> Result<RenderStats, EngineError> {
        let mut output = FrameOutput {
            render: &mut self.render,
            audio: &mut self.audio,
        };
        let rendered = if tick {
            self.game.step_through(&mut output)
        } else {
            self.game.present_through(&mut output)
        };
        self.frame_result(rendered)
    }

    /// The first update error of the frame, or how it rendered.
    fn frame_result(
        &mut self,
        rendered: Result<RenderStats, taos_renderer::RenderError>,
    ) -> Result<RenderStats, EngineError> {
        if let Some(first) = self.game.take_errors().into_iter().next() {
            return Err(EngineError::Update(first));
        }
        rendered.map_err(EngineError::Render)
    }

    /// Renders the current state without ticking (after a
    /// [`set_game_loop`](Self::set_game_loop), a restore, or for a
    /// screenshot of a paused game), then runs the `after_frame` hooks.
    ///
    /// # Errors
    /// [`EngineError::Render`] if the frame failed to render.
    pub fn present(&mut self) -> Result<RenderStats, EngineError> {
        let mut output = FrameOutput {
            render: &mut self.render,
            audio: &mut self.audio,
        };
        self.game
            .present_through(&mut output)
            .map_err(EngineError::Render)
    }

    /// The sound system ([`taos_audio`]): bus volumes, one-shots
    /// ([`Audio::play_at`], [`Audio::play_ui`]). Each frame it follows the
    /// scene's [`AudioSource`](taos_audio::AudioSource)s and
    /// [`AudioListener`](taos_audio::AudioListener). A windowed engine plays
    /// through the default device (silent, with a logged warning, when there
    /// is none or `TAOS_AUDIO=off`); a headless one is silent.
    pub fn audio(&mut self) -> &mut Audio {
        &mut self.audio
    }

    /// The scene clock.
    #[must_use]
    pub fn time(&self) -> &crate::Time {
        self.game.time()
    }

    /// The scene clock, mutable: `engine.time_mut().set_scale(0.0)` pauses
    /// gameplay, `0.25` is slow motion.
    pub fn time_mut(&mut self) -> &mut crate::Time {
        self.game.time_mut()
    }

    /// Writes the last headless frame to a PNG file.
    ///
    /// # Errors
    /// [`EngineError::NotHeadless`], [`EngineError::Target`] if the read-back
    /// fails, [`EngineError::Screenshot`] if the file cannot be written.
    pub fn screenshot(&mut self, path: impl AsRef<Path>) -> Result<(), EngineError> {
        let render = &self.render;
        let Output::Offscreen(target) = &render.output else {
            return Err(EngineError::NotHeadless);
        };
        let pixels = target.read_rgba8(render.renderer.gpu())?;
        let (width, height) = target.size();
        let image = image::RgbaImage::from_raw(width, height, pixels)
            .expect("read-back returns width * height RGBA pixels");
        image
            .save(path.as_ref())
            .map_err(|source| EngineError::Screenshot {
                path: path.as_ref().to_owned(),
                source,
            })
    }

    /// Follows a new output size: the surface, the loop's reported size, the
    /// camera's aspect. A zero-size (minimised) window stops ticking.
    pub(crate) fn resize(&mut self, width: u32, height: u32) {
        let visible = width > 0 && height > 0;
        self.game.set_visible(visible);
        self.game.set_size(width, height);
        let render = &mut self.render;
        if let Output::Window(surface) = &mut render.output {
            surface.resize(render.renderer.gpu(), width, height);
        }
        self.set_camera_aspect(width, height);
    }

    /// Renders the current state once more into an offscreen image of
    /// `width` x `height` (a save thumbnail, a photo mode) and returns its
    /// RGBA8 pixels; the window is not touched and no tick runs. The camera
    /// takes the image's aspect for that frame. The frame counts as one
    /// (`after_frame` hooks see it). Waits for the GPU: in the browser use
    /// [`capture_later`](Self::capture_later).
    ///
    /// # Errors
    /// [`EngineError::Target`] for a zero size or a failed read-back,
    /// [`EngineError::Render`] if the frame failed.
    pub fn capture(&mut self, width: u32, height: u32) -> Result<Vec<u8>, EngineError> {
        Ok(self.capture_later(width, height)?.wait()?)
    }

    /// Renders as [`capture`](Self::capture) does, now, but returns before
    /// the GPU has finished: the pixels come through the returned future,
    /// which owns everything it needs (move it into an async task and await
    /// it there). This is how a page captures, since it must not block on
    /// the GPU; keep frames coming while it is awaited, as on WebGL2 the
    /// answer is collected on a later submit.
    ///
    /// ```no_run
    /// # fn demo(engine: &mut taos_engine::Engine) -> Result<(), taos_engine::EngineError> {
    /// let pixels = engine.capture_later(320, 180)?;
    /// let rgba: Vec<u8> = taos_engine::storage::block_on(pixels)?;
    /// assert_eq!(rgba.len(), 320 * 180 * 4);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`EngineError::Target`] for a zero size, [`EngineError::Render`] if
    /// the frame failed.
    pub fn capture_later(
        &mut self,
        width: u32,
        height: u32,
    ) -> Result<PendingReadback, EngineError> {
        let render = &mut self.render;
        let format = match &render.output {
            Output::Offscreen(target) => target.format(),
            Output::Window(surface) => surface.format(),
        };
        let target = OffscreenTarget::new(render.renderer.gpu(), width, height, format)?;
        let own = std::mem::replace(&mut render.output, Output::Offscreen(target));
        let (own_width, own_height) = self.game.frame_info().size;
        self.set_camera_aspect(width, height);
        let rendered = self.present();
        self.set_camera_aspect(own_width, own_height);
        let render = &mut self.render;
        let Output::Offscreen(target) = std::mem::replace(&mut render.output, own) else {
            unreachable!("the offscreen target put in above");
        };
        rendered?;
        Ok(target.read_rgba8_later(render.renderer.gpu()))
    }

    fn set_camera_aspect(&mut self, width: u32, height: u32) {
        if width == 0 || height == 0 {
            return;
        }
        let scene = self.game.scene_mut();
        if let Some(camera) = scene.render_camera()
            && let Some(mut camera) = scene.get_component_mut::<crate::Camera>(camera)
        {
            camera.set_aspect(width as f32 / height as f32);
        }
    }

    /// The last headless frame as RGBA8 pixels.
    ///
    /// # Errors
    /// As [`screenshot`](Self::screenshot), without the file.
    pub fn read_pixels(&mut self) -> Result<Vec<u8>, EngineError> {
        let render = &self.render;
        let Output::Offscreen(target) = &render.output else {
            return Err(EngineError::NotHeadless);
        };
        Ok(target.read_rgba8(render.renderer.gpu())?)
    }
}
