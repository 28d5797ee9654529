//! Window input to engine input: winit's keys, buttons, cursor and wheel as
//! the loop's [`InputEvent`]s (the only place that names winit's key codes).

use winit::event::{
    DeviceEvent, ElementState, Ime, MouseButton as WinitButton, MouseScrollDelta, Touch,
    TouchPhase, WindowEvent,
};
use winit::keyboard::{KeyCode, PhysicalKey};

use crate::game_loop::{InputEvent, Key, MouseButton};

/// The engine's input event for a winit window event (keys, mouse buttons,
/// cursor, wheel); `None` for events that are not input. Apps driving their
/// own winit loop feed the result to [`GameLoop::push_input`](crate::game_loop::GameLoop::push_input).
#[must_use]
pub fn input_from_window_event(event: &WindowEvent) -> Option<InputEvent> {
    match event {
        WindowEvent::KeyboardInput { event, .. } => match event.physical_key {
            PhysicalKey::Code(code) => map_key(code).map(|key| match event.state {
                ElementState::Pressed => InputEvent::KeyDown(key),
                ElementState::Released => InputEvent::KeyUp(key),
            }),
            PhysicalKey::Unidentified(_) => None,
        },
        WindowEvent::MouseInput { state, button, .. } => map_button(*button).map(|b| match state {
            ElementState::Pressed => InputEvent::MouseDown(b),
            ElementState::Released => InputEvent::MouseUp(b),
        }),
        WindowEvent::CursorMoved { position, .. } => Some(InputEvent::CursorMoved(
            glam::Vec2::new(position.x as f32, position.y as f32),
        )),
        WindowEvent::MouseWheel { delta, .. } => Some(InputEvent::Wheel(match delta {
            MouseScrollDelta::LineDelta(_, y) => *y,
            MouseScrollDelta::PixelDelta(p) => p.y as f32 / 40.0,
        })),
        WindowEvent::Touch(Touch {
            phase,
            location,
            id,
            ..
        }) => {
            let at = glam::Vec2::new(location.x as f32, location.y as f32);
            let id = *id;
            Some(match phase {
                TouchPhase::Started => InputEvent::TouchStart { id, at },
                TouchPhase::Moved => InputEvent::TouchMove { id, at },
                TouchPhase::Ended | TouchPhase::Cancelled => InputEvent::TouchEnd { id },
            })
        }
        _ => None,
    }
}

/// The typed characters a winit window event carries, as
/// [`InputEvent::Text`]: the text of a key press (after layout and dead
/// keys) and an input method's committed text. Empty for other events.
/// Control characters (Backspace, Enter, Tab, Esc) are left out: read them as
/// keys from [`input_from_window_event`].
pub fn text_from_window_event(event: &WindowEvent) -> impl Iterator<Item = InputEvent> + '_ {
    let text = match event {
        WindowEvent::KeyboardInput { event, .. } if event.state == ElementState::Pressed => {
            event.text.as_deref()
        }
        WindowEvent::Ime(Ime::Commit(text)) => Some(text.as_str()),
        _ => None,
    };
    text.unwrap_or_default()
        .chars()
        .filter(|c| !c.is_control())
        .map(InputEvent::Text)
}

fn map_button(button: WinitButton) -> Option<MouseButton> {
    Some(match button {
        WinitButton::Left => MouseButton::Left,
        WinitButton::Right => MouseButton::Right,
        WinitButton::Middle => MouseButton::Middle,
        WinitButton::Back => MouseButton::Back,
        WinitButton::Forward => MouseButton::Forward,
        WinitButton::Other(_) => return None,
    })
}

#[rustfmt::skip]
fn map_key(code: KeyCode) -> Option<Key> {
    use KeyCode as C;
    Some(match code {
        C::KeyA => Key::A, C::KeyB => Key::B, C::KeyC => Key::C, C::KeyD => Key::D,
        C::KeyE => Key::E, C::KeyF => Key::F, C::KeyG => Key::G, C::KeyH => Key::H,
        C::KeyI => Key::I, C::KeyJ => Key::J, C::KeyK => Key::K, C::KeyL => Key::L,
        C::KeyM => Key::M, C::KeyN => Key::N, C::KeyO => Key::O, C::KeyP => Key::P,
        C::KeyQ => Key::Q, C::KeyR => Key::R, C::KeyS => Key::S, C::KeyT => Key::T,
        C::KeyU => Key::U, C::KeyV => Key::V, C::KeyW => Key::W, C::KeyX => Key::X,
        C::KeyY => Key::Y, C::KeyZ => Key::Z,
        C::Digit0 => Key::Digit0, C::Digit1 => Key::Digit1, C::Digit2 => Key::Digit2,
        C::Digit3 => Key::Digit3, C::Digit4 => Key::Digit4, C::Digit5 => Key::Digit5,
        C::Digit6 => Key::Digit6, C::Digit7 => Key::Digit7, C::Digit8 => Key::Digit8,
        C::Digit9 => Key::Digit9,
        C::Space => Key::Space, C::Enter => Key::Enter, C::Escape => Key::Escape,
        C::Tab => Key::Tab, C::Backspace => Key::Backspace,
        C::ShiftLeft => Key::ShiftLeft, C::ShiftRight => Key::ShiftRight,
        C::ControlLeft => Key::ControlLeft, C::ControlRight => Key::ControlRight,
        C::AltLeft => Key::AltLeft, C::AltRight => Key::AltRight,
        C::ArrowUp => Key::ArrowUp, C::ArrowDown => Key::ArrowDown,
        C::ArrowLeft => Key::ArrowLeft, C::ArrowRight => Key::ArrowRight,
        C::F1 => Key::F1, C::F2 => Key::F2, C::F3 => Key::F3, C::F4 => Key::F4,
        C::F5 => Key::F5, C::F6 => Key::F6, C::F7 => Key::F7, C::F8 => Key::F8,
        C::F9 => Key::F9, C::F10 => Key::F10, C::F11 => Key::F11, C::F12 => Key::F12,
        _ => return None,
    })
}

/// The engine's window event for a winit device event: relative mouse
/// motion (which keeps coming while the pointer is locked, and which the
/// controllers read as [`Input::mouse_motion`](crate::game_loop::Input::mouse_motion));
/// `None` for the rest.
#[must_use]
pub fn window_event_from_device(event: &DeviceEvent) -> Option<crate::WindowEvent> {
    match event {
        DeviceEvent::MouseMotion { delta: (x, y) } => Some(crate::WindowEvent::MouseMotion {
            delta: glam::Vec2::new(*x as f32, *y as f32),
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_mouse_motion_becomes_the_engines_motion_event() {
        let motion = DeviceEvent::MouseMotion {
            delta: (200.0, -12.5),
        };
        assert_eq!(
            window_event_from_device(&motion),
            Some(crate::WindowEvent::MouseMotion {
                delta: glam::Vec2::new(200.0, -12.5)
            })
        );
        let wheel = DeviceEvent::MouseWheel {
            delta: MouseScrollDelta::LineDelta(0.0, 1.0),
        };
        assert_eq!(
            window_event_from_device(&wheel),
            None,
            "the window reports the wheel"
        );
    }

    #[test]
    fn an_input_methods_commit_types_its_characters_without_controls() {
        let event = WindowEvent::Ime(Ime::Commit("日本\tgo\n".to_owned()));
        let typed: String = text_from_window_event(&event)
            .map(|event| match event {
                InputEvent::Text(c) => c,
                other => panic!("not text: {other:?}"),
            })
            .collect();
        assert_eq!(typed, "日本go");
        assert_eq!(input_from_window_event(&event), None);
        let preedit = WindowEvent::Ime(Ime::Preedit("に".to_owned(), None));
        assert_eq!(
            text_from_window_event(&preedit).count(),
            0,
            "not committed yet"
        );
    }
}
