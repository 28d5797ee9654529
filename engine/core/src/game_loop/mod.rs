//! The game loop: clock seam, fixed and variable stepping, timers, input for
//! fixed ticks, auto-pause, the watchdog, and record/replay.
//!
//! A [`GameLoop`] owns a [`Scene`](crate::Scene) and is driven from outside: a
//! window's redraw (or a test) calls [`GameLoop::on_clock`], which reads the
//! loop's [`Clock`] once, lets the policy decide how many ticks that time is
//! worth, runs them, produces a frame, and answers with a [`Wake`] saying when
//! to call again. Nothing in the engine reads the wall clock except
//! [`RealClock`]; with a [`ManualClock`] every decision is reproducible.
//!
//! ## One callback
//! ```text
//!  clock.now() = T
//!       |
//!  paused or hidden? --yes--> drop the span since the last callback; Wake::OnEvent
//!       | no
//!  frame cap: T < last frame + period? --yes--> Wake::At(last frame + period)
//!       | no
//!  policy
//!   variable: 1 step, dt = T - last (0 on the first callback, <= 100 ms)
//!   fixed:    acc = carry + (T - last); n = min(floor(acc / interval), cap 64)
//!             carry = min(acc - n * interval, one interval)   (a stall is dropped)
//!             n = 0 and present-on-tick? --> Wake::At(next tick)
//!       |
//!  before_frame hooks
//!  n times: input edges -> action flags (live or replayed; recorded)
//!           Time.advance(dt) -> due timers (game time) -> behaviours, systems
//!           -> transforms refreshed -> halt / auto-pause / watchdog checks
//!  update_render -> presenter(alpha) -> FrameInfo -> after_frame hooks
//!       |
//!  Wake::Now (uncapped), Wake::At(next frame or tick), Wake::OnEvent (paused)
//! ```
//!
//! ## Determinism
//! Fixed ticks always advance by the same interval; the accumulator counts
//! nanosecond-hertz units, so no rounding drifts. Timers live on an integer
//! game timeline. Input reaches a tick only as [`ActionFlags`], which a
//! [`Recording`] stores per tick together with the seed of the scene's
//! [`GameRng`]: replaying them reproduces the run bit for bit, and
//! [`SyncTest`] finds the first tick where two runs part.

/// `index` and `from_index` for an input enum whose `ALL` lists every
/// variant in declaration order (how recordings and saved bindings store it).
macro_rules! indexed_by_all {
    ($ty:ident) => {
        impl $ty {
            /// Its index in [`Self::ALL`] (how recordings and saved bindings store it).
            #[must_use]
            pub const fn index(self) -> u8 {
                self as u8
            }

            /// The one at `index` in [`Self::ALL`].
            #[must_use]
            pub fn from_index(index: u8) -> Option<Self> {
                Self::ALL.get(usize::from(index)).copied()
            }
        }
    };
}

mod actions;
mod auto_pause;
mod bindings;
mod bindings_record;
mod checksum;
mod clock;
mod config;
mod control;
mod frame_info;
mod gamepad;
mod input;
mod input_codec;
mod pacer;
mod record;
mod rng;
mod runner;
mod scheduler;
mod snapshot;
mod stages;
mod sync_test;
mod timers;
mod watchdog;

pub use actions::{ActionFlags, ActionMapper, Actions, NoActions};
pub use bindings::{AXIS_PRESS_THRESHOLD, Bindings, GameAction};
pub use bindings_record::BindingsRecordError;
pub use checksum::{StateChecksum, StateHash, StateHasher};
pub use clock::{Clock, ManualClock, RealClock};
pub use config::{
    AutoPauseConfig, FixedStep, LoopConfig, LoopConfigError, LoopPolicy, PresentOn, Rate,
    WatchdogConfig,
};
pub use control::LoopControl;
pub use frame_info::{Diagnostics, FrameInfo, LoopWarning, PauseReason};
pub use gamepad::{AxisSide, PadAxis, PadButton, PadId, STICK_DEAD_ZONE, apply_dead_zone};
pub use input::{Input, InputEvent, Key, MAX_TEXT_PER_TICK, MouseButton};
pub use record::{ENGINE_VERSION, RecordedInput, Recording, RecordingError};
pub use rng::GameRng;
pub use runner::{CallbackOutcome, FramePresenter, GameLoop, MIN_WAIT, Wake};
pub use scheduler::{Scheduler, TimerHandle};
pub use snapshot::{MAX_SNAPSHOT_COUNTER, Snapshot, SnapshotError, SnapshotTypes};
pub use stages::{Stage, StageTiming, StageTimings};
pub use sync_test::{Divergence, SyncTest};
pub use timers::{Delay, FiredTimers, GameTime, TimerAction, TimerError, Timers};
