//! What play on a server adds to the HUD: the other players' name tags
//! (their figures are drawn in the scene by crafty's avatar pass), and the
//! chat (the last lines, and the line being typed).
//!
//! The tags are drawn on the overlay from the camera's projection, so
//! terrain does not hide them (as in most block games, a name shows where
//! a player is).

use taos_engine::egui::{self, Align2, Color32, FontId, Pos2};
use taos_engine::{Camera, Engine};

use crate::online::Online;
use crate::view::ViewObjects;

/// Chat lines shown at most.
const CHAT_SHOWN: usize = 6;
/// How far above the feet a name tag sits, in blocks (above the head).
const TAG_HEIGHT: f32 = 2.1;

/// Draws each other player's name above their head.
pub(super) fn draw_name_tags(ui: &egui::Ui, engine: &Engine, online: &Online) {
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
    let painter = ui.painter();
    for avatar in online.avatars() {
        let clip = view_projection * (avatar.feet + glam::Vec3::Y * TAG_HEIGHT).extend(1.0);
        if clip.w <= 0.05 {
            continue;
        }
        let ndc = clip.truncate() / clip.w;
        if ndc.x.abs() > 1.2 || ndc.y.abs() > 1.2 {
            continue;
        }
        let at = Pos2::new(
            screen.left() + (ndc.x + 1.0) * 0.5 * screen.width(),
            screen.top() + (1.0 - ndc.y) * 0.5 * screen.height(),
        );
        let galley = painter.layout_no_wrap(
            avatar.name.clone(),
            FontId::proportional(14.0),
            Color32::WHITE,
        );
        let rect = Align2::CENTER_BOTTOM
            .anchor_size(at, galley.size())
            .expand(3.0);
        painter.rect_filled(rect, 3.0, Color32::from_black_alpha(140));
        painter.galley(rect.shrink(3.0).min, galley, Color32::WHITE);
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
            if let Some(cost) = online.join_cost() {
                ui.weak(cost.to_string());
            }
        });
    if sent && let Some(line) = typing.take() {
        online.connection.say(&line);
    }
    sent
}
