//! Draws [`TouchControls`] in the UI overlay: the joystick's base and knob
//! where the finger landed, and each button (brighter while held). Nothing
//! is drawn until the first touch, so mouse-and-keyboard players never see
//! it.
//!
//! ```no_run
//! # use taos_engine::egui;
//! # use taos_engine::controllers::{TouchControls, TouchLayout};
//! # fn ui(ui: &mut egui::Ui, controls: &TouchControls) {
//! taos_engine::touch_overlay::draw_touch_controls(ui, controls);
//! # }
//! ```

use egui::{Align2, Color32, FontId, Pos2, Stroke};
use glam::Vec2;

use crate::controllers::TouchControls;

/// Draws `controls` as their last [`update`](TouchControls::update) left
/// them, over the whole overlay.
pub fn draw_touch_controls(ui: &egui::Ui, controls: &TouchControls) {
    let state = controls.state();
    if !state.touch_seen {
        return;
    }
    let points_per_pixel = 1.0 / ui.ctx().pixels_per_point().max(0.1);
    let at = |pixels: Vec2| Pos2::new(pixels.x, pixels.y) * points_per_pixel;
    let painter = ui.painter();
    let faint = Color32::from_white_alpha(40);
    let bright = Color32::from_white_alpha(110);
    let outline = Stroke::new(2.0, Color32::from_white_alpha(150));
    if let Some((origin, finger)) = state.stick_at {
        let radius = controls.layout().joystick_radius * points_per_pixel;
        painter.circle(at(origin), radius, faint, outline);
        let knob = origin + (finger - origin).clamp_length_max(controls.layout().joystick_radius);
        painter.circle_filled(at(knob), radius * 0.4, bright);
    }
    let viewport = controls.viewport();
    for (index, button) in controls.layout().buttons.iter().enumerate() {
        let center = at(button.center(viewport));
        let fill = if state.held(index) { bright } else { faint };
        painter.circle(center, button.radius * points_per_pixel, fill, outline);
        painter.text(
            center,
            Align2::CENTER_CENTER,
            &button.label,
            FontId::proportional((button.radius * points_per_pixel * 0.45).max(9.0)),
            Color32::WHITE,
        );
    }
}
