//! The clock seam: the only way time enters the engine.
//!
//! The loop never asks the operating system what time it is. A [`Clock`] hands
//! it a monotonic timestamp each time the driver calls back (a window's redraw,
//! a test's loop), and stage timings are read from the same clock. Swap
//! [`RealClock`] for a [`ManualClock`] and the whole loop (throttling, batching,
//! idle detection, pausing, the watchdog) becomes a deterministic function of
//! the timestamps a test feeds it.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

// std's Instant on native; in the browser (where std's panics), one read
// from `performance.now()`.
use web_time::Instant;

/// Nanoseconds in a second: the unit of every clock reading and interval.
pub(crate) const NANOS_PER_SECOND: u64 = 1_000_000_000;

/// A monotonic source of timestamps, measured from an arbitrary origin.
///
/// Implementations must never go backwards; the loop treats a timestamp older
/// than the previous one as "no time passed".
pub trait Clock: Send + Sync {
    /// The current timestamp.
    fn now(&self) -> Duration;
}

/// The operating system's monotonic clock, measured from when it was created.
///
/// This is the one place in the engine that reads the wall clock.
#[derive(Debug, Clone, Copy)]
pub struct RealClock {
    origin: Instant,
}

impl RealClock {
    /// A clock whose origin is now.
    #[must_use]
    pub fn new() -> Self {
        Self {
            origin: Instant::now(),
        }
    }
}

impl RealClock {
    /// The operating-system instant at which this clock reads `at`: how a
    /// windowed driver turns [`Wake::At`](crate::game_loop::Wake::At) into a wake-up time.
    #[must_use]
    pub fn instant_at(&self, at: Duration) -> Instant {
        self.origin + at
    }
}

impl Default for RealClock {
    fn default() -> Self {
        Self::new()
    }
}

impl Clock for RealClock {
    fn now(&self) -> Duration {
        self.origin.elapsed()
    }
}

/// A clock that only moves when told to: for tests, headless runs and tools.
///
/// Clones share one timestamp, so a test can keep a handle while the loop owns
/// another, and a behaviour can even advance it to simulate a slow stage.
///
/// ```
/// use std::time::Duration;
/// use taos_core::game_loop::{Clock, ManualClock};
///
/// let clock = ManualClock::new();
/// let handle = clock.clone();
/// handle.advance(Duration::from_millis(16));
/// assert_eq!(clock.now(), Duration::from_millis(16));
/// ```
#[derive(Debug, Clone, Default)]
pub struct ManualClock {
    nanos: Arc<AtomicU64>,
}

impl ManualClock {
    /// A clock standing at zero.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Moves the clock forward by `by`.
    pub fn advance(&self, by: Duration) {
        self.nanos
            .fetch_add(duration_to_nanos(by), Ordering::SeqCst);
    }

    /// Sets the clock to `at`; a time earlier than now is ignored (the clock is monotonic).
    pub fn set(&self, at: Duration) {
        self.nanos
            .fetch_max(duration_to_nanos(at), Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> Duration {
        Duration::from_nanos(self.nanos.load(Ordering::SeqCst))
    }
}

/// Whole nanoseconds of `d`, saturating (u64 nanoseconds last 584 years).
pub(crate) fn duration_to_nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn manual_clock_is_shared_and_monotonic() {
        let clock = ManualClock::new();
        let other = clock.clone();
        other.advance(Duration::from_millis(5));
        clock.set(Duration::from_millis(3));
        assert_eq!(clock.now(), Duration::from_millis(5));
        clock.set(Duration::from_millis(9));
        assert_eq!(other.now(), Duration::from_millis(9));
    }

    #[test]
    fn real_clock_never_goes_backwards() {
        let clock = RealClock::new();
        let a = clock.now();
        let b = clock.now();
        assert!(b >= a);
    }
}
