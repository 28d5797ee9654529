//! The UI overlay without a window: egui fed from the engine's own
//! [`InputEvent`]s (what a test or a headless run sends), so an [`App`]'s
//! [`ui`](crate::App::ui) runs and is painted into headless frames and
//! screenshots as it is in a window, without animations (windows appear
//! at once, whatever the frames' time steps).

use std::time::Duration;

use crate::game_loop::{InputEvent, Key, MouseButton};
use crate::ui::UiFrame;

/// egui's context and the input gathered since its last frame.
pub(crate) struct HeadlessUi {
    context: egui::Context,
    pointer: egui::Pos2,
    events: Vec<egui::Event>,
    max_texture_side: usize,
    /// UI time: the sum of the frames' `dt` (animations, double clicks).
    seconds: f64,
}

impl HeadlessUi {
    pub(crate) fn new(max_texture_side: usize) -> Self {
        let context = egui::Context::default();
        // No animations: a headless frame's time step is whatever the test
        // or tool chose (0 while the game is paused), and a window caught
        // half faded in would make images depend on it.
        context.all_styles_mut(|style| style.animation_time = 0.0);
        Self {
            context,
            pointer: egui::Pos2::ZERO,
            events: Vec::new(),
            max_texture_side,
            seconds: 0.0,
        }
    }

    /// The egui context (what [`Engine::ui_context`](crate::Engine::ui_context) returns).
    pub(crate) fn context(&self) -> &egui::Context {
        &self.context
    }

    /// Feeds `event` to egui; true when egui uses it (the pointer over a
    /// window or widget, the keyboard in a text field), as egui-winit decides
    /// in a window.
    pub(crate) fn on_input(&mut self, event: &InputEvent) -> bool {
        let context = &self.context;
        match *event {
            InputEvent::CursorMoved(at) => {
                self.pointer = egui::pos2(at.x, at.y);
                self.events.push(egui::Event::PointerMoved(self.pointer));
                context.egui_is_using_pointer()
            }
            InputEvent::MouseDown(button) | InputEvent::MouseUp(button) => {
                let Some(button) = pointer_button(button) else {
                    return false;
                };
                self.events.push(egui::Event::PointerButton {
                    pos: self.pointer,
                    button,
                    pressed: matches!(event, InputEvent::MouseDown(_)),
                    modifiers: egui::Modifiers::NONE,
                });
                context.egui_wants_pointer_input()
            }
            InputEvent::Wheel(lines) => {
                self.events.push(egui::Event::MouseWheel {
                    unit: egui::MouseWheelUnit::Line,
                    delta: egui::vec2(0.0, lines),
                    phase: egui::TouchPhase::Move,
                    source: egui::MouseWheelSource::Wheel,
                    modifiers: egui::Modifiers::NONE,
                });
                context.egui_wants_pointer_input()
            }
            InputEvent::KeyDown(key) | InputEvent::KeyUp(key) => {
                let Some(key) = egui_key(key) else {
                    return context.egui_wants_keyboard_input();
                };
                self.events.push(egui::Event::Key {
                    key,
                    physical_key: Some(key),
                    pressed: matches!(event, InputEvent::KeyDown(_)),
                    repeat: false,
                    modifiers: egui::Modifiers::NONE,
                });
                context.egui_wants_keyboard_input()
            }
            InputEvent::Text(c) => {
                self.events.push(egui::Event::Text(c.to_string()));
                context.egui_wants_keyboard_input()
            }
            _ => false,
        }
    }

    /// Runs `build` for a `size` frame `dt` after the last one and
    /// tessellates the result.
    pub(crate) fn run(
        &mut self,
        size: (u32, u32),
        dt: Duration,
        build: impl FnMut(&mut egui::Ui),
    ) -> UiFrame {
        self.seconds += dt.as_secs_f64();
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(size.0 as f32, size.1 as f32),
            )),
            max_texture_side: Some(self.max_texture_side),
            time: Some(self.seconds),
            predicted_dt: dt.as_secs_f32(),
            events: std::mem::take(&mut self.events),
            ..egui::RawInput::default()
        };
        let output = self.context.run_ui(input, build);
        UiFrame::tessellate(&self.context, output)
    }
}

fn pointer_button(button: MouseButton) -> Option<egui::PointerButton> {
    Some(match button {
        MouseButton::Left => egui::PointerButton::Primary,
        MouseButton::Right => egui::PointerButton::Secondary,
        MouseButton::Middle => egui::PointerButton::Middle,
        MouseButton::Back => egui::PointerButton::Extra1,
        MouseButton::Forward => egui::PointerButton::Extra2,
        _ => return None,
    })
}

/// The keys a UI uses to edit and move (letters arrive as text).
fn egui_key(key: Key) -> Option<egui::Key> {
    Some(match key {
        Key::Enter => egui::Key::Enter,
        Key::Escape => egui::Key::Escape,
        Key::Tab => egui::Key::Tab,
        Key::Backspace => egui::Key::Backspace,
        Key::Space => egui::Key::Space,
        Key::ArrowUp => egui::Key::ArrowUp,
        Key::ArrowDown => egui::Key::ArrowDown,
        Key::ArrowLeft => egui::Key::ArrowLeft,
        Key::ArrowRight => egui::Key::ArrowRight,
        _ => return None,
    })
}
