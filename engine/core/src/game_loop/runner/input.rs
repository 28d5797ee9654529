//! Input into the loop: live events queued for the next tick, the action
//! mapper, and what is recorded and replayed (through the loop's
//! [`InputTape`](super::super::replay::InputTape)).

use super::GameLoop;
use crate::game_loop::config::LoopPolicy;
use crate::game_loop::frame_info::PauseReason;
use crate::game_loop::replay::record::{Recording, RecordingError};
use crate::input::{ActionFlags, ActionMapper};
use crate::input::{Input, InputEvent};

impl GameLoop {
    /// Replaces how live input becomes per-tick [`ActionFlags`] (default: [`NoActions`](crate::input::NoActions)).
    pub fn set_action_mapper(&mut self, mapper: impl ActionMapper + 'static) {
        self.mapper = Box::new(mapper);
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
    pub(super) fn queue_input(&mut self, event: InputEvent) {
        let mut input = self.scene.world_mut().resource_mut::<Input>();
        self.tape.queue(event, &mut input);
    }

    /// Lets go of every held key and button: what the window driver calls
    /// when the window loses focus (their releases would never arrive).
    pub fn release_held_input(&mut self) {
        let releases = self.scene.world().resource::<Input>().releases_of_held();
        for event in releases {
            self.push_input(event);
        }
    }

    /// Starts recording per-tick action flags for a run built from `seed`
    /// (also seeds the [`GameRng`](crate::game_loop::GameRng)).
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
        self.tape.start_recording(Recording::new(seed, step.rate));
        Ok(())
    }

    /// Stops recording and hands the recording over.
    pub fn take_recording(&mut self) -> Option<Recording> {
        self.tape.take_recording()
    }

    /// Feeds `recording`'s flags to the following ticks instead of live input,
    /// and seeds the [`GameRng`](crate::game_loop::GameRng) with its seed. Build the scene the same way as
    /// the recorded run before calling this. When the flags run out the loop
    /// pauses with [`PauseReason::ReplayFinished`].
    ///
    /// # Errors
    /// What [`Recording::check_compatible`] reports.
    pub fn replay(&mut self, recording: Recording) -> Result<(), RecordingError> {
        recording.check_compatible(&self.config)?;
        self.seed(recording.seed);
        self.tape.replay(recording, 0);
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
        self.tape.replay(recording, at);
        Ok(())
    }

    /// Ticks left in the replay being fed, if any.
    #[must_use]
    pub fn replay_remaining(&self) -> Option<usize> {
        self.tape.replay_remaining()
    }

    /// [`step`](Self::step) with these action flags instead of live input or
    /// the replay: how tools and [`SyncTest`](crate::game_loop::SyncTest) drive a run.
    pub fn step_with(&mut self, flags: ActionFlags) {
        self.tape.force(Some(flags));
        self.step();
        self.tape.force(None);
    }
}
