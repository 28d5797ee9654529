//! Requests the game makes of its loop from inside a tick.

use bevy_ecs::resource::Resource;

/// A scene resource through which behaviours and systems talk to the loop.
///
/// ```
/// use taos_core::game_loop::LoopControl;
/// use taos_core::prelude::*;
///
/// struct GameOver;
/// impl Behaviour for GameOver {
///     fn update(&mut self, cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
///         cx.world_mut().resource_mut::<LoopControl>().halt();
/// Ok(()) }
/// }
/// ```
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LoopControl {
    halt: bool,
    tick: u64,
    quick_save: bool,
    quick_load: bool,
}

impl LoopControl {
    /// Stops the loop after the current tick ([`PauseReason::Halted`](crate::game_loop::PauseReason::Halted)).
    /// Resuming the loop clears the request.
    pub fn halt(&mut self) {
        self.halt = true;
    }

    /// `true` once [`halt`](Self::halt) was called and the loop has not resumed since.
    #[must_use]
    pub fn is_halted(&self) -> bool {
        self.halt
    }

    /// The number of the tick being simulated (1 for the first), or of the
    /// last one outside a tick. Ticks are counted by the loop, not by
    /// [`Time`](crate::Time), whose frame count follows presented frames.
    #[must_use]
    pub fn tick(&self) -> u64 {
        self.tick
    }

    /// Asks the loop to take a [`Snapshot`](crate::game_loop::Snapshot) once the current
    /// tick ends, kept as its quick save
    /// ([`GameLoop::quick_save`](crate::game_loop::GameLoop::quick_save)). A failure is
    /// reported through the loop's errors.
    pub fn quick_save(&mut self) {
        self.quick_save = true;
    }

    /// Asks the loop to restore its quick save once the current tick ends
    /// (nothing happens if there is none).
    pub fn quick_load(&mut self) {
        self.quick_load = true;
    }

    /// Takes the pending quick-save and quick-load requests.
    pub(crate) fn take_requests(&mut self) -> (bool, bool) {
        (
            std::mem::take(&mut self.quick_save),
            std::mem::take(&mut self.quick_load),
        )
    }

    pub(crate) fn set_tick(&mut self, tick: u64) {
        self.tick = tick;
    }

    pub(crate) fn clear(&mut self) {
        self.halt = false;
    }
}
