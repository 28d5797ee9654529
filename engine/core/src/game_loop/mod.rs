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

mod auto_pause;
mod config;
mod frame_info;
mod pacer;
pub mod replay;
mod response;
mod runner;
mod watchdog;

// Input lives in its own module; its types keep their paths here.
pub use crate::input::{
    AXIS_PRESS_THRESHOLD, ActionFlags, ActionMapper, Actions, AxisSide, Bindings,
    BindingsRecordError, GameAction, Input, InputEvent, Key, MAX_TEXT_PER_TICK, MouseButton,
    NoActions, PadAxis, PadButton, PadId, STICK_DEAD_ZONE, apply_dead_zone,
};
// The clock seam, timers, the loop's request mailbox, the seeded RNG and
// stage timings live beside the loop (the scene uses them too); their
// types keep their paths here.
pub use crate::clock::{Clock, ManualClock, RealClock};
pub use crate::control::LoopControl;
pub use crate::rng::GameRng;
pub use crate::stages::{Stage, StageTiming, StageTimings};
pub use crate::timers::{
    Delay, FiredTimers, GameTime, Scheduler, TimerAction, TimerError, TimerHandle, Timers,
};
pub use config::{
    AutoPauseConfig, FixedStep, LoopConfig, LoopConfigError, LoopPolicy, PresentOn, Rate,
    WatchdogConfig,
};
pub use frame_info::{Diagnostics, FrameInfo, LoopWarning, PauseReason};
pub use pacer::CATCH_UP_BATCH;
pub use replay::{
    Divergence, ENGINE_VERSION, MAX_SNAPSHOT_COUNTER, RecordedInput, Recording, RecordingError,
    Snapshot, SnapshotError, SnapshotTypes, StateChecksum, StateHash, StateHasher, SyncTest,
};
pub use runner::{CallbackOutcome, FramePresenter, GameLoop, MIN_WAIT, Wake};
