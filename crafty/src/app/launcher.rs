//! The start screen: saved worlds (most recently played first, with
//! thumbnails); create, play, rename, and delete with confirmation; and
//! joining a multiplayer server by address and name.

use taos_engine::egui::{self, Color32, RichText, TextureHandle, Vec2};

use crate::player::GameMode;

/// One saved world as the launcher lists it.
pub(crate) struct WorldEntry {
    pub(crate) id: String,
    pub(crate) name: String,
    pub(crate) seed: u64,
    pub(crate) mode: GameMode,
    pub(crate) last_played_ms: u64,
    pub(crate) thumbnail: Option<TextureHandle>,
}

/// What the player asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum LauncherAction {
    Play(String),
    Create {
        name: String,
        seed: u64,
        mode: GameMode,
    },
    Rename {
        id: String,
        name: String,
    },
    Delete(String),
    /// Open the settings screen.
    Settings,
    /// Join the server at `address` as `name`.
    Join {
        address: String,
        name: String,
    },
}

/// The address "Join server" offers first: a server on this machine, on
/// `crafty-server`'s default port.
const DEFAULT_SERVER: &str = "127.0.0.1:30000";

/// The launcher's state between frames.
pub(crate) struct Launcher {
    pub(crate) worlds: Vec<WorldEntry>,
    pub(crate) error: Option<String>,
    new_name: String,
    new_seed: String,
    new_mode: GameMode,
    renaming: Option<(String, String)>,
    confirm_delete: Option<String>,
    /// "Join server": the address and the player's name (boxed: the
    /// launcher is kept inline in the app's screen).
    join: Box<JoinForm>,
}

/// What "Join server" is filled in with.
struct JoinForm {
    address: String,
    name: String,
}

impl Launcher {
    pub(crate) fn new(worlds: Vec<WorldEntry>, suggested_seed: u64) -> Self {
        Self {
            worlds,
            error: None,
            new_name: "New world".to_owned(),
            new_seed: suggested_seed.to_string(),
            new_mode: GameMode::Creative,
            renaming: None,
            confirm_delete: None,
            join: Box::new(JoinForm {
                address: DEFAULT_SERVER.to_owned(),
                name: "Player".to_owned(),
            }),
        }
    }

    /// Fills "Join server" in (the server joined last).
    pub(crate) fn set_server(&mut self, address: &str, name: &str) {
        self.join.address = address.to_owned();
        self.join.name = name.to_owned();
    }

    /// Draws the launcher; returns what the player clicked, if anything.
    pub(crate) fn ui(&mut self, ui: &mut egui::Ui, now_ms: u64) -> Option<LauncherAction> {
        let mut action = None;
        egui::CentralPanel::default().show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.heading(RichText::new("crafty").size(32.0));
                if ui.button("Settings").clicked() {
                    action = Some(LauncherAction::Settings);
                }
            });
            ui.label("A voxel world built on the Taos engine.");
            if let Some(error) = &self.error {
                ui.colored_label(Color32::LIGHT_RED, error);
            }
            ui.separator();
            ui.horizontal(|ui| {
                ui.label("Name");
                ui.text_edit_singleline(&mut self.new_name);
                ui.label("Seed");
                ui.add(egui::TextEdit::singleline(&mut self.new_seed).desired_width(120.0));
                ui.radio_value(&mut self.new_mode, GameMode::Creative, "Creative");
                ui.radio_value(&mut self.new_mode, GameMode::Survival, "Survival");
                if ui.button("Create world").clicked() {
                    action = self.create_action();
                }
            });
            ui.horizontal(|ui| {
                ui.label("Server");
                ui.add(egui::TextEdit::singleline(&mut self.join.address).desired_width(160.0));
                ui.label("Your name");
                ui.add(egui::TextEdit::singleline(&mut self.join.name).desired_width(120.0));
                if ui.button("Join server").clicked() {
                    action = self.join_action();
                }
            });
            ui.separator();
            if self.worlds.is_empty() {
                ui.label("No saved worlds yet: create one above.");
            }
            let worlds = std::mem::take(&mut self.worlds);
            egui::ScrollArea::vertical().show(ui, |ui| {
                for world in &worlds {
                    if let Some(chosen) = self.world_row(ui, world, now_ms) {
                        action = Some(chosen);
                    }
                    ui.separator();
                }
            });
            self.worlds = worlds;
        });
        if let Some(LauncherAction::Rename { .. } | LauncherAction::Delete(_)) = &action {
            self.renaming = None;
            self.confirm_delete = None;
        }
        action
    }

    /// Joining needs an address and a name the server accepts (1 to 16
    /// letters, digits, `_` or `-`); said here rather than by the server.
    fn join_action(&mut self) -> Option<LauncherAction> {
        let address = self.join.address.trim();
        let name = self.join.name.trim();
        if address.is_empty() {
            self.error = Some("type the server's address, e.g. 127.0.0.1:30000".to_owned());
            return None;
        }
        if !crafty_net::protocol::valid_name(name) {
            self.error = Some(format!(
                "a player name is 1 to {} letters, digits, _ or -, not {name:?}",
                crafty_net::protocol::MAX_NAME_CHARS
            ));
            return None;
        }
        self.error = None;
        Some(LauncherAction::Join {
            address: address.to_owned(),
            name: name.to_owned(),
        })
    }

    fn create_action(&mut self) -> Option<LauncherAction> {
        let name = self.new_name.trim();
        if name.is_empty() {
            self.error = Some("a world needs a name".to_owned());
            return None;
        }
        let Ok(seed) = self.new_seed.trim().parse::<u64>() else {
            self.error = Some(format!(
                "the seed must be a whole number, not {:?}",
                self.new_seed
            ));
            return None;
        };
        self.error = None;
        Some(LauncherAction::Create {
            name: name.to_owned(),
            seed,
            mode: self.new_mode,
        })
    }

    fn world_row(
        &mut self,
        ui: &mut egui::Ui,
        world: &WorldEntry,
        now_ms: u64,
    ) -> Option<LauncherAction> {
        let mut action = None;
        ui.horizontal(|ui| {
            let size = Vec2::new(160.0, 90.0);
            match &world.thumbnail {
                Some(texture) => {
                    ui.add(egui::Image::new(texture).fit_to_exact_size(size));
                }
                None => {
                    let (rect, _) = ui.allocate_exact_size(size, egui::Sense::hover());
                    ui.painter().rect_filled(rect, 4.0, Color32::from_gray(50));
                }
            }
            ui.vertical(|ui| {
                let renaming = self.renaming.as_mut().filter(|(id, _)| *id == world.id);
                if let Some((_, name)) = renaming {
                    ui.horizontal(|ui| {
                        ui.text_edit_singleline(name);
                        if ui.button("Save name").clicked() && !name.trim().is_empty() {
                            action = Some(LauncherAction::Rename {
                                id: world.id.clone(),
                                name: name.trim().to_owned(),
                            });
                        }
                    });
                } else {
                    ui.label(RichText::new(&world.name).size(20.0).strong());
                }
                let mode = match world.mode {
                    GameMode::Creative => "creative",
                    GameMode::Survival => "survival",
                };
                ui.label(format!(
                    "{mode} · seed {} · played {}",
                    world.seed,
                    ago(now_ms, world.last_played_ms)
                ));
                ui.horizontal(|ui| {
                    if ui.button("Play").clicked() {
                        action = Some(LauncherAction::Play(world.id.clone()));
                    }
                    if ui.button("Rename").clicked() {
                        self.renaming = Some((world.id.clone(), world.name.clone()));
                    }
                    if self.confirm_delete.as_deref() == Some(world.id.as_str()) {
                        ui.colored_label(Color32::LIGHT_RED, "Delete for good?");
                        if ui.button("Yes, delete").clicked() {
                            action = Some(LauncherAction::Delete(world.id.clone()));
                        }
                        if ui.button("Keep").clicked() {
                            self.confirm_delete = None;
                        }
                    } else if ui.button("Delete").clicked() {
                        self.confirm_delete = Some(world.id.clone());
                    }
                });
            });
        });
        action
    }
}

/// "just now", "5 min ago", "3 h ago", "2 days ago".
fn ago(now_ms: u64, then_ms: u64) -> String {
    let seconds = now_ms.saturating_sub(then_ms) / 1000;
    match seconds {
        0..60 => "just now".to_owned(),
        60..3600 => format!("{} min ago", seconds / 60),
        3600..86_400 => format!("{} h ago", seconds / 3600),
        _ => format!("{} days ago", seconds / 86_400),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ages_read_naturally() {
        assert_eq!(ago(10_000, 9_000), "just now");
        assert_eq!(ago(3_600_000, 0), "1 h ago");
        assert_eq!(ago(0, 5), "just now");
        assert_eq!(ago(3 * 86_400_000, 0), "3 days ago");
    }
}
