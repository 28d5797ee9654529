//! What play on a server adds to the HUD: the other players as blocky
//! figures with name tags, and the chat (the last lines, and the line being
//! typed).
//!
//! The figures are drawn on the overlay from the camera's projection, not
//! in the 3D scene: terrain does not hide them.

use taos_engine::egui::{self, Align2, Color32, FontId, Pos2, Rect, Stroke};
use taos_engine::{Camera, Engine};

use crate::online::Online;
use crate::view::ViewObjects;

/// Chat lines shown at most.
const CHAT_SHOWN: usize = 6;
/// A figure's height and width, in blocks.
const FIGURE_HEIGHT: f32 = 1.8;
const FIGURE_WIDTH: f32 = 0.6;

/// Draws each other player in view as a blocky figure (head, body) with
/// their name above.
pub(super) fn draw_avatars(ui: &egui::Ui, engine: &Engine, online: &Online) {
    let Some(view_projection) = engine
        .scene()
        .world()
        .get_resource::<ViewObjects>()
        .and_then(|view| engine.scene().get_component::<Camera>(view.player))
        .map(|camera| camera.view_projection())
    else {
        return;
    };
    let screen = ui.ctx().content_rect();
    let project = |p: glam::Vec3| -> Option<Pos2> {
        let clip = view_projection * p.extend(1.0);
        if clip.w <= 0.05 {
            return None;
        }
        let ndc = clip.truncate() / clip.w;
        Some(Pos2::new(
            screen.left() + (ndc.x + 1.0) * 0.5 * screen.width(),
            screen.top() + (1.0 - ndc.y) * 0.5 * screen.height(),
        ))
    };
    let painter = ui.painter();
    for avatar in online.avatars() {
        let (Some(feet), Some(top)) = (
            project(avatar.feet),
            project(avatar.feet + glam::Vec3::Y * FIGURE_HEIGHT),
        ) else {
            continue;
        };
        let height = (feet.y - top.y).abs();
        if !(2.0..4000.0).contains(&height) {
            continue;
        }
        let width = height * FIGURE_WIDTH / FIGURE_HEIGHT;
        let head = height * 0.25;
        let body = Rect::from_min_max(
            Pos2::new(feet.x - width / 2.0, top.y + head),
            Pos2::new(feet.x + width / 2.0, feet.y),
        );
        let face = Rect::from_center_size(
            Pos2::new(feet.x, top.y + head / 2.0),
            egui::vec2(head, head),
        );
        painter.rect_filled(body, 0.0, Color32::from_rgb(60, 90, 170));
        painter.rect_filled(face, 0.0, Color32::from_rgb(225, 180, 140));
        painter.rect_stroke(
            body,
            0.0,
            Stroke::new(1.0, Color32::BLACK),
            egui::StrokeKind::Inside,
        );
        painter.text(
            Pos2::new(feet.x, top.y - 4.0),
            Align2::CENTER_BOTTOM,
            &avatar.name,
            FontId::proportional(14.0),
            Color32::WHITE,
        );
    }
}

/// Draws the last chat lines and, when one is being typed, its field.
/// Returns whether a line was just sent (play takes the pointer back).
pub(super) fn draw_chat(ui: &egui::Ui, online: &mut Online, typing: &mut Option<String>) -> bool {
    let chat = &online.connection.chat;
    let mut sent = false;
    egui::Area::new(egui::Id::unique("crafty chat"))
        .anchor(Align2::LEFT_BOTTOM, egui::vec2(12.0, -80.0))
        .show(ui.ctx(), |ui| {
            for (from, text) in chat.iter().rev().take(CHAT_SHOWN).rev() {
                ui.colored_label(Color32::WHITE, format!("<{from}> {text}"));
            }
            if let Some(line) = typing {
                let field = ui.add(
                    egui::TextEdit::singleline(line)
                        .hint_text("say something (Enter sends, Escape closes)")
                        .desired_width(360.0),
                );
                field.request_focus();
                if ui.input(|input| input.key_pressed(egui::Key::Enter)) {
                    sent = true;
                }
            } else {
                ui.label("T: chat");
            }
        });
    if sent && let Some(line) = typing.take() {
        online.connection.say(&line);
    }
    sent
}
