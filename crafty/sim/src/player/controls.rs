//! crafty's controls: named [`CraftyAction`]s bound (rebindably) to keys,
//! mouse buttons and gamepad buttons and sticks, plus on-screen touch
//! controls, all packed into the engine's 32-bit action flags.
//!
//! One tick of play is one [`ActionFlags`] word, so a session records and
//! replays with the engine's [`Recording`](taos_core::game_loop::Recording).
//!
//! | action | keys and mouse | gamepad | touch |
//! | --- | --- | --- | --- |
//! | forward / backward | W / S | left stick up / down | joystick |
//! | strafe left / right | A / D | left stick left / right | joystick |
//! | jump (swim; rise when flying) | Space | South | Jump |
//! | descend (when flying) | Shift | East | |
//! | run | Ctrl | left stick pressed | |
//! | break / place | left / right mouse | right / left trigger | Break / Place |
//! | next / previous block | wheel, E / Q | right / left bumper | Next |
//! | toggle flying (creative) | F | North | Fly |
//! | turn / look (keyboard) | arrows | | |
//!
//! Mouse look, the right stick, touch look and the 1-9 hotbar keys act on
//! the player directly (they are view state, not simulation input).

use taos_core::controllers::{TouchButton, TouchControls, TouchLayout};
use taos_core::game_loop::{
    ActionFlags, ActionMapper, AxisSide, Bindings, GameAction, Input, Key, MouseButton, PadAxis,
    PadButton,
};
use taos_core::prelude::Vec2;

use super::actions::{Buttons, Movement, Pitch, PlayerActions, Yaw};

/// Something the player can do, for key bindings (its bit in the binding
/// set, not in crafty's packed flags).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs, reason = "the variant names are the actions")]
pub enum CraftyAction {
    Forward,
    Backward,
    StrafeLeft,
    StrafeRight,
    Jump,
    Descend,
    Run,
    Break,
    Place,
    NextBlock,
    PreviousBlock,
    ToggleFly,
    TurnLeft,
    TurnRight,
    LookUp,
    LookDown,
}

impl GameAction for CraftyAction {
    fn bit(self) -> u8 {
        self as u8
    }
}

impl CraftyAction {
    /// Every action, in the order a settings screen lists them.
    pub const ALL: [CraftyAction; 16] = [
        CraftyAction::Forward,
        CraftyAction::Backward,
        CraftyAction::StrafeLeft,
        CraftyAction::StrafeRight,
        CraftyAction::Jump,
        CraftyAction::Descend,
        CraftyAction::Run,
        CraftyAction::Break,
        CraftyAction::Place,
        CraftyAction::NextBlock,
        CraftyAction::PreviousBlock,
        CraftyAction::ToggleFly,
        CraftyAction::TurnLeft,
        CraftyAction::TurnRight,
        CraftyAction::LookUp,
        CraftyAction::LookDown,
    ];

    /// What a settings screen calls it.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            CraftyAction::Forward => "Walk forward",
            CraftyAction::Backward => "Walk backward",
            CraftyAction::StrafeLeft => "Strafe left",
            CraftyAction::StrafeRight => "Strafe right",
            CraftyAction::Jump => "Jump / swim / fly up",
            CraftyAction::Descend => "Crouch / fly down",
            CraftyAction::Run => "Run",
            CraftyAction::Break => "Break block",
            CraftyAction::Place => "Place block",
            CraftyAction::NextBlock => "Next block",
            CraftyAction::PreviousBlock => "Previous block",
            CraftyAction::ToggleFly => "Toggle flying",
            CraftyAction::TurnLeft => "Turn left",
            CraftyAction::TurnRight => "Turn right",
            CraftyAction::LookUp => "Look up",
            CraftyAction::LookDown => "Look down",
        }
    }

    /// Actions that act once per press (the others act while held).
    fn acts_on_press(self) -> bool {
        matches!(
            self,
            CraftyAction::NextBlock | CraftyAction::PreviousBlock | CraftyAction::ToggleFly
        )
    }
}

/// crafty's default bindings (the table in the module docs).
#[must_use]
pub fn default_bindings() -> Bindings<CraftyAction> {
    use CraftyAction as A;
    Bindings::new()
        .key(Key::W, A::Forward)
        .key(Key::S, A::Backward)
        .key(Key::A, A::StrafeLeft)
        .key(Key::D, A::StrafeRight)
        .key(Key::Space, A::Jump)
        .key(Key::ShiftLeft, A::Descend)
        .key(Key::ShiftRight, A::Descend)
        .key(Key::ControlLeft, A::Run)
        .key(Key::ControlRight, A::Run)
        .mouse(MouseButton::Left, A::Break)
        .mouse(MouseButton::Right, A::Place)
        .key(Key::E, A::NextBlock)
        .key(Key::Q, A::PreviousBlock)
        .key(Key::F, A::ToggleFly)
        .key(Key::ArrowLeft, A::TurnLeft)
        .key(Key::ArrowRight, A::TurnRight)
        .key(Key::ArrowUp, A::LookUp)
        .key(Key::ArrowDown, A::LookDown)
        .axis(PadAxis::LeftY, AxisSide::Positive, A::Forward)
        .axis(PadAxis::LeftY, AxisSide::Negative, A::Backward)
        .axis(PadAxis::LeftX, AxisSide::Negative, A::StrafeLeft)
        .axis(PadAxis::LeftX, AxisSide::Positive, A::StrafeRight)
        .pad(PadButton::South, A::Jump)
        .pad(PadButton::East, A::Descend)
        .pad(PadButton::LeftStick, A::Run)
        .pad(PadButton::RightTrigger, A::Break)
        .pad(PadButton::LeftTrigger, A::Place)
        .pad(PadButton::RightBumper, A::NextBlock)
        .pad(PadButton::LeftBumper, A::PreviousBlock)
        .pad(PadButton::North, A::ToggleFly)
}

/// The on-screen buttons, in [`TouchState::buttons`](taos_core::controllers::TouchState::buttons) order.
const TOUCH_ACTIONS: [CraftyAction; 5] = [
    CraftyAction::Jump,
    CraftyAction::Break,
    CraftyAction::Place,
    CraftyAction::NextBlock,
    CraftyAction::ToggleFly,
];

/// crafty's touch layout: a joystick on the left half, look on the right,
/// and Jump, Break, Place, Next and Fly buttons on the right edge.
#[must_use]
pub fn touch_layout() -> TouchLayout {
    TouchLayout::new()
        .button(TouchButton::new("Jump", Vec2::new(0.88, 0.80), 46.0))
        .button(TouchButton::new("Break", Vec2::new(0.93, 0.55), 38.0))
        .button(TouchButton::new("Place", Vec2::new(0.80, 0.58), 38.0))
        .button(TouchButton::new("Next", Vec2::new(0.74, 0.88), 30.0))
        .button(TouchButton::new("Fly", Vec2::new(0.93, 0.30), 30.0))
}

/// How far the touch joystick must be pushed to walk that way.
const TOUCH_WALK: f32 = 0.35;

/// Maps the bound inputs and the touch controls to crafty's action flags
/// (see the module docs).
#[derive(Debug, Clone)]
pub struct CraftyMapper {
    bindings: Bindings<CraftyAction>,
    touch: TouchControls,
    /// Actions on in the previous tick (press-only actions fire on the edge).
    previous: Vec<CraftyAction>,
}

impl Default for CraftyMapper {
    fn default() -> Self {
        Self::new(default_bindings())
    }
}

impl CraftyMapper {
    /// A mapper reading `bindings`.
    #[must_use]
    pub fn new(bindings: Bindings<CraftyAction>) -> Self {
        Self {
            bindings,
            touch: TouchControls::new(touch_layout()),
            previous: Vec::new(),
        }
    }

    /// The actions on this tick (bound inputs and touch).
    fn actions_on(&mut self, input: &Input) -> Vec<CraftyAction> {
        let flags = self.bindings.map(input);
        let touch = self.touch.update(input);
        let stick = touch.stick;
        let mut on: Vec<CraftyAction> = CraftyAction::ALL
            .into_iter()
            .filter(|a| flags.0 & a.mask() != 0)
            .collect();
        let from_touch = [
            (stick.y > TOUCH_WALK, CraftyAction::Forward),
            (stick.y < -TOUCH_WALK, CraftyAction::Backward),
            (stick.x < -TOUCH_WALK, CraftyAction::StrafeLeft),
            (stick.x > TOUCH_WALK, CraftyAction::StrafeRight),
        ]
        .into_iter()
        .chain(
            TOUCH_ACTIONS
                .iter()
                .enumerate()
                .map(|(i, &a)| (touch.held(i), a)),
        );
        for (held, action) in from_touch {
            if held && !on.contains(&action) {
                on.push(action);
            }
        }
        on
    }
}

impl ActionMapper for CraftyMapper {
    fn map(&mut self, input: &Input) -> ActionFlags {
        let on = self.actions_on(input);
        let previous = std::mem::replace(&mut self.previous, on.clone());
        let held = |a: CraftyAction| on.contains(&a);
        let fires = |a: CraftyAction| held(a) && !(a.acts_on_press() && previous.contains(&a));
        let wheel = input.wheel();
        use CraftyAction as A;
        PlayerActions {
            yaw: Yaw::Relative {
                turn_left: fires(A::TurnLeft),
                turn_right: fires(A::TurnRight),
                sidestep_dont_turn: false,
                look_left: false,
                look_right: false,
            },
            pitch: Pitch::Relative {
                look_up: fires(A::LookUp),
                look_down: fires(A::LookDown),
                look_center: false,
            },
            movement: Movement::Relative {
                forward: fires(A::Forward),
                backward: fires(A::Backward),
                run: fires(A::Run),
                look_dont_turn: fires(A::Descend),
            },
            buttons: Buttons {
                sidestep_left: fires(A::StrafeLeft),
                sidestep_right: fires(A::StrafeRight),
                primary: fires(A::Break),
                secondary: fires(A::Place),
                action: false,
                next_weapon: wheel < 0.0 || fires(A::NextBlock),
                previous_weapon: wheel > 0.0 || fires(A::PreviousBlock),
                toggle_map: fires(A::ToggleFly),
                microphone: false,
                swim: fires(A::Jump),
            },
        }
        .encode()
    }
}

#[cfg(test)]
mod tests {
    use taos_core::game_loop::InputEvent;

    use super::*;
    use crate::player::actions::ActionFlagsExt;

    fn tick(mapper: &mut CraftyMapper, input: &mut Input, events: &[InputEvent]) -> PlayerActions {
        for event in events {
            input.push(*event);
        }
        input.begin_tick();
        mapper.map(input).decode()
    }

    #[test]
    fn defaults_map_keys_mouse_and_pad_and_press_actions_fire_once() {
        let mut mapper = CraftyMapper::default();
        let mut input = Input::default();
        let a = tick(
            &mut mapper,
            &mut input,
            &[
                InputEvent::KeyDown(Key::W),
                InputEvent::KeyDown(Key::E),
                InputEvent::MouseDown(MouseButton::Left),
            ],
        );
        assert!(matches!(
            a.movement,
            Movement::Relative { forward: true, .. }
        ));
        assert!(a.buttons.next_weapon && a.buttons.primary);
        let a = tick(&mut mapper, &mut input, &[]);
        assert!(!a.buttons.next_weapon, "E held: the next block comes once");
        assert!(a.buttons.primary, "break acts while held");

        let a = tick(
            &mut mapper,
            &mut input,
            &[
                InputEvent::PadAxis {
                    pad: 0,
                    axis: PadAxis::LeftX,
                    value: -0.9,
                },
                InputEvent::PadDown {
                    pad: 0,
                    button: PadButton::South,
                },
            ],
        );
        assert!(a.buttons.sidestep_left && a.buttons.swim);
    }

    #[test]
    fn a_rebound_action_follows_its_new_key() {
        let mut bindings = default_bindings();
        bindings.set_keys(CraftyAction::Jump, &[Key::J]);
        let mut mapper = CraftyMapper::new(bindings);
        let mut input = Input::default();
        let a = tick(&mut mapper, &mut input, &[InputEvent::KeyDown(Key::Space)]);
        assert!(!a.buttons.swim, "Space no longer jumps");
        let a = tick(&mut mapper, &mut input, &[InputEvent::KeyDown(Key::J)]);
        assert!(a.buttons.swim);
    }

    #[test]
    fn the_touch_joystick_walks_and_touch_buttons_act() {
        let mut mapper = CraftyMapper::default();
        let mut input = Input::default();
        let finger = Vec2::new(200.0, 400.0);
        tick(
            &mut mapper,
            &mut input,
            &[
                InputEvent::Viewport {
                    width: 1000,
                    height: 500,
                },
                InputEvent::TouchStart { id: 4, at: finger },
            ],
        );
        let a = tick(
            &mut mapper,
            &mut input,
            &[
                InputEvent::TouchMove {
                    id: 4,
                    at: finger + Vec2::new(60.0, -60.0),
                },
                // The Place button.
                InputEvent::TouchStart {
                    id: 5,
                    at: Vec2::new(800.0, 290.0),
                },
            ],
        );
        assert!(matches!(
            a.movement,
            Movement::Relative { forward: true, .. }
        ));
        assert!(a.buttons.sidestep_right && a.buttons.secondary && !a.buttons.primary);
    }
}
