//! [`InputTape`]: where a tick's input comes from (live, a recording being
//! replayed, or flags forced by a tool) and where it is recorded.

use super::record::{RecordedInput, Recording};
use crate::input::{ActionFlags, ActionMapper, Input, InputEvent};

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

/// The record and replay state of a [`GameLoop`](crate::game_loop::GameLoop):
/// the recording being made, the one being replayed, live input held back
/// while a replay runs, and flags a tool forces on the next tick.
#[derive(Default)]
pub(crate) struct InputTape {
    recording: Option<Recording>,
    /// Live input pushed since the last tick, for the recording.
    unrecorded: Vec<InputEvent>,
    replay: Option<Replay>,
    /// Live input that arrived while a replay fed the ticks: it reaches the
    /// first live tick after the replay.
    held: Vec<InputEvent>,
    forced: Option<ActionFlags>,
}

impl InputTape {
    /// Hands a live `event` to the next tick through `input` (held back
    /// while a replay runs), noting it for the recording.
    pub(crate) fn queue(&mut self, event: InputEvent, input: &mut Input) {
        if self.replay.is_some() {
            self.held.push(event);
        } else {
            input.push(event);
            if self.recording.is_some() {
                self.unrecorded.push(event);
            }
        }
    }

    /// Starts a new recording (dropping input pushed before it).
    pub(crate) fn start_recording(&mut self, recording: Recording) {
        self.unrecorded.clear();
        self.recording = Some(recording);
    }

    /// Stops recording and hands the recording over.
    pub(crate) fn take_recording(&mut self) -> Option<Recording> {
        self.recording.take()
    }

    /// Feeds `recording` to the ticks from its tick `at` on.
    pub(crate) fn replay(&mut self, recording: Recording, at: usize) {
        self.replay = Some(Replay::new(recording, at));
    }

    /// Ticks left in the replay being fed, if any.
    pub(crate) fn replay_remaining(&self) -> Option<usize> {
        self.replay
            .as_ref()
            .map(|replay| replay.recording.flags.len().saturating_sub(replay.at))
    }

    /// Makes the next tick run on `flags`, whatever live input or the
    /// replay say (`None`: back to them).
    pub(crate) fn force(&mut self, flags: Option<ActionFlags>) {
        self.forced = flags;
    }

    /// The flags for the tick about to run, with that tick's input edges
    /// begun in `input`; or `None` (touching nothing, input edges included)
    /// when a replay has run out, which ends the replay and hands the live
    /// input held during it to the next tick.
    pub(crate) fn next_flags(
        &mut self,
        input: &mut Input,
        mapper: &mut dyn ActionMapper,
    ) -> Option<ActionFlags> {
        let forced = self.forced.take();
        let replayed = match (&mut self.replay, forced) {
            (Some(replay), None) => {
                let Some(flags) = replay.recording.flags.get(replay.at).copied() else {
                    self.replay = None;
                    for event in self.held.drain(..) {
                        input.push(event);
                    }
                    return None;
                };
                // The tick sees exactly the input recorded for it.
                for event in replay.events_for_tick() {
                    input.push(event);
                }
                replay.at += 1;
                Some(flags)
            }
            _ => forced,
        };
        input.begin_tick();
        Some(replayed.unwrap_or_else(|| mapper.map(input)))
    }

    /// Appends the tick about to run (its `flags` and the live input pushed
    /// since the last one) to the recording, if one is being made.
    pub(crate) fn record_tick(&mut self, flags: ActionFlags) {
        if let Some(recording) = &mut self.recording {
            let tick = recording.flags.len() as u64;
            recording.flags.push(flags);
            recording.inputs.extend(
                self.unrecorded
                    .drain(..)
                    .map(|event| RecordedInput { tick, event }),
            );
        }
    }
}
