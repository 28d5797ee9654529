//! The watchdog: frames over budget, and inputs that change nothing.

use std::time::Duration;

use super::config::WatchdogConfig;
use super::frame_info::LoopWarning;
use super::replay::checksum::StateChecksum;
use super::response::ResponseWatch;
use crate::Scene;
use crate::stages::{Stage, StageTimings};

/// How many behaviours an unresponsive warning names.
const SUSPECTS: usize = 3;

/// Watches frame times and input-to-progress.
#[derive(Debug)]
pub(crate) struct Watchdog {
    config: WatchdogConfig,
    /// The open settle window: (tick the input arrived, fingerprint then).
    open: Option<(u64, u64)>,
    ignored: u32,
    /// The default progress: what each tick changed.
    response: ResponseWatch,
    /// The progress fingerprint after the last tick (`None` before the first).
    progress: Option<u64>,
}

impl Watchdog {
    pub(crate) fn new(config: WatchdogConfig) -> Self {
        Self {
            config,
            open: None,
            ignored: 0,
            response: ResponseWatch::default(),
            progress: None,
        }
    }

    /// Marks the start of a tick (for the default progress).
    pub(crate) fn begin_tick(&mut self, scene: &mut Scene) {
        self.response.begin(scene);
    }

    /// Judges the tick that just ran: `declared` is the game's own
    /// progress fingerprint, if it declared one; without it, what the tick
    /// changed ([`ResponseWatch`]). Names the scene and the behaviours that
    /// ran in a warning.
    pub(crate) fn end_tick(
        &mut self,
        scene: &mut Scene,
        checksum: &mut StateChecksum,
        tick: u64,
        had_input: bool,
        declared: Option<u64>,
    ) -> Option<LoopWarning> {
        let progress = declared.unwrap_or_else(|| self.response.end(scene, checksum));
        let before = self.progress.replace(progress).unwrap_or(progress);
        let mut warning = self.tick(tick, had_input, before, progress)?;
        if let LoopWarning::Unresponsive {
            scene: label,
            suspects,
            ..
        } = &mut warning
        {
            *label = scene.label().map(str::to_owned);
            *suspects = scene.stage_timings().map(suspects_in).unwrap_or_default();
        }
        Some(warning)
    }

    /// Forgets the progress fingerprint (a new progress signal).
    pub(crate) fn forget_progress(&mut self) {
        self.progress = None;
    }

    /// Judges a finished frame against the budget.
    pub(crate) fn frame(
        &self,
        frame_time: Duration,
        timings: &StageTimings,
    ) -> Option<LoopWarning> {
        (frame_time > self.config.frame_budget).then(|| LoopWarning::OverBudget {
            frame_time,
            budget: self.config.frame_budget,
            slowest: timings.slowest(),
        })
    }

    /// Feeds one tick: whether it carried new input, and the progress
    /// fingerprint before and after it ran.
    pub(crate) fn tick(
        &mut self,
        tick: u64,
        had_input: bool,
        before: u64,
        after: u64,
    ) -> Option<LoopWarning> {
        let mut warning = None;
        if had_input {
            // An input arriving while the previous one's window is still open
            // is part of the same attempt (quick clicks): the window restarts
            // from this input, measured against the state before the first.
            let fingerprint = self.open.map_or(before, |(_, first)| first);
            self.open = Some((tick, fingerprint));
        }
        if let Some((since, fingerprint)) = self.open {
            if after != fingerprint {
                self.ignored = 0;
                self.open = None;
            } else if tick - since >= u64::from(self.config.settle_window_ticks) {
                self.open = None;
                warning = warning.or(self.ignored_input(tick));
            }
        }
        warning
    }

    fn ignored_input(&mut self, tick: u64) -> Option<LoopWarning> {
        self.ignored += 1;
        if self.ignored < self.config.inputs_without_progress {
            return None;
        }
        let inputs = std::mem::take(&mut self.ignored);
        Some(LoopWarning::Unresponsive {
            inputs,
            tick,
            scene: None,
            suspects: Vec::new(),
        })
    }

    /// Forgets open windows, counts and poses (on resume).
    pub(crate) fn reset(&mut self) {
        self.open = None;
        self.ignored = 0;
        self.response.reset();
        self.progress = None;
    }
}

/// The behaviour types that ran this frame, the slowest first: the ones an
/// ignored input should have reached.
fn suspects_in(timings: &StageTimings) -> Vec<&'static str> {
    let mut ran: Vec<(&'static str, Duration)> = timings
        .entries()
        .iter()
        .filter_map(|entry| match entry.stage {
            Stage::Behaviour(name) => Some((name, entry.time)),
            _ => None,
        })
        .collect();
    ran.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    ran.into_iter()
        .take(SUSPECTS)
        .map(|(name, _)| name)
        .collect()
}
