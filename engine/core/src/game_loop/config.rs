//! How a [`GameLoop`](super::GameLoop) paces itself: policy, rates, caps, opt-ins.

use std::num::NonZeroU32;
use std::time::Duration;

/// A frequency in whole hertz: a fixed tick rate or a frame-rate cap.
///
/// Whole hertz keep the fixed-step arithmetic exact: the loop accumulates
/// `nanoseconds x hertz`, so 10 minutes at 60 Hz lose no time to rounding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rate(NonZeroU32);

impl Rate {
    /// Highest accepted rate; beyond it a tick is shorter than a millisecond.
    pub const MAX_HZ: u32 = 1000;

    /// 60 Hz, the default tick rate.
    pub const HZ_60: Self = Self(NonZeroU32::new(60).unwrap());

    /// A rate of `hz` ticks (or frames) per second.
    ///
    /// # Errors
    /// [`LoopConfigError::InvalidRate`] for 0 or more than [`Rate::MAX_HZ`].
    pub fn hz(hz: u32) -> Result<Self, LoopConfigError> {
        match NonZeroU32::new(hz) {
            Some(nz) if hz <= Self::MAX_HZ => Ok(Self(nz)),
            _ => Err(LoopConfigError::InvalidRate { hz }),
        }
    }

    /// Ticks per second.
    #[must_use]
    pub const fn get(self) -> u32 {
        self.0.get()
    }

    /// One period, rounded to the nearest nanosecond.
    #[must_use]
    pub fn interval(self) -> Duration {
        Duration::from_nanos(self.interval_nanos())
    }

    /// One period in nanoseconds, rounded to the nearest.
    #[must_use]
    pub fn interval_nanos(self) -> u64 {
        let hz = u64::from(self.get());
        (NANOS_PER_SECOND + hz / 2) / hz
    }
}

pub(crate) use crate::clock::NANOS_PER_SECOND;

/// How elapsed clock time turns into simulation steps.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[non_exhaustive]
pub enum LoopPolicy {
    /// One update per callback with `dt` = elapsed time, clamped to 100 ms.
    /// The first callback's `dt` is 0.
    #[default]
    Variable,
    /// Simulation in fixed ticks; rendering interpolates between them.
    Fixed(FixedStep),
}

impl LoopPolicy {
    /// Fixed ticks at `hz` with the default catch-up cap (64) and a frame every callback.
    ///
    /// # Errors
    /// [`LoopConfigError::InvalidRate`] for a rate of 0 or above [`Rate::MAX_HZ`].
    pub fn fixed(hz: u32) -> Result<Self, LoopConfigError> {
        Ok(Self::Fixed(FixedStep::new(Rate::hz(hz)?)))
    }
}

/// Settings of the fixed-step policy.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FixedStep {
    /// Ticks per second of simulated time.
    pub rate: Rate,
    /// Most ticks one callback may run; time beyond is dropped, not fast-forwarded.
    pub max_ticks_per_callback: u32,
    /// Whether a callback that runs no tick still presents an interpolated frame.
    pub present: PresentOn,
}

impl FixedStep {
    /// Default catch-up cap: a 64-tick batch, about a second at 60 Hz.
    pub const DEFAULT_MAX_TICKS: u32 = 64;

    /// `rate` with the default cap, presenting every callback.
    #[must_use]
    pub fn new(rate: Rate) -> Self {
        Self {
            rate,
            max_ticks_per_callback: Self::DEFAULT_MAX_TICKS,
            present: PresentOn::EveryCallback,
        }
    }
}

/// When the fixed-step policy produces a frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum PresentOn {
    /// Every callback, with an interpolation alpha between the last two ticks
    /// (smooth on displays faster than the tick rate).
    #[default]
    EveryCallback,
    /// Only callbacks that ran at least one tick; below one interval the loop
    /// does nothing and asks to sleep until the next tick is due.
    Tick,
}

/// Opt-in auto-pause: the loop pauses itself when nothing can make progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AutoPauseConfig {
    /// Ticks the progress fingerprint must stay unchanged before the loop
    /// counts as settled.
    pub settle_ticks: u32,
    /// Pause when a tick has nothing to run (no behaviour, no system, no timer).
    pub when_nothing_to_run: bool,
}

impl Default for AutoPauseConfig {
    fn default() -> Self {
        Self {
            settle_ticks: 10,
            when_nothing_to_run: true,
        }
    }
}

/// Opt-in hang and budget watchdog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WatchdogConfig {
    /// A frame taking longer than this (by the loop's clock) raises a warning
    /// naming its slowest stage.
    pub frame_budget: Duration,
    /// Consecutive inputs without progress before a hang warning.
    pub inputs_without_progress: u32,
    /// Ticks an input has to show progress before it counts as ignored.
    pub settle_window_ticks: u32,
}

impl Default for WatchdogConfig {
    fn default() -> Self {
        Self {
            frame_budget: Duration::from_millis(33),
            inputs_without_progress: 3,
            settle_window_ticks: 12,
        }
    }
}

/// Everything a [`GameLoop`](super::GameLoop) is configured with.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct LoopConfig {
    /// Variable or fixed stepping.
    pub policy: LoopPolicy,
    /// Optional frame-rate cap: a callback sooner than one period after the last
    /// frame does nothing and asks to sleep out the rest of the period.
    pub frame_cap: Option<Rate>,
    /// Auto-pause, off unless set.
    pub auto_pause: Option<AutoPauseConfig>,
    /// The watchdog, off unless set. It turns on stage timings.
    pub watchdog: Option<WatchdogConfig>,
    /// Time every stage (each behaviour type, systems, timers, transforms,
    /// render, hooks) into [`FrameInfo::timings`](super::FrameInfo::timings).
    /// Costs two clock reads per object with behaviours per tick.
    pub stage_timings: bool,
}

impl LoopConfig {
    /// Fixed ticks at `hz`, no cap, no auto-pause, no watchdog.
    ///
    /// # Errors
    /// [`LoopConfigError::InvalidRate`] for a rate of 0 or above [`Rate::MAX_HZ`].
    pub fn fixed(hz: u32) -> Result<Self, LoopConfigError> {
        Ok(Self {
            policy: LoopPolicy::fixed(hz)?,
            ..Self::default()
        })
    }

    /// The interval one "game tick" stands for: the fixed rate's interval, or
    /// 1/60 s under the variable policy. Timers scheduled in ticks use it.
    #[must_use]
    pub fn tick_interval_nanos(&self) -> u64 {
        match self.policy {
            LoopPolicy::Fixed(step) => step.rate.interval_nanos(),
            LoopPolicy::Variable => Rate::HZ_60.interval_nanos(),
        }
    }

    /// Checks the settings that a struct literal could get wrong.
    ///
    /// # Errors
    /// [`LoopConfigError::ZeroCap`] for a fixed policy with `max_ticks_per_callback == 0`.
    pub fn validate(&self) -> Result<(), LoopConfigError> {
        if let LoopPolicy::Fixed(step) = self.policy
            && step.max_ticks_per_callback == 0
        {
            return Err(LoopConfigError::ZeroCap);
        }
        Ok(())
    }
}

/// A loop setting that cannot work.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LoopConfigError {
    /// A rate outside 1..=1000 Hz.
    #[error("rate must be 1..={max} Hz, got {hz}", max = Rate::MAX_HZ)]
    InvalidRate {
        /// The rejected rate.
        hz: u32,
    },
    /// A catch-up cap of zero ticks would never simulate anything.
    #[error("max_ticks_per_callback must be at least 1")]
    ZeroCap,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_are_validated_and_rounded() {
        assert!(Rate::hz(0).is_err());
        assert!(Rate::hz(1001).is_err());
        assert_eq!(Rate::hz(60).unwrap().interval_nanos(), 16_666_667);
        assert_eq!(
            Rate::hz(64).unwrap().interval(),
            Duration::from_micros(15_625)
        );
        assert_eq!(Rate::HZ_60, Rate::hz(60).unwrap());
    }

    #[test]
    fn a_zero_cap_is_refused() {
        let mut config = LoopConfig::fixed(30).unwrap();
        if let LoopPolicy::Fixed(step) = &mut config.policy {
            step.max_ticks_per_callback = 0;
        }
        assert_eq!(config.validate(), Err(LoopConfigError::ZeroCap));
    }
}
