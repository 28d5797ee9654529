//! Action flags: one tick of player input packed into 32 bits, the mapper
//! that makes them from raw input, and the resource ticks read them from.
//! What the bits mean is the game's ([`GameAction`](crate::game_loop::GameAction) and
//! [`Bindings`](crate::game_loop::Bindings), or a layout of its own).

use bevy_ecs::resource::Resource;

use super::state::Input;

/// One tick of player input, packed into 32 bits: the unit a recording
/// stores per tick (four bytes a tick). The engine gives the bits no meaning;
/// a game defines its actions over them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ActionFlags(pub u32);

impl ActionFlags {
    /// No input.
    pub const NONE: Self = Self(0);
}

/// Turns the current tick's [`Input`] into action flags; the loop calls it once
/// per tick when no replay is feeding flags.
pub trait ActionMapper: Send + Sync {
    /// The flags for this tick.
    fn map(&mut self, input: &Input) -> ActionFlags;
}

impl<F: FnMut(&Input) -> ActionFlags + Send + Sync> ActionMapper for F {
    fn map(&mut self, input: &Input) -> ActionFlags {
        self(input)
    }
}

/// The default mapper: no bindings, every tick's flags are zero. Install a
/// game's own with [`GameLoop::set_action_mapper`](crate::game_loop::GameLoop::set_action_mapper)
/// (e.g. [`Bindings`](crate::game_loop::Bindings)).
#[derive(Debug, Clone, Copy, Default)]
pub struct NoActions;

impl ActionMapper for NoActions {
    fn map(&mut self, _input: &Input) -> ActionFlags {
        ActionFlags::NONE
    }
}

/// The action flags of the tick being simulated, and of the one before: a
/// scene resource that behaviours and systems read.
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Actions {
    /// This tick's flags.
    pub current: ActionFlags,
    /// The previous tick's flags (for edges: `current` set, `previous` clear).
    pub previous: ActionFlags,
}
