//! What play draws over the world: the HUD (hotbar, block picker,
//! loading, notices, touch controls, the server's name tags and chat) and
//! the pause menu, or, after a failed last save, its dialog.

use taos_engine::touch_overlay::draw_touch_controls;
use taos_engine::{Engine, egui};

use super::{MenuChoice, Play};
use crate::app::{hud, online_hud};
use crate::game::{state, state_mut};
use crate::settings::TouchMode;

impl Play {
    /// Opens (pausing the simulation, freeing the pointer) or closes the
    /// pause menu.
    pub(in crate::app) fn set_menu_open(&mut self, engine: &mut Engine, open: bool) {
        self.menu_open = open;
        if open {
            self.capture(engine, false);
            engine.game_loop().pause();
        } else {
            engine.game_loop().resume();
        }
        engine.request_redraw();
    }

    /// The HUD, the touch controls, and the pause menu when open.
    pub(in crate::app) fn ui(
        &mut self,
        engine: &mut Engine,
        ui: &mut egui::Ui,
        now_ms: u64,
    ) -> Option<MenuChoice> {
        let fps = self.fps.tick(now_ms);
        let touching = self.settings.touch == TouchMode::Auto && self.touch.state().touch_seen;
        let hint = !(self.captured || touching || self.menu_open);
        let hint = hint && !self.picker_open;
        let icons = self
            .icons
            .get_or_insert_with(|| hud::BlockIcons::new(ui.ctx()));
        hud::draw(ui, &state(engine.game_loop()).player, icons, fps, hint);
        if self.picker_open && !self.menu_open {
            let player = &mut state_mut(engine.game_loop()).player;
            self.picker_open = hud::draw_block_picker(ui, player, icons);
        }
        let (loaded, total) = self.session.generation_progress(engine.game_loop());
        hud::draw_loading(ui, loaded, total, self.session.meshes_pending());
        hud::draw_job_failures(ui, &self.session);
        if touching {
            draw_touch_controls(ui, &self.touch);
        }
        if let Some(notice) = &self.notice {
            ui.colored_label(egui::Color32::YELLOW, notice);
        }
        if let Some(online) = &mut self.online {
            online_hud::draw_name_tags(ui, engine, &online.server);
            let sent = online_hud::draw_chat(ui, &mut online.server, &mut online.chat_line);
            if sent {
                self.capture(engine, true);
            }
        }
        if !self.menu_open {
            return None;
        }
        if let Some(failure) = self.save_failure().map(str::to_owned) {
            return self.save_failed_ui(engine, ui, &failure);
        }
        let mut choice = None;
        egui::Window::new("Paused")
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
            .show(ui.ctx(), |ui| {
                ui.vertical_centered_justified(|ui| {
                    if ui.button("Resume").clicked() {
                        self.set_menu_open(engine, false);
                    }
                    if ui.button("Settings").clicked() {
                        choice = Some(MenuChoice::Settings);
                    }
                    let leave = if self.online.is_some() {
                        "Leave the server"
                    } else {
                        "Save and quit to the launcher"
                    };
                    if ui.button(leave).clicked() {
                        choice = Some(MenuChoice::Leave);
                    }
                });
            });
        choice
    }

    /// The dialog after a failed last save: retry, keep playing, or quit
    /// without saving (the only way a world's edits are dropped).
    pub(super) fn save_failed_ui(
        &mut self,
        engine: &mut Engine,
        ui: &mut egui::Ui,
        failure: &str,
    ) -> Option<MenuChoice> {
        let mut choice = None;
        egui::Window::new("Not saved")
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
            .show(ui.ctx(), |ui| {
                ui.label(failure);
                ui.vertical_centered_justified(|ui| {
                    if ui.button("Try saving again").clicked() {
                        choice = Some(MenuChoice::Leave);
                    }
                    if ui.button("Export unsaved edits to a file").clicked() {
                        choice = Some(MenuChoice::ExportUnsaved);
                    }
                    if ui.button("Keep playing").clicked() {
                        self.saving.failed = None;
                        self.set_menu_open(engine, false);
                        choice = Some(MenuChoice::KeepPlaying);
                    }
                    if ui.button("Quit without saving").clicked() {
                        choice = Some(MenuChoice::QuitWithoutSaving);
                    }
                });
            });
        choice
    }
}
