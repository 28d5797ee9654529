//! One tick in order: input edges and action flags, timers, behaviours and
//! systems, transforms; then the checks that follow a tick (halt,
//! auto-pause, the watchdog).

use super::GameLoop;
use crate::clock::duration_to_nanos;
use crate::control::LoopControl;
use crate::game_loop::frame_info::PauseReason;
use crate::game_loop::replay::checksum::StateHasher;
use crate::input::Input;
use crate::input::{ActionFlags, Actions};
use crate::stages::Stage;
use crate::time::Time;
use crate::timers::{FiredTimers, TimerAction, Timers};
use std::time::Duration;

impl GameLoop {
    /// One simulation step: input edges, action flags, timers, behaviours and
    /// systems, transforms, then the auto-pause and watchdog checks. Returns
    /// `false`, running nothing and consuming no input, when a replay has
    /// run out of ticks.
    pub(super) fn tick(&mut self, dt: Duration) -> bool {
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
    pub(super) fn timer_wake_time(&self) -> Option<Duration> {
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
