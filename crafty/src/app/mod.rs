//! The windowed game: the launcher, then play, with the HUD on top, and the
//! settings screen over either.
//!
//! crafty is an [`App`] on the engine's one window loop
//! ([`Engine::run_app`]): the engine owns the window, the renderer (crafty's
//! [`CraftyPipelineFeature`] is its only feature) and the UI overlay; crafty
//! switches screens by handing the engine a world's game loop
//! ([`Engine::set_game_loop`]) and taking it back, grabs the pointer through
//! the engine, and saves when the window is asked to close.
//!
//! Where things are: `Crafty` (here) is the app and its screens;
//! `worlds` the launcher's worlds and joining a server; `flow` the storage
//! work the app waits for and leaving play; `play` a world being played;
//! `launcher`, `settings_screen`, `hud` and `online_hud` what is drawn.

mod export;
mod flow;
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
mod worlds;

use std::rc::Rc;

use taos_engine::game_loop::{InputEvent, Recording};
use taos_engine::{
    App, AppError as EngineAppError, Engine, EngineConfig, Propagate, RunError, WindowEvent, egui,
};

use crate::chunk_cache::{ChunkStorage, ChunkStore};
use crate::render::{CraftyPipelineFeature, CraftyRenderHandle, crafty_preset};
use crate::save::{SaveError, WorldStore};
use crate::settings::PlayerSettings;
use flow::Task;
use launcher::Launcher;
use play::{MenuChoice, Play};
use settings_screen::{SettingsOutcome, SettingsScreen};
use tasks::Pending;

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
/// the player's input takes over when it ends. `view` (chunks) replaces the
/// saved view distance for this run.
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
    view: Option<i32>,
    now_ms: fn() -> u64,
) -> Result<(), AppError> {
    use taos_engine::storage::block_on;
    let store = block_on(WorldStore::open(&backend))?;
    let mut settings = block_on(PlayerSettings::load(&store));
    if let (Some(view), Ok(loaded)) = (view, &mut settings) {
        loaded.settings.view_distance = view;
        loaded.settings = loaded.settings.clone().sanitized();
    }
    let chunks = chunk_storage(block_on(ChunkStore::open(&backend)));
    run_with(store, settings, chunks, world, script, now_ms)
}

/// The chunk cache's storage as opened; one that cannot be opened is
/// logged, and servers are joined without a stored cache.
fn chunk_storage<D: taos_engine::storage::Database + 'static>(
    opened: Result<ChunkStore<D>, taos_engine::storage::StorageError>,
) -> Option<Rc<dyn ChunkStorage>> {
    match opened {
        Ok(store) => Some(Rc::new(store)),
        Err(e) => {
            log::warn!("the chunk cache cannot be opened, servers send every chunk: {e}");
            None
        }
    }
}

/// Runs the window on an opened `store` with the settings as read from it.
fn run_with(
    store: WorldStore<Backend>,
    settings: Result<PlayerSettings, taos_engine::storage::StorageError>,
    chunks: Option<Rc<dyn ChunkStorage>>,
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
    let mut game = Crafty::new(store, settings, render, world, script, now_ms);
    game.chunk_storage = chunks;
    let config = EngineConfig::new(WINDOW_SIZE.0, WINDOW_SIZE.1);
    Engine::run_app("crafty", config, crafty_preset(feature), game).map_err(|error| match error {
        RunError::NoDisplay(ref window) => AppError::NoDisplay {
            reason: window.to_string(),
            cause: error,
        },
        other => AppError::Run(other),
    })
}

enum Screen {
    Launcher(Launcher),
    Playing(Box<Play>),
}

/// crafty as an engine [`App`].
struct Crafty {
    store: Store,
    /// Where servers' chunks are cached between runs (`None`: not cached).
    chunk_storage: Option<Rc<dyn ChunkStorage>>,
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
            chunk_storage: None,
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
