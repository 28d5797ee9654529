//! Player input as the simulation sees it: keyboard, mouse, touch and
//! gamepad state buffered per tick ([`Input`]), the events that feed it
//! ([`InputEvent`]), a game's named actions and their bindings
//! ([`Bindings`]), and the 32 action flags a tick reads ([`Actions`]).
//!
//! What it is not: a window or device layer. The window driver (in the
//! facade) turns winit and gamepad events into [`InputEvent`]s and pushes
//! them into the [game loop](crate::game_loop), which records and replays
//! them ([`replay`](crate::game_loop::replay)); nothing here reads a device.
//! Every type is also re-exported from [`game_loop`](crate::game_loop),
//! where it lived first.

/// `index` and `from_index` for an input enum whose `ALL` lists every
/// variant in declaration order (how recordings and saved bindings store it).
macro_rules! indexed_by_all {
    ($ty:ident) => {
        impl $ty {
            /// Its index in [`Self::ALL`] (how recordings and saved bindings store it).
            #[must_use]
            pub const fn index(self) -> u8 {
                self as u8
            }

            /// The one at `index` in [`Self::ALL`].
            #[must_use]
            pub fn from_index(index: u8) -> Option<Self> {
                Self::ALL.get(usize::from(index)).copied()
            }
        }
    };
}

mod actions;
mod bindings;
mod bindings_record;
pub(crate) mod codec;
mod gamepad;
mod state;

pub use actions::{ActionFlags, ActionMapper, Actions, NoActions};
pub use bindings::{AXIS_PRESS_THRESHOLD, Bindings, GameAction};
pub use bindings_record::BindingsRecordError;
pub use gamepad::{AxisSide, PadAxis, PadButton, PadId, STICK_DEAD_ZONE, apply_dead_zone};
pub use state::{Input, InputEvent, Key, MAX_TEXT_PER_TICK, MouseButton};
