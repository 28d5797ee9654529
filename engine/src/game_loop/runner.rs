//! [`GameLoop`]: the object that runs a game, one clock callback at a time.

use std::sync::Arc;
use std::time::Duration;

use super::actions::{ActionFlags, ActionMapper, Actions, KeyboardMapper};
use super::auto_pause::IdleTracker;
use super::checksum::StateChecksum;
use super::clock::{Clock, duration_to_nanos};
use super::config::{LoopConfig, LoopConfigError, LoopPolicy, PresentOn};
use super::control::LoopControl;
use super::frame_info::{FrameInfo, LoopWarning, PauseReason};
use super::input::{Input, InputEvent};
use super::pacer::{Pacer, Plan};
use super::record::{Recording, RecordingError};
use super::rng::GameRng;
use super::stages::Stage;
use super::timers::{FiredTimers, TimerAction, Timers};
use super::watchdog::Watchdog;
use crate::Scene;
use crate::time::{MAX_FRAME_DELTA, Time};

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

/// Produces a frame from the scene's current state: the seam the renderer plugs
/// into. Closures `FnMut(&mut Scene, f32)` (the `f32` is the interpolation
/// alpha) implement it.
pub trait FramePresenter: std::any::Any + Send {
    /// Draws the scene; `alpha` is how far the clock is between the last two
    /// fixed ticks (1 under the variable policy).
    fn present(&mut self, scene: &mut Scene, alpha: f32);
}

impl<F: FnMut(&mut Scene, f32) + Send + 'static> FramePresenter for F {
    fn present(&mut self, scene: &mut Scene, alpha: f32) {
        self(scene, alpha);
    }
}

type BeforeFrame = Box<dyn FnMut(&mut Scene) + Send>;
type AfterFrame = Box<dyn FnMut(&FrameInfo) + Send>;

/// Runs a [`Scene`]: turns clock callbacks into ticks and frames.
///
/// Time enters only through the [`Clock`] given at construction; the driver (a
/// window's redraw, a test) calls [`on_clock`](Self::on_clock) and follows the
/// returned [`Wake`]. See the [module docs](super) for one callback in full.
///
/// ```
/// use std::time::Duration;
/// use taos_engine::game_loop::{GameLoop, LoopConfig, ManualClock};
/// use taos_engine::prelude::*;
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
    replay: Option<(Recording, usize)>,
    forced: Option<ActionFlags>,
    recording: Option<Recording>,
    paused: Option<PauseReason>,
    visible: bool,
    idle: IdleTracker,
    watchdog: Option<Watchdog>,
    checksum: StateChecksum,
    /// The progress fingerprint after the last tick (`None` before the first).
    progress: Option<u64>,
    before_frame: Vec<BeforeFrame>,
    after_frame: Vec<AfterFrame>,
    presenter: Option<Box<dyn FramePresenter>>,
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
        world.insert_resource(Input::default());
        world.insert_resource(Actions::default());
        world.insert_resource(Timers::with_tick_interval(config.tick_interval_nanos()));
        world.insert_resource(FiredTimers::default());
        world.insert_resource(LoopControl::default());
        if config.watchdog.is_some() || config.stage_timings {
            scene.set_stage_clock(Some(clock.clone()));
        }
        Ok(Self {
            scene,
            config,
            clock,
            pacer: Pacer::default(),
            mapper: Box::new(KeyboardMapper),
            replay: None,
            forced: None,
            recording: None,
            paused: None,
            visible: true,
            idle: IdleTracker::default(),
            watchdog: config.watchdog.map(Watchdog::new),
            checksum: StateChecksum::default(),
            progress: None,
            before_frame: Vec::new(),
            after_frame: Vec::new(),
            presenter: None,
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

    /// Replaces how live input becomes per-tick [`ActionFlags`] (default: [`KeyboardMapper`]).
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

    /// Sets the presentation size reported in [`FrameInfo::size`].
    pub fn set_size(&mut self, width: u32, height: u32) {
        self.info.size = (width, height);
    }

    /// Installs the frame presenter (the renderer).
    pub fn set_presenter(&mut self, presenter: impl FramePresenter + 'static) {
        self.presenter = Some(Box::new(presenter));
    }

    /// The installed presenter, if it is a `P`.
    pub fn presenter_mut<P: FramePresenter>(&mut self) -> Option<&mut P> {
        let presenter: &mut dyn FramePresenter = self.presenter.as_deref_mut()?;
        (presenter as &mut dyn std::any::Any).downcast_mut::<P>()
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
    /// [`NothingToRun`](PauseReason::NothingToRun).
    pub fn push_input(&mut self, event: InputEvent) {
        self.scene.world_mut().resource_mut::<Input>().push(event);
        if self.paused.is_some_and(PauseReason::resumes_on_input) {
            self.resume();
        }
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
        self.replay = Some((recording, 0));
        Ok(())
    }

    /// Ticks left in the replay being fed, if any.
    #[must_use]
    pub fn replay_remaining(&self) -> Option<usize> {
        self.replay
            .as_ref()
            .map(|(rec, at)| rec.flags.len().saturating_sub(*at))
    }

    /// One clock callback: read the clock, run the ticks the policy asks for,
    /// produce a frame, and say when to call back.
    pub fn on_clock(&mut self) -> CallbackOutcome {
        let now = self.clock.now();
        if !self.visible || self.paused.is_some() {
            self.pacer.rebase(now);
            return CallbackOutcome {
                ticks: 0,
                presented: false,
                wake: Wake::OnEvent,
            };
        }
        match self.pacer.plan(&self.config, now) {
            Plan::Wait { until } => CallbackOutcome {
                ticks: 0,
                presented: false,
                wake: Wake::At(until),
            },
            Plan::Run { ticks, dt, alpha } => {
                let ran = self.frame(ticks, dt, alpha);
                CallbackOutcome {
                    ticks: ran,
                    presented: true,
                    wake: self.next_wake(now),
                }
            }
        }
    }

    /// Advances exactly one tick (one fixed interval, or 1/60 s under the
    /// variable policy) and produces a frame, whatever the clock says and even
    /// while paused: for opening frames and single-stepping.
    pub fn step(&mut self) {
        let dt = Duration::from_nanos(self.config.tick_interval_nanos());
        let paused = self.paused.take();
        self.frame(1, dt, 1.0);
        // A pause in effect before the step stays; one raised by it wins.
        self.paused = self.paused.or(paused);
        self.pacer.note_frame(self.clock.now());
    }

    /// [`step`](Self::step) with these action flags instead of live input or
    /// the replay: how tools and [`SyncTest`](super::SyncTest) drive a run.
    pub fn step_with(&mut self, flags: ActionFlags) {
        self.forced = Some(flags);
        self.step();
        self.forced = None;
    }

    /// Produces a frame from the current state without ticking.
    pub fn present(&mut self) {
        let alpha = self.info.alpha;
        self.frame(0, Duration::ZERO, alpha);
        self.pacer.note_frame(self.clock.now());
    }

    fn next_wake(&self, now: Duration) -> Wake {
        if self.paused.is_some() {
            return Wake::OnEvent;
        }
        if let Some(cap) = self.config.frame_cap {
            return Wake::At(now + cap.interval());
        }
        match self.config.policy {
            LoopPolicy::Fixed(step) if step.present == PresentOn::Tick => {
                Wake::At(now + step.rate.interval().saturating_sub(self.carried_time()))
            }
            _ => Wake::Now,
        }
    }

    /// Runs up to `ticks` ticks of `dt`, then presents; returns the ticks run.
    fn frame(&mut self, ticks: u32, dt: Duration, alpha: f32) -> u32 {
        let frame_start = self.clock.now();
        self.scene.clear_stage_timings();
        self.info.diagnostics.warnings.clear();
        let start = self.scene.stage_start();
        for hook in &mut self.before_frame {
            hook(&mut self.scene);
        }
        self.scene.stage_end(Stage::Hooks, start);
        let mut ran = 0;
        while ran < ticks && self.paused.is_none() {
            self.tick(dt);
            ran += 1;
        }
        let start = self.scene.stage_start();
        self.scene.update_render();
        if let Some(presenter) = &mut self.presenter {
            presenter.present(&mut self.scene, alpha);
        }
        self.scene.stage_end(Stage::Render, start);
        self.frames += 1;
        self.publish(ran, alpha, frame_start);
        ran
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
    /// systems, transforms, then the auto-pause and watchdog checks.
    fn tick(&mut self, dt: Duration) {
        let flags = self.next_flags();
        let Some(flags) = flags else {
            self.paused = Some(PauseReason::ReplayFinished);
            return;
        };
        if let Some(recording) = &mut self.recording {
            recording.flags.push(flags);
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

        let raw = dt.as_secs_f32();
        let scaled = world.resource_mut::<Time>().advance(raw);
        let scale = world.resource::<Time>().scale();
        let clamped =
            duration_to_nanos(dt).min(duration_to_nanos(Duration::from_secs_f32(MAX_FRAME_DELTA)));
        let game_nanos = if scale == 1.0 {
            clamped
        } else {
            (clamped as f64 * f64::from(scale)).round() as u64
        };
        world.resource_mut::<Timers>().advance(game_nanos);
        self.fire_timers();

        self.scene.refresh_transforms();
        self.scene.update(scaled);
        self.scene.refresh_transforms();
        self.ticks += 1;
        self.after_tick(had_input);
    }

    fn next_flags(&mut self) -> Option<ActionFlags> {
        let world = self.scene.world_mut();
        world.resource_mut::<Input>().begin_tick();
        if let Some(flags) = self.forced.take() {
            return Some(flags);
        }
        match &mut self.replay {
            Some((recording, at)) => {
                let flags = recording.flags.get(*at).copied();
                *at += 1;
                if flags.is_none() {
                    self.replay = None;
                }
                flags
            }
            None => Some(self.mapper.map(world.resource::<Input>())),
        }
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
        let progress = self.checksum.objects(&self.scene);
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
        if world.resource::<Timers>().pending() > 0 {
            // Something is delaying: a timer will make progress.
            self.idle.reset();
            return;
        }
        if auto.when_nothing_to_run && self.scene.runnable_work() == 0 {
            self.paused = Some(PauseReason::NothingToRun);
            return;
        }
        let flags = world.resource::<Actions>().current;
        let fingerprint = progress ^ u64::from(flags.0).rotate_left(17);
        if self.idle.observe(fingerprint, auto.settle_ticks) {
            self.paused = Some(PauseReason::Settled);
        }
    }
}
