//! Keyboard, mouse, touch and gamepad state for fixed ticks, with press and release
//! edges buffered per tick.
//!
//! Window events arrive whenever the platform delivers them; ticks run in
//! batches of 0, 1 or many per callback. Edges are collected into a pending
//! buffer and handed, whole, to the *next* tick that runs: a callback that runs
//! no tick keeps them for later (none missed), and a batch of many ticks shows
//! them to its first tick only (none doubled). Held state is always current.

use std::collections::{BTreeMap, BTreeSet};

use bevy_ecs::resource::Resource;
use glam::Vec2;

use super::gamepad::{PadAxis, PadButton, PadId, Pads, apply_dead_zone};

/// A keyboard key, by physical position (US layout names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
#[rustfmt::skip]
#[allow(missing_docs, reason = "the variant names are the key names")]
pub enum Key {
    A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, Q, R, S, T, U, V, W, X, Y, Z,
    Digit0, Digit1, Digit2, Digit3, Digit4, Digit5, Digit6, Digit7, Digit8, Digit9,
    Space, Enter, Escape, Tab, Backspace,
    ShiftLeft, ShiftRight, ControlLeft, ControlRight, AltLeft, AltRight,
    ArrowUp, ArrowDown, ArrowLeft, ArrowRight,
    F1, F2, F3, F4, F5, F6, F7, F8, F9, F10, F11, F12,
}

/// A mouse button.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum MouseButton {
    /// Primary button.
    Left,
    /// Secondary button.
    Right,
    /// Wheel button.
    Middle,
    /// Thumb button "back".
    Back,
    /// Thumb button "forward".
    Forward,
}

indexed_by_all!(Key);
indexed_by_all!(MouseButton);

impl Key {
    /// The number a key of the number row stands for (`Digit0` is 0,
    /// `Digit9` 9); `None` for the other keys. Hotbars and menus pick slot
    /// `digit - 1` with it.
    ///
    /// ```
    /// use taos_core::game_loop::Key;
    /// assert_eq!(Key::Digit3.digit(), Some(3));
    /// assert_eq!(Key::A.digit(), None);
    /// ```
    #[must_use]
    pub const fn digit(self) -> Option<u8> {
        let (first, this) = (Key::Digit0 as u8, self as u8);
        if this >= first && this <= Key::Digit9 as u8 {
            Some(this - first)
        } else {
            None
        }
    }

    /// Every key, in declaration order: `Key::ALL[k as usize] == k`.
    #[rustfmt::skip]
    pub const ALL: [Key; 63] = [
        Key::A, Key::B, Key::C, Key::D, Key::E, Key::F, Key::G, Key::H,
        Key::I, Key::J, Key::K, Key::L, Key::M, Key::N, Key::O, Key::P,
        Key::Q, Key::R, Key::S, Key::T, Key::U, Key::V, Key::W, Key::X,
        Key::Y, Key::Z, Key::Digit0, Key::Digit1, Key::Digit2, Key::Digit3, Key::Digit4, Key::Digit5,
        Key::Digit6, Key::Digit7, Key::Digit8, Key::Digit9, Key::Space, Key::Enter, Key::Escape, Key::Tab,
        Key::Backspace, Key::ShiftLeft, Key::ShiftRight, Key::ControlLeft, Key::ControlRight, Key::AltLeft, Key::AltRight, Key::ArrowUp,
        Key::ArrowDown, Key::ArrowLeft, Key::ArrowRight, Key::F1, Key::F2, Key::F3, Key::F4, Key::F5,
        Key::F6, Key::F7, Key::F8, Key::F9, Key::F10, Key::F11, Key::F12,
    ];
}

impl MouseButton {
    /// Every button, in declaration order.
    pub const ALL: [MouseButton; 5] = [
        MouseButton::Left,
        MouseButton::Right,
        MouseButton::Middle,
        MouseButton::Back,
        MouseButton::Forward,
    ];
}

/// One raw input event, as a window (or a test) reports it.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub enum InputEvent {
    /// A key went down. Auto-repeat of a held key adds no edge.
    KeyDown(Key),
    /// A key went up.
    KeyUp(Key),
    /// A mouse button went down.
    MouseDown(MouseButton),
    /// A mouse button went up.
    MouseUp(MouseButton),
    /// The cursor moved to a position in window pixels.
    CursorMoved(Vec2),
    /// Relative mouse motion (pointer lock), in device units.
    MouseMotion(Vec2),
    /// Wheel scrolled by this many lines (positive: away from the user).
    Wheel(f32),
    /// A finger touched down.
    TouchStart {
        /// Stable id of the touch while it lasts.
        id: u64,
        /// Position in window pixels.
        at: Vec2,
    },
    /// A finger moved.
    TouchMove {
        /// Id given at [`InputEvent::TouchStart`].
        id: u64,
        /// Position in window pixels.
        at: Vec2,
    },
    /// A finger lifted, or the touch was cancelled.
    TouchEnd {
        /// Id given at [`InputEvent::TouchStart`].
        id: u64,
    },
    /// The window's drawable size changed (the loop sends this itself, so
    /// on-screen touch controls lay out the same in a replay).
    Viewport {
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
    },
    /// A gamepad was plugged in (or was there when the game started).
    PadConnected {
        /// The pad's id while it stays connected.
        pad: PadId,
    },
    /// A gamepad was unplugged: its held buttons are released and its axes
    /// centred.
    PadDisconnected {
        /// Id given at [`InputEvent::PadConnected`].
        pad: PadId,
    },
    /// A gamepad button went down.
    PadDown {
        /// Which pad.
        pad: PadId,
        /// Which button.
        button: PadButton,
    },
    /// A gamepad button went up.
    PadUp {
        /// Which pad.
        pad: PadId,
        /// Which button.
        button: PadButton,
    },
    /// A gamepad axis moved (see [`PadAxis`] for ranges and directions).
    PadAxis {
        /// Which pad.
        pad: PadId,
        /// Which axis.
        axis: PadAxis,
        /// The new reading (clamped to the axis's range; NaN is ignored).
        value: f32,
    },
    /// A character was typed (after the keyboard layout, dead keys and input
    /// methods: what a text field would receive). Control characters are
    /// ignored; read Backspace and Enter as keys.
    Text(char),
}

/// Most characters of typed text one tick keeps (the rest are dropped).
pub const MAX_TEXT_PER_TICK: usize = 256;

/// Pressed-now plus the edges seen since the last tick, for one kind of button.
#[derive(Debug, Clone)]
struct Buttons<B> {
    held: BTreeSet<B>,
    pending_pressed: Vec<B>,
    pending_released: Vec<B>,
    pressed: Vec<B>,
    released: Vec<B>,
}

impl<B> Default for Buttons<B> {
    fn default() -> Self {
        Self {
            held: BTreeSet::new(),
            pending_pressed: Vec::new(),
            pending_released: Vec::new(),
            pressed: Vec::new(),
            released: Vec::new(),
        }
    }
}

impl<B: Ord + Copy> Buttons<B> {
    fn down(&mut self, b: B) {
        if self.held.insert(b) {
            self.pending_pressed.push(b);
        }
    }

    fn up(&mut self, b: B) {
        if self.held.remove(&b) {
            self.pending_released.push(b);
        }
    }

    fn begin_tick(&mut self) {
        self.pressed.clear();
        self.released.clear();
        std::mem::swap(&mut self.pressed, &mut self.pending_pressed);
        std::mem::swap(&mut self.released, &mut self.pending_released);
    }

    fn count(list: &[B], b: B) -> u32 {
        list.iter().filter(|x| **x == b).count() as u32
    }
}

/// Input as the current tick sees it: a scene resource (`Res<Input>` in
/// systems, `cx.world().resource::<Input>()` in behaviours).
///
/// ```
/// use taos_core::game_loop::{Input, InputEvent, Key};
///
/// let mut input = Input::default();
/// input.push(InputEvent::KeyDown(Key::Space));
/// input.push(InputEvent::KeyUp(Key::Space)); // a tap shorter than a tick
/// input.begin_tick();
/// assert!(input.just_pressed(Key::Space) && input.just_released(Key::Space));
/// assert!(!input.pressed(Key::Space));
/// input.begin_tick();
/// assert!(!input.just_pressed(Key::Space), "an edge is seen by one tick only");
/// ```
#[derive(Resource, Debug, Clone, Default)]
pub struct Input {
    keys: Buttons<Key>,
    mouse: Buttons<MouseButton>,
    cursor: Option<Vec2>,
    pending_motion: Vec2,
    motion: Vec2,
    pending_wheel: f32,
    wheel: f32,
    touches: BTreeMap<u64, Vec2>,
    pending_touch_starts: Vec<u64>,
    pending_touch_ends: Vec<u64>,
    touch_starts: Vec<u64>,
    touch_ends: Vec<u64>,
    pad_buttons: Buttons<(PadId, PadButton)>,
    pads: Pads,
    viewport: Option<Vec2>,
    pending_text: String,
    text: String,
    pending_events: u32,
}

impl Input {
    /// Records a raw event; its edges reach the next tick.
    pub fn push(&mut self, event: InputEvent) {
        self.pending_events = self.pending_events.saturating_add(1);
        match event {
            InputEvent::KeyDown(key) => self.keys.down(key),
            InputEvent::KeyUp(key) => self.keys.up(key),
            InputEvent::MouseDown(button) => self.mouse.down(button),
            InputEvent::MouseUp(button) => self.mouse.up(button),
            InputEvent::CursorMoved(at) => self.cursor = finite(at).or(self.cursor),
            InputEvent::MouseMotion(delta) => {
                self.pending_motion += finite(delta).unwrap_or(Vec2::ZERO);
            }
            InputEvent::Wheel(lines) if lines.is_finite() => self.pending_wheel += lines,
            InputEvent::Wheel(_) => {}
            InputEvent::TouchStart { id, at } => {
                let at = finite(at).unwrap_or(Vec2::ZERO);
                if self.touches.insert(id, at).is_none() {
                    self.pending_touch_starts.push(id);
                }
            }
            InputEvent::TouchMove { id, at } => {
                if let (Some(slot), Some(at)) = (self.touches.get_mut(&id), finite(at)) {
                    *slot = at;
                }
            }
            InputEvent::TouchEnd { id } => {
                if self.touches.remove(&id).is_some() {
                    self.pending_touch_ends.push(id);
                }
            }
            InputEvent::Viewport { width, height } => {
                self.viewport = Some(Vec2::new(width as f32, height as f32));
            }
            InputEvent::PadConnected { pad } => self.pads.connect(pad),
            InputEvent::PadDisconnected { pad } => {
                self.pads.disconnect(pad);
                let held: Vec<_> = self
                    .pad_buttons
                    .held
                    .iter()
                    .copied()
                    .filter(|(of, _)| *of == pad)
                    .collect();
                for button in held {
                    self.pad_buttons.up(button);
                }
            }
            InputEvent::PadDown { pad, button } => {
                self.pads.connect(pad);
                self.pad_buttons.down((pad, button));
            }
            InputEvent::PadUp { pad, button } => self.pad_buttons.up((pad, button)),
            InputEvent::PadAxis { pad, axis, value } => self.pads.set_axis(pad, axis, value),
            InputEvent::Text(c) => {
                if !c.is_control() && self.pending_text.chars().count() < MAX_TEXT_PER_TICK {
                    self.pending_text.push(c);
                }
            }
        }
    }

    /// Hands everything pending since the last tick to the tick about to run.
    /// The loop calls this; tests may too.
    pub fn begin_tick(&mut self) {
        self.keys.begin_tick();
        self.mouse.begin_tick();
        self.pad_buttons.begin_tick();
        self.motion = std::mem::take(&mut self.pending_motion);
        self.wheel = std::mem::take(&mut self.pending_wheel);
        self.touch_starts.clear();
        self.touch_ends.clear();
        std::mem::swap(&mut self.touch_starts, &mut self.pending_touch_starts);
        std::mem::swap(&mut self.touch_ends, &mut self.pending_touch_ends);
        self.text.clear();
        std::mem::swap(&mut self.text, &mut self.pending_text);
        self.pending_events = 0;
    }

    /// The text typed since the last tick, in order (layout, dead keys and
    /// input methods applied; no control characters). Empty on most ticks.
    #[must_use]
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Events pushed since the last tick began (the watchdog counts these).
    #[must_use]
    pub fn pending_events(&self) -> u32 {
        self.pending_events
    }

    /// `true` if this tick sees any press edge (key, mouse or pad button, or
    /// touch start).
    #[must_use]
    pub fn any_press(&self) -> bool {
        !self.keys.pressed.is_empty()
            || !self.mouse.pressed.is_empty()
            || !self.pad_buttons.pressed.is_empty()
            || !self.touch_starts.is_empty()
    }

    /// The key is down now.
    #[must_use]
    pub fn pressed(&self, key: Key) -> bool {
        self.keys.held.contains(&key)
    }

    /// The key is down now, or went down since the previous tick: a tap
    /// pressed and released between two ticks still counts for the one tick
    /// that follows it. What action mappers should read for "held" actions.
    #[must_use]
    pub fn down_in_tick(&self, key: Key) -> bool {
        self.pressed(key) || self.just_pressed(key)
    }

    /// A key pair as one axis for this tick: 1 when only `plus` is
    /// [down in the tick](Self::down_in_tick), -1 when only `minus` is, 0
    /// for neither or both (W/S, A/D, E/Q).
    #[must_use]
    pub fn key_axis(&self, plus: Key, minus: Key) -> f32 {
        f32::from(u8::from(self.down_in_tick(plus))) - f32::from(u8::from(self.down_in_tick(minus)))
    }

    /// The mouse button is down now, or went down since the previous tick
    /// (a click shorter than a tick still reaches one tick).
    #[must_use]
    pub fn mouse_down_in_tick(&self, button: MouseButton) -> bool {
        self.mouse_pressed(button) || self.mouse_just_pressed(button)
    }

    /// Every held key, mouse and pad button, as the release events that
    /// would let go of them (what a window sends when it loses focus).
    pub fn releases_of_held(&self) -> Vec<InputEvent> {
        self.keys
            .held
            .iter()
            .map(|&k| InputEvent::KeyUp(k))
            .chain(self.mouse.held.iter().map(|&b| InputEvent::MouseUp(b)))
            .chain(
                self.pad_buttons
                    .held
                    .iter()
                    .map(|&(pad, button)| InputEvent::PadUp { pad, button }),
            )
            .collect()
    }

    /// The key went down since the previous tick.
    #[must_use]
    pub fn just_pressed(&self, key: Key) -> bool {
        self.keys.pressed.contains(&key)
    }

    /// The key went up since the previous tick.
    #[must_use]
    pub fn just_released(&self, key: Key) -> bool {
        self.keys.released.contains(&key)
    }

    /// How many times the key went down since the previous tick (fast taps).
    #[must_use]
    pub fn press_count(&self, key: Key) -> u32 {
        Buttons::count(&self.keys.pressed, key)
    }

    /// Every key down now, in a stable order.
    pub fn held_keys(&self) -> impl Iterator<Item = Key> + '_ {
        self.keys.held.iter().copied()
    }

    /// The mouse button is down now.
    #[must_use]
    pub fn mouse_pressed(&self, button: MouseButton) -> bool {
        self.mouse.held.contains(&button)
    }

    /// The mouse button went down since the previous tick.
    #[must_use]
    pub fn mouse_just_pressed(&self, button: MouseButton) -> bool {
        self.mouse.pressed.contains(&button)
    }

    /// The mouse button went up since the previous tick.
    #[must_use]
    pub fn mouse_just_released(&self, button: MouseButton) -> bool {
        self.mouse.released.contains(&button)
    }

    /// How many times the button went down since the previous tick.
    #[must_use]
    pub fn mouse_press_count(&self, button: MouseButton) -> u32 {
        Buttons::count(&self.mouse.pressed, button)
    }

    /// Last known cursor position in window pixels.
    #[must_use]
    pub fn cursor(&self) -> Option<Vec2> {
        self.cursor
    }

    /// Relative mouse motion summed since the previous tick.
    #[must_use]
    pub fn mouse_motion(&self) -> Vec2 {
        self.motion
    }

    /// Wheel lines summed since the previous tick.
    #[must_use]
    pub fn wheel(&self) -> f32 {
        self.wheel
    }

    /// Active touches `(id, position)`, by id.
    pub fn touches(&self) -> impl Iterator<Item = (u64, Vec2)> + '_ {
        self.touches.iter().map(|(id, at)| (*id, *at))
    }

    /// The touch started since the previous tick.
    #[must_use]
    pub fn touch_started(&self, id: u64) -> bool {
        self.touch_starts.contains(&id)
    }

    /// The touch ended since the previous tick.
    #[must_use]
    pub fn touch_ended(&self, id: u64) -> bool {
        self.touch_ends.contains(&id)
    }

    /// The window's drawable size in pixels, once the loop has been told it.
    #[must_use]
    pub fn viewport(&self) -> Option<Vec2> {
        self.viewport
    }

    /// The connected gamepads, by id.
    pub fn pads(&self) -> impl Iterator<Item = PadId> + '_ {
        self.pads.ids()
    }

    /// The button is down now on any pad.
    #[must_use]
    pub fn pad_pressed(&self, button: PadButton) -> bool {
        self.pad_buttons.held.iter().any(|&(_, b)| b == button)
    }

    /// The button went down on some pad since the previous tick.
    #[must_use]
    pub fn pad_just_pressed(&self, button: PadButton) -> bool {
        self.pad_buttons.pressed.iter().any(|&(_, b)| b == button)
    }

    /// The button went up on some pad since the previous tick.
    #[must_use]
    pub fn pad_just_released(&self, button: PadButton) -> bool {
        self.pad_buttons.released.iter().any(|&(_, b)| b == button)
    }

    /// The button is down now or went down since the previous tick, on any
    /// pad (as [`down_in_tick`](Self::down_in_tick) for keys).
    #[must_use]
    pub fn pad_down_in_tick(&self, button: PadButton) -> bool {
        self.pad_pressed(button) || self.pad_just_pressed(button)
    }

    /// The axis over every connected pad (the one pushed furthest wins),
    /// with the [dead zone](crate::game_loop::STICK_DEAD_ZONE) removed: 0 when no pad
    /// is connected or the stick rests.
    #[must_use]
    pub fn pad_axis(&self, axis: PadAxis) -> f32 {
        apply_dead_zone(self.pads.strongest(axis))
    }

    /// One pad's axis as the pad reported it (no dead zone); `None` if that
    /// pad is not connected.
    #[must_use]
    pub fn pad_axis_raw(&self, pad: PadId, axis: PadAxis) -> Option<f32> {
        self.pads.axis(pad, axis)
    }

    /// The left stick as a vector (x right, y up), dead zone removed.
    #[must_use]
    pub fn left_stick(&self) -> Vec2 {
        Vec2::new(self.pad_axis(PadAxis::LeftX), self.pad_axis(PadAxis::LeftY))
    }

    /// The right stick as a vector (x right, y up), dead zone removed.
    #[must_use]
    pub fn right_stick(&self) -> Vec2 {
        Vec2::new(
            self.pad_axis(PadAxis::RightX),
            self.pad_axis(PadAxis::RightY),
        )
    }
}

fn finite(v: Vec2) -> Option<Vec2> {
    v.is_finite().then_some(v)
}

#[cfg(test)]
mod key_tests {
    use super::*;

    #[test]
    fn key_and_button_indices_round_trip() {
        for (i, key) in Key::ALL.iter().enumerate() {
            assert_eq!(usize::from(key.index()), i);
            assert_eq!(Key::from_index(key.index()), Some(*key));
        }
        for button in MouseButton::ALL {
            assert_eq!(MouseButton::from_index(button.index()), Some(button));
        }
        assert_eq!(Key::from_index(200), None);
    }
}
