//! The watchdog: frames over budget, and inputs that change nothing.

use std::time::Duration;

use super::config::WatchdogConfig;
use super::frame_info::LoopWarning;
use super::stages::StageTimings;

/// Watches frame times and input-to-progress.
#[derive(Debug, Clone)]
pub(crate) struct Watchdog {
    config: WatchdogConfig,
    /// The open settle window: (tick the input arrived, fingerprint then).
    open: Option<(u64, u64)>,
    ignored: u32,
}

impl Watchdog {
    pub(crate) fn new(config: WatchdogConfig) -> Self {
        Self {
            config,
            open: None,
            ignored: 0,
        }
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
        Some(LoopWarning::Unresponsive { inputs, tick })
    }

    /// Forgets open windows and counts (on resume).
    pub(crate) fn reset(&mut self) {
        self.open = None;
        self.ignored = 0;
    }
}
