//! A game-defined action set: the game names its actions, binds keys and
//! mouse buttons to them, and reads them per tick. They travel as the tick's
//! recorded [`ActionFlags`], so a replay reproduces them bit for bit.
//!
//! ```
//! use taos_core::game_loop::{Actions, Bindings, GameAction, Input, InputEvent, Key, ActionMapper};
//!
//! #[derive(Clone, Copy, PartialEq, Eq, Debug)]
//! enum Play { Left, Right, Fire }
//!
//! impl GameAction for Play {
//!     fn bit(self) -> u8 { self as u8 }
//! }
//!
//! let mut bindings = Bindings::new()
//!     .key(Key::A, Play::Left)
//!     .key(Key::D, Play::Right)
//!     .key(Key::Space, Play::Fire);
//! let mut input = Input::default();
//! input.push(InputEvent::KeyDown(Key::Space));
//! input.push(InputEvent::KeyUp(Key::Space)); // a tap between two ticks
//! input.begin_tick();
//! let actions = Actions { current: bindings.map(&input), ..Actions::default() };
//! assert!(actions.just_pressed(Play::Fire) && !actions.held(Play::Left));
//! ```

use super::actions::{ActionFlags, ActionMapper, Actions};
use super::input::{Input, Key, MouseButton};

/// One of a game's actions: each maps to one of the 32 bits of
/// [`ActionFlags`] (an enum with `self as u8` is the usual implementation).
pub trait GameAction: Copy + Send + Sync + 'static {
    /// Which bit (0..32) carries this action; higher values are masked to 0..32.
    fn bit(self) -> u8;

    /// The action's mask in [`ActionFlags`].
    fn mask(self) -> u32 {
        1 << (self.bit() % 32)
    }
}

/// Keys and mouse buttons bound to a game's actions; an [`ActionMapper`]
/// (install it with [`GameLoop::set_action_mapper`](super::GameLoop::set_action_mapper)).
/// An action is on for a tick when a bound input is held, or was pressed
/// since the previous tick (a tap shorter than a tick still counts once).
#[derive(Debug, Clone)]
pub struct Bindings<A> {
    keys: Vec<(Key, A)>,
    buttons: Vec<(MouseButton, A)>,
}

impl<A> Default for Bindings<A> {
    fn default() -> Self {
        Self {
            keys: Vec::new(),
            buttons: Vec::new(),
        }
    }
}

impl<A: GameAction> Bindings<A> {
    /// No bindings.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Binds `key` to `action` (several keys may share an action).
    #[must_use]
    pub fn key(mut self, key: Key, action: A) -> Self {
        self.keys.push((key, action));
        self
    }

    /// Binds a mouse button to `action`.
    #[must_use]
    pub fn mouse(mut self, button: MouseButton, action: A) -> Self {
        self.buttons.push((button, action));
        self
    }

    /// Rebinds `action` to exactly `keys` (a settings screen's change):
    /// its old keys are unbound, and each of `keys` leaves any other action
    /// it was bound to, so one key never fires two actions.
    pub fn set_keys(&mut self, action: A, keys: &[Key]) {
        let bit = action.bit();
        self.keys
            .retain(|(key, bound)| bound.bit() != bit && !keys.contains(key));
        self.keys.extend(keys.iter().map(|&key| (key, action)));
    }

    /// Rebinds `action` to exactly `buttons`, as [`set_keys`](Self::set_keys).
    pub fn set_buttons(&mut self, action: A, buttons: &[MouseButton]) {
        let bit = action.bit();
        self.buttons
            .retain(|(button, bound)| bound.bit() != bit && !buttons.contains(button));
        self.buttons
            .extend(buttons.iter().map(|&button| (button, action)));
    }

    /// The keys bound to `action`, in binding order.
    pub fn keys_for(&self, action: A) -> impl Iterator<Item = Key> + '_ {
        let bit = action.bit();
        self.keys
            .iter()
            .filter(move |(_, bound)| bound.bit() == bit)
            .map(|&(key, _)| key)
    }

    /// The mouse buttons bound to `action`, in binding order.
    pub fn buttons_for(&self, action: A) -> impl Iterator<Item = MouseButton> + '_ {
        let bit = action.bit();
        self.buttons
            .iter()
            .filter(move |(_, bound)| bound.bit() == bit)
            .map(|&(button, _)| button)
    }

    /// Every key binding, in order.
    #[must_use]
    pub fn key_bindings(&self) -> &[(Key, A)] {
        &self.keys
    }

    /// Every mouse-button binding, in order.
    #[must_use]
    pub fn button_bindings(&self) -> &[(MouseButton, A)] {
        &self.buttons
    }
}

impl<A: GameAction> ActionMapper for Bindings<A> {
    fn map(&mut self, input: &Input) -> ActionFlags {
        let keys = self
            .keys
            .iter()
            .filter(|(key, _)| input.down_in_tick(*key))
            .map(|(_, action)| action.mask());
        let buttons = self
            .buttons
            .iter()
            .filter(|(button, _)| input.mouse_down_in_tick(*button))
            .map(|(_, action)| action.mask());
        ActionFlags(keys.chain(buttons).fold(0, |flags, mask| flags | mask))
    }
}

impl Actions {
    /// The action is on this tick.
    #[must_use]
    pub fn held<A: GameAction>(&self, action: A) -> bool {
        self.current.0 & action.mask() != 0
    }

    /// The action came on this tick (off the tick before).
    #[must_use]
    pub fn just_pressed<A: GameAction>(&self, action: A) -> bool {
        self.held(action) && self.previous.0 & action.mask() == 0
    }

    /// The action went off this tick.
    #[must_use]
    pub fn just_released<A: GameAction>(&self, action: A) -> bool {
        !self.held(action) && self.previous.0 & action.mask() != 0
    }
}
