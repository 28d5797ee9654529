//! The settings screen: sliders for look sensitivity, field of view and
//! volumes, the touch-controls switch, and every action's bindings, each
//! rebound by clicking it and pressing a key, mouse button or gamepad
//! button. Opened from the launcher and from the pause menu.

use taos_engine::egui::{self, Color32, RichText};
use taos_engine::game_loop::{AxisSide, Bindings, InputEvent, Key, PadAxis};

use crate::particles::ParticleLevel;
use crate::player::{CraftyAction, default_bindings};
use crate::settings::{PlayerSettings, Settings, ShadowQuality, TouchMode};

/// What the player decided.
pub(super) enum SettingsOutcome {
    /// Keep these (save and apply them).
    Save(PlayerSettings),
    /// Leave without changing anything.
    Cancel,
}

/// The screen's state while open: a draft the player edits.
pub(super) struct SettingsScreen {
    draft: PlayerSettings,
    /// The action waiting for its new key or button.
    waiting: Option<CraftyAction>,
}

impl SettingsScreen {
    pub(super) fn new(current: &PlayerSettings) -> Self {
        Self {
            draft: PlayerSettings {
                warnings: Vec::new(),
                ..current.clone()
            },
            waiting: None,
        }
    }

    /// Whether a press would be taken as a new binding (the game should
    /// not see it).
    pub(super) fn is_capturing(&self) -> bool {
        self.waiting.is_some()
    }

    /// Takes a press as the waiting action's new binding: a key or mouse
    /// button replaces its keyboard-and-mouse bindings, a gamepad button its
    /// gamepad buttons (its stick stays). Esc cancels. Returns whether the
    /// event was used.
    pub(super) fn capture(&mut self, event: &InputEvent) -> bool {
        let Some(action) = self.waiting else {
            return false;
        };
        let bindings = &mut self.draft.bindings;
        match *event {
            InputEvent::KeyDown(Key::Escape) => {}
            InputEvent::KeyDown(key) => {
                bindings.set_keys(action, &[key]);
                bindings.set_buttons(action, &[]);
            }
            InputEvent::MouseDown(button) => {
                bindings.set_buttons(action, &[button]);
                bindings.set_keys(action, &[]);
            }
            InputEvent::PadDown { button, .. } => bindings.set_pad_buttons(action, &[button]),
            _ => return false,
        }
        self.waiting = None;
        true
    }

    /// Draws the screen; returns the outcome once the player leaves it.
    pub(super) fn ui(&mut self, ui: &mut egui::Ui) -> Option<SettingsOutcome> {
        let mut outcome = None;
        egui::Window::new("Settings")
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
            .show(ui.ctx(), |ui| {
                self.sliders(ui);
                ui.separator();
                self.bindings_grid(ui);
                ui.separator();
                ui.horizontal(|ui| {
                    if ui.button("Save").clicked() {
                        outcome = Some(SettingsOutcome::Save(self.draft.clone()));
                    }
                    if ui.button("Cancel").clicked() {
                        outcome = Some(SettingsOutcome::Cancel);
                    }
                    if ui.button("Reset all to defaults").clicked() {
                        self.draft = PlayerSettings::default();
                        self.waiting = None;
                    }
                });
            });
        outcome
    }

    fn sliders(&mut self, ui: &mut egui::Ui) {
        let s = &mut self.draft.settings;
        egui::Grid::new("settings-sliders")
            .num_columns(2)
            .show(ui, |ui| {
                ui.label("Look sensitivity");
                ui.add(
                    egui::Slider::new(&mut s.mouse_sensitivity, Settings::SENSITIVITY)
                        .logarithmic(true),
                );
                ui.end_row();
                ui.label("Field of view");
                ui.add(egui::Slider::new(&mut s.fov_degrees, Settings::FOV).suffix("°"));
                ui.end_row();
                ui.label("View distance");
                ui.add(
                    egui::Slider::new(&mut s.view_distance, crate::settings::VIEW_DISTANCES)
                        .suffix(" chunks"),
                );
                ui.end_row();
                ui.label("Shadows");
                ui.horizontal(|ui| {
                    for quality in ShadowQuality::ALL {
                        ui.radio_value(&mut s.shadows, quality, quality.label());
                    }
                });
                ui.end_row();
                ui.label("Light shafts");
                ui.checkbox(&mut s.light_shafts, "From the sun and moon");
                ui.end_row();
                ui.label("Particles");
                ui.horizontal(|ui| {
                    for level in ParticleLevel::ALL {
                        ui.radio_value(&mut s.particles, level, level.label());
                    }
                });
                ui.end_row();
                ui.label("Volume");
                ui.add(percent(&mut s.master_volume));
                ui.end_row();
                ui.label("Effects volume");
                ui.add(percent(&mut s.effects_volume));
                ui.end_row();
                ui.label("Touch controls");
                ui.horizontal(|ui| {
                    ui.radio_value(&mut s.touch, TouchMode::Auto, "On a touch screen");
                    ui.radio_value(&mut s.touch, TouchMode::Off, "Never");
                });
                ui.end_row();
            });
    }

    fn bindings_grid(&mut self, ui: &mut egui::Ui) {
        ui.label(RichText::new("Controls").strong());
        ui.label("Click a binding, then press the new key, mouse button or gamepad button (Esc cancels).");
        egui::ScrollArea::vertical()
            .max_height(280.0)
            .show(ui, |ui| {
                egui::Grid::new("settings-bindings")
                    .num_columns(3)
                    .striped(true)
                    .show(ui, |ui| {
                        for action in CraftyAction::ALL {
                            ui.label(action.label());
                            let text = if self.waiting == Some(action) {
                                RichText::new("press a key…").color(Color32::YELLOW)
                            } else {
                                RichText::new(describe_keys(&self.draft.bindings, action))
                            };
                            if ui.button(text).clicked() {
                                self.waiting = Some(action);
                            }
                            ui.label(
                                RichText::new(describe_pad(&self.draft.bindings, action))
                                    .color(Color32::GRAY),
                            );
                            ui.end_row();
                        }
                    });
            });
        if ui.button("Reset controls").clicked() {
            self.draft.bindings = default_bindings();
        }
    }
}

fn percent(value: &mut f32) -> egui::Slider<'_> {
    egui::Slider::new(value, 0.0..=1.0).custom_formatter(|v, _| format!("{:.0}%", v * 100.0))
}

/// The keyboard and mouse side of an action's bindings, e.g. "W" or "Mouse Left".
fn describe_keys(bindings: &Bindings<CraftyAction>, action: CraftyAction) -> String {
    let keys = bindings.keys_for(action).map(|k| format!("{k:?}"));
    let buttons = bindings.buttons_for(action).map(|b| format!("Mouse {b:?}"));
    let all: Vec<String> = keys.chain(buttons).collect();
    if all.is_empty() {
        "unbound".to_owned()
    } else {
        all.join(", ")
    }
}

/// The gamepad side of an action's bindings, e.g. "Pad South, left stick up".
fn describe_pad(bindings: &Bindings<CraftyAction>, action: CraftyAction) -> String {
    let buttons = bindings
        .pad_buttons_for(action)
        .map(|b| format!("Pad {b:?}"));
    let axes = bindings
        .axes_for(action)
        .map(|(axis, side)| describe_axis(axis, side));
    buttons.chain(axes).collect::<Vec<_>>().join(", ")
}

fn describe_axis(axis: PadAxis, side: AxisSide) -> String {
    let positive = side == AxisSide::Positive;
    let (stick, way) = match axis {
        PadAxis::LeftX => ("left stick", if positive { "right" } else { "left" }),
        PadAxis::LeftY => ("left stick", if positive { "up" } else { "down" }),
        PadAxis::RightX => ("right stick", if positive { "right" } else { "left" }),
        PadAxis::RightY => ("right stick", if positive { "up" } else { "down" }),
        PadAxis::LeftTrigger => ("left trigger", ""),
        PadAxis::RightTrigger => ("right trigger", ""),
        _ => ("axis", ""),
    };
    format!("{stick} {way}").trim_end().to_owned()
}

#[cfg(test)]
mod tests {
    use taos_engine::game_loop::{MouseButton, PadButton};

    use super::*;

    #[test]
    fn a_captured_press_rebinds_the_waiting_action_and_esc_cancels() {
        let mut screen = SettingsScreen::new(&PlayerSettings::default());
        assert!(
            !screen.capture(&InputEvent::KeyDown(Key::J)),
            "nothing waits"
        );
        screen.waiting = Some(CraftyAction::Break);
        assert!(screen.capture(&InputEvent::KeyDown(Key::X)));
        let b = &screen.draft.bindings;
        assert_eq!(
            b.keys_for(CraftyAction::Break).collect::<Vec<_>>(),
            [Key::X]
        );
        assert_eq!(
            b.buttons_for(CraftyAction::Break).count(),
            0,
            "the mouse button made way"
        );
        assert_eq!(describe_keys(b, CraftyAction::Break), "X");

        screen.waiting = Some(CraftyAction::Jump);
        assert!(screen.capture(&InputEvent::PadDown {
            pad: 0,
            button: PadButton::West
        }));
        let b = &screen.draft.bindings;
        assert_eq!(
            b.keys_for(CraftyAction::Jump).collect::<Vec<_>>(),
            [Key::Space]
        );
        assert_eq!(describe_pad(b, CraftyAction::Jump), "Pad West");
        assert_eq!(
            describe_pad(b, CraftyAction::Forward),
            "left stick up",
            "sticks stay bound"
        );

        screen.waiting = Some(CraftyAction::Place);
        assert!(screen.capture(&InputEvent::KeyDown(Key::Escape)));
        assert!(!screen.is_capturing());
        assert_eq!(
            screen
                .draft
                .bindings
                .buttons_for(CraftyAction::Place)
                .collect::<Vec<_>>(),
            [MouseButton::Right]
        );
    }
}
