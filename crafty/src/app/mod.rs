//! The windowed game: the launcher, then play, with the HUD on top, and the
//! settings screen over either.
//!
//! crafty is an [`App`] on the engine's one window loop
//! ([`Engine::run_app`]): the engine owns the window, the renderer (crafty's
//! [`CraftyPipelineFeature`] is its only feature) and the UI overlay; crafty
//! switches screens by handing the engine a world's game loop
//! ([`Engine::set_game_loop`]) and taking it back, grabs the pointer through
//! the engine, and saves when the window is asked to close.

mod export;
mod hud;
mod launcher;
mod online_hud;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod online_tests;
mod play;
mod settings_screen;
mod sounds;
mod tasks;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;
#[cfg(target_arch = "wasm32")]
mod web;
mod world_lock;

use std::rc::Rc;

use taos_engine::game_loop::{InputEvent, Recording};
use taos_engine::{
    App, AppError as EngineAppError, Engine, EngineConfig, Propagate, RunError, WindowEvent, egui,
};

use crate::cli::WorldChoice;
use crate::render::{CraftyPipelineFeature, CraftyRenderHandle, crafty_preset};
use crate::save::{
    CompletedSave, LoadedWorld, SaveError, SavedWorld, WorldListing, WorldStore, decode_thumbnail,
};
use crate::settings::PlayerSettings;
use launcher::{Launcher, LauncherAction, WorldEntry};
use play::{MenuChoice, Play};
use settings_screen::{SettingsOutcome, SettingsScreen};
use tasks::Pending;
use world_lock::{WorldInUse, WorldLock, lock_world};

use crate::online::{Online, connect};

#[cfg(target_arch = "wasm32")]
pub use web::run_in_page;

/// Where the window keeps worlds: the embedded database natively,
/// IndexedDB in the browser.
#[cfg(not(target_arch = "wasm32"))]
pub type Backend = taos_engine::storage::RedbBackend;
/// Where the window keeps worlds: the embedded database natively,
/// IndexedDB in the browser.
#[cfg(target_arch = "wasm32")]
pub type Backend = taos_engine::storage::IndexedDbBackend;

/// The saved worlds, shared with storage work still running.
type Store = Rc<WorldStore<Backend>>;

/// The window size crafty opens with (natively; in the page the canvas
/// fills the page).
const WINDOW_SIZE: (u32, u32) = (1024, 640);

/// The window could not be opened or run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AppError {
    /// No display to open a window on.
    #[error(
        "cannot open a window: {reason}\nWithout a display, play headless instead, e.g.\n  \
         crafty --headless --world new:42 --ticks 600 --screenshot out.png\nor run under Xvfb: \
         xvfb-run -a crafty"
    )]
    NoDisplay {
        /// What the window system said.
        reason: String,
        /// The engine's error (kept out of the message: it repeats the hint).
        cause: RunError,
    },
    /// The window, the GPU or the game failed while running.
    #[error(transparent)]
    Run(RunError),
    /// The saved worlds could not be opened.
    #[error(transparent)]
    Save(#[from] SaveError),
}

/// Opens the window on the launcher (or straight into `world`: a saved
/// world's name, or `new:SEED` for a new one) and runs until it closes.
/// `script` (see [`crate::script`]) is played in the first world opened;
/// the player's input takes over when it ends.
/// Worlds are saved in `backend`; `now_ms` is the wall clock used for
/// "last played" times.
///
/// # Errors
/// [`AppError::NoDisplay`] (with the headless command to use instead), or
/// what failed while opening the window, GPU or saves, or saving on quit.
#[cfg(not(target_arch = "wasm32"))]
pub fn run(
    backend: Backend,
    world: Option<String>,
    script: Option<Recording>,
    now_ms: fn() -> u64,
) -> Result<(), AppError> {
    use taos_engine::storage::block_on;
    let store = block_on(WorldStore::open(&backend))?;
    let settings = block_on(PlayerSettings::load(&store));
    run_with(store, settings, world, script, now_ms)
}

/// Runs the window on an opened `store` with the settings as read from it.
fn run_with(
    store: WorldStore<Backend>,
    settings: Result<PlayerSettings, taos_engine::storage::StorageError>,
    world: Option<String>,
    script: Option<Recording>,
    now_ms: fn() -> u64,
) -> Result<(), AppError> {
    let settings = settings.unwrap_or_else(|e| {
        let warning = format!("settings could not be read, using the defaults: {e}");
        log::warn!("{warning}");
        PlayerSettings {
            warnings: vec![warning],
            ..PlayerSettings::default()
        }
    });
    let (feature, render) = CraftyPipelineFeature::new();
    let game = Crafty::new(store, settings, render, world, script, now_ms);
    let config = EngineConfig::new(WINDOW_SIZE.0, WINDOW_SIZE.1);
    Engine::run_app("crafty", config, crafty_preset(feature), game).map_err(|error| match error {
        RunError::NoDisplay(ref window) => AppError::NoDisplay {
            reason: window.to_string(),
            cause: error,
        },
        other => AppError::Run(other),
    })
}

/// Why a world could not be opened, renamed or deleted.
#[derive(Debug, thiserror::Error)]
enum WorldError {
    /// Storage.
    #[error(transparent)]
    Save(#[from] SaveError),
    /// Another tab has it.
    #[error(transparent)]
    InUse(#[from] WorldInUse),
}

enum Screen {
    Launcher(Launcher),
    Playing(Box<Play>),
}

/// Storage work the app waits for before it goes on (one at a time).
enum Task {
    /// Listing worlds for the launcher; `problem` is shown with the list.
    List {
        listing: Pending<Result<WorldListing, SaveError>>,
        problem: Option<String>,
    },
    /// Finding the world to start in by name.
    FindNamed {
        listing: Pending<Result<WorldListing, SaveError>>,
        name: String,
    },
    /// Loading a world to play it.
    Open(Pending<Result<(LoadedWorld, WorldLock), WorldError>>),
    /// Saving a new world's record, then playing it (by id).
    Create(Pending<Result<String, SaveError>>),
    /// A rename or delete; the launcher is listed again after it.
    Change(Pending<Result<(), WorldError>>),
    /// Joining a server: waiting for its welcome.
    Joining(Box<Online>),
    /// Leaving play: waiting for an autosave still being written, then
    /// writing the last save.
    Leaving(Box<Play>),
    /// The last save of a world being written, the world still open; the
    /// launcher (or the end of the run) comes once it succeeded.
    Saving {
        play: Box<Play>,
        saving: Pending<Result<CompletedSave, SaveError>>,
    },
}

/// crafty as an engine [`App`].
struct Crafty {
    store: Store,
    start_world: Option<String>,
    /// Played in the first world opened (then `None`).
    start_script: Option<Recording>,
    now_ms: fn() -> u64,
    render: CraftyRenderHandle,
    screen: Screen,
    /// The player's settings as saved.
    settings: PlayerSettings,
    /// The settings screen, when open (over the launcher or the pause menu).
    settings_screen: Option<SettingsScreen>,
    /// Storage work in flight that decides what comes next.
    task: Option<Task>,
    /// Settings being saved.
    settings_saved: Option<Pending<Result<(), taos_engine::storage::StorageError>>>,
    /// The known servers being stored (after a server gave a token).
    servers_saved: Option<Pending<Result<(), taos_engine::storage::StorageError>>>,
    /// The window was asked to close while playing: the run ends once the
    /// world is saved (or the player quits without saving).
    exit_after_save: bool,
}

impl Crafty {
    fn new(
        store: WorldStore<Backend>,
        settings: PlayerSettings,
        render: CraftyRenderHandle,
        world: Option<String>,
        script: Option<Recording>,
        now_ms: fn() -> u64,
    ) -> Self {
        Self {
            store: Rc::new(store),
            start_world: world,
            start_script: script,
            now_ms,
            render,
            screen: Screen::Launcher(Launcher::new(Vec::new(), 0)),
            settings,
            settings_screen: None,
            task: None,
            settings_saved: None,
            servers_saved: None,
            exit_after_save: false,
        }
    }

    /// The launcher: the scene hidden, the loop paused (nothing to simulate:
    /// the window sleeps until input), the worlds listed (`problem` shown
    /// above them).
    fn show_launcher(&mut self, engine: &mut Engine, problem: Option<String>) {
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
    fn listed(
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
    fn start_in(&mut self, engine: &mut Engine, world: &str) {
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

    fn play(&mut self, id: &str) {
        let store = self.store.clone();
        let id = id.to_owned();
        self.task = Some(Task::Open(Pending::start(async move {
            let lock = lock_world(&id).await?;
            Ok((store.load(&id).await?, lock))
        })));
    }

    fn create(&mut self, record: SavedWorld) {
        let record = record.with_generator(crate::world::TerrainGenerator::LATEST);
        let store = self.store.clone();
        self.task = Some(Task::Create(Pending::start(async move {
            store.save(&record).await.map(|()| record.id)
        })));
    }

    fn on_launcher_action(&mut self, engine: &mut Engine, action: LauncherAction) {
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
    /// same player); play starts when the server answers.
    fn join(&mut self, engine: &mut Engine, address: &str, name: &str) {
        let token = self.settings.servers.token(address, name);
        match connect(address) {
            Ok(link) => {
                let online = Online::join(address, name, link, token);
                self.task = Some(Task::Joining(Box::new(online)));
                self.poll_task(engine);
            }
            Err(e) => self.show_launcher(engine, Some(e)),
        }
    }

    /// Keeps the token `address` gave `name`, in storage too (a failure
    /// only costs coming back as this player after a restart: said on the
    /// HUD).
    fn remember_server(&mut self, address: &str, name: &str, token: crafty_net::protocol::Token) {
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

    /// Leaves play: saves (with a thumbnail) and returns to the launcher;
    /// on a server, leaves it (the server keeps the player).
    fn leave_play(&mut self, engine: &mut Engine) {
        let Screen::Playing(mut play) = std::mem::replace(
            &mut self.screen,
            Screen::Launcher(Launcher::new(Vec::new(), 0)),
        ) else {
            return;
        };
        if play.is_online() {
            play.leave_server();
            let problem = play.disconnected();
            return self.close_play(engine, *play, problem);
        }
        self.task = Some(Task::Leaving(play));
        self.poll_task(engine);
    }

    /// Picks up the answer of the storage work in flight, if it came, and
    /// does what comes next; asks for frames while it waits.
    fn poll_task(&mut self, engine: &mut Engine) {
        if let Some(saved) = &self.servers_saved {
            if let Some(result) = saved.take() {
                self.servers_saved = None;
                if let Err(e) = result {
                    self.notice(format!(
                        "this server's token was not stored (after a restart you would join \
                         as a new player): {e}"
                    ));
                }
            } else {
                saved.keep_polling(engine);
            }
        }
        if let Some(saved) = &self.settings_saved {
            if let Some(result) = saved.take() {
                self.settings_saved = None;
                if let Err(e) = result {
                    self.notice(format!(
                        "settings apply to this run but were not saved: {e}"
                    ));
                }
            } else {
                saved.keep_polling(engine);
            }
        }
        let Some(task) = self.task.take() else {
            return;
        };
        let now = (self.now_ms)();
        match task {
            Task::List { listing, problem } => match listing.take() {
                Some(result) => self.listed(engine, result, problem),
                None => self.wait(engine, Task::List { listing, problem }),
            },
            Task::FindNamed { listing, name } => match listing.take() {
                Some(result) => {
                    let id = result.ok().and_then(|listing| {
                        listing
                            .worlds
                            .into_iter()
                            .find(|w| w.name == name || w.id == name)
                            .map(|w| w.id)
                    });
                    match id {
                        Some(id) => self.play(&id),
                        None => self.show_launcher(
                            engine,
                            Some(format!("no saved world is called {name:?}")),
                        ),
                    }
                }
                None => self.wait(engine, Task::FindNamed { listing, name }),
            },
            Task::Open(loading) => match loading.take() {
                Some(Ok((loaded, lock))) => {
                    let mut play =
                        Play::start(engine, loaded, lock, self.render.clone(), &self.settings);
                    if let Some(script) = self.start_script.take() {
                        play.play_script(engine, script);
                    }
                    self.screen = Screen::Playing(Box::new(play));
                    engine.request_redraw();
                }
                Some(Err(e)) => {
                    self.show_launcher(engine, Some(format!("cannot open that world: {e}")));
                }
                None => self.wait(engine, Task::Open(loading)),
            },
            Task::Create(saving) => match saving.take() {
                Some(Ok(id)) => self.play(&id),
                Some(Err(e)) => self.show_launcher(engine, Some(e.to_string())),
                None => self.wait(engine, Task::Create(saving)),
            },
            Task::Change(change) => match change.take() {
                Some(result) => self.show_launcher(engine, result.err().map(|e| e.to_string())),
                None => self.wait(engine, Task::Change(change)),
            },
            Task::Joining(mut online) => match online.welcome() {
                Ok(Some(welcome)) => {
                    let started = online.start_session(
                        &welcome,
                        taos_engine::game_loop::RealClock::new(),
                        self.render.clone(),
                    );
                    match started {
                        Ok((session, game)) => {
                            if let Some(token) = online.connection.token {
                                self.remember_server(
                                    &online.address,
                                    &online.connection.name,
                                    token,
                                );
                            }
                            let mut play =
                                Play::start_online(engine, *online, session, game, &self.settings);
                            if let Some(mut script) = self.start_script.take() {
                                // The same steps at the server's tick rate.
                                if let Ok(rate) = taos_engine::game_loop::Rate::hz(welcome.tick_hz)
                                {
                                    script.tick_rate = rate;
                                }
                                play.play_script(engine, script);
                            }
                            self.screen = Screen::Playing(Box::new(play));
                            engine.request_redraw();
                        }
                        Err(e) => {
                            online.leave();
                            self.show_launcher(engine, Some(e.to_string()));
                        }
                    }
                }
                Ok(None) => self.wait(engine, Task::Joining(online)),
                Err(reason) => self.show_launcher(
                    engine,
                    Some(format!("could not join {}: {reason}", online.address)),
                ),
            },
            Task::Leaving(mut play) => {
                if play.collect_autosave(engine, now) {
                    let saving = play.start_last_save(engine, &self.store, now);
                    self.task = Some(Task::Saving { play, saving });
                    self.poll_task(engine);
                } else {
                    self.wait(engine, Task::Leaving(play));
                }
            }
            Task::Saving { mut play, saving } => match saving.take() {
                Some(result) => {
                    if play.last_save_done(engine, result, now) {
                        self.close_play(engine, *play, None);
                    } else {
                        // Not saved: the world comes back, paused, with the
                        // choice to retry or to quit without saving.
                        self.screen = Screen::Playing(play);
                    }
                }
                None => self.wait(engine, Task::Saving { play, saving }),
            },
        }
    }

    /// Closes `play` (saved, or the player chose to drop its unsaved
    /// edits), then ends the run if the window asked to close, or shows the
    /// launcher with `problem`.
    fn close_play(&mut self, engine: &mut Engine, play: Play, problem: Option<String>) {
        play.close(engine);
        if self.exit_after_save {
            engine.request_exit();
        } else {
            self.show_launcher(engine, problem);
        }
    }

    /// Quits the world without saving what is not saved yet (the player
    /// chose it after a failed save).
    fn quit_without_saving(&mut self, engine: &mut Engine) {
        let Screen::Playing(play) = std::mem::replace(
            &mut self.screen,
            Screen::Launcher(Launcher::new(Vec::new(), 0)),
        ) else {
            return;
        };
        let dropped = play.unsaved_edits(engine);
        log::warn!("the player left without saving {dropped} edits");
        self.close_play(
            engine,
            *play,
            Some(format!("left without saving the last {dropped} edits")),
        );
    }

    /// Puts `task` back to look at it again on a later frame.
    fn wait(&mut self, engine: &mut Engine, task: Task) {
        engine.wake_at(web_time::Instant::now() + tasks::POLL_EVERY);
        self.task = Some(task);
    }

    /// Shows `text` where the player is looking: the HUD's notice in play,
    /// the launcher's message line otherwise.
    fn notice(&mut self, text: String) {
        match &mut self.screen {
            Screen::Playing(play) => play.set_notice(text),
            Screen::Launcher(launcher) => launcher.error = Some(text),
        }
    }

    /// Saves and applies what the settings screen decided.
    fn on_settings_outcome(&mut self, engine: &mut Engine, outcome: SettingsOutcome) {
        self.settings_screen = None;
        let SettingsOutcome::Save(settings) = outcome else {
            return;
        };
        self.settings = settings;
        if let Screen::Playing(play) = &mut self.screen {
            play.apply_settings(engine, &self.settings);
        }
        let store = self.store.clone();
        let settings = self.settings.clone();
        self.settings_saved = Some(Pending::start(async move { settings.save(&store).await }));
        self.poll_task(engine);
    }

    /// What the page shows for browser tests and the curious: the screen,
    /// the world and how much of it is saved.
    #[cfg(target_arch = "wasm32")]
    fn page_status(&self, engine: &mut Engine) -> web::PageStatus {
        match &self.screen {
            Screen::Playing(play) => play.page_status(engine),
            Screen::Launcher(launcher) => web::PageStatus::launcher(
                launcher.worlds.iter().map(|w| w.name.clone()).collect(),
                launcher
                    .worlds
                    .iter()
                    .filter(|w| w.thumbnail.is_some())
                    .count(),
                launcher.error.clone(),
                self.task.is_some(),
            ),
        }
    }
}

impl App for Crafty {
    fn start(&mut self, engine: &mut Engine) -> Result<(), EngineAppError> {
        match self.start_world.take() {
            Some(world) => self.start_in(engine, &world),
            None => self.show_launcher(engine, None),
        }
        self.poll_task(engine);
        Ok(())
    }

    fn window_event(
        &mut self,
        engine: &mut Engine,
        event: &WindowEvent,
    ) -> Result<Propagate, EngineAppError> {
        if *event == WindowEvent::CloseRequested {
            let saving = matches!(self.task, Some(Task::Leaving(_) | Task::Saving { .. }));
            if !matches!(self.screen, Screen::Playing(_)) && !saving {
                return Ok(Propagate::Continue);
            }
            // The world is saved before the window closes; the run ends when
            // the save succeeded (natively at once). If it fails the window
            // stays open on the world, which offers to retry or to quit
            // without saving: closing never drops edits silently.
            self.exit_after_save = true;
            self.leave_play(engine);
            return Ok(Propagate::Stop);
        }
        if let Some(screen) = &mut self.settings_screen {
            // The settings screen takes presses to rebind, and the game sees
            // no input while it is open.
            if let WindowEvent::Input { event, .. } = event {
                if matches!(
                    event,
                    InputEvent::KeyDown(taos_engine::game_loop::Key::Escape)
                ) && !screen.is_capturing()
                {
                    self.settings_screen = None;
                } else {
                    screen.capture(event);
                }
                return Ok(Propagate::Stop);
            }
            if matches!(event, WindowEvent::MouseMotion { .. }) {
                return Ok(Propagate::Stop);
            }
        }
        let Screen::Playing(play) = &mut self.screen else {
            return Ok(Propagate::Continue);
        };
        if *event == WindowEvent::Occluded(true) {
            // The engine pauses the hidden loop too (Continue).
            play.save_on_hide(engine, &self.store, (self.now_ms)());
            return Ok(Propagate::Continue);
        }
        match play.on_window_event(engine, event) {
            play::Reaction::Leave => {
                self.leave_play(engine);
                Ok(Propagate::Stop)
            }
            play::Reaction::Handled => Ok(Propagate::Stop),
            play::Reaction::Continue => Ok(Propagate::Continue),
        }
    }

    fn update(&mut self, engine: &mut Engine) -> Result<(), EngineAppError> {
        self.poll_task(engine);
        if let Screen::Playing(play) = &mut self.screen {
            play.update(engine, &self.store, (self.now_ms)());
            if play.disconnected().is_some() {
                // The server went (or closed this player's connection):
                // back to the launcher, saying why.
                self.leave_play(engine);
            }
        }
        #[cfg(target_arch = "wasm32")]
        self.page_status(engine).show();
        Ok(())
    }

    fn stopping(&mut self, engine: &mut Engine, error: &RunError) {
        // The run ends on an error: save the world before it goes (natively
        // the save is done when this returns).
        let play = match std::mem::replace(
            &mut self.screen,
            Screen::Launcher(Launcher::new(Vec::new(), 0)),
        ) {
            Screen::Playing(play) => Some(play),
            Screen::Launcher(_) => match self.task.take() {
                Some(Task::Leaving(play) | Task::Saving { play, .. }) => Some(play),
                _ => None,
            },
        };
        let Some(mut play) = play else {
            return;
        };
        if play.is_online() {
            // The server keeps the world: nothing to save here.
            play.leave_server();
            return;
        }
        log::warn!("the run is ending ({error}); saving the world first");
        let now = (self.now_ms)();
        play.collect_autosave(engine, now);
        let saving = play.start_last_save(engine, &self.store, now);
        match saving.take() {
            Some(Ok(_)) => log::info!("saved the world before the run ended"),
            Some(Err(e)) => log::error!("the world could not be saved as the run ended: {e}"),
            None => log::info!("saving the world as the run ends"),
        }
    }

    fn ui(&mut self, engine: &mut Engine, ui: &mut egui::Ui) {
        let now = (self.now_ms)();
        match &mut self.screen {
            Screen::Launcher(_) if self.task.is_some() => {
                ui.centered_and_justified(|ui| ui.heading("Working…"));
            }
            Screen::Launcher(launcher) => {
                if let Some(action) = launcher.ui(ui, now) {
                    self.on_launcher_action(engine, action);
                }
            }
            Screen::Playing(play) => match play.ui(engine, ui, now) {
                Some(MenuChoice::Settings) => {
                    self.settings_screen = Some(SettingsScreen::new(&self.settings));
                }
                Some(MenuChoice::Leave) => self.leave_play(engine),
                Some(MenuChoice::QuitWithoutSaving) => self.quit_without_saving(engine),
                Some(MenuChoice::KeepPlaying) => self.exit_after_save = false,
                Some(MenuChoice::ExportUnsaved) => {
                    let unsaved = play.unsaved(engine);
                    play.exported(export::export(&unsaved, now));
                }
                None => {}
            },
        }
        if let Some(outcome) = self.settings_screen.as_mut().and_then(|s| s.ui(ui)) {
            self.on_settings_outcome(engine, outcome);
        }
    }
}
