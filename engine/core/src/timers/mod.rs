//! Game-time timers: the scheduler as a scene resource.
//!
//! Deadlines live on the scene's *game* timeline, which advances by the scaled
//! `dt` of every simulation step. Changing [`Time::scale`](crate::Time::scale)
//! therefore keeps each timer's remaining game time and stretches or shrinks
//! its remaining real time, exactly like rescaling every in-flight deadline.
//! A paused scene (scale 0) fires nothing.

use std::fmt;

use bevy_ecs::resource::Resource;

mod scheduler;

pub use scheduler::{Scheduler, TimerHandle};

use crate::Scene;
use crate::clock::NANOS_PER_SECOND;

/// A point on the game timeline, in nanoseconds of scaled simulation time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct GameTime(pub u64);

impl GameTime {
    /// Seconds since the timeline started.
    #[must_use]
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / NANOS_PER_SECOND as f64
    }
}

/// How long until a timer falls due.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Delay {
    /// Game seconds (scaled time).
    Seconds(f64),
    /// Game ticks: one tick is one fixed interval (1/60 s under the variable policy).
    Ticks(u64),
}

/// What happens when a timer falls due.
pub enum TimerAction {
    /// The tag is published in [`FiredTimers`] for the tick it fires in.
    Event(u64),
    /// The closure runs with the scene, before that tick's behaviours.
    Callback(Box<dyn FnOnce(&mut Scene) + Send + Sync>),
}

impl TimerAction {
    /// A callback action.
    pub fn callback(f: impl FnOnce(&mut Scene) + Send + Sync + 'static) -> Self {
        Self::Callback(Box::new(f))
    }
}

impl fmt::Debug for TimerAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Event(tag) => f.debug_tuple("Event").field(tag).finish(),
            Self::Callback(_) => f.write_str("Callback(..)"),
        }
    }
}

/// A delay that cannot be scheduled.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum TimerError {
    /// Negative, NaN or infinite seconds.
    #[error("timer delay must be finite and >= 0 seconds, got {seconds}")]
    InvalidDelay {
        /// The rejected delay.
        seconds: f64,
    },
}

/// The scene's timers, a resource: behaviours schedule through
/// `cx.world_mut().resource_mut::<Timers>()`, the loop fires them each tick.
///
/// ```
/// use taos_core::game_loop::{Delay, TimerAction, Timers};
///
/// let mut timers = Timers::default();
/// let soon = timers.after(Delay::Ticks(2), TimerAction::Event(7)).unwrap();
/// timers.after(Delay::Seconds(1.0), TimerAction::Event(8)).unwrap();
/// assert!(timers.cancel(soon));
/// assert_eq!(timers.pending(), 1);
/// ```
#[derive(Resource, Debug)]
pub struct Timers {
    queue: Scheduler<TimerAction>,
    now: GameTime,
    tick_nanos: u64,
}

impl Default for Timers {
    fn default() -> Self {
        // 1/60 s, rounded as `Rate::interval_nanos` rounds it.
        Self::with_tick_interval((NANOS_PER_SECOND + 30) / 60)
    }
}

impl Timers {
    /// Timers whose [`Delay::Ticks`] last `tick_nanos` of game time each.
    #[must_use]
    pub fn with_tick_interval(tick_nanos: u64) -> Self {
        Self {
            queue: Scheduler::new(),
            now: GameTime(0),
            tick_nanos,
        }
    }

    /// Sets how long a [`Delay::Ticks`] tick lasts for timers scheduled from now on.
    pub(crate) fn set_tick_interval(&mut self, tick_nanos: u64) {
        self.tick_nanos = tick_nanos;
    }

    /// Schedules `action` after `delay` of game time.
    ///
    /// # Errors
    /// [`TimerError::InvalidDelay`] for negative, NaN or infinite seconds.
    pub fn after(&mut self, delay: Delay, action: TimerAction) -> Result<TimerHandle, TimerError> {
        let nanos = match delay {
            Delay::Seconds(seconds) => {
                if !seconds.is_finite() || seconds < 0.0 {
                    return Err(TimerError::InvalidDelay { seconds });
                }
                (seconds * NANOS_PER_SECOND as f64).round() as u64
            }
            Delay::Ticks(ticks) => ticks.saturating_mul(self.tick_nanos),
        };
        Ok(self
            .queue
            .schedule(self.now.0.saturating_add(nanos), action))
    }

    /// Cancels a pending timer; `false` if it already fired or was cancelled.
    pub fn cancel(&mut self, handle: TimerHandle) -> bool {
        self.queue.cancel(handle).is_some()
    }

    /// The earliest pending deadline, in game time.
    #[must_use]
    pub fn next_deadline(&self) -> Option<GameTime> {
        self.queue.next_deadline().map(GameTime)
    }

    /// Game time still to run before the next timer fires.
    #[must_use]
    pub fn until_next(&self) -> Option<GameTime> {
        self.next_deadline()
            .map(|deadline| GameTime(deadline.0.saturating_sub(self.now.0)))
    }

    /// The timeline's current game time.
    #[must_use]
    pub fn now(&self) -> GameTime {
        self.now
    }

    /// Number of pending timers.
    #[must_use]
    pub fn pending(&self) -> usize {
        self.queue.len()
    }

    /// Pending `(handle, deadline)` pairs in scheduling order.
    pub fn iter_pending(&self) -> impl Iterator<Item = (TimerHandle, GameTime)> + '_ {
        self.queue
            .pending()
            .map(|(handle, at)| (handle, GameTime(at)))
    }

    /// Moves the timeline forward by `nanos` of game time.
    pub(crate) fn advance(&mut self, nanos: u64) {
        self.now.0 = self.now.0.saturating_add(nanos);
    }

    /// Takes the next timer due now, in deadline order (FIFO on ties).
    pub(crate) fn pop_due(&mut self) -> Option<(TimerHandle, TimerAction)> {
        self.queue.pop_due(self.now.0)
    }
}

/// The saved form of [`Timers`]: the timeline, the tick length and every
/// pending event timer (callbacks cannot be saved).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct TimersState {
    now: u64,
    tick_nanos: u64,
    next_sequence: u64,
    /// `(sequence, deadline, tag)`.
    events: Vec<(u64, u64, u64)>,
}

impl TimersState {
    /// The next sequence number and every pending timer's, in order: what
    /// a restore checks for headroom and uniqueness before using them.
    pub(crate) fn sequences(&self) -> impl Iterator<Item = u64> + '_ {
        std::iter::once(self.next_sequence).chain(self.events.iter().map(|&(s, _, _)| s))
    }
}

impl Timers {
    /// Pending callback timers (which a snapshot cannot carry).
    pub(crate) fn callback_count(&self) -> usize {
        let (entries, _) = self.queue.entries();
        entries
            .filter(|(_, _, action)| matches!(action, TimerAction::Callback(_)))
            .count()
    }

    pub(crate) fn state(&self) -> TimersState {
        let (entries, next_sequence) = self.queue.entries();
        let events = entries
            .filter_map(|(sequence, deadline, action)| match action {
                TimerAction::Event(tag) => Some((sequence, deadline, *tag)),
                TimerAction::Callback(_) => None,
            })
            .collect();
        TimersState {
            now: self.now.0,
            tick_nanos: self.tick_nanos,
            next_sequence,
            events,
        }
    }

    pub(crate) fn restore(&mut self, state: &TimersState) {
        self.now = GameTime(state.now);
        self.tick_nanos = state.tick_nanos;
        self.queue = Scheduler::from_entries(
            state
                .events
                .iter()
                .map(|&(sequence, deadline, tag)| (sequence, deadline, TimerAction::Event(tag))),
            state.next_sequence,
        );
    }
}

/// Event timers that fired in the current tick, in firing order. Cleared at the
/// start of every tick.
#[derive(Resource, Debug, Default, Clone)]
pub struct FiredTimers {
    pub(crate) fired: Vec<(TimerHandle, u64)>,
}

impl FiredTimers {
    /// `(handle, tag)` of each event timer fired this tick.
    #[must_use]
    pub fn events(&self) -> &[(TimerHandle, u64)] {
        &self.fired
    }

    /// `true` when an event with `tag` fired this tick.
    #[must_use]
    pub fn contains(&self, tag: u64) -> bool {
        self.fired.iter().any(|(_, t)| *t == tag)
    }
}
