//! One clock callback: how much time became how many ticks, and the frame
//! presented through the caller's presenter (the ticks themselves are in
//! `tick.rs`).

use super::no_presenter;
use super::{CallbackOutcome, FramePresenter, GameLoop, MIN_WAIT, Wake};
use crate::clock::duration_to_nanos;
use crate::game_loop::config::{LoopPolicy, PresentOn};
use crate::game_loop::pacer::Plan;
use crate::stages::Stage;
use crate::time::MAX_FRAME_DELTA;
use crate::timers::Timers;
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
}
