//! crafty's key bindings, as the engine's 32-bit action flags.
//!
//! One tick of play is one [`ActionFlags`] word, so a session records and
//! replays with the engine's [`Recording`](taos_engine::game_loop::Recording).
//!
//! | input | flag |
//! | --- | --- |
//! | W / S | forward / backward |
//! | A / D | sidestep left / right |
//! | Space | swim (jump; rise when flying) |
//! | Shift | look-don't-turn (sink when flying) |
//! | Ctrl | run (sprint) |
//! | arrows | turn left/right, look up/down (keyboard look) |
//! | left / right mouse | primary (break) / secondary (place) |
//! | wheel, Q / E | previous / next weapon (hotbar slot) |
//! | F | toggle map (fly on/off, creative only) |
//!
//! Mouse look and the 1-9 hotbar keys act on the player directly (they are
//! view state, not simulation input).

use taos_engine::game_loop::{ActionFlags, ActionMapper, Input, Key, MouseButton};

use super::actions::{Buttons, Movement, Pitch, PlayerActions, Yaw};

/// Maps keyboard and mouse to crafty's action flags (see the module docs).
#[derive(Debug, Clone, Copy, Default)]
pub struct CraftyMapper;

impl ActionMapper for CraftyMapper {
    fn map(&mut self, input: &Input) -> ActionFlags {
        let k = |key| input.down_in_tick(key);
        let wheel = input.wheel();
        PlayerActions {
            yaw: Yaw::Relative {
                turn_left: k(Key::ArrowLeft),
                turn_right: k(Key::ArrowRight),
                sidestep_dont_turn: false,
                look_left: false,
                look_right: false,
            },
            pitch: Pitch::Relative {
                look_up: k(Key::ArrowUp),
                look_down: k(Key::ArrowDown),
                look_center: false,
            },
            movement: Movement::Relative {
                forward: k(Key::W),
                backward: k(Key::S),
                run: k(Key::ControlLeft) || k(Key::ControlRight),
                look_dont_turn: k(Key::ShiftLeft) || k(Key::ShiftRight),
            },
            buttons: Buttons {
                sidestep_left: k(Key::A),
                sidestep_right: k(Key::D),
                primary: input.mouse_down_in_tick(MouseButton::Left),
                secondary: input.mouse_down_in_tick(MouseButton::Right),
                action: false,
                next_weapon: wheel < 0.0 || input.just_pressed(Key::E),
                previous_weapon: wheel > 0.0 || input.just_pressed(Key::Q),
                toggle_map: input.just_pressed(Key::F),
                microphone: false,
                swim: k(Key::Space),
            },
        }
        .encode()
    }
}
