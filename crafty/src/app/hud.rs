//! The in-game HUD: crosshair, hotbar, FPS readout, and the how-to-play hint.

use taos_engine::egui::{self, Align2, Color32, FontId, Pos2, Rect, Stroke, StrokeKind, Vec2};

use crate::player::{GameMode, HOTBAR_SLOTS, Player};
use crate::render::{ICON_SIZE, block_atlas, block_icon};
use crate::session::Session;
use crate::world::{BlockType, JobFailures};

/// The icon of every placeable block, uploaded to egui once.
pub(crate) struct BlockIcons {
    textures: Vec<(BlockType, egui::TextureHandle)>,
}

impl BlockIcons {
    pub(crate) fn new(ctx: &egui::Context) -> Self {
        let atlas = block_atlas();
        let size = [ICON_SIZE as usize; 2];
        let textures = BlockType::PLACEABLE
            .iter()
            .map(|&block| {
                let icon = block_icon(&atlas, block);
                let image = egui::ColorImage::from_rgba_unmultiplied(size, icon.as_raw());
                let name = format!("crafty block icon {}", block.name());
                let texture = ctx.load_texture(name, image, egui::TextureOptions::LINEAR);
                (block, texture)
            })
            .collect();
        Self { textures }
    }

    fn get(&self, block: BlockType) -> Option<egui::TextureId> {
        self.textures
            .iter()
            .find(|(b, _)| *b == block)
            .map(|(_, texture)| texture.id())
    }

    fn paint(&self, painter: &egui::Painter, rect: Rect, block: BlockType) {
        if let Some(id) = self.get(block) {
            let uv = Rect::from_min_max(Pos2::ZERO, Pos2::new(1.0, 1.0));
            painter.image(id, rect, uv, Color32::WHITE);
        }
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

/// Mesh and terrain jobs that panicked this session, retries included
/// (each is in the log); 0 in a healthy game. For the page's status.
#[cfg(target_arch = "wasm32")]
pub(crate) fn job_failures(session: &Session) -> u64 {
    session.mesh_failures().panics + session.terrain_failures().panics
}

/// The HUD's line about background jobs that panicked, if any did: how
/// many chunks were given up on (no mesh, or no terrain), or how many
/// jobs failed and were tried again.
fn job_failures_line(mesh: &JobFailures, terrain: &JobFailures) -> Option<String> {
    let given_up = mesh.given_up.len() + terrain.given_up.len();
    let panics = mesh.panics + terrain.panics;
    let chunks = |n: usize| {
        if n == 1 {
            "1 chunk".to_owned()
        } else {
            format!("{n} chunks")
        }
    };
    if given_up > 0 {
        Some(format!(
            "{} failed to build (see the log); the game goes on",
            chunks(given_up)
        ))
    } else if panics > 0 {
        let jobs = if panics == 1 {
            "1 chunk job failed and was".to_owned()
        } else {
            format!("{panics} chunk jobs failed and were")
        };
        Some(format!(
            "{jobs} tried again (see the log); the game goes on"
        ))
    } else {
        None
    }
}

/// When mesh or terrain jobs panicked this session, a line saying so at
/// the top of the screen, under the loading line.
pub(crate) fn draw_job_failures(ui: &egui::Ui, session: &Session) {
    let Some(line) = job_failures_line(&session.mesh_failures(), &session.terrain_failures())
    else {
        return;
    };
    let screen = ui.max_rect();
    outlined(
        ui.painter(),
        screen.center_top() + Vec2::Y * 50.0,
        Align2::CENTER_TOP,
        line,
        FontId::proportional(14.0),
        Color32::from_rgb(255, 200, 120),
    );
}

/// Draws the HUD over the whole screen, with the how-to-play hint when
/// `hint` (the pointer is free and no menu or touch controls show).
pub(crate) fn draw(ui: &mut egui::Ui, player: &Player, icons: &BlockIcons, fps: f32, hint: bool) {
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
            "click to play · B picks blocks · Esc pauses (settings) · F10 saves and returns to the launcher",
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
        if let Some(block) = *block {
            icons.paint(painter, rect.shrink(5.0), block);
            if player.mode == GameMode::Survival {
                outlined(
                    painter,
                    rect.right_bottom() - Vec2::new(3.0, 1.0),
                    Align2::RIGHT_BOTTOM,
                    player.inventory.count(block),
                    FontId::proportional(11.0),
                    Color32::WHITE,
                );
            }
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

/// The blocks the picker offers: every placeable block in creative, what
/// was gathered in survival.
#[must_use]
pub(crate) fn pickable(player: &Player) -> Vec<BlockType> {
    match player.mode {
        GameMode::Creative => BlockType::PLACEABLE.to_vec(),
        GameMode::Survival => player
            .inventory
            .stacks()
            .iter()
            .filter(|(_, count)| *count > 0)
            .map(|(block, _)| *block)
            .collect(),
    }
}

/// The block picker: a grid of block icons; a click puts that block in the
/// selected hotbar slot ([`Hotbar::put`](crate::inventory::Hotbar::put)).
/// Returns false when the player closed it.
pub(crate) fn draw_block_picker(ui: &egui::Ui, player: &mut Player, icons: &BlockIcons) -> bool {
    let mut open = true;
    let title = match player.mode {
        GameMode::Creative => "Blocks",
        GameMode::Survival => "Gathered blocks",
    };
    let blocks = pickable(player);
    egui::Window::new(title)
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .anchor(Align2::CENTER_CENTER, Vec2::ZERO)
        .show(ui.ctx(), |ui| {
            ui.label(format!(
                "Click a block to put it in slot {} (1-9 pick the slot; B or Esc closes)",
                player.hotbar.selected() + 1
            ));
            if blocks.is_empty() {
                ui.label("Nothing gathered yet: break some blocks first.");
            }
            egui::Grid::new("crafty block picker").show(ui, |ui| {
                for (index, &block) in blocks.iter().enumerate() {
                    let held = player.hotbar.selected_block() == Some(block);
                    let response = ui
                        .add_sized([56.0, 56.0], egui::Button::new("").selected(held))
                        .on_hover_text(block.name());
                    icons.paint(ui.painter(), response.rect.shrink(6.0), block);
                    if response.clicked() {
                        player.hotbar.put(block);
                    }
                    if index % 5 == 4 {
                        ui.end_row();
                    }
                }
            });
        });
    open
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::ChunkPos;

    #[test]
    fn the_job_failures_line_counts_chunks_given_up_then_retried_jobs() {
        let none = JobFailures::default();
        assert_eq!(job_failures_line(&none, &none), None);
        let retried = JobFailures {
            panics: 1,
            given_up: Vec::new(),
        };
        assert_eq!(
            job_failures_line(&retried, &none).as_deref(),
            Some("1 chunk job failed and was tried again (see the log); the game goes on")
        );
        let mesh = JobFailures {
            panics: 7,
            given_up: vec![ChunkPos::new(0, 0, 0), ChunkPos::new(1, 0, 0)],
        };
        let terrain = JobFailures {
            panics: 3,
            given_up: vec![ChunkPos::new(5, 0, 0)],
        };
        assert_eq!(
            job_failures_line(&mesh, &terrain).as_deref(),
            Some("3 chunks failed to build (see the log); the game goes on")
        );
    }
}
