//! One clock callback: how much time became how many ticks, one tick in
//! order (input, timers, behaviours and systems, transforms, checks), and
//! the frame presented through the caller's presenter.

use super::no_presenter;
use super::{CallbackOutcome, FramePresenter, GameLoop, MIN_WAIT, Wake};
use crate::game_loop::clock::duration_to_nanos;
use crate::game_loop::config::{LoopPolicy, PresentOn};
use crate::game_loop::control::LoopControl;
use crate::game_loop::frame_info::PauseReason;
use crate::game_loop::pacer::Plan;
use crate::game_loop::replay::checksum::StateHasher;
use crate::game_loop::stages::Stage;
use crate::game_loop::timers::{FiredTimers, TimerAction, Timers};
use crate::input::Input;
use crate::input::{ActionFlags, Actions};
use crate::time::{MAX_FRAME_DELTA, Time};
use std::time::Duration;

impl GameLoop {
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
        let mut catch_up = false;
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
            // cheap), whatever the catch-up cap or the variable step's clamp:
            // the timer must not fire late.
            self.sleep_until = None;
            catch_up = true;
        }
        match self.pacer.plan(&self.config, now, catch_up) {
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

    /// One frame now, advancing the time the clock measured since the
    /// previous frame as the policy takes it: the variable policy one step
    /// of that delta clamped to 100 ms, the fixed policy the whole ticks
    /// due (capped per callback, the rest carried), then a frame presented
    /// whatever came due (no frame cap, no waiting for a tick: the caller
    /// decided a frame is wanted). While paused or hidden nothing ticks and
    /// the paused span is dropped. After the loop settled and slept, the
    /// slept span is caught up, [`CATCH_UP_BATCH`](crate::game_loop::CATCH_UP_BATCH)
    /// ticks per frame. Returns the ticks run (without output: see
    /// [`advance_through`](Self::advance_through)).
    ///
    /// What an engine's `frame` does; [`step`](Self::step) is the fixed
    /// one-tick alternative for tests and tools.
    pub fn advance(&mut self) -> u32 {
        self.advance_through(&mut no_presenter).0
    }

    /// [`advance`](Self::advance), presenting through `presenter`: the
    /// ticks run and what the presenter returned.
    pub fn advance_through<P: FramePresenter + ?Sized>(
        &mut self,
        presenter: &mut P,
    ) -> (u32, P::Output) {
        let now = self.clock.now();
        self.observe_clock(now);
        if !self.visible || self.paused.is_some() {
            self.pacer.rebase(now);
            let alpha = self.info.alpha;
            let (_, output) = self.frame(0, Duration::ZERO, alpha, presenter);
            self.pacer.note_frame(now);
            return (0, output);
        }
        let catch_up = self.sleep_until.take().is_some();
        let (ticks, dt, alpha) = match self.pacer.plan_frame(&self.config, now, catch_up) {
            Plan::Run { ticks, dt, alpha } => (ticks, dt, alpha),
            // `plan_frame` never waits; nothing to run if it did.
            Plan::Wait { .. } => (0, Duration::ZERO, self.info.alpha),
        };
        let (ran, output) = self.frame(ticks, dt, alpha, presenter);
        self.pacer.note_frame(now);
        (ran, output)
    }

    fn next_wake(&self, now: Duration) -> Wake {
        if self.paused.is_some() {
            return Wake::OnEvent;
        }
        if self.pacer.owes_ticks() {
            // Still catching up on a slept span: the next batch at once.
            return Wake::Now;
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
        // A frame shows the real time since the last one, clamped like a
        // variable step unless it shows more simulated time: its ticks, plus
        // up to one interval of interpolation (a slow fixed rate).
        let shown_ticks = ran + u32::from(self.scene.interpolates());
        let shown = dt.as_secs_f32() * shown_ticks as f32;
        let time = self.scene.time_mut();
        time.present_frame(Duration::from_nanos(real).as_secs_f64(), frame_delta);
        time.set_frame_delta(frame_delta.min(MAX_FRAME_DELTA.max(shown)));
        if self.waiting_for_timer && self.paused.is_none() {
            self.sleep_until = self.timer_wake_time();
        }
        let start = self.scene.stage_start();
        self.scene.update_render_at(alpha);
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
        if let Some(watchdog) = &mut self.watchdog {
            watchdog.begin_tick(&mut self.scene);
        }
        let flags = self.next_flags();
        let Some(flags) = flags else {
            self.paused = Some(PauseReason::ReplayFinished);
            return false;
        };
        self.tape.record_tick(flags);
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
        let mut input = self.scene.world_mut().resource_mut::<Input>();
        self.tape.next_flags(&mut input, self.mapper.as_mut())
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
        // What the game declared as progress serves both checks; without
        // it, the watchdog looks at what changed in a new way (ambient
        // animation must not hide a hang; `ResponseWatch`) and idle
        // settling at everything that could be moving.
        let declared = self.progress_signal.as_mut().map(|signal| {
            let mut h = StateHasher::default();
            signal(&self.scene, &mut h);
            h.finish()
        });
        if let Some(watchdog) = &mut self.watchdog
            && let Some(warning) = watchdog.end_tick(
                &mut self.scene,
                &mut self.checksum,
                self.ticks,
                had_input,
                declared,
            )
        {
            log::warn!("{warning}");
            self.info.diagnostics.warnings.push(warning);
        }
        let Some(auto) = self.config.auto_pause else {
            return;
        };
        let progress = declared.unwrap_or_else(|| self.checksum.objects(&self.scene));
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
