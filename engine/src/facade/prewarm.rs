//! Pre-compiling the frame's shaders before the player sees a frame.

#[allow(clippy::wildcard_imports)]
use super::*;

impl Engine {
    /// Draws the current scene twice (a first frame, then one with history
    /// for effects such as TAA), offscreen, and waits for the GPU,
    /// without ticking or presenting: call it behind a loading screen once
    /// the level is in. Pipelines are built when features are added; but
    /// many drivers compile a pipeline's machine code only at its first
    /// draw (llvmpipe/lavapipe, many GL drivers), which makes the first
    /// frame the player sees stall (0.8 to 1.4 s on lavapipe with a cold
    /// shader cache, see the book's shader pre-compilation page). After
    /// this call that compiling is done. Returns how long it took.
    ///
    /// What was not in the scene (a light kind, a skinned mesh, an effect
    /// switched on later) is compiled when it first appears.
    ///
    /// # Errors
    /// [`EngineError::Render`] if the frame failed to render.
    pub fn prewarm(&mut self) -> Result<web_time::Duration, EngineError> {
        let started = web_time::Instant::now();
        self.render
            .prewarm(self.game.scene_mut())
            .map_err(EngineError::Render)?;
        Ok(started.elapsed())
    }
}
