//! Play's input: mouse look (once the pointer is grabbed), the right
//! stick and touch drags, the keys that open the pause menu and the block
//! picker, and the hotbar's number keys.

use taos_engine::game_loop::{Input, InputEvent, Key, MouseButton};
use taos_engine::{Engine, WindowEvent};

use super::{Play, Reaction};
use crate::game::state_mut;

/// Radians per second the right stick turns the view at full tilt (at
/// sensitivity 1).
const PAD_LOOK_SPEED: f32 = 2.5;
/// The longest frame gamepad look integrates over (a stall does not spin
/// the view).
const MAX_LOOK_FRAME_MS: u64 = 100;
/// Opens and closes the block picker.
const PICKER_KEY: Key = Key::B;

impl Play {
    /// Mouse-free look: the right stick over this frame, and touch drags.
    pub(super) fn look_without_mouse(&mut self, engine: &mut Engine, now_ms: u64) {
        let frame_ms = self
            .last_update_ms
            .map_or(0, |last| now_ms.saturating_sub(last).min(MAX_LOOK_FRAME_MS));
        self.last_update_ms = Some(now_ms);
        let Some(input) = engine.scene().world().get_resource::<Input>() else {
            return;
        };
        let stick = input.right_stick();
        let drag = self.touch.update(input).look;
        if self.menu_open {
            return;
        }
        let speed = PAD_LOOK_SPEED * self.settings.mouse_sensitivity * frame_ms as f32 / 1000.0;
        let per_pixel = self.settings.look_radians_per_pixel();
        let (yaw, pitch) = (
            -stick.x * speed - drag.x * per_pixel,
            stick.y * speed - drag.y * per_pixel,
        );
        if yaw != 0.0 || pitch != 0.0 {
            crate::game::look(engine.game_loop(), yaw, pitch);
        }
    }

    /// Handles a window event before the engine does.
    pub(in crate::app) fn on_window_event(
        &mut self,
        engine: &mut Engine,
        event: &WindowEvent,
    ) -> Reaction {
        if let Some(reaction) = self.chat_event(engine, event) {
            return reaction;
        }
        match *event {
            WindowEvent::Input {
                event: InputEvent::MouseDown(_),
                ui_consumed: false,
            } if self.picker_open => {
                // A click beside the picker closes it and breaks nothing.
                self.picker_open = false;
                Reaction::Handled
            }
            WindowEvent::Input {
                event: InputEvent::MouseDown(MouseButton::Left),
                ui_consumed: false,
            } if !self.captured && !self.menu_open => {
                // The click that grabs the pointer breaks nothing.
                self.capture(engine, true);
                Reaction::Handled
            }
            WindowEvent::MouseMotion { delta } if self.captured => {
                let turn = -delta * self.settings.look_radians_per_pixel();
                // The camera follows in this frame's update_render, not at the next tick.
                crate::game::look(engine.game_loop(), turn.x, turn.y);
                Reaction::Handled
            }
            WindowEvent::Focused(false) => {
                // The engine lets go of held keys after this.
                self.capture(engine, false);
                Reaction::Continue
            }
            WindowEvent::Input {
                event: InputEvent::KeyDown(Key::F10),
                ..
            } => Reaction::Leave,
            WindowEvent::Input {
                event: InputEvent::KeyDown(Key::Escape),
                ..
            } if self.picker_open => {
                self.picker_open = false;
                Reaction::Handled
            }
            WindowEvent::Input {
                event: InputEvent::KeyDown(Key::Escape),
                ..
            } => {
                self.set_menu_open(engine, !self.menu_open);
                Reaction::Handled
            }
            WindowEvent::Input {
                event: InputEvent::KeyDown(PICKER_KEY),
                ..
            } if !self.menu_open => {
                // The pointer goes free to click in the picker; the world
                // goes on.
                self.picker_open = !self.picker_open;
                if self.picker_open {
                    self.capture(engine, false);
                }
                engine.request_redraw();
                Reaction::Handled
            }
            WindowEvent::Input {
                event:
                    InputEvent::PadDown {
                        button: taos_engine::game_loop::PadButton::Start,
                        ..
                    },
                ..
            } => {
                self.set_menu_open(engine, !self.menu_open);
                Reaction::Handled
            }
            WindowEvent::Input {
                event: InputEvent::KeyDown(key),
                ..
            } => {
                if let Some(slot) = hotbar_key(key) {
                    state_mut(engine.game_loop()).player.hotbar.select(slot);
                }
                Reaction::Continue
            }
            _ => Reaction::Continue,
        }
    }

    pub(super) fn capture(&mut self, engine: &mut Engine, on: bool) {
        self.captured = engine.set_pointer_locked(on) && on;
    }
}

/// Keys 1 to 9 pick hotbar slots 0 to 8.
fn hotbar_key(key: Key) -> Option<usize> {
    key.digit()
        .and_then(|digit| digit.checked_sub(1))
        .map(usize::from)
}
