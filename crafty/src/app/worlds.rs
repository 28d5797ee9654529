//! The launcher's worlds: listing them, starting in one the command line
//! named, creating, opening, renaming and deleting worlds, and joining a
//! server (its token remembered).

use std::rc::Rc;

use taos_engine::{Engine, egui};

use super::launcher::{Launcher, LauncherAction, WorldEntry};
use super::settings_screen::SettingsScreen;
use super::tasks::Pending;
use super::world_lock::lock_world;
use super::{Crafty, Screen, Task};
use crate::chunk_cache::GameChunkCache;
use crate::cli::WorldChoice;
use crate::online::{Online, connect};
use crate::save::{SaveError, SavedWorld, WorldListing, decode_thumbnail};

impl Crafty {
    /// The launcher: the scene hidden, the loop paused (nothing to simulate:
    /// the window sleeps until input), the worlds listed (`problem` shown
    /// above them).
    pub(super) fn show_launcher(&mut self, engine: &mut Engine, problem: Option<String>) {
        engine.show_scene(false);
        engine.game_loop().pause();
        engine.set_title("crafty");
        let store = self.store.clone();
        self.screen = Screen::Launcher(Launcher::new(Vec::new(), (self.now_ms)() % 1_000_000));
        self.task = Some(Task::List {
            listing: Pending::start(async move { store.list().await }),
            problem,
        });
        engine.request_redraw();
    }

    /// The launcher with `listing` (or what went wrong reading it).
    pub(super) fn listed(
        &mut self,
        engine: &mut Engine,
        listing: Result<WorldListing, SaveError>,
        problem: Option<String>,
    ) {
        let mut entries = Vec::new();
        let mut problems = Vec::new();
        match listing {
            Ok(listing) => {
                for broken in listing.unreadable {
                    problems.push(format!(
                        "world {} cannot be read: {}",
                        broken.id, broken.error
                    ));
                }
                for record in listing.worlds {
                    let thumbnail = record.screenshot.as_deref().and_then(|jpeg| {
                        // A bad thumbnail (damaged, or huge from a shared
                        // backup) is skipped: the world is listed without it.
                        let image = decode_thumbnail(jpeg)
                            .inspect_err(|e| {
                                log::warn!("world {:?}: thumbnail skipped: {e}", record.id);
                            })
                            .ok()?;
                        let size = [image.width() as usize, image.height() as usize];
                        let pixels = egui::ColorImage::from_rgba_unmultiplied(size, image.as_raw());
                        Some(engine.ui_context()?.load_texture(
                            format!("thumb-{}", record.id),
                            pixels,
                            egui::TextureOptions::LINEAR,
                        ))
                    });
                    entries.push(WorldEntry {
                        mode: record.mode(),
                        id: record.id,
                        name: record.name,
                        seed: record.seed,
                        last_played_ms: record.last_played_at,
                        thumbnail,
                    });
                }
            }
            Err(e) => problems.push(format!("cannot list saved worlds: {e}")),
        }
        problems.extend(problem);
        problems.extend(self.settings.warnings.iter().cloned());
        let mut launcher = Launcher::new(entries, (self.now_ms)() % 1_000_000);
        if let Some(last) = self.settings.servers.last() {
            launcher.set_server(&last.address, &last.name);
        }
        launcher.error = (!problems.is_empty()).then(|| problems.join("\n"));
        self.screen = Screen::Launcher(launcher);
        engine.request_redraw();
    }

    /// Starts in the world the command line (or the page's address) named:
    /// a saved one by name or id, or a new one for `new:SEED`.
    pub(super) fn start_in(&mut self, engine: &mut Engine, world: &str) {
        match WorldChoice::parse(world) {
            Ok(WorldChoice::New(seed)) => {
                let record = SavedWorld::create(
                    format!("Seed {seed}"),
                    seed,
                    crate::inventory::GameMode::Creative,
                    (self.now_ms)(),
                );
                self.create(record);
            }
            Ok(WorldChoice::Join { name, address }) => self.join(engine, &address, &name),
            Ok(WorldChoice::Named(name)) => {
                let store = self.store.clone();
                self.task = Some(Task::FindNamed {
                    listing: Pending::start(async move { store.list().await }),
                    name,
                });
            }
            Err(e) => self.show_launcher(engine, Some(e.to_string())),
        }
    }

    pub(super) fn play(&mut self, id: &str) {
        let store = self.store.clone();
        let id = id.to_owned();
        self.task = Some(Task::Open(Pending::start(async move {
            let lock = lock_world(&id).await?;
            Ok((store.load(&id).await?, lock))
        })));
    }

    pub(super) fn create(&mut self, record: SavedWorld) {
        let record = record.with_generator(crate::world::TerrainGenerator::LATEST);
        let store = self.store.clone();
        self.task = Some(Task::Create(Pending::start(async move {
            store.save(&record).await.map(|()| record.id)
        })));
    }

    pub(super) fn on_launcher_action(&mut self, engine: &mut Engine, action: LauncherAction) {
        let store = self.store.clone();
        let change = match action {
            LauncherAction::Play(id) => return self.play(&id),
            LauncherAction::Create { name, seed, mode } => {
                let record = SavedWorld::create(name, seed, mode, (self.now_ms)());
                return self.create(record);
            }
            LauncherAction::Settings => {
                self.settings_screen = Some(SettingsScreen::new(&self.settings));
                return;
            }
            LauncherAction::Join { address, name } => return self.join(engine, &address, &name),
            LauncherAction::Rename { id, name } => Pending::start(async move {
                let _lock = lock_world(&id).await?;
                Ok(store.rename(&id, &name).await?)
            }),
            LauncherAction::Delete(id) => Pending::start(async move {
                let _lock = lock_world(&id).await?;
                Ok(store.delete(&id).await?)
            }),
        };
        self.task = Some(Task::Change(change));
        engine.request_redraw();
    }

    /// Connects to the server at `address` and says hello as `name` (with
    /// the token that server gave this name before, to come back as the
    /// same player), with the chunks cached for that server; play starts
    /// when the server answers.
    pub(super) fn join(&mut self, engine: &mut Engine, address: &str, name: &str) {
        let token = self.settings.servers.token(address, name);
        match connect(address) {
            Ok(link) => {
                let online = match &self.chunk_storage {
                    Some(storage) => {
                        let cache = GameChunkCache::open(address, Some(Rc::clone(storage)));
                        Online::join_cached(address, name, link, token, cache)
                    }
                    None => Online::join(address, name, link, token),
                };
                self.task = Some(Task::Joining(Box::new(online)));
                self.poll_task(engine);
            }
            Err(e) => self.show_launcher(engine, Some(e.to_string())),
        }
    }

    /// Keeps the token `address` gave `name`, in storage too (a failure
    /// only costs coming back as this player after a restart: said on the
    /// HUD).
    pub(super) fn remember_server(
        &mut self,
        address: &str,
        name: &str,
        token: crafty_net::protocol::Token,
    ) {
        if self.settings.servers.token(address, name) == Some(token)
            && self
                .settings
                .servers
                .last()
                .is_some_and(|s| s.address == address)
        {
            return;
        }
        self.settings.servers.remember(address, name, token);
        let store = self.store.clone();
        let servers = self.settings.servers.clone();
        self.servers_saved = Some(Pending::start(async move { servers.save(&store).await }));
    }
}
