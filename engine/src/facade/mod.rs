//! The [`Engine`] facade: a scene, its game loop and a renderer, headless or
//! in a window.
//!
//! - `mod.rs`: the configuration, the errors, the engine and its parts
//!   (scene, loop, renderer, sound, hooks, camera);
//! - `build.rs`: headless and windowed engines, running a game, swapping
//!   the loop;
//! - `frames.rs`: frames, steps and presents;
//! - `window.rs`: pointer, cursor, title, wake-ups, exit, the UI overlay;
//! - `capture.rs`: screenshots, pixels and captures;
//! - `prewarm.rs`: drawing the scene once offscreen to compile its shaders.
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
use crate::game_loop::{Clock, GameLoop, LoopConfig, ManualClock, RealClock};
use crate::presenter::{FrameOutput, Output, RenderPresenter};
use crate::ui::UiPainter;

mod build;
mod capture;
mod frames;
mod overlay;
mod prewarm;
mod window;

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
    /// Files watched and reloaded while the game runs.
    pub(crate) hot_reload: crate::hot_reload::HotReload,
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

impl Engine {
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
}
