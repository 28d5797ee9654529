//! The in-game HUD: crosshair, hotbar, FPS readout, and the how-to-play hint.

use taos_engine::egui::{self, Align2, Color32, FontId, Pos2, Rect, Stroke, StrokeKind, Vec2};

use crate::player::{GameMode, HOTBAR_SLOTS, Player};
use crate::world::BlockType;

/// A swatch colour per block, for the hotbar.
fn swatch(block: BlockType) -> Color32 {
    match block {
        BlockType::Air => Color32::TRANSPARENT,
        BlockType::Stone => Color32::from_rgb(125, 125, 125),
        BlockType::Dirt => Color32::from_rgb(134, 96, 67),
        BlockType::Grass => Color32::from_rgb(95, 159, 53),
        BlockType::Sand => Color32::from_rgb(219, 207, 163),
        BlockType::Water => Color32::from_rgb(47, 84, 200),
        BlockType::Log => Color32::from_rgb(102, 81, 51),
        BlockType::Leaves => Color32::from_rgb(60, 120, 40),
        BlockType::Glass => Color32::from_rgb(200, 230, 240),
        BlockType::Planks => Color32::from_rgb(162, 130, 78),
        BlockType::Cobblestone => Color32::from_rgb(110, 110, 110),
        BlockType::Snow => Color32::from_rgb(240, 250, 250),
    }
}

/// Text with a dark outline, readable over snow, sky and night alike.
fn outlined(
    painter: &egui::Painter,
    pos: Pos2,
    align: Align2,
    text: impl ToString,
    font: FontId,
    color: Color32,
) {
    let text = text.to_string();
    let shadow = Color32::from_black_alpha(200);
    for offset in [
        Vec2::new(1.0, 1.0),
        Vec2::new(-1.0, 1.0),
        Vec2::new(1.0, -1.0),
        Vec2::new(-1.0, -1.0),
    ] {
        painter.text(pos + offset, align, &text, font.clone(), shadow);
    }
    painter.text(pos, align, text, font, color);
}

/// While the view is still filling in (opening a world, a larger view
/// distance), how far along it is, at the top of the screen.
pub(crate) fn draw_loading(ui: &egui::Ui, loaded: usize, total: usize, meshing: usize) {
    if loaded >= total && meshing == 0 {
        return;
    }
    let screen = ui.max_rect();
    outlined(
        ui.painter(),
        screen.center_top() + Vec2::Y * 28.0,
        Align2::CENTER_TOP,
        format!("Loading the land: {loaded} of {total} chunks generated, {meshing} to mesh"),
        FontId::proportional(15.0),
        Color32::WHITE,
    );
}

/// Draws the HUD over the whole screen, with the how-to-play hint when
/// `hint` (the pointer is free and no menu or touch controls show).
pub(crate) fn draw(ui: &mut egui::Ui, player: &Player, fps: f32, hint: bool) {
    let screen = ui.max_rect();
    let painter = ui.painter();
    let center = screen.center();
    let white = Stroke::new(2.0, Color32::WHITE);
    painter.line_segment([center - Vec2::X * 8.0, center + Vec2::X * 8.0], white);
    painter.line_segment([center - Vec2::Y * 8.0, center + Vec2::Y * 8.0], white);

    outlined(
        painter,
        screen.left_top() + Vec2::new(8.0, 6.0),
        Align2::LEFT_TOP,
        format!("{fps:.0} FPS"),
        FontId::monospace(14.0),
        Color32::WHITE,
    );
    let mode = match player.mode {
        GameMode::Creative if player.body.flying => "creative (flying)",
        GameMode::Creative => "creative",
        GameMode::Survival => "survival",
    };
    outlined(
        painter,
        screen.right_top() + Vec2::new(-8.0, 6.0),
        Align2::RIGHT_TOP,
        mode,
        FontId::proportional(14.0),
        Color32::WHITE,
    );
    if hint {
        outlined(
            painter,
            center + Vec2::Y * 40.0,
            Align2::CENTER_CENTER,
            "click to play · Esc pauses (settings) · F10 saves and returns to the launcher",
            FontId::proportional(16.0),
            Color32::WHITE,
        );
    }

    let slot = 44.0;
    let width = slot * HOTBAR_SLOTS as f32;
    let origin = Pos2::new(center.x - width / 2.0, screen.bottom() - slot - 10.0);
    for (index, block) in player.hotbar.slots().iter().enumerate() {
        let rect = Rect::from_min_size(
            origin + Vec2::X * slot * index as f32,
            Vec2::splat(slot - 4.0),
        );
        painter.rect_filled(rect, 4.0, Color32::from_black_alpha(140));
        if let Some(block) = block {
            painter.rect_filled(rect.shrink(8.0), 2.0, swatch(*block));
            let label = match player.mode {
                GameMode::Creative => block.name().chars().take(5).collect::<String>(),
                GameMode::Survival => player.inventory.count(*block).to_string(),
            };
            outlined(
                painter,
                rect.center_bottom() - Vec2::Y * 2.0,
                Align2::CENTER_BOTTOM,
                label,
                FontId::proportional(11.0),
                Color32::WHITE,
            );
        }
        let selected = index == player.hotbar.selected();
        let stroke = if selected {
            Stroke::new(3.0, Color32::WHITE)
        } else {
            Stroke::new(1.0, Color32::from_gray(90))
        };
        painter.rect_stroke(rect, 4.0, stroke, StrokeKind::Inside);
        outlined(
            painter,
            rect.left_top() + Vec2::new(3.0, 1.0),
            Align2::LEFT_TOP,
            (index + 1).to_string(),
            FontId::monospace(10.0),
            Color32::from_gray(200),
        );
    }
}
