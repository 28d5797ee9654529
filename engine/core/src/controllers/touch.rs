//! [`TouchControls`]: an on-screen joystick, look area and buttons for
//! touch screens, read from the scene's [`Input`] touches.
//!
//! Each finger gets a role when it lands, kept until it lifts:
//! - on a button: holds that button;
//! - elsewhere in the left half: a floating joystick centred where it landed;
//! - elsewhere in the right half: look, by how far it drags.
//!
//! Everything is computed from recorded input (touches and the
//! [viewport](Input::viewport)), so a replay reads the same controls; the
//! engine's UI overlay draws them from the same state.

use std::collections::BTreeMap;

use glam::Vec2;

use crate::game_loop::Input;

/// One on-screen button.
#[derive(Debug, Clone, PartialEq)]
pub struct TouchButton {
    /// What the overlay writes on it.
    pub label: String,
    /// Where its centre sits, as a fraction of the viewport (0,0 top left).
    pub anchor: Vec2,
    /// Its radius in pixels.
    pub radius: f32,
}

impl TouchButton {
    /// A button labelled `label` centred at `anchor` (fraction of the
    /// viewport) with `radius` pixels.
    #[must_use]
    pub fn new(label: impl Into<String>, anchor: Vec2, radius: f32) -> Self {
        Self {
            label: label.into(),
            anchor,
            radius,
        }
    }

    /// Its centre in pixels for a viewport of `size`.
    #[must_use]
    pub fn center(&self, size: Vec2) -> Vec2 {
        self.anchor * size
    }
}

/// Where the controls sit and how they respond.
#[derive(Debug, Clone, PartialEq)]
pub struct TouchLayout {
    /// How far (pixels) a joystick finger moves from where it landed for a
    /// full push.
    pub joystick_radius: f32,
    /// The buttons, in the order [`TouchState::buttons`] reports them.
    pub buttons: Vec<TouchButton>,
}

impl TouchLayout {
    /// A joystick with 70 px of travel and no buttons.
    #[must_use]
    pub fn new() -> Self {
        Self {
            joystick_radius: 70.0,
            buttons: Vec::new(),
        }
    }

    /// Adds a button.
    #[must_use]
    pub fn button(mut self, button: TouchButton) -> Self {
        self.buttons.push(button);
        self
    }

    /// The first-person layout [`PlayerController`](super::PlayerController)
    /// reads: buttons 0 Jump, 1 Crouch and 2 Fly, stacked at the bottom right.
    #[must_use]
    pub fn first_person() -> Self {
        Self::new()
            .button(TouchButton::new("Jump", Vec2::new(0.88, 0.78), 48.0))
            .button(TouchButton::new("Crouch", Vec2::new(0.74, 0.86), 40.0))
            .button(TouchButton::new("Fly", Vec2::new(0.90, 0.55), 36.0))
    }
}

impl Default for TouchLayout {
    fn default() -> Self {
        Self::new()
    }
}

/// What the touch controls read this tick.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TouchState {
    /// The joystick, x right and y up, length up to 1 (0 with no finger on it).
    pub stick: Vec2,
    /// Where the joystick finger landed and where it is now, in pixels.
    pub stick_at: Option<(Vec2, Vec2)>,
    /// Pixels dragged by look fingers since the previous read (x right, y down).
    pub look: Vec2,
    /// Per layout button: held now.
    pub buttons: Vec<bool>,
    /// Per layout button: went down since the previous read.
    pub pressed: Vec<bool>,
    /// Whether any touch has been seen (the overlay shows only on touch
    /// screens).
    pub touch_seen: bool,
}

impl TouchState {
    /// Whether button `index` is held.
    #[must_use]
    pub fn held(&self, index: usize) -> bool {
        self.buttons.get(index).copied().unwrap_or(false)
    }

    /// Whether button `index` went down since the previous read.
    #[must_use]
    pub fn just_pressed(&self, index: usize) -> bool {
        self.pressed.get(index).copied().unwrap_or(false)
    }
}

/// What a finger does, fixed when it lands.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Role {
    Button(usize),
    Stick { origin: Vec2 },
    Look,
}

/// On-screen touch controls (see the module docs). Call
/// [`update`](Self::update) once per tick (or per frame, for drawing).
///
/// ```
/// use taos_core::controllers::{TouchControls, TouchLayout};
/// use taos_core::game_loop::{Input, InputEvent};
/// use taos_core::prelude::*;
///
/// let mut controls = TouchControls::new(TouchLayout::first_person());
/// let mut input = Input::default();
/// input.push(InputEvent::Viewport { width: 1000, height: 500 });
/// input.push(InputEvent::TouchStart { id: 1, at: Vec2::new(200.0, 400.0) });
/// input.begin_tick();
/// controls.update(&input);
/// input.push(InputEvent::TouchMove { id: 1, at: Vec2::new(200.0, 330.0) });
/// input.begin_tick();
/// let state = controls.update(&input);
/// assert!((state.stick - Vec2::Y).length() < 1e-5, "pushed fully up: {}", state.stick);
/// ```
#[derive(Debug, Clone, Default)]
pub struct TouchControls {
    layout: TouchLayout,
    viewport: Vec2,
    roles: BTreeMap<u64, Role>,
    last: BTreeMap<u64, Vec2>,
    state: TouchState,
}

impl TouchControls {
    /// Controls laid out by `layout`.
    #[must_use]
    pub fn new(layout: TouchLayout) -> Self {
        Self {
            layout,
            ..Self::default()
        }
    }

    /// The layout.
    #[must_use]
    pub fn layout(&self) -> &TouchLayout {
        &self.layout
    }

    /// The viewport the last update laid the controls out in (pixels).
    #[must_use]
    pub fn viewport(&self) -> Vec2 {
        self.viewport
    }

    /// What the last update read.
    #[must_use]
    pub fn state(&self) -> &TouchState {
        &self.state
    }

    /// Reads `input`'s touches: new fingers get their roles, lifted ones
    /// let go. Returns the new state (also kept for [`state`](Self::state)).
    pub fn update(&mut self, input: &Input) -> &TouchState {
        if let Some(size) = input.viewport() {
            self.viewport = size;
        }
        let count = self.layout.buttons.len();
        let was_held = std::mem::replace(&mut self.state.buttons, vec![false; count]);
        let now: BTreeMap<u64, Vec2> = input.touches().collect();
        self.roles.retain(|id, _| now.contains_key(id));
        self.last.retain(|id, _| now.contains_key(id));
        let mut state = TouchState {
            buttons: vec![false; count],
            pressed: vec![false; count],
            touch_seen: self.state.touch_seen || !now.is_empty(),
            ..TouchState::default()
        };
        for (&id, &at) in &now {
            let role = *self
                .roles
                .entry(id)
                .or_insert_with(|| Self::role_at(&self.layout, self.viewport, at));
            match role {
                Role::Button(index) => state.buttons[index] = true,
                Role::Stick { origin } => {
                    if state.stick_at.is_none() {
                        let push = (at - origin) / self.layout.joystick_radius.max(1.0);
                        state.stick = Vec2::new(push.x, -push.y).clamp_length_max(1.0);
                        state.stick_at = Some((origin, at));
                    }
                }
                Role::Look => {
                    if let Some(before) = self.last.get(&id) {
                        state.look += at - *before;
                    }
                }
            }
            self.last.insert(id, at);
        }
        for (index, pressed) in state.pressed.iter_mut().enumerate() {
            *pressed = state.buttons[index] && !was_held.get(index).copied().unwrap_or(false);
        }
        self.state = state;
        &self.state
    }

    fn role_at(layout: &TouchLayout, viewport: Vec2, at: Vec2) -> Role {
        let button = layout
            .buttons
            .iter()
            .position(|b| b.center(viewport).distance(at) <= b.radius);
        match button {
            Some(index) => Role::Button(index),
            None if at.x < viewport.x * 0.5 => Role::Stick { origin: at },
            None => Role::Look,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game_loop::InputEvent;

    fn input_of(size: (u32, u32)) -> Input {
        let mut input = Input::default();
        input.push(InputEvent::Viewport {
            width: size.0,
            height: size.1,
        });
        input
    }

    #[test]
    fn fingers_keep_the_role_they_landed_with() {
        let mut controls = TouchControls::new(TouchLayout::first_person());
        let mut input = input_of((1000, 500));
        let jump = Vec2::new(880.0, 390.0);
        input.push(InputEvent::TouchStart { id: 1, at: jump });
        input.push(InputEvent::TouchStart {
            id: 2,
            at: Vec2::new(100.0, 300.0),
        });
        input.push(InputEvent::TouchStart {
            id: 3,
            at: Vec2::new(600.0, 100.0),
        });
        input.begin_tick();
        let state = controls.update(&input).clone();
        assert!(state.held(0) && state.just_pressed(0) && !state.held(1));
        assert_eq!(state.stick, Vec2::ZERO);
        assert!(state.touch_seen);

        // The stick finger slides into the right half: still the stick. The
        // look finger drags across the jump button: still look.
        input.push(InputEvent::TouchMove {
            id: 2,
            at: Vec2::new(600.0, 300.0),
        });
        input.push(InputEvent::TouchMove { id: 3, at: jump });
        input.begin_tick();
        let state = controls.update(&input).clone();
        assert_eq!(state.stick, Vec2::X, "clamped to a full push right");
        assert_eq!(state.look, jump - Vec2::new(600.0, 100.0));
        assert!(state.held(0) && !state.just_pressed(0), "held, no new edge");

        input.push(InputEvent::TouchEnd { id: 1 });
        input.push(InputEvent::TouchEnd { id: 2 });
        input.begin_tick();
        let state = controls.update(&input).clone();
        assert!(!state.held(0) && state.stick == Vec2::ZERO && state.stick_at.is_none());
        assert_eq!(state.look, Vec2::ZERO, "a still finger looks nowhere");
    }

    #[test]
    fn without_touches_nothing_is_seen() {
        let mut controls = TouchControls::new(TouchLayout::first_person());
        let mut input = input_of((800, 600));
        input.begin_tick();
        let state = controls.update(&input);
        assert!(!state.touch_seen && state.buttons == [false; 3]);
    }
}
