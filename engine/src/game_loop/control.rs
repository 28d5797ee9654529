//! Requests the game makes of its loop from inside a tick.

use bevy_ecs::resource::Resource;

/// A scene resource through which behaviours and systems talk to the loop.
///
/// ```
/// use taos_engine::game_loop::LoopControl;
/// use taos_engine::prelude::*;
///
/// struct GameOver;
/// impl Behaviour for GameOver {
///     fn update(&mut self, cx: &mut BehaviourContext<'_>, _dt: f32) {
///         cx.world_mut().resource_mut::<LoopControl>().halt();
///     }
/// }
/// ```
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LoopControl {
    halt: bool,
}

impl LoopControl {
    /// Stops the loop after the current tick ([`PauseReason::Halted`](super::PauseReason::Halted)).
    /// Resuming the loop clears the request.
    pub fn halt(&mut self) {
        self.halt = true;
    }

    /// `true` once [`halt`](Self::halt) was called and the loop has not resumed since.
    #[must_use]
    pub fn is_halted(&self) -> bool {
        self.halt
    }

    pub(crate) fn clear(&mut self) {
        self.halt = false;
    }
}
