//! Turns clock timestamps into simulation steps: the throttle, the catch-up
//! batch and its cap, the carried remainder, the frame cap.
//!
//! Pure arithmetic on timestamps, no clock of its own: given the same
//! timestamps it makes the same decisions.

use std::time::Duration;

use super::config::{LoopConfig, LoopPolicy, NANOS_PER_SECOND, PresentOn};
use crate::clock::duration_to_nanos;

/// Longest `dt` the variable policy hands out, in nanoseconds (100 ms).
const MAX_VARIABLE_DT_NANOS: u64 = 100_000_000;

/// Most ticks one callback runs while catching up on a slept span (after
/// the loop settled and slept until a timer): the rest stays owed and the
/// next callbacks, called at once, run it in batches of this size. So a
/// long sleep never turns into one frame of thousands of ticks, and the
/// timer still fires at its exact game time.
pub const CATCH_UP_BATCH: u32 = 64;

/// What one clock callback should do.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Plan {
    /// Nothing this callback: sleep until the clock reads `until`.
    Wait { until: Duration },
    /// Run `ticks` steps of `dt` each, then present a frame at `alpha`.
    Run {
        ticks: u32,
        dt: Duration,
        alpha: f32,
    },
}

/// Pacing state carried from one callback to the next.
#[derive(Debug, Clone, Default)]
pub(crate) struct Pacer {
    /// Timestamp of the last callback that consumed time.
    base: Option<u64>,
    /// Timestamp of the last presented frame (for the frame cap).
    last_frame: Option<u64>,
    /// Fixed policy: unsimulated time in nanosecond-hertz units (one interval
    /// is `NANOS_PER_SECOND` units whatever the rate, so no rounding creeps in).
    carry: u128,
    /// Clock time dropped by the catch-up cap or by rebasing (stalls), in ns.
    dropped: u64,
    /// A slept span is still being caught up on ([`CATCH_UP_BATCH`] ticks
    /// per callback): the next plan catches up too.
    owed: bool,
}

impl Pacer {
    /// Decides what the callback at `now` does and consumes the time it covers.
    /// `catch_up` simulates all the elapsed time, whatever the caps: the loop
    /// asks for it after sleeping until a timer, so the slept span is
    /// simulated rather than dropped or clamped (the fixed policy lifts its
    /// batch cap; the variable policy splits the span into steps of at most
    /// 100 ms), [`CATCH_UP_BATCH`] ticks per callback at most: what is left
    /// is owed to the next callbacks ([`owes_ticks`](Self::owes_ticks)).
    pub(crate) fn plan(&mut self, config: &LoopConfig, now: Duration, catch_up: bool) -> Plan {
        self.plan_with(config, now, catch_up, true)
    }

    /// [`plan`](Self::plan) for a frame that is made whatever is due (an
    /// engine's `frame`): never waits, neither for the frame cap nor for a
    /// tick to come due (it runs no tick then, and presents).
    pub(crate) fn plan_frame(
        &mut self,
        config: &LoopConfig,
        now: Duration,
        catch_up: bool,
    ) -> Plan {
        self.plan_with(config, now, catch_up, false)
    }

    /// Whether a slept span is still owed: the loop should be called back
    /// at once.
    pub(crate) fn owes_ticks(&self) -> bool {
        self.owed
    }

    fn plan_with(
        &mut self,
        config: &LoopConfig,
        now: Duration,
        catch_up: bool,
        may_wait: bool,
    ) -> Plan {
        let catch_up = catch_up || self.owed;
        let now = duration_to_nanos(now);
        if may_wait && let (Some(cap), Some(last)) = (config.frame_cap, self.last_frame) {
            let due = last.saturating_add(cap.interval_nanos());
            if now < due {
                return Plan::Wait {
                    until: Duration::from_nanos(due),
                };
            }
        }
        self.owed = false;
        let elapsed = self.base.map_or(0, |base| now.saturating_sub(base));
        self.base = Some(now.max(self.base.unwrap_or(0)));
        match config.policy {
            LoopPolicy::Variable => {
                self.last_frame = Some(now);
                let batch = u64::from(CATCH_UP_BATCH);
                let (ticks, dt) = if catch_up && elapsed > MAX_VARIABLE_DT_NANOS * batch {
                    // More than a batch: full 100 ms steps now, and the
                    // rest measured again from where they end.
                    let covered = MAX_VARIABLE_DT_NANOS * batch;
                    self.base = Some(now - (elapsed - covered));
                    self.owed = true;
                    (batch, MAX_VARIABLE_DT_NANOS)
                } else if catch_up && elapsed > MAX_VARIABLE_DT_NANOS {
                    // Rounded up, so the steps cover the whole span.
                    let steps = elapsed.div_ceil(MAX_VARIABLE_DT_NANOS);
                    (steps, elapsed.div_ceil(steps))
                } else {
                    (1, elapsed.min(MAX_VARIABLE_DT_NANOS))
                };
                Plan::Run {
                    ticks: u32::try_from(ticks).unwrap_or(u32::MAX),
                    dt: Duration::from_nanos(dt),
                    alpha: 1.0,
                }
            }
            LoopPolicy::Fixed(step) => {
                let hz = u128::from(step.rate.get());
                let unit = u128::from(NANOS_PER_SECOND);
                let available = self.carry + u128::from(elapsed) * hz;
                let due = available / unit;
                let ticks = if catch_up {
                    due.min(u128::from(CATCH_UP_BATCH))
                } else {
                    due.min(u128::from(step.max_ticks_per_callback))
                };
                let mut rest = available - ticks * unit;
                if catch_up && rest >= unit {
                    // Owed to the next callbacks, not dropped.
                    self.owed = true;
                } else if rest > unit {
                    // A stall longer than the batch cap: drop it rather than
                    // fast-forward through it next callback.
                    self.dropped = self
                        .dropped
                        .saturating_add(u64::try_from((rest - unit) / hz).unwrap_or(u64::MAX));
                    rest = unit;
                }
                self.carry = rest;
                let ticks = u32::try_from(ticks).unwrap_or(u32::MAX);
                let alpha = (rest as f64 / unit as f64).min(1.0) as f32;
                if may_wait && ticks == 0 && step.present == PresentOn::Tick {
                    let missing = (unit - rest).div_ceil(hz);
                    let wait = u64::try_from(missing).unwrap_or(u64::MAX);
                    return Plan::Wait {
                        until: Duration::from_nanos(now.saturating_add(wait)),
                    };
                }
                self.last_frame = Some(now);
                Plan::Run {
                    ticks,
                    dt: step.rate.interval(),
                    alpha,
                }
            }
        }
    }

    /// Forgets the time since the last callback (a pause or a hidden window):
    /// the next callback measures from `now`, and the gap is dropped.
    pub(crate) fn rebase(&mut self, now: Duration) {
        self.owed = false;
        let now = duration_to_nanos(now);
        if let Some(base) = self.base {
            self.dropped = self.dropped.saturating_add(now.saturating_sub(base));
        }
        self.base = Some(now.max(self.base.unwrap_or(0)));
    }

    /// The clock reading at which `ticks` more ticks will have come due,
    /// counting the time already carried (exact, in the accumulator's units).
    pub(crate) fn when_ticks_due(&self, config: &LoopConfig, ticks: u64) -> Duration {
        let base = u128::from(self.base.unwrap_or(0));
        let nanos = match config.policy {
            LoopPolicy::Fixed(step) => {
                let units = u128::from(ticks) * u128::from(NANOS_PER_SECOND);
                units
                    .saturating_sub(self.carry)
                    .div_ceil(u128::from(step.rate.get()))
            }
            LoopPolicy::Variable => u128::from(ticks) * u128::from(config.tick_interval_nanos()),
        };
        Duration::from_nanos(u64::try_from(base + nanos).unwrap_or(u64::MAX))
    }

    /// Counts `nanos` of clock time as simulated outside [`plan`](Self::plan)
    /// (a `step`): the next callback measures from after them, so mixing
    /// steps and callbacks never simulates the same time twice.
    pub(crate) fn consume(&mut self, now: Duration, nanos: u64) {
        let base = self.base.unwrap_or_else(|| duration_to_nanos(now));
        self.base = Some(base.saturating_add(nanos));
    }

    /// Marks a frame presented outside [`plan`](Self::plan) (`step`, `present`).
    pub(crate) fn note_frame(&mut self, now: Duration) {
        self.last_frame = Some(duration_to_nanos(now));
    }

    /// Clock time dropped so far by the catch-up cap and by pauses.
    pub(crate) fn dropped(&self) -> Duration {
        Duration::from_nanos(self.dropped)
    }

    /// Unsimulated time carried into the next callback (fixed policy).
    pub(crate) fn carried(&self, config: &LoopConfig) -> Duration {
        match config.policy {
            LoopPolicy::Fixed(step) => {
                let nanos = self.carry / u128::from(step.rate.get());
                Duration::from_nanos(u64::try_from(nanos).unwrap_or(u64::MAX))
            }
            LoopPolicy::Variable => Duration::ZERO,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game_loop::config::{FixedStep, Rate};

    fn ms(v: u64) -> Duration {
        Duration::from_millis(v)
    }

    fn ticks(plan: Plan) -> u32 {
        match plan {
            Plan::Run { ticks, .. } => ticks,
            Plan::Wait { .. } => 0,
        }
    }

    #[test]
    fn variable_first_dt_is_zero_then_elapsed_clamped() {
        let config = LoopConfig::default();
        let mut pacer = Pacer::default();
        let first = pacer.plan(&config, ms(500), false);
        assert_eq!(
            first,
            Plan::Run {
                ticks: 1,
                dt: Duration::ZERO,
                alpha: 1.0
            }
        );
        let Plan::Run { dt, .. } = pacer.plan(&config, ms(516), false) else {
            panic!()
        };
        assert_eq!(dt, ms(16));
        let Plan::Run { dt, .. } = pacer.plan(&config, ms(5_000), false) else {
            panic!()
        };
        assert_eq!(dt, ms(100));
    }

    #[test]
    fn fixed_tick_throttles_and_says_when_to_wake() {
        let mut step = FixedStep::new(Rate::hz(50).unwrap());
        step.present = PresentOn::Tick;
        let config = LoopConfig {
            policy: LoopPolicy::Fixed(step),
            ..LoopConfig::default()
        };
        let mut pacer = Pacer::default();
        assert_eq!(
            pacer.plan(&config, ms(0), false),
            Plan::Wait { until: ms(20) }
        );
        assert_eq!(
            pacer.plan(&config, ms(15), false),
            Plan::Wait { until: ms(20) }
        );
        assert_eq!(ticks(pacer.plan(&config, ms(20), false)), 1);
        assert_eq!(ticks(pacer.plan(&config, ms(85), false)), 3);
        assert_eq!(pacer.carried(&config), ms(5));
    }

    #[test]
    fn frame_cap_waits_out_the_period() {
        let config = LoopConfig {
            frame_cap: Some(Rate::hz(10).unwrap()),
            ..LoopConfig::default()
        };
        let mut pacer = Pacer::default();
        assert_eq!(ticks(pacer.plan(&config, ms(0), false)), 1);
        assert_eq!(
            pacer.plan(&config, ms(40), false),
            Plan::Wait { until: ms(100) }
        );
        let Plan::Run { dt, .. } = pacer.plan(&config, ms(100), false) else {
            panic!()
        };
        assert_eq!(dt, ms(100), "dt spans the whole capped period");
    }

    #[test]
    fn variable_catch_up_covers_the_whole_span_in_steps_of_at_most_100_ms() {
        let config = LoopConfig::default();
        let mut pacer = Pacer::default();
        pacer.plan(&config, ms(0), false);
        let Plan::Run { ticks, dt, .. } = pacer.plan(&config, ms(4_950), true) else {
            panic!()
        };
        assert_eq!(ticks, 50);
        assert_eq!(dt, ms(99));
    }

    #[test]
    fn a_long_variable_catch_up_runs_in_batches_and_owes_the_rest() {
        let config = LoopConfig::default();
        let mut pacer = Pacer::default();
        pacer.plan(&config, ms(0), false);
        // 10 s slept: 100 steps of 100 ms, 64 now.
        let first = pacer.plan(&config, ms(10_000), true);
        assert_eq!(
            first,
            Plan::Run {
                ticks: CATCH_UP_BATCH,
                dt: ms(100),
                alpha: 1.0
            }
        );
        assert!(pacer.owes_ticks());
        // The next callback (at once, same clock) catches up on the rest.
        let Plan::Run { ticks, dt, .. } = pacer.plan(&config, ms(10_000), false) else {
            panic!()
        };
        assert_eq!((ticks, dt), (36, ms(100)));
        assert!(!pacer.owes_ticks());
        assert_eq!(pacer.dropped(), Duration::ZERO, "nothing dropped");
    }
}
