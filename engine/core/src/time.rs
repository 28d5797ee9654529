//! The per-scene clock: scaled and unscaled time.

use bevy_ecs::resource::Resource;

/// Longest raw frame delta the clock accepts, in seconds. Anything longer (a
/// breakpoint, a hidden window) is clamped before scaling so the simulation does
/// not take one giant step.
pub const MAX_FRAME_DELTA: f32 = 0.1;

/// How strongly [`Time::fps`] follows the latest frame (exponential smoothing).
const FPS_SMOOTHING: f32 = 0.1;

/// A scene's clock, advanced once per frame before the scene updates.
///
/// `delta` and `elapsed` are multiplied by [`scale`](Time::scale): set it to 0 to
/// pause every behaviour that reads them, 0.25 for slow motion. UI, free cameras
/// and pause menus read the unscaled values, which keep running.
///
/// Behaviours read it from their context (`cx.time()`); bevy systems read it as
/// the resource `Res<Time>`.
#[derive(Resource, Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Time {
    scale: f32,
    delta: f32,
    unscaled_delta: f32,
    elapsed: f64,
    unscaled_elapsed: f64,
    frame_count: u64,
    fps: f32,
    /// Unscaled seconds since the previous presented frame (see
    /// [`Time::frame_delta`]); absent from snapshots written before it existed.
    #[serde(default)]
    unscaled_frame_delta: f32,
}

impl Default for Time {
    fn default() -> Self {
        Self {
            scale: 1.0,
            delta: 0.0,
            unscaled_delta: 0.0,
            elapsed: 0.0,
            unscaled_elapsed: 0.0,
            frame_count: 0,
            fps: 0.0,
            unscaled_frame_delta: 0.0,
        }
    }
}

/// Returned by [`Time::set_scale`] for a scale that is negative or not finite.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[non_exhaustive]
#[error("time scale must be finite and >= 0, got {scale}")]
pub struct InvalidTimeScale {
    /// The rejected value.
    pub scale: f32,
}

impl Time {
    /// Advances the clock by one frame of `raw_delta` real seconds: what
    /// [`Scene::tick`](crate::Scene::tick) does when a scene runs without a loop.
    ///
    /// The simulation step is the raw delta clamped to [`MAX_FRAME_DELTA`] (a
    /// negative or NaN delta counts as 0), then scaled; `unscaled_elapsed`
    /// and `fps` follow the real, unclamped seconds. Returns the scaled
    /// delta, the `dt` for this frame.
    pub fn advance(&mut self, raw_delta: f32) -> f32 {
        let real = if raw_delta.is_finite() {
            raw_delta.max(0.0)
        } else {
            0.0
        };
        let dt = self.advance_step(real.min(MAX_FRAME_DELTA));
        self.present_frame(self.unscaled_elapsed + f64::from(real), real);
        dt
    }

    /// One simulation step of `dt` unscaled seconds, not clamped (a fixed
    /// tick is exact, however long): sets the deltas and advances `elapsed`.
    /// Frame count, fps and `unscaled_elapsed` are per presented frame; see
    /// [`present_frame`](Self::present_frame). Returns the scaled delta.
    pub fn advance_step(&mut self, dt: f32) -> f32 {
        let dt = if dt.is_finite() { dt.max(0.0) } else { 0.0 };
        self.unscaled_delta = dt;
        self.delta = dt * self.scale;
        self.elapsed += f64::from(self.delta);
        self.delta
    }

    /// Sets the real seconds since start (the loop's clock), without counting a frame.
    pub fn set_unscaled_elapsed(&mut self, seconds: f64) {
        if seconds.is_finite() && seconds >= self.unscaled_elapsed {
            self.unscaled_elapsed = seconds;
        }
    }

    /// Counts one presented frame: `unscaled_elapsed` becomes `real_elapsed`
    /// (real seconds since start), `fps` follows `real_frame_delta` (real
    /// seconds since the previous presented frame), and the
    /// [frame delta](Self::frame_delta) becomes `real_frame_delta` clamped
    /// to [`MAX_FRAME_DELTA`].
    pub fn present_frame(&mut self, real_elapsed: f64, real_frame_delta: f32) {
        self.set_unscaled_elapsed(real_elapsed);
        self.frame_count += 1;
        self.set_frame_delta(real_frame_delta.min(MAX_FRAME_DELTA));
        if real_frame_delta > 0.0 && real_frame_delta.is_finite() {
            let instant = 1.0 / real_frame_delta;
            self.fps = if self.fps == 0.0 {
                instant
            } else {
                self.fps + (instant - self.fps) * FPS_SMOOTHING
            };
        }
    }

    /// Sets the unscaled seconds this frame shows (a negative or NaN value
    /// counts as 0): the loop's own limit, which lets a frame that simulated
    /// more than [`MAX_FRAME_DELTA`] in fixed ticks show all of it.
    pub(crate) fn set_frame_delta(&mut self, unscaled: f32) {
        self.unscaled_frame_delta = if unscaled.is_finite() {
            unscaled.max(0.0)
        } else {
            0.0
        };
    }

    /// Scaled seconds since the previous presented frame: what a per-frame
    /// animation (in `update_render`) advances by. Under a fixed-tick loop it
    /// differs from [`delta`](Self::delta), the tick's step: a 30 Hz game on a
    /// 120 Hz display presents four frames of about 8 ms per 33 ms tick.
    #[must_use]
    pub fn frame_delta(&self) -> f32 {
        self.unscaled_frame_delta * self.scale
    }

    /// Unscaled seconds since the previous presented frame (at most
    /// [`MAX_FRAME_DELTA`], or the span the frame's ticks simulated if longer).
    #[must_use]
    pub fn unscaled_frame_delta(&self) -> f32 {
        self.unscaled_frame_delta
    }

    /// This clock as a frame reader sees it: [`delta`](Self::delta) and
    /// [`unscaled_delta`](Self::unscaled_delta) are the frame's
    /// ([`frame_delta`](Self::frame_delta)), not the last tick's. What
    /// `cx.time()` returns during `update_render`.
    #[must_use]
    pub fn for_frame(&self) -> Self {
        Self {
            delta: self.frame_delta(),
            unscaled_delta: self.unscaled_frame_delta,
            ..*self
        }
    }

    /// Multiplier from real time to game time: 1 real time, 0 paused.
    #[must_use]
    pub fn scale(&self) -> f32 {
        self.scale
    }

    /// Sets the time scale; takes effect from the next [`advance`](Self::advance).
    ///
    /// # Errors
    /// [`InvalidTimeScale`] when `scale` is negative, NaN or infinite; the old scale stays.
    pub fn set_scale(&mut self, scale: f32) -> Result<(), InvalidTimeScale> {
        if !scale.is_finite() || scale < 0.0 {
            return Err(InvalidTimeScale { scale });
        }
        self.scale = scale;
        Ok(())
    }

    /// Scaled seconds since the last frame: the `dt` handed to `update`.
    #[must_use]
    pub fn delta(&self) -> f32 {
        self.delta
    }

    /// Unscaled seconds of the current step (after the 100 ms clamp of frame
    /// deltas; a fixed tick's exact interval), ignoring scale.
    #[must_use]
    pub fn unscaled_delta(&self) -> f32 {
        self.unscaled_delta
    }

    /// Scaled seconds since start; stops while paused.
    #[must_use]
    pub fn elapsed(&self) -> f64 {
        self.elapsed
    }

    /// Real seconds since start: the clock's seconds, never clamped.
    #[must_use]
    pub fn unscaled_elapsed(&self) -> f64 {
        self.unscaled_elapsed
    }

    /// Frames presented since start (under a loop, frames, not ticks: the
    /// loop counts ticks in [`GameLoop::tick_count`](crate::game_loop::GameLoop::tick_count)).
    #[must_use]
    pub fn frame_count(&self) -> u64 {
        self.frame_count
    }

    /// Smoothed presented frames per second (real time); 0 until a frame with a positive delta.
    #[must_use]
    pub fn fps(&self) -> f32 {
        self.fps
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scale_zero_pauses_game_time_but_not_real_time() {
        let mut time = Time::default();
        time.advance(0.02);
        time.set_scale(0.0).unwrap();
        let dt = time.advance(0.02);
        assert_eq!(dt, 0.0);
        assert_eq!(time.delta(), 0.0);
        assert!((time.elapsed() - 0.02).abs() < 1e-6);
        assert!((time.unscaled_elapsed() - 0.04).abs() < 1e-6);
        assert_eq!(time.frame_count(), 2);
    }

    #[test]
    fn raw_delta_is_clamped_before_scaling() {
        let mut time = Time::default();
        time.set_scale(2.0).unwrap();
        let dt = time.advance(5.0);
        assert_eq!(time.unscaled_delta(), MAX_FRAME_DELTA);
        assert_eq!(dt, MAX_FRAME_DELTA * 2.0);
        assert_eq!(time.unscaled_elapsed(), 5.0, "real seconds are not clamped");
        assert!((time.elapsed() - 0.2).abs() < 1e-6);
    }

    #[test]
    fn bad_deltas_and_scales_are_refused_without_panic() {
        let mut time = Time::default();
        assert_eq!(time.advance(f32::NAN), 0.0);
        assert_eq!(time.advance(-1.0), 0.0);
        assert!(time.set_scale(f32::NAN).is_err());
        assert!(time.set_scale(-1.0).is_err());
        assert_eq!(time.scale(), 1.0);
    }

    #[test]
    fn fps_is_smoothed_towards_the_frame_rate() {
        let mut time = Time::default();
        time.advance(1.0 / 30.0);
        assert!((time.fps() - 30.0).abs() < 0.01);
        for _ in 0..200 {
            time.advance(1.0 / 60.0);
        }
        assert!((time.fps() - 60.0).abs() < 0.1, "fps {}", time.fps());
        time.advance(1.0 / 10.0);
        assert!(time.fps() > 50.0, "one slow frame must not dominate");
    }

    #[test]
    fn a_frame_reader_sees_the_frames_delta_scaled() {
        let mut time = Time::default();
        time.set_scale(0.5).unwrap();
        time.advance_step(1.0 / 30.0);
        time.present_frame(0.008, 0.008);
        let frame = time.for_frame();
        assert!((frame.delta() - 0.004).abs() < 1e-7);
        assert!((frame.unscaled_delta() - 0.008).abs() < 1e-7);
        assert_eq!(frame.elapsed(), time.elapsed());
        time.present_frame(5.0, 4.992);
        assert_eq!(
            time.unscaled_frame_delta(),
            MAX_FRAME_DELTA,
            "a stall is clamped"
        );
    }
}
