//! Building an [`Engine`]: headless (on its own manual clock, or on a
//! clock given), windowed, or by running a game; swapping its game loop.

#[allow(clippy::wildcard_imports)]
use super::*;

/// Output format of headless engines (what screenshots read back).
const HEADLESS_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

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
            hot_reload: crate::hot_reload::HotReload::new(false),
        })
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
        engine
            .hot_reload
            .set_enabled(crate::hot_reload::enabled_by_default());
        engine.hot_reload.listen_to_page();
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
}
