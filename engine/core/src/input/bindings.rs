//! A game-defined action set: the game names its actions, binds keys, mouse
//! buttons, gamepad buttons and gamepad axes to them, and reads them per tick. They travel as the tick's
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
use super::gamepad::{AxisSide, PadAxis, PadButton};
use super::state::{Input, Key, MouseButton};

/// How far (after the dead zone) an axis bound to an action must be pushed
/// for the action to be on.
pub const AXIS_PRESS_THRESHOLD: f32 = 0.5;

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

/// Keys, mouse buttons, gamepad buttons and gamepad axes bound to a game's
/// actions; an [`ActionMapper`] (install it with
/// [`GameLoop::set_action_mapper`](crate::game_loop::GameLoop::set_action_mapper)).
/// An action is on for a tick when a bound input is held, or was pressed
/// since the previous tick (a tap shorter than a tick still counts once),
/// or a bound axis half is pushed past [`AXIS_PRESS_THRESHOLD`]. For analog
/// movement, [`strength`](Self::strength) says how far.
#[derive(Debug, Clone)]
pub struct Bindings<A> {
    keys: Vec<(Key, A)>,
    buttons: Vec<(MouseButton, A)>,
    pad_buttons: Vec<(PadButton, A)>,
    axes: Vec<((PadAxis, AxisSide), A)>,
}

impl<A> Default for Bindings<A> {
    fn default() -> Self {
        Self {
            keys: Vec::new(),
            buttons: Vec::new(),
            pad_buttons: Vec::new(),
            axes: Vec::new(),
        }
    }
}

/// Rebinds `action` to exactly `inputs` in one list: its old inputs are
/// unbound, and each new one leaves whatever other action it had.
fn rebind<I: PartialEq + Copy, A: GameAction>(list: &mut Vec<(I, A)>, action: A, inputs: &[I]) {
    let bit = action.bit();
    list.retain(|(input, bound)| bound.bit() != bit && !inputs.contains(input));
    list.extend(inputs.iter().map(|&input| (input, action)));
}

/// The inputs in `list` bound to `action`, in binding order.
fn bound_to<I: Copy, A: GameAction>(list: &[(I, A)], action: A) -> impl Iterator<Item = I> + '_ {
    let bit = action.bit();
    list.iter()
        .filter(move |(_, bound)| bound.bit() == bit)
        .map(|&(input, _)| input)
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

    /// Binds a gamepad button to `action` (on any connected pad).
    #[must_use]
    pub fn pad(mut self, button: PadButton, action: A) -> Self {
        self.pad_buttons.push((button, action));
        self
    }

    /// Binds one half of a gamepad axis to `action` (the left stick pushed
    /// up: `(PadAxis::LeftY, AxisSide::Positive)`).
    #[must_use]
    pub fn axis(mut self, axis: PadAxis, side: AxisSide, action: A) -> Self {
        self.axes.push(((axis, side), action));
        self
    }

    /// Rebinds `action` to exactly `keys` (a settings screen's change):
    /// its old keys are unbound, and each of `keys` leaves any other action
    /// it was bound to, so one key never fires two actions.
    pub fn set_keys(&mut self, action: A, keys: &[Key]) {
        rebind(&mut self.keys, action, keys);
    }

    /// Rebinds `action` to exactly `buttons`, as [`set_keys`](Self::set_keys).
    pub fn set_buttons(&mut self, action: A, buttons: &[MouseButton]) {
        rebind(&mut self.buttons, action, buttons);
    }

    /// Rebinds `action` to exactly these gamepad buttons, as [`set_keys`](Self::set_keys).
    pub fn set_pad_buttons(&mut self, action: A, buttons: &[PadButton]) {
        rebind(&mut self.pad_buttons, action, buttons);
    }

    /// Rebinds `action` to exactly these axis halves, as [`set_keys`](Self::set_keys).
    pub fn set_axes(&mut self, action: A, axes: &[(PadAxis, AxisSide)]) {
        rebind(&mut self.axes, action, axes);
    }

    /// The keys bound to `action`, in binding order.
    pub fn keys_for(&self, action: A) -> impl Iterator<Item = Key> + '_ {
        bound_to(&self.keys, action)
    }

    /// The mouse buttons bound to `action`, in binding order.
    pub fn buttons_for(&self, action: A) -> impl Iterator<Item = MouseButton> + '_ {
        bound_to(&self.buttons, action)
    }

    /// The gamepad buttons bound to `action`, in binding order.
    pub fn pad_buttons_for(&self, action: A) -> impl Iterator<Item = PadButton> + '_ {
        bound_to(&self.pad_buttons, action)
    }

    /// The axis halves bound to `action`, in binding order.
    pub fn axes_for(&self, action: A) -> impl Iterator<Item = (PadAxis, AxisSide)> + '_ {
        bound_to(&self.axes, action)
    }

    /// How strongly `action` is on this tick, 0 to 1: 1 for a bound key or
    /// button down in the tick, else how far a bound axis half is pushed
    /// (dead zone removed). What analog movement reads (a stick half way
    /// walks at half speed).
    #[must_use]
    pub fn strength(&self, input: &Input, action: A) -> f32 {
        let digital = self.keys_for(action).any(|k| input.down_in_tick(k))
            || self
                .buttons_for(action)
                .any(|b| input.mouse_down_in_tick(b))
            || self
                .pad_buttons_for(action)
                .any(|b| input.pad_down_in_tick(b));
        if digital {
            return 1.0;
        }
        self.axes_for(action)
            .map(|(axis, side)| side.amount(input.pad_axis(axis)))
            .fold(0.0, f32::max)
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

    /// Every gamepad-button binding, in order.
    #[must_use]
    pub fn pad_button_bindings(&self) -> &[(PadButton, A)] {
        &self.pad_buttons
    }

    /// Every axis binding, in order.
    #[must_use]
    pub fn axis_bindings(&self) -> &[((PadAxis, AxisSide), A)] {
        &self.axes
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
        let pad_buttons = self
            .pad_buttons
            .iter()
            .filter(|(button, _)| input.pad_down_in_tick(*button))
            .map(|(_, action)| action.mask());
        let axes = self
            .axes
            .iter()
            .filter(|((axis, side), _)| side.amount(input.pad_axis(*axis)) >= AXIS_PRESS_THRESHOLD)
            .map(|(_, action)| action.mask());
        ActionFlags(
            keys.chain(buttons)
                .chain(pad_buttons)
                .chain(axes)
                .fold(0, |flags, mask| flags | mask),
        )
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
