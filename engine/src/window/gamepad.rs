//! Gamepads for the window loop: gilrs events as the loop's pad
//! [`InputEvent`]s (the only place that names gilrs's types).
//!
//! Pads already plugged in when the window opens are announced with
//! [`InputEvent::PadConnected`] first; later plugs and unplugs arrive as they
//! happen. If the platform offers no gamepad access (no udev, a sandbox),
//! one line is logged and the game runs without pads.

use crate::game_loop::InputEvent;

/// How often an idle window wakes to look for pad input while a pad is
/// connected (pads do not wake the window's event loop by themselves).
pub(super) const PAD_POLL: std::time::Duration = std::time::Duration::from_millis(16);

/// The gamepad source of a window.
pub(super) struct Gamepads {
    #[cfg(all(feature = "gamepad", not(target_arch = "wasm32")))]
    gilrs: Option<gilrs::Gilrs>,
    /// Events waiting to be handed out (the pads found at start).
    queued: Vec<InputEvent>,
    connected: usize,
}

impl Gamepads {
    /// Opens the platform's gamepad access.
    pub(super) fn open() -> Self {
        #[cfg(all(feature = "gamepad", not(target_arch = "wasm32")))]
        {
            let gilrs = match gilrs::Gilrs::new() {
                Ok(gilrs) => Some(gilrs),
                Err(gilrs::Error::NotImplemented(_)) => {
                    log::info!("gamepads are not supported on this platform");
                    None
                }
                Err(e) => {
                    log::warn!("no gamepads: {e}");
                    None
                }
            };
            let queued: Vec<InputEvent> = gilrs
                .iter()
                .flat_map(|g| g.gamepads())
                .map(|(id, pad)| {
                    log::info!("gamepad {} connected: {}", usize::from(id), pad.name());
                    InputEvent::PadConnected { pad: pad_id(id) }
                })
                .collect();
            let connected = queued.len();
            Self {
                gilrs,
                queued,
                connected,
            }
        }
        #[cfg(not(all(feature = "gamepad", not(target_arch = "wasm32"))))]
        Self {
            queued: Vec::new(),
            connected: 0,
        }
    }

    /// Whether any pad is connected (the window then polls while idle).
    pub(super) fn any_connected(&self) -> bool {
        self.connected > 0
    }

    /// Every pad event since the last call, in order.
    pub(super) fn poll(&mut self) -> Vec<InputEvent> {
        #[cfg_attr(
            not(all(feature = "gamepad", not(target_arch = "wasm32"))),
            expect(unused_mut, reason = "only pads add to it")
        )]
        let mut events = std::mem::take(&mut self.queued);
        #[cfg(all(feature = "gamepad", not(target_arch = "wasm32")))]
        if let Some(gilrs) = &mut self.gilrs {
            while let Some(gilrs::Event { id, event, .. }) = gilrs.next_event() {
                if let Some(ours) = change_of(event).and_then(|c| translate(pad_id(id), c)) {
                    events.push(ours);
                }
            }
        }
        for event in &events {
            match event {
                InputEvent::PadConnected { .. } => self.connected += 1,
                InputEvent::PadDisconnected { .. } => {
                    self.connected = self.connected.saturating_sub(1);
                }
                _ => {}
            }
        }
        events
    }
}

#[cfg(all(feature = "gamepad", not(target_arch = "wasm32")))]
fn pad_id(id: gilrs::GamepadId) -> crate::game_loop::PadId {
    u32::try_from(usize::from(id)).unwrap_or(u32::MAX)
}

/// What happened on a pad, without gilrs's platform codes (which only
/// gilrs can make, so tests build these instead).
#[cfg(all(feature = "gamepad", not(target_arch = "wasm32")))]
#[derive(Debug, Clone, Copy)]
enum Change {
    Connected,
    Disconnected,
    Pressed(gilrs::Button),
    Released(gilrs::Button),
    ButtonValue(gilrs::Button, f32),
    Axis(gilrs::Axis, f32),
}

/// The parts of a gilrs event the loop models; `None` for repeats, dropped
/// events and force feedback.
#[cfg(all(feature = "gamepad", not(target_arch = "wasm32")))]
fn change_of(event: gilrs::EventType) -> Option<Change> {
    use gilrs::EventType as E;
    Some(match event {
        E::Connected => Change::Connected,
        E::Disconnected => Change::Disconnected,
        E::ButtonPressed(button, _) => Change::Pressed(button),
        E::ButtonReleased(button, _) => Change::Released(button),
        E::ButtonChanged(button, value, _) => Change::ButtonValue(button, value),
        E::AxisChanged(axis, value, _) => Change::Axis(axis, value),
        _ => return None,
    })
}

/// The loop's event for one pad change; `None` for what the loop does not
/// model (unknown buttons, the d-pad as axes, which gilrs already reports
/// as buttons, analog values of digital buttons).
#[cfg(all(feature = "gamepad", not(target_arch = "wasm32")))]
fn translate(pad: crate::game_loop::PadId, change: Change) -> Option<InputEvent> {
    use crate::game_loop::PadAxis;
    use gilrs::{Axis, Button};
    Some(match change {
        Change::Connected => InputEvent::PadConnected { pad },
        Change::Disconnected => InputEvent::PadDisconnected { pad },
        Change::Pressed(button) => InputEvent::PadDown {
            pad,
            button: map_button(button)?,
        },
        Change::Released(button) => InputEvent::PadUp {
            pad,
            button: map_button(button)?,
        },
        Change::ButtonValue(button, value) => InputEvent::PadAxis {
            pad,
            axis: match button {
                Button::LeftTrigger2 => PadAxis::LeftTrigger,
                Button::RightTrigger2 => PadAxis::RightTrigger,
                _ => return None,
            },
            value,
        },
        Change::Axis(axis, value) => InputEvent::PadAxis {
            pad,
            axis: match axis {
                Axis::LeftStickX => PadAxis::LeftX,
                Axis::LeftStickY => PadAxis::LeftY,
                Axis::RightStickX => PadAxis::RightX,
                Axis::RightStickY => PadAxis::RightY,
                Axis::LeftZ => PadAxis::LeftTrigger,
                Axis::RightZ => PadAxis::RightTrigger,
                Axis::DPadX | Axis::DPadY | Axis::Unknown => return None,
            },
            value,
        },
    })
}

#[cfg(all(feature = "gamepad", not(target_arch = "wasm32")))]
fn map_button(button: gilrs::Button) -> Option<crate::game_loop::PadButton> {
    use crate::game_loop::PadButton as P;
    use gilrs::Button as G;
    Some(match button {
        G::South => P::South,
        G::East => P::East,
        G::North => P::North,
        G::West => P::West,
        G::LeftTrigger => P::LeftBumper,
        G::RightTrigger => P::RightBumper,
        G::LeftTrigger2 => P::LeftTrigger,
        G::RightTrigger2 => P::RightTrigger,
        G::Select => P::Select,
        G::Start => P::Start,
        G::Mode => P::Mode,
        G::LeftThumb => P::LeftStick,
        G::RightThumb => P::RightStick,
        G::DPadUp => P::DPadUp,
        G::DPadDown => P::DPadDown,
        G::DPadLeft => P::DPadLeft,
        G::DPadRight => P::DPadRight,
        G::C | G::Z | G::Unknown => return None,
    })
}

#[cfg(all(test, feature = "gamepad", not(target_arch = "wasm32")))]
mod tests {
    use gilrs::{Axis, Button};

    use super::{Change, translate};
    use crate::game_loop::{InputEvent, PadAxis, PadButton};

    #[test]
    fn gilrs_changes_become_pad_events() {
        assert_eq!(
            translate(2, Change::Pressed(Button::South)),
            Some(InputEvent::PadDown {
                pad: 2,
                button: PadButton::South
            })
        );
        assert_eq!(
            translate(2, Change::Released(Button::LeftTrigger)),
            Some(InputEvent::PadUp {
                pad: 2,
                button: PadButton::LeftBumper
            })
        );
        assert_eq!(
            translate(0, Change::ButtonValue(Button::RightTrigger2, 0.75)),
            Some(InputEvent::PadAxis {
                pad: 0,
                axis: PadAxis::RightTrigger,
                value: 0.75
            })
        );
        assert_eq!(
            translate(0, Change::Axis(Axis::LeftStickY, -0.5)),
            Some(InputEvent::PadAxis {
                pad: 0,
                axis: PadAxis::LeftY,
                value: -0.5
            })
        );
        assert_eq!(
            translate(5, Change::Disconnected),
            Some(InputEvent::PadDisconnected { pad: 5 })
        );
        assert_eq!(translate(0, Change::ButtonValue(Button::South, 1.0)), None);
        assert_eq!(translate(0, Change::Pressed(Button::Unknown)), None);
        assert_eq!(translate(0, Change::Axis(Axis::DPadX, 1.0)), None);
    }
}
