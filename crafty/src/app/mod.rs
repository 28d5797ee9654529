//! The windowed game: the launcher, then play, with the HUD on top, and the
//! settings screen over either.
//!
//! crafty is an [`App`] on the engine's one window loop
//! ([`Engine::run_app`]): the engine owns the window, the renderer (crafty's
//! [`CraftyPipelineFeature`] is its only feature) and the UI overlay; crafty
//! switches screens by handing the engine a world's game loop
//! ([`Engine::set_game_loop`]) and taking it back, grabs the pointer through
//! the engine, and saves when the window is asked to close.

mod hud;
mod launcher;
mod play;
mod settings_screen;
mod sounds;

use taos_engine::game_loop::InputEvent;
use taos_engine::storage::{RedbBackend, block_on};
use taos_engine::{
    App, AppError as EngineAppError, Engine, EngineConfig, Propagate, RunError, WindowEvent, egui,
};

use crate::render::{CraftyPipelineFeature, CraftyRenderHandle, crafty_preset};
use crate::save::{SaveError, WorldStore, decode_thumbnail};
use crate::settings::PlayerSettings;
use launcher::{Launcher, LauncherAction, WorldEntry};
use play::{MenuChoice, Play};
use settings_screen::{SettingsOutcome, SettingsScreen};

/// The window size crafty opens with.
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

/// Opens the window on the launcher (or straight into `world`, by name) and
/// runs until it closes. Worlds are saved in `backend`; `now_ms` is the wall
/// clock used for "last played" times.
///
/// # Errors
/// [`AppError::NoDisplay`] (with the headless command to use instead), or
/// what failed while opening the window, GPU or saves, or saving on quit.
pub fn run(
    backend: RedbBackend,
    world: Option<String>,
    now_ms: fn() -> u64,
) -> Result<(), AppError> {
    let store = block_on(WorldStore::open(&backend))?;
    let settings = block_on(PlayerSettings::load(&store)).unwrap_or_else(|e| {
        let warning = format!("settings could not be read, using the defaults: {e}");
        log::warn!("{warning}");
        PlayerSettings {
            warnings: vec![warning],
            ..PlayerSettings::default()
        }
    });
    let (feature, render) = CraftyPipelineFeature::new();
    let game = Crafty {
        store,
        start_world: world,
        now_ms,
        render,
        screen: Screen::Launcher(Launcher::new(Vec::new(), 0)),
        settings,
        settings_screen: None,
    };
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
    store: WorldStore<RedbBackend>,
    start_world: Option<String>,
    now_ms: fn() -> u64,
    render: CraftyRenderHandle,
    screen: Screen,
    /// The player's settings as saved.
    settings: PlayerSettings,
    /// The settings screen, when open (over the launcher or the pause menu).
    settings_screen: Option<SettingsScreen>,
}

impl Crafty {
    /// The launcher: the scene hidden, the loop paused (nothing to simulate:
    /// the window sleeps until input).
    fn show_launcher(&mut self, engine: &mut Engine, error: Option<String>) {
        engine.show_scene(false);
        engine.game_loop().pause();
        engine.set_title("crafty");
        let mut entries = Vec::new();
        let mut problems = Vec::new();
        match block_on(self.store.list()) {
            Ok(listing) => {
                for broken in listing.unreadable {
                    problems.push(format!(
                        "world {} cannot be read: {}",
                        broken.id, broken.error
                    ));
                }
                for record in listing.worlds {
                    let thumbnail = record.screenshot.as_deref().and_then(|jpeg| {
                        let image = decode_thumbnail(jpeg).ok()?;
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
        problems.extend(error);
        problems.extend(self.settings.warnings.iter().cloned());
        let mut launcher = Launcher::new(entries, (self.now_ms)() % 1_000_000);
        launcher.error = (!problems.is_empty()).then(|| problems.join("\n"));
        self.screen = Screen::Launcher(launcher);
        engine.request_redraw();
    }

    fn play_named(&mut self, engine: &mut Engine, name: &str) {
        let id = block_on(self.store.list()).ok().and_then(|listing| {
            listing
                .worlds
                .into_iter()
                .find(|w| w.name == name || w.id == name)
                .map(|w| w.id)
        });
        match id {
            Some(id) => self.play(engine, &id),
            None => self.show_launcher(engine, Some(format!("no saved world is called {name:?}"))),
        }
    }

    fn play(&mut self, engine: &mut Engine, id: &str) {
        match block_on(self.store.load(id)) {
            Ok(loaded) => {
                let play = Play::start(engine, loaded, self.render.clone(), &self.settings);
                self.screen = Screen::Playing(Box::new(play));
                engine.request_redraw();
            }
            Err(e) => self.show_launcher(engine, Some(format!("cannot open that world: {e}"))),
        }
    }

    fn on_launcher_action(&mut self, engine: &mut Engine, action: LauncherAction) {
        let now = (self.now_ms)();
        let result = match &action {
            LauncherAction::Play(id) => {
                self.play(engine, id);
                return;
            }
            LauncherAction::Create { name, seed, mode } => {
                let record = crate::save::SavedWorld::create(name.clone(), *seed, *mode, now)
                    .with_generator(crate::world::TerrainGenerator::LATEST);
                let id = record.id.clone();
                match block_on(self.store.save(&record)) {
                    Ok(()) => {
                        self.play(engine, &id);
                        return;
                    }
                    Err(e) => Err(e),
                }
            }
            LauncherAction::Settings => {
                self.settings_screen = Some(SettingsScreen::new(&self.settings));
                return;
            }
            LauncherAction::Rename { id, name } => block_on(self.store.rename(id, name)),
            LauncherAction::Delete(id) => block_on(self.store.delete(id)),
        };
        self.show_launcher(engine, result.err().map(|e| e.to_string()));
    }

    /// Leaves play: saves (with a thumbnail) and returns to the launcher.
    fn leave_play(&mut self, engine: &mut Engine) {
        let Screen::Playing(play) = std::mem::replace(
            &mut self.screen,
            Screen::Launcher(Launcher::new(Vec::new(), 0)),
        ) else {
            return;
        };
        let error = play
            .finish(engine, &self.store, (self.now_ms)())
            .err()
            .map(|e| format!("saving failed: {e}"));
        self.show_launcher(engine, error);
    }

    /// Saves and applies what the settings screen decided.
    fn on_settings_outcome(&mut self, engine: &mut Engine, outcome: SettingsOutcome) {
        self.settings_screen = None;
        let SettingsOutcome::Save(settings) = outcome else {
            return;
        };
        self.settings = settings;
        let saved = block_on(self.settings.save(&self.store))
            .map_err(|e| format!("settings apply to this run but were not saved: {e}"));
        match &mut self.screen {
            Screen::Playing(play) => {
                play.apply_settings(engine, &self.settings);
                if let Err(problem) = saved {
                    play.set_notice(problem);
                }
            }
            Screen::Launcher(launcher) => launcher.error = saved.err(),
        }
    }
}

impl App for Crafty {
    fn start(&mut self, engine: &mut Engine) -> Result<(), EngineAppError> {
        match self.start_world.take() {
            Some(name) => self.play_named(engine, &name),
            None => self.show_launcher(engine, None),
        }
        Ok(())
    }

    fn window_event(
        &mut self,
        engine: &mut Engine,
        event: &WindowEvent,
    ) -> Result<Propagate, EngineAppError> {
        if *event == WindowEvent::CloseRequested {
            if let Screen::Playing(play) = std::mem::replace(
                &mut self.screen,
                Screen::Launcher(Launcher::new(Vec::new(), 0)),
            ) {
                // Saved before the window closes; a failure is the run's error.
                play.finish(engine, &self.store, (self.now_ms)())?;
            }
            return Ok(Propagate::Continue);
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
        if let Screen::Playing(play) = &mut self.screen {
            play.update(engine, &self.store, (self.now_ms)());
        }
        Ok(())
    }

    fn ui(&mut self, engine: &mut Engine, ui: &mut egui::Ui) {
        let now = (self.now_ms)();
        match &mut self.screen {
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
                None => {}
            },
        }
        if let Some(outcome) = self.settings_screen.as_mut().and_then(|s| s.ui(ui)) {
            self.on_settings_outcome(engine, outcome);
        }
    }
}
