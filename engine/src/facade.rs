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

use taos_renderer::{Frame, GpuContext, OffscreenTarget, RenderStats, Renderer};

use crate::Scene;
use crate::game_loop::{Clock, GameLoop, LoopConfig, ManualClock, RealClock};
use crate::presenter::{Output, RenderPresenter};
use crate::window::{RunError, SetupError, run_windowed};

/// How to build an [`Engine`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EngineConfig {
    /// Output width in pixels (the window's initial width).
    pub width: u32,
    /// Output height in pixels.
    pub height: u32,
    /// Loop policy, frame cap, auto-pause, watchdog.
    pub loop_config: LoopConfig,
}

impl EngineConfig {
    /// `width` x `height`, variable steps.
    #[must_use]
    pub fn new(width: u32, height: u32) -> Self {
        Self {
            width,
            height,
            loop_config: LoopConfig::default(),
        }
    }
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
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine").field("game", &self.game).finish()
    }
}

/// Output format of headless engines (what screenshots read back).
const HEADLESS_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

impl Engine {
    /// An engine rendering `width` x `height` offscreen frames, driven by a
    /// [`ManualClock`] (step it with [`frame`](Self::frame)).
    ///
    /// # Errors
    /// [`EngineError::Gpu`] without an adapter, [`EngineError::Target`] for a
    /// zero size, [`EngineError::Loop`] for a bad loop configuration.
    pub fn headless(
        config: EngineConfig,
        preset: impl FnOnce(&mut Renderer),
    ) -> Result<Self, EngineError> {
        crate::init_logging();
        let gpu = GpuContext::headless()?;
        let target = OffscreenTarget::new(&gpu, config.width, config.height, HEADLESS_FORMAT)?;
        let mut renderer = Renderer::new(gpu, HEADLESS_FORMAT);
        preset(&mut renderer);
        Self::assemble(
            config,
            renderer,
            Output::Offscreen(target),
            ManualClock::new(),
        )
    }

    fn assemble(
        config: EngineConfig,
        renderer: Renderer,
        output: Output,
        clock: impl Clock + 'static,
    ) -> Result<Self, EngineError> {
        let mut game = GameLoop::new(Scene::new(), config.loop_config, clock)?;
        game.set_size(config.width, config.height);
        game.set_presenter(RenderPresenter::new(renderer, output));
        Ok(Self { game })
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

    pub(crate) fn windowed(
        config: EngineConfig,
        renderer: Renderer,
        surface: taos_renderer::WindowSurface,
    ) -> Result<Self, EngineError> {
        Self::assemble(config, renderer, Output::Window(surface), RealClock::new())
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

    fn presenter(&mut self) -> &mut RenderPresenter {
        self.game
            .presenter_mut::<RenderPresenter>()
            .expect("an engine's loop always presents through its renderer")
    }

    /// The renderer: its assets (meshes, materials, textures) and GPU.
    pub fn renderer(&mut self) -> &mut Renderer {
        &mut self.presenter().renderer
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
        self.presenter().before_render.push(Box::new(hook));
    }

    /// One whole frame now: a tick of the loop (time, timers, behaviours and
    /// systems, transforms), then `update_render`, bucketing, the features'
    /// updates, a fresh graph, compile and one submit, then `after_frame` hooks.
    ///
    /// # Errors
    /// [`EngineError::Update`] if a behaviour or command failed (the frame
    /// still rendered), [`EngineError::Render`] if the frame failed to
    /// render. Both are also logged.
    pub fn frame(&mut self) -> Result<RenderStats, EngineError> {
        self.game.step();
        if let Some(first) = self.game.take_errors().into_iter().next() {
            return Err(EngineError::Update(first));
        }
        let last = std::mem::replace(&mut self.presenter().last, Ok(RenderStats::default()));
        last.map_err(EngineError::Render)
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
        let presenter = self.presenter();
        let Output::Offscreen(target) = &presenter.output else {
            return Err(EngineError::NotHeadless);
        };
        let pixels = target.read_rgba8(presenter.renderer.gpu())?;
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
        let presenter = self.presenter();
        if let Output::Window(surface) = &mut presenter.output {
            surface.resize(presenter.renderer.gpu(), width, height);
        }
        if visible {
            let aspect = width as f32 / height as f32;
            let scene = self.game.scene_mut();
            if let Some(camera) = scene.find_camera()
                && let Some(camera) = scene.get_component_mut::<crate::Camera>(camera)
            {
                camera.into_inner().set_aspect(aspect);
            }
        }
    }

    /// The last headless frame as RGBA8 pixels.
    ///
    /// # Errors
    /// As [`screenshot`](Self::screenshot), without the file.
    pub fn read_pixels(&mut self) -> Result<Vec<u8>, EngineError> {
        let presenter = self.presenter();
        let Output::Offscreen(target) = &presenter.output else {
            return Err(EngineError::NotHeadless);
        };
        Ok(target.read_rgba8(presenter.renderer.gpu())?)
    }
}
