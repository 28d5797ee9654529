//! [`GameLoop`]: the object that runs a game, one clock callback at a time.

use std::sync::Arc;
use std::time::Duration;

use super::actions::{ActionFlags, ActionMapper, Actions, NoActions};
use super::auto_pause::IdleTracker;
use super::checksum::{StateChecksum, StateHasher};
use super::clock::{Clock, duration_to_nanos};
use super::config::{LoopConfig, LoopConfigError, LoopPolicy, PresentOn};
use super::control::LoopControl;
use super::frame_info::{FrameInfo, LoopWarning, PauseReason};
use super::input::{Input, InputEvent};
use super::pacer::{Pacer, Plan};
use super::record::{Recording, RecordingError};
use super::rng::GameRng;
use super::snapshot::{Snapshot, SnapshotError, SnapshotTypes};
use super::stages::Stage;
use super::timers::{FiredTimers, TimerAction, Timers};
use super::watchdog::Watchdog;
use crate::Scene;
use crate::UpdateError;
use crate::time::Time;

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

/// A recording being fed to the ticks: the next tick's index and the next
/// recorded input event.
struct Replay {
    recording: Recording,
    at: usize,
    next_event: usize,
}

impl Replay {
    fn new(recording: Recording, at: usize) -> Self {
        let next_event = recording
            .inputs
            .partition_point(|input| input.tick < at as u64);
        Self {
            recording,
            at,
            next_event,
        }
    }

    /// The recorded events of tick `at`, advancing past them.
    fn events_for_tick(&mut self) -> impl Iterator<Item = InputEvent> + '_ {
        let tick = self.at as u64;
        let start = self.next_event;
        let end = start
            + self.recording.inputs[start..]
                .iter()
                .take_while(|input| input.tick == tick)
                .count();
        self.next_event = end;
        self.recording.inputs[start..end]
            .iter()
            .map(|input| input.event)
    }
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
    replay: Option<Replay>,
    /// Live input that arrived while a replay fed the ticks: it reaches the
    /// first live tick after the replay.
    held_input: Vec<InputEvent>,
    /// Live input pushed since the last tick, for the recording.
    unrecorded_input: Vec<InputEvent>,
    forced: Option<ActionFlags>,
    recording: Option<Recording>,
    paused: Option<PauseReason>,
    visible: bool,
    idle: IdleTracker,
    watchdog: Option<Watchdog>,
    checksum: StateChecksum,
    /// The progress fingerprint after the last tick (`None` before the first).
    progress: Option<u64>,
    /// What the game declared as progress; `None`: the built-in object hash.
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
    /// Inserts the loop's resources into the scene: [`Input`], [`Actions`],
    /// [`Timers`], [`FiredTimers`] and [`LoopControl`].
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
            replay: None,
            held_input: Vec::new(),
            unrecorded_input: Vec::new(),
            forced: None,
            recording: None,
            paused: None,
            visible: true,
            idle: IdleTracker::default(),
            watchdog: config.watchdog.map(Watchdog::new),
            checksum: StateChecksum::default(),
            progress: None,
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

    /// Replaces how live input becomes per-tick [`ActionFlags`] (default: [`NoActions`]).
    pub fn set_action_mapper(&mut self, mapper: impl ActionMapper + 'static) {
        self.mapper = Box::new(mapper);
    }

    /// Sets the component types and resources the state checksum (and the
    /// idle/progress fingerprint) covers beyond the built-ins.
    pub fn checksum_mut(&mut self) -> &mut StateChecksum {
        &mut self.checksum
    }

    /// Checksum of the whole simulation state (see [`StateChecksum::full`]).
    pub fn state_checksum(&mut self) -> u64 {
        self.checksum.full(&self.scene)
    }

    /// Sets the presentation size reported in [`FrameInfo::size`] and, as a
    /// recorded [`InputEvent::Viewport`], in the next tick's
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

    /// Forwards a window event to the tick-buffered [`Input`]. Input resumes a
    /// loop auto-paused for [`Settled`](PauseReason::Settled) or
    /// [`NothingToRun`](PauseReason::NothingToRun), and wakes one sleeping
    /// until its next timer.
    ///
    /// While a replay feeds the ticks, live input does not reach them (the
    /// replay carries the recorded input); it is held and reaches the first
    /// live tick after the replay. While recording, every event is recorded
    /// with the tick it reaches.
    pub fn push_input(&mut self, event: InputEvent) {
        self.queue_input(event);
        if self.sleep_until.take().is_some() {
            self.idle.reset();
            self.waiting_for_timer = false;
        }
        if self.paused.is_some_and(PauseReason::resumes_on_input) {
            self.resume();
        }
    }

    /// Hands `event` to the next tick (held back while a replay runs),
    /// recording it; wakes nothing.
    fn queue_input(&mut self, event: InputEvent) {
        if self.replay.is_some() {
            self.held_input.push(event);
        } else {
            self.scene.world_mut().resource_mut::<Input>().push(event);
            if self.recording.is_some() {
                self.unrecorded_input.push(event);
            }
        }
    }

    /// Lets go of every held key and button: what the window driver calls
    /// when the window loses focus (their releases would never arrive).
    pub fn release_held_input(&mut self) {
        let releases = self.scene.world().resource::<Input>().releases_of_held();
        for event in releases {
            self.push_input(event);
        }
    }

    /// Declares what counts as progress for auto-pause's idle settle and the
    /// watchdog: `signal` hashes the game's progress-only state (a score, a
    /// counter inside a behaviour, the level), leaving out ambient animation.
    /// Without it the loop hashes every object (ids, names, flags, parents,
    /// transforms, the components registered on [`checksum_mut`](Self::checksum_mut)).
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
        self.progress = None;
    }

    /// Errors from behaviours and queued commands since the last call, oldest
    /// first (each was also logged).
    pub fn take_errors(&mut self) -> Vec<UpdateError> {
        self.errors.append(&mut self.scene.take_errors());
        std::mem::take(&mut self.errors)
    }

    /// The component, behaviour and resource types snapshots carry.
    pub fn snapshot_types(&mut self) -> &mut SnapshotTypes {
        &mut self.snapshot_types
    }

    /// Saves the live game: objects with their opted-in components and
    /// behaviours, the clock, tick count, play/pause state, RNG, event timers,
    /// action flags and opted-in resources (see [`Snapshot`]).
    ///
    /// # Errors
    /// [`SnapshotError`] for an unregistered behaviour, a pending callback
    /// timer, or a value that does not serialise.
    pub fn snapshot(&self) -> Result<Snapshot, SnapshotError> {
        Snapshot::capture(
            &self.scene,
            &self.snapshot_types,
            self.ticks,
            self.paused.is_none(),
        )
    }

    /// Puts the game back to `snapshot`: a game that was playing resumes
    /// playing, a paused one stays paused ([`PauseReason::Requested`]). The
    /// time since the last callback is dropped, not simulated.
    ///
    /// # Errors
    /// [`SnapshotError`] for another format or engine version, an unknown
    /// type name, an inconsistent hierarchy, a value that fails to decode,
    /// or a counter out of range ([`SnapshotError::Invalid`]). On any error
    /// the game is left exactly as it was.
    pub fn restore(&mut self, snapshot: &Snapshot) -> Result<(), SnapshotError> {
        snapshot.apply(&mut self.scene, &self.snapshot_types)?;
        self.ticks = snapshot.tick;
        self.scene
            .world_mut()
            .resource_mut::<LoopControl>()
            .set_tick(snapshot.tick);
        self.paused = (!snapshot.playing).then_some(PauseReason::Requested);
        self.idle.reset();
        self.progress = None;
        self.sleep_until = None;
        self.waiting_for_timer = false;
        if let Some(watchdog) = &mut self.watchdog {
            watchdog.reset();
        }
        self.pacer.rebase(self.clock.now());
        Ok(())
    }

    /// The last quick save a game asked for with [`LoopControl::quick_save`]
    /// (write it to storage with [`Snapshot::to_bytes`]).
    #[must_use]
    pub fn quick_save(&self) -> Option<&Snapshot> {
        self.quick_save.as_ref()
    }

    /// Sets the snapshot [`LoopControl::quick_load`] restores (e.g. one read from disk).
    pub fn set_quick_save(&mut self, snapshot: Option<Snapshot>) {
        self.quick_save = snapshot;
    }

    /// Carries out quick-save and quick-load requests made during a tick.
    fn serve_quick_requests(&mut self) {
        let (save, load) = self
            .scene
            .world_mut()
            .resource_mut::<LoopControl>()
            .take_requests();
        if save {
            match self.snapshot() {
                Ok(snapshot) => self.quick_save = Some(snapshot),
                Err(error) => {
                    log::error!("quick save failed: {error}");
                    self.errors.push(UpdateError::Snapshot(error));
                }
            }
        }
        if load && let Some(snapshot) = self.quick_save.take() {
            if let Err(error) = self.restore(&snapshot) {
                log::error!("quick load failed: {error}");
                self.errors.push(UpdateError::Snapshot(error));
            }
            self.quick_save = Some(snapshot);
        }
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

    /// Starts recording per-tick action flags for a run built from `seed`
    /// (also seeds the [`GameRng`]).
    ///
    /// # Errors
    /// [`RecordingError::TickRateMismatch`] under the variable policy, whose
    /// steps depend on the clock and cannot replay bit for bit.
    pub fn start_recording(&mut self, seed: u64) -> Result<(), RecordingError> {
        let LoopPolicy::Fixed(step) = self.config.policy else {
            return Err(RecordingError::TickRateMismatch {
                recorded: 0,
                running: "variable steps".to_owned(),
            });
        };
        self.seed(seed);
        self.unrecorded_input.clear();
        self.recording = Some(Recording::new(seed, step.rate));
        Ok(())
    }

    /// Stops recording and hands the recording over.
    pub fn take_recording(&mut self) -> Option<Recording> {
        self.recording.take()
    }

    /// Feeds `recording`'s flags to the following ticks instead of live input,
    /// and seeds the [`GameRng`] with its seed. Build the scene the same way as
    /// the recorded run before calling this. When the flags run out the loop
    /// pauses with [`PauseReason::ReplayFinished`].
    ///
    /// # Errors
    /// What [`Recording::check_compatible`] reports.
    pub fn replay(&mut self, recording: Recording) -> Result<(), RecordingError> {
        recording.check_compatible(&self.config)?;
        self.seed(recording.seed);
        self.replay = Some(Replay::new(recording, 0));
        Ok(())
    }

    /// Feeds `recording`'s flags from tick `from` on, without reseeding: how
    /// a replay continues after [`restore`](Self::restore) of a snapshot
    /// taken at tick `from` of it.
    ///
    /// # Errors
    /// What [`Recording::check_compatible`] reports.
    pub fn replay_from(&mut self, recording: Recording, from: u64) -> Result<(), RecordingError> {
        recording.check_compatible(&self.config)?;
        let at = usize::try_from(from).unwrap_or(usize::MAX);
        self.replay = Some(Replay::new(recording, at));
        Ok(())
    }

    /// Ticks left in the replay being fed, if any.
    #[must_use]
    pub fn replay_remaining(&self) -> Option<usize> {
        self.replay
            .as_ref()
            .map(|replay| replay.recording.flags.len().saturating_sub(replay.at))
    }

    /// One clock callback: read the clock, run the ticks the policy asks for,
    /// produce a frame (without output: see
    /// [`on_clock_through`](Self::on_clock_through)), and say when to call back.
    pub fn on_clock(&mut self) -> CallbackOutcome {
        self.on_clock_through(&mut no_presenter).0
    }

    /// [`on_clock`](Self::on_clock), presenting the frame (if one is due)
    /// through `presenter`; its output comes back beside the outcome
    /// (`None` when no frame was produced).
    pub fn on_clock_through<P: FramePresenter + ?Sized>(
        &mut self,
        presenter: &mut P,
    ) -> (CallbackOutcome, Option<P::Output>) {
        let now = self.clock.now();
        self.observe_clock(now);
        if !self.visible || self.paused.is_some() {
            self.pacer.rebase(now);
            let outcome = CallbackOutcome {
                ticks: 0,
                presented: false,
                wake: Wake::OnEvent,
            };
            return (outcome, None);
        }
        let mut min_cap = 0;
        if let Some(until) = self.sleep_until {
            if now < until {
                let outcome = CallbackOutcome {
                    ticks: 0,
                    presented: false,
                    wake: Wake::At(until),
                };
                return (outcome, None);
            }
            // The slept span is simulated (the scene had settled, so it is
            // cheap), whatever the catch-up cap: the timer must not fire late.
            self.sleep_until = None;
            min_cap = u32::try_from(
                duration_to_nanos(now.saturating_sub(self.pacer.base_time()))
                    / self.config.tick_interval_nanos().max(1)
                    + 1,
            )
            .unwrap_or(u32::MAX);
        }
        match self.pacer.plan(&self.config, now, min_cap) {
            Plan::Wait { until } => {
                let outcome = CallbackOutcome {
                    ticks: 0,
                    presented: false,
                    wake: Wake::At(until.max(now + MIN_WAIT)),
                };
                (outcome, None)
            }
            Plan::Run { ticks, dt, alpha } => {
                if ticks == 0 && alpha == self.info.alpha && self.frames > 0 {
                    // Nothing moved since the last frame: no redraw.
                    let outcome = CallbackOutcome {
                        ticks: 0,
                        presented: false,
                        wake: self.next_wake(now),
                    };
                    return (outcome, None);
                }
                let (ran, output) = self.frame(ticks, dt, alpha, presenter);
                let outcome = CallbackOutcome {
                    ticks: ran,
                    presented: true,
                    wake: self.next_wake(now),
                };
                (outcome, Some(output))
            }
        }
    }

    /// Keeps the loop's real timeline: never behind the clock, and ahead of
    /// it by what `step` simulated.
    fn observe_clock(&mut self, now: Duration) {
        let origin = *self.origin.get_or_insert(now);
        let since = duration_to_nanos(now.saturating_sub(origin));
        self.real_elapsed = self.real_elapsed.max(since);
    }

    /// Advances exactly one tick (one fixed interval, or 1/60 s under the
    /// variable policy) and produces a frame, whatever the clock says and even
    /// while paused: for opening frames and single-stepping.
    ///
    /// The stepped interval counts as simulated clock time: a later
    /// [`on_clock`](Self::on_clock) does not simulate it again. The frame has
    /// no output: see [`step_through`](Self::step_through).
    pub fn step(&mut self) {
        self.step_through(&mut no_presenter);
    }

    /// [`step`](Self::step), presenting the frame through `presenter` and
    /// returning what it returned.
    pub fn step_through<P: FramePresenter + ?Sized>(&mut self, presenter: &mut P) -> P::Output {
        let interval = self.config.tick_interval_nanos();
        let now = self.clock.now();
        self.observe_clock(now);
        self.real_elapsed = self.real_elapsed.saturating_add(interval);
        self.pacer.consume(now, interval);
        let paused = self.paused.take();
        self.sleep_until = None;
        let (_, output) = self.frame(1, Duration::from_nanos(interval), 1.0, presenter);
        // A pause in effect before the step stays; one raised by it wins.
        self.paused = self.paused.or(paused);
        self.pacer.note_frame(now);
        output
    }

    /// [`step`](Self::step) with these action flags instead of live input or
    /// the replay: how tools and [`SyncTest`](super::SyncTest) drive a run.
    pub fn step_with(&mut self, flags: ActionFlags) {
        self.forced = Some(flags);
        self.step();
        self.forced = None;
    }

    /// Produces a frame from the current state without ticking.
    /// What a window driver calls on expose or resize while paused, so the
    /// window is painted without simulating anything. The frame has no
    /// output: see [`present_through`](Self::present_through).
    pub fn present(&mut self) {
        self.present_through(&mut no_presenter);
    }

    /// [`present`](Self::present) through `presenter`, returning what it
    /// returned.
    pub fn present_through<P: FramePresenter + ?Sized>(&mut self, presenter: &mut P) -> P::Output {
        let now = self.clock.now();
        self.observe_clock(now);
        let alpha = self.info.alpha;
        let (_, output) = self.frame(0, Duration::ZERO, alpha, presenter);
        self.pacer.note_frame(now);
        output
    }

    fn next_wake(&self, now: Duration) -> Wake {
        if self.paused.is_some() {
            return Wake::OnEvent;
        }
        if let Some(until) = self.sleep_until {
            return Wake::At(until.max(now + MIN_WAIT));
        }
        // `now` is when this callback started: the period counts from there,
        // and a frame that overran it still waits MIN_WAIT instead of spinning.
        let after = self.clock.now().max(now) + MIN_WAIT;
        if let Some(cap) = self.config.frame_cap {
            return Wake::At((now + cap.interval()).max(after));
        }
        match self.config.policy {
            LoopPolicy::Fixed(step) if step.present == PresentOn::Tick => Wake::At(
                (now + step.rate.interval().saturating_sub(self.carried_time())).max(after),
            ),
            _ => Wake::Now,
        }
    }

    /// Runs up to `ticks` ticks of `dt`, then presents through `presenter`;
    /// returns the ticks run and what the presenter returned.
    fn frame<P: FramePresenter + ?Sized>(
        &mut self,
        ticks: u32,
        dt: Duration,
        alpha: f32,
        presenter: &mut P,
    ) -> (u32, P::Output) {
        let frame_start = self.clock.now();
        self.scene.clear_stage_timings();
        self.info.diagnostics.warnings.clear();
        let start = self.scene.stage_start();
        for hook in &mut self.before_frame {
            hook(&mut self.scene);
        }
        self.scene.stage_end(Stage::Hooks, start);
        let mut ran = 0;
        while ran < ticks && self.paused.is_none() && self.tick(dt) {
            ran += 1;
        }
        let real = self.real_elapsed;
        let frame_delta = self.last_present.map_or(0.0, |last| {
            Duration::from_nanos(real.saturating_sub(last)).as_secs_f32()
        });
        self.last_present = Some(real);
        self.scene
            .time_mut()
            .present_frame(Duration::from_nanos(real).as_secs_f64(), frame_delta);
        if self.waiting_for_timer && self.paused.is_none() {
            self.sleep_until = self.timer_wake_time();
        }
        let start = self.scene.stage_start();
        self.scene.update_render();
        self.errors.append(&mut self.scene.take_errors());
        let output = presenter.present(&mut self.scene, alpha);
        self.scene.stage_end(Stage::Render, start);
        self.frames += 1;
        self.publish(ran, alpha, frame_start);
        (ran, output)
    }

    fn publish(&mut self, ran: u32, alpha: f32, frame_start: Duration) {
        let frame_time = self.clock.now().saturating_sub(frame_start);
        let info = &mut self.info;
        info.tick = self.ticks;
        info.frame = self.frames;
        info.ticks_this_frame = ran;
        info.alpha = alpha;
        info.frame_time = frame_time;
        info.timings.clear();
        if let Some(timings) = self.scene.stage_timings() {
            for entry in timings.entries() {
                info.timings.add(entry.stage, entry.time);
            }
        }
        if let Some(warning) = self
            .watchdog
            .as_ref()
            .and_then(|w| w.frame(frame_time, &info.timings))
        {
            log::warn!("{warning}");
            info.diagnostics.warnings.push(warning);
        }
        info.diagnostics.dropped = self.pacer.dropped();
        info.diagnostics.carried = self.pacer.carried(&self.config);
        info.diagnostics.paused = self.paused;
        info.diagnostics.pending_timers = self.scene.world().resource::<Timers>().pending();
        let start = self.scene.stage_start();
        for hook in &mut self.after_frame {
            hook(&self.info);
        }
        self.scene.stage_end(Stage::Hooks, start);
    }

    /// One simulation step: input edges, action flags, timers, behaviours and
    /// systems, transforms, then the auto-pause and watchdog checks. Returns
    /// `false`, running nothing and consuming no input, when a replay has
    /// run out of ticks.
    fn tick(&mut self, dt: Duration) -> bool {
        let flags = self.next_flags();
        let Some(flags) = flags else {
            self.paused = Some(PauseReason::ReplayFinished);
            return false;
        };
        if let Some(recording) = &mut self.recording {
            let tick = recording.flags.len() as u64;
            recording.flags.push(flags);
            recording.inputs.extend(
                self.unrecorded_input
                    .drain(..)
                    .map(|event| super::record::RecordedInput { tick, event }),
            );
        }
        let world = self.scene.world_mut();
        let had_input = {
            let input = world.resource::<Input>();
            input.any_press()
        };
        let mut actions = world.resource_mut::<Actions>();
        actions.previous = actions.current;
        actions.current = flags;
        let had_input = had_input || flags != ActionFlags::NONE && flags != actions.previous;
        world.resource_mut::<FiredTimers>().fired.clear();
        world.resource_mut::<LoopControl>().set_tick(self.ticks + 1);

        // The policy already bounded `dt` (variable: clamped frame delta;
        // fixed: the exact interval, however long), so no clamp here.
        let mut time = world.resource_mut::<Time>();
        time.set_unscaled_elapsed(Duration::from_nanos(self.real_elapsed).as_secs_f64());
        let scaled = time.advance_step(dt.as_secs_f32());
        let scale = time.scale();
        let nanos = duration_to_nanos(dt);
        let game_nanos = if scale == 1.0 {
            nanos
        } else {
            (nanos as f64 * f64::from(scale)).round() as u64
        };
        world.resource_mut::<Timers>().advance(game_nanos);
        self.fire_timers();

        self.scene.refresh_transforms();
        self.scene.update(scaled);
        self.scene.refresh_transforms();
        self.ticks += 1;
        self.scene.record_tick_placements();
        self.errors.append(&mut self.scene.take_errors());
        self.serve_quick_requests();
        self.after_tick(had_input);
        true
    }

    /// The flags for the tick about to run, or `None` (touching nothing,
    /// input edges included) when a replay has run out.
    fn next_flags(&mut self) -> Option<ActionFlags> {
        let forced = self.forced.take();
        let world = self.scene.world_mut();
        let replayed = match (&mut self.replay, forced) {
            (Some(replay), None) => {
                let Some(flags) = replay.recording.flags.get(replay.at).copied() else {
                    self.replay = None;
                    // Live input held back during the replay reaches the next tick.
                    let mut input = world.resource_mut::<Input>();
                    for event in self.held_input.drain(..) {
                        input.push(event);
                    }
                    return None;
                };
                // The tick sees exactly the input recorded for it.
                let mut input = world.resource_mut::<Input>();
                for event in replay.events_for_tick() {
                    input.push(event);
                }
                replay.at += 1;
                Some(flags)
            }
            _ => forced,
        };
        world.resource_mut::<Input>().begin_tick();
        Some(replayed.unwrap_or_else(|| self.mapper.map(world.resource::<Input>())))
    }

    fn fire_timers(&mut self) {
        let start = self.scene.stage_start();
        loop {
            let due = self.scene.world_mut().resource_mut::<Timers>().pop_due();
            let Some((handle, action)) = due else { break };
            match action {
                TimerAction::Event(tag) => self
                    .scene
                    .world_mut()
                    .resource_mut::<FiredTimers>()
                    .fired
                    .push((handle, tag)),
                TimerAction::Callback(callback) => callback(&mut self.scene),
            }
        }
        self.scene.stage_end(Stage::Timers, start);
    }

    fn after_tick(&mut self, had_input: bool) {
        if self.scene.world().resource::<LoopControl>().is_halted() {
            self.paused = Some(PauseReason::Halted);
            return;
        }
        if self.config.auto_pause.is_none() && self.watchdog.is_none() {
            return;
        }
        let progress = match &mut self.progress_signal {
            Some(signal) => {
                let mut h = StateHasher::default();
                signal(&self.scene, &mut h);
                h.finish()
            }
            None => self.checksum.objects(&self.scene),
        };
        let before = self.progress.replace(progress).unwrap_or(progress);
        if let Some(watchdog) = &mut self.watchdog
            && let Some(warning) = watchdog.tick(self.ticks, had_input, before, progress)
        {
            log::warn!("{warning}");
            self.info.diagnostics.warnings.push(warning);
        }
        let Some(auto) = self.config.auto_pause else {
            return;
        };
        let world = self.scene.world();
        let timers = world.resource::<Timers>();
        let next_timer = timers.until_next();
        let scale = world.resource::<Time>().scale();
        let flags = world.resource::<Actions>().current;
        if next_timer.is_none() && auto.when_nothing_to_run && self.scene.runnable_work() == 0 {
            self.paused = Some(PauseReason::NothingToRun);
            return;
        }
        let fingerprint = progress ^ u64::from(flags.0).rotate_left(17);
        self.waiting_for_timer = false;
        if !self.idle.observe(fingerprint, auto.settle_ticks) {
            return;
        }
        match next_timer {
            // Settled, but a timer will make progress: the frame ends by
            // sleeping until the tick that fires it (`timer_wake_time`).
            Some(_) if scale > 0.0 => self.waiting_for_timer = true,
            // Nothing pending, or game time frozen so nothing can come due.
            _ => self.paused = Some(PauseReason::Settled),
        }
    }

    /// The clock reading at which the tick that fires the next timer is due:
    /// the ticks needed to reach its game-time deadline, less the time
    /// already carried towards the next tick.
    fn timer_wake_time(&self) -> Option<Duration> {
        let world = self.scene.world();
        let until = world.resource::<Timers>().until_next()?;
        let scale = f64::from(world.resource::<Time>().scale());
        let interval = self.config.tick_interval_nanos().max(1);
        let game_per_tick = interval as f64 * scale;
        if game_per_tick <= 0.0 {
            return None;
        }
        let ticks = (until.0 as f64 / game_per_tick).ceil().max(1.0) as u64;
        Some(self.pacer.when_ticks_due(&self.config, ticks))
    }
}
