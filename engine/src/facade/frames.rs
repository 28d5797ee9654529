//! An [`Engine`]'s frames: one frame as the config's [`FrameTime`] says,
//! one tick, or the current state presented; the window's clock callback.

#[allow(clippy::wildcard_imports)]
use super::*;

impl Engine {
    /// The loop's clock callback, presenting through the engine's renderer
    /// and sound: what the window driver calls on each redraw.
    pub(crate) fn on_clock(
        &mut self,
    ) -> (
        crate::game_loop::CallbackOutcome,
        Option<Result<RenderStats, taos_renderer::RenderError>>,
    ) {
        self.apply_due_changes();
        let mut output = FrameOutput {
            render: &mut self.render,
            audio: &mut self.audio,
        };
        self.game.on_clock_through(&mut output)
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
        self.apply_due_changes();
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
        self.apply_due_changes();
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

    /// Applies hot reload's due changes, when it is on.
    fn apply_due_changes(&mut self) {
        if self.hot_reload.is_listening() {
            self.apply_file_changes();
        }
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
        self.apply_due_changes();
        let mut output = FrameOutput {
            render: &mut self.render,
            audio: &mut self.audio,
        };
        self.game
            .present_through(&mut output)
            .map_err(EngineError::Render)
    }
}
