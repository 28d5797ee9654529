//! Per-stage timings of one frame, read from the loop's clock.

use std::time::Duration;

/// A named part of a frame whose time is measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Stage {
    /// `before_frame` and `after_frame` hooks.
    Hooks,
    /// Firing due timers and their callbacks.
    Timers,
    /// Stepping animation players and writing their poses.
    Animation,
    /// One behaviour type's `update` and `update_render`, summed over objects.
    Behaviour(&'static str),
    /// The scene's bevy_ecs systems (the schedule as a whole).
    Systems,
    /// World-matrix refreshes.
    Transforms,
    /// Producing the frame (`update_render`, cameras, the presenter).
    Render,
    /// A render feature, named by the renderer.
    Feature(&'static str),
}

impl std::fmt::Display for Stage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Hooks => f.write_str("hooks"),
            Self::Timers => f.write_str("timers"),
            Self::Animation => f.write_str("animation"),
            Self::Behaviour(name) => write!(f, "behaviour {name}"),
            Self::Systems => f.write_str("systems"),
            Self::Transforms => f.write_str("transforms"),
            Self::Render => f.write_str("render"),
            Self::Feature(name) => write!(f, "render feature {name}"),
        }
    }
}

/// Time spent in one stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StageTiming {
    /// The stage.
    pub stage: Stage,
    /// Its total time this frame (all ticks).
    pub time: Duration,
}

/// The stages of one frame, each once, in first-seen order. Reused frame to
/// frame: it allocates only when a frame meets a stage no earlier frame had.
#[derive(Debug, Clone, Default)]
pub struct StageTimings {
    entries: Vec<StageTiming>,
}

impl StageTimings {
    /// Adds `time` to `stage`.
    pub fn add(&mut self, stage: Stage, time: Duration) {
        match self.entries.iter_mut().find(|e| e.stage == stage) {
            Some(entry) => entry.time += time,
            None => self.entries.push(StageTiming { stage, time }),
        }
    }

    /// Zeroes every stage, keeping the storage.
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// The stage that took longest this frame.
    #[must_use]
    pub fn slowest(&self) -> Option<StageTiming> {
        self.entries.iter().copied().max_by_key(|e| e.time)
    }

    /// Every stage measured this frame.
    #[must_use]
    pub fn entries(&self) -> &[StageTiming] {
        &self.entries
    }

    /// Time of one stage, zero if it did not run.
    #[must_use]
    pub fn get(&self, stage: Stage) -> Duration {
        self.entries
            .iter()
            .find(|e| e.stage == stage)
            .map_or(Duration::ZERO, |e| e.time)
    }
}
