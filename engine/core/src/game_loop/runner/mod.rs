//! [`GameLoop`]: the object that runs a game, one clock callback at a time.
//!
//! The type and its settings are here; its methods are grouped by concern:
//! [`frame`] (clock callbacks, ticks, presenting), [`input`] (live input,
//! recording and replay), [`snapshots`] (snapshot, restore, quick save).

use std::sync::Arc;
use std::time::Duration;

use super::auto_pause::IdleTracker;
use super::config::{LoopConfig, LoopConfigError, LoopPolicy, PresentOn};
use super::frame_info::{FrameInfo, LoopWarning, PauseReason};
use super::pacer::Pacer;
use super::replay::InputTape;
use super::replay::checksum::{StateChecksum, StateHasher};
use super::replay::snapshot::{Snapshot, SnapshotTypes};
use super::watchdog::Watchdog;
use crate::Scene;
use crate::UpdateError;
use crate::clock::Clock;
use crate::control::LoopControl;
use crate::input::{ActionMapper, Actions, NoActions};
use crate::input::{Input, InputEvent};
use crate::rng::GameRng;
use crate::time::Time;
use crate::timers::{FiredTimers, Timers};

mod frame;
mod input;
mod snapshots;
mod tick;

/// What the driver should do until the next callback.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wake {
    /// Call back as soon as possible (redraw continuously).
    Now,
    /// Sleep until the clock reads this timestamp (a frame cap or the next tick).
    At(Duration),
    /// Sleep until an input or window event arrives: the loop is paused or
    /// hidden and nothing can happen on its own.
    OnEvent,
}

/// What one clock callback did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CallbackOutcome {
    /// Ticks (simulation steps) run.
    pub ticks: u32,
    /// Whether a frame was produced.
    pub presented: bool,
    /// When to call back next.
    pub wake: Wake,
}

/// Produces a frame from the scene's current state: the seam the renderer
/// plugs into. The loop does not own it: whoever drives the loop (the
/// engine's facade, a test) passes it to [`GameLoop::on_clock_through`],
/// [`GameLoop::step_through`] or [`GameLoop::present_through`] and gets what
/// it returned ([`Output`](Self::Output): the render statistics, an error)
/// back as a value. Closures `FnMut(&mut Scene, f32) -> R` (the `f32` is the
/// interpolation alpha) implement it.
pub trait FramePresenter {
    /// What presenting one frame returns to the caller.
    type Output;

    /// Draws the scene; `alpha` is how far the clock is between the last two
    /// fixed ticks (1 under the variable policy).
    fn present(&mut self, scene: &mut Scene, alpha: f32) -> Self::Output;
}

impl<R, F: FnMut(&mut Scene, f32) -> R> FramePresenter for F {
    type Output = R;

    fn present(&mut self, scene: &mut Scene, alpha: f32) -> R {
        self(scene, alpha)
    }
}

/// Presents nothing: what the presenter-less [`GameLoop::on_clock`],
/// [`GameLoop::step`] and [`GameLoop::present`] pass (a simulation without
/// output, a test).
fn no_presenter(_: &mut Scene, _: f32) {}

type BeforeFrame = Box<dyn FnMut(&mut Scene) + Send>;
type ProgressSignal = Box<dyn FnMut(&Scene, &mut StateHasher) + Send>;

/// Shortest sleep the loop asks for when a frame or tick is already due:
/// waiting a little instead of spinning (the step-function loop's rule).
pub const MIN_WAIT: Duration = Duration::from_millis(1);
type AfterFrame = Box<dyn FnMut(&FrameInfo) + Send>;

/// Runs a [`Scene`]: turns clock callbacks into ticks and frames.
///
/// Time enters only through the [`Clock`] given at construction; the driver (a
/// window's redraw, a test) calls [`on_clock`](Self::on_clock) and follows the
/// returned [`Wake`]. See the [module docs](super) for one callback in full.
///
/// ```
/// use std::time::Duration;
/// use taos_core::game_loop::{GameLoop, LoopConfig, ManualClock};
/// use taos_core::prelude::*;
///
/// let clock = ManualClock::new();
/// let mut game = GameLoop::new(Scene::new(), LoopConfig::fixed(60)?, clock.clone())?;
/// game.on_clock(); // the first callback only sets the time base
/// clock.advance(Duration::from_millis(50));
/// let outcome = game.on_clock();
/// assert_eq!(outcome.ticks, 3); // 50 ms at 60 Hz: three ticks, 0.33 ms carried
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct GameLoop {
    scene: Scene,
    config: LoopConfig,
    clock: Arc<dyn Clock>,
    pacer: Pacer,
    mapper: Box<dyn ActionMapper>,
    /// What is recorded and replayed, and flags forced by a tool.
    tape: InputTape,
    paused: Option<PauseReason>,
    visible: bool,
    idle: IdleTracker,
    watchdog: Option<Watchdog>,
    checksum: StateChecksum,
    /// What the game declared as progress; `None`: the built-in hashes (the
    /// scene's structure for the watchdog, every object for idle settling).
    progress_signal: Option<ProgressSignal>,
    /// Settled with a timer pending: sleep until this clock reading.
    sleep_until: Option<Duration>,
    /// The last tick found the game settled while a timer is pending.
    waiting_for_timer: bool,
    /// Clock reading the loop started from (first callback or step).
    origin: Option<Duration>,
    /// Real nanoseconds the loop has run through (clock time, and the
    /// intervals `step` simulated ahead of it).
    real_elapsed: u64,
    /// `real_elapsed` at the last presented frame.
    last_present: Option<u64>,
    /// Errors from behaviours and commands, until taken.
    errors: Vec<UpdateError>,
    /// What snapshots carry.
    snapshot_types: SnapshotTypes,
    /// The last quick save ([`LoopControl::quick_save`]).
    quick_save: Option<Snapshot>,
    before_frame: Vec<BeforeFrame>,
    after_frame: Vec<AfterFrame>,
    info: FrameInfo,
    ticks: u64,
    frames: u64,
}

impl std::fmt::Debug for GameLoop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameLoop")
            .field("config", &self.config)
            .field("paused", &self.paused)
            .field("ticks", &self.ticks)
            .field("frames", &self.frames)
            .finish_non_exhaustive()
    }
}

impl GameLoop {
    /// A loop running `scene` with `config`, reading time from `clock`.
    ///
    /// Installs the loop's resources in the scene where missing: [`Input`],
    /// [`Actions`], [`Timers`] (set to the loop's tick interval),
    /// [`FiredTimers`], [`LoopControl`] and [`GameRng`] (seed 0 until
    /// [`seed`](Self::seed)). A scene made by [`Scene::new`] has them
    /// already, so its behaviours can use them outside a loop too.
    ///
    /// # Errors
    /// [`LoopConfigError`] for a configuration that cannot run.
    pub fn new(
        mut scene: Scene,
        config: LoopConfig,
        clock: impl Clock + 'static,
    ) -> Result<Self, LoopConfigError> {
        config.validate()?;
        let clock: Arc<dyn Clock> = Arc::new(clock);
        let world = scene.world_mut();
        world.init_resource::<Input>();
        world.init_resource::<Actions>();
        world.init_resource::<FiredTimers>();
        world.init_resource::<LoopControl>();
        if !world.contains_resource::<GameRng>() {
            world.insert_resource(GameRng::new(0));
        }
        // Keep timers a game scheduled before the loop existed.
        world
            .get_resource_or_insert_with(Timers::default)
            .set_tick_interval(config.tick_interval_nanos());
        // A frame can fall between two ticks only under the fixed policy
        // presenting every callback: draw rendered objects interpolated there.
        scene.set_interpolation(matches!(
            config.policy,
            LoopPolicy::Fixed(step) if step.present == PresentOn::EveryCallback
        ));
        if config.watchdog.is_some() || config.stage_timings {
            scene.set_stage_clock(Some(clock.clone()));
        }
        Ok(Self {
            scene,
            config,
            clock,
            pacer: Pacer::default(),
            mapper: Box::new(NoActions),
            tape: InputTape::default(),
            paused: None,
            visible: true,
            idle: IdleTracker::default(),
            watchdog: config.watchdog.map(Watchdog::new),
            checksum: StateChecksum::default(),
            progress_signal: None,
            sleep_until: None,
            waiting_for_timer: false,
            origin: None,
            real_elapsed: 0,
            last_present: None,
            errors: Vec::new(),
            snapshot_types: SnapshotTypes::default(),
            quick_save: None,
            before_frame: Vec::new(),
            after_frame: Vec::new(),
            info: FrameInfo::default(),
            ticks: 0,
            frames: 0,
        })
    }

    /// Seeds the scene's [`GameRng`] (inserting it): what a recording's seed restores.
    pub fn seed(&mut self, seed: u64) -> &mut Self {
        self.scene.world_mut().insert_resource(GameRng::new(seed));
        self
    }

    /// The scene being run.
    #[must_use]
    pub fn scene(&self) -> &Scene {
        &self.scene
    }

    /// The scene being run, mutable.
    pub fn scene_mut(&mut self) -> &mut Scene {
        &mut self.scene
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> &LoopConfig {
        &self.config
    }

    /// The clock the loop reads.
    #[must_use]
    pub fn clock(&self) -> &Arc<dyn Clock> {
        &self.clock
    }

    /// Ticks simulated so far.
    #[must_use]
    pub fn tick_count(&self) -> u64 {
        self.ticks
    }

    /// Frames produced so far.
    #[must_use]
    pub fn frame_count(&self) -> u64 {
        self.frames
    }

    /// Warnings the watchdog raised during the last frame.
    #[must_use]
    pub fn warnings(&self) -> &[LoopWarning] {
        &self.info.diagnostics.warnings
    }

    /// The last frame's report.
    #[must_use]
    pub fn frame_info(&self) -> &FrameInfo {
        &self.info
    }

    /// Clock time dropped so far (catch-up cap, pauses, hidden window).
    #[must_use]
    pub fn dropped_time(&self) -> Duration {
        self.pacer.dropped()
    }

    /// Clock time consumed but not yet simulated (fixed policy, < one interval).
    #[must_use]
    pub fn carried_time(&self) -> Duration {
        self.pacer.carried(&self.config)
    }

    /// Sets the component types and resources the state checksum (and the
    /// idle fingerprint) covers beyond the built-ins.
    pub fn checksum_mut(&mut self) -> &mut StateChecksum {
        &mut self.checksum
    }

    /// Checksum of the whole simulation state (see [`StateChecksum::full`]).
    pub fn state_checksum(&mut self) -> u64 {
        self.checksum.full(&self.scene)
    }

    /// Sets the presentation size reported in [`FrameInfo::size`], in
    /// `update_render`'s [`RenderContext::viewport`](crate::RenderContext::viewport)
    /// and, as a recorded [`InputEvent::Viewport`], in the next tick's
    /// [`Input::viewport`].
    pub fn set_size(&mut self, width: u32, height: u32) {
        // The size is input too (touch controls lay out by it), recorded so
        // a replay lays them out the same; a resize alone wakes nothing.
        let known = self
            .scene
            .world()
            .get_resource::<Input>()
            .and_then(Input::viewport);
        if self.info.size != (width, height) || known.is_none() {
            self.queue_input(InputEvent::Viewport { width, height });
        }
        self.info.size = (width, height);
        self.scene.set_viewport(width, height);
    }

    /// Moves what watches frames to `next`: the before- and after-frame
    /// hooks, the output size and whether the window can be seen. How a game switches screens (a launcher's loop, then a
    /// world's) on one window: `next` keeps its own scene, clock, policy,
    /// action mapper and state; this loop is left with none of them.
    pub fn hand_over(&mut self, next: &mut GameLoop) {
        next.before_frame.append(&mut self.before_frame);
        next.after_frame.append(&mut self.after_frame);
        let (width, height) = self.info.size;
        next.set_size(width, height);
        next.set_visible(self.visible);
    }

    /// Runs `hook` at the top of every frame, before any tick.
    pub fn before_frame(&mut self, hook: impl FnMut(&mut Scene) + Send + 'static) {
        self.before_frame.push(Box::new(hook));
    }

    /// Runs `hook` after every frame with its [`FrameInfo`].
    pub fn after_frame(&mut self, hook: impl FnMut(&FrameInfo) + Send + 'static) {
        self.after_frame.push(Box::new(hook));
    }

    /// Declares what counts as progress for auto-pause's idle settle and the
    /// watchdog: `signal` hashes the game's progress-only state (a score, a
    /// counter inside a behaviour, the level), leaving out ambient animation.
    ///
    /// Without it, the watchdog judges an input by whether the ticks after
    /// it changed anything new: the scene's structure
    /// ([`StateChecksum::structure`]: objects spawned or removed, enabled,
    /// re-parented), which components and resources were written, and how
    /// each moving object moved (direction and speed band). Ambient
    /// animation writes the same things the same way every tick, so it is
    /// not progress; a player starting to walk, turning, running or
    /// jumping, or a component only the input writes, is. Idle settling
    /// hashes every object ([`StateChecksum::objects`]: also transforms and
    /// the components registered on [`checksum_mut`](Self::checksum_mut)),
    /// so anything still moving keeps the game awake.
    ///
    /// ```
    /// use taos_core::game_loop::{GameLoop, LoopConfig, ManualClock};
    /// use taos_core::prelude::*;
    ///
    /// #[derive(Resource, Default)]
    /// struct Score(u32);
    ///
    /// let mut scene = Scene::new();
    /// scene.world_mut().init_resource::<Score>();
    /// let mut game = GameLoop::new(scene, LoopConfig::fixed(60)?, ManualClock::new())?;
    /// game.set_progress_signal(|scene, h| h.write_u32(scene.world().resource::<Score>().0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_progress_signal(
        &mut self,
        signal: impl FnMut(&Scene, &mut StateHasher) + Send + 'static,
    ) {
        self.progress_signal = Some(Box::new(signal));
        if let Some(watchdog) = &mut self.watchdog {
            watchdog.forget_progress();
        }
    }

    /// Errors from behaviours and queued commands since the last call, oldest
    /// first (each was also logged).
    pub fn take_errors(&mut self) -> Vec<UpdateError> {
        self.errors.append(&mut self.scene.take_errors());
        std::mem::take(&mut self.errors)
    }

    /// When the loop sleeps until its next timer (settled with a timer
    /// pending), the clock reading it wakes at.
    #[must_use]
    pub fn sleeping_until(&self) -> Option<Duration> {
        self.sleep_until
    }

    /// The scene clock.
    #[must_use]
    pub fn time(&self) -> &Time {
        self.scene.time()
    }

    /// The scene clock, mutable: `game.time_mut().set_scale(0.0)` pauses gameplay.
    pub fn time_mut(&mut self) -> &mut Time {
        self.scene.time_mut()
    }

    /// Why the loop is paused, or `None` while it runs.
    #[must_use]
    pub fn pause_reason(&self) -> Option<PauseReason> {
        self.paused
    }

    /// `true` while paused for any reason.
    #[must_use]
    pub fn is_paused(&self) -> bool {
        self.paused.is_some()
    }

    /// Pauses: callbacks run no tick and the paused span is dropped.
    pub fn pause(&mut self) {
        self.paused = Some(PauseReason::Requested);
    }

    /// Resumes from any pause: clears a halt request, resets idle and watchdog
    /// tracking, and drops the paused span so nothing is fast-forwarded.
    pub fn resume(&mut self) {
        self.paused = None;
        self.idle.reset();
        self.sleep_until = None;
        self.waiting_for_timer = false;
        if let Some(watchdog) = &mut self.watchdog {
            watchdog.reset();
        }
        self.scene.world_mut().resource_mut::<LoopControl>().clear();
        self.pacer.rebase(self.clock.now());
    }

    /// Tells the loop whether its window can be seen. A hidden or minimised
    /// window runs no tick, and the time it spent hidden is dropped.
    pub fn set_visible(&mut self, visible: bool) {
        if visible && !self.visible {
            self.pacer.rebase(self.clock.now());
        }
        self.visible = visible;
    }
}
