//! What after-frame subscribers learn about each frame.

use std::time::Duration;

use crate::stages::{StageTiming, StageTimings};

/// Why the loop is not ticking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub enum PauseReason {
    /// [`GameLoop::pause`](super::GameLoop::pause) was called.
    Requested,
    /// The progress fingerprint stayed unchanged for the configured number of ticks.
    Settled,
    /// A tick had nothing to run: no behaviour, no system, no pending timer.
    NothingToRun,
    /// The game asked to halt ([`LoopControl::halt`](super::LoopControl::halt)).
    Halted,
    /// A replay ran out of recorded ticks.
    ReplayFinished,
}

impl PauseReason {
    /// `true` for the reasons input resumes from (the game was waiting for the player).
    #[must_use]
    pub fn resumes_on_input(self) -> bool {
        matches!(self, Self::Settled | Self::NothingToRun)
    }
}

/// A warning raised by the watchdog.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LoopWarning {
    /// A frame took longer than its budget.
    OverBudget {
        /// How long the frame took, by the loop's clock.
        frame_time: Duration,
        /// The configured budget.
        budget: Duration,
        /// The stage that took longest.
        slowest: Option<StageTiming>,
    },
    /// Several inputs in a row changed nothing observable.
    Unresponsive {
        /// How many consecutive inputs produced no progress.
        inputs: u32,
        /// The tick at which the last one was judged.
        tick: u64,
        /// The scene's label ([`Scene::set_label`](crate::Scene::set_label)), if it has one.
        scene: Option<String>,
        /// The behaviour types that ran in the last frame, the slowest
        /// first (at most three): the ones the input should have reached.
        suspects: Vec<&'static str>,
    },
}

impl std::fmt::Display for LoopWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::OverBudget {
                frame_time,
                budget,
                slowest,
            } => {
                write!(f, "frame took {frame_time:?}, budget {budget:?}")?;
                if let Some(slowest) = slowest {
                    write!(f, "; slowest stage: {} ({:?})", slowest.stage, slowest.time)?;
                }
                Ok(())
            }
            Self::Unresponsive {
                inputs,
                tick,
                scene,
                suspects,
            } => {
                write!(f, "{inputs} consecutive inputs produced no progress")?;
                match scene {
                    Some(label) => write!(f, " in scene \"{label}\"")?,
                    None => f.write_str(" in an unlabelled scene")?,
                }
                write!(f, " (tick {tick})")?;
                if !suspects.is_empty() {
                    write!(f, "; behaviours that ran: {}", suspects.join(", "))?;
                }
                f.write_str(": the game may be stuck")
            }
        }
    }
}

/// Everything a frame reports to `after_frame` subscribers.
#[derive(Debug, Clone, Default)]
pub struct FrameInfo {
    /// Ticks simulated since the loop started.
    pub tick: u64,
    /// Frames produced since the loop started (this one included).
    pub frame: u64,
    /// Ticks simulated in this frame's callback (0 for `present()`).
    pub ticks_this_frame: u32,
    /// Interpolation factor between the previous and the current tick, 0..=1.
    pub alpha: f32,
    /// The presentation size in pixels.
    pub size: (u32, u32),
    /// Time per stage this frame, by the loop's clock.
    pub timings: StageTimings,
    /// The whole frame, by the loop's clock.
    pub frame_time: Duration,
    /// Loop diagnostics.
    pub diagnostics: Diagnostics,
}

/// Loop state worth showing in a debug overlay.
#[derive(Debug, Clone, Default)]
pub struct Diagnostics {
    /// Clock time dropped so far (catch-up cap, pauses, hidden window).
    pub dropped: Duration,
    /// Unsimulated time carried into the next callback.
    pub carried: Duration,
    /// Why the loop is paused, if it is.
    pub paused: Option<PauseReason>,
    /// Timers pending.
    pub pending_timers: usize,
    /// Watchdog warnings raised this frame.
    pub warnings: Vec<LoopWarning>,
}
