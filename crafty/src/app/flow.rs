//! The storage work the app waits for ([`Task`]: listing, opening,
//! creating, changing worlds, joining a server, leaving play and its last
//! save) and what comes once it answers; leaving and closing play.

use taos_engine::Engine;

use super::launcher::Launcher;
use super::play::Play;
use super::tasks::{self, Pending};
use super::world_lock::{WorldInUse, WorldLock};
use super::{Crafty, Screen};
use crate::online::Online;
use crate::save::{CompletedSave, LoadedWorld, SaveError, WorldListing};

/// Why a world could not be opened, renamed or deleted.
#[derive(Debug, thiserror::Error)]
pub(super) enum WorldError {
    /// Storage.
    #[error(transparent)]
    Save(#[from] SaveError),
    /// Another tab has it.
    #[error(transparent)]
    InUse(#[from] WorldInUse),
}

/// Storage work the app waits for before it goes on (one at a time).
pub(super) enum Task {
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

impl Crafty {
    /// Picks up the answer of the storage work in flight, if it came, and
    /// does what comes next; asks for frames while it waits.
    pub(super) fn poll_task(&mut self, engine: &mut Engine) {
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

    /// Puts `task` back to look at it again on a later frame.
    pub(super) fn wait(&mut self, engine: &mut Engine, task: Task) {
        engine.wake_at(web_time::Instant::now() + tasks::POLL_EVERY);
        self.task = Some(task);
    }

    /// Leaves play: saves (with a thumbnail) and returns to the launcher;
    /// on a server, leaves it (the server keeps the player).
    pub(super) fn leave_play(&mut self, engine: &mut Engine) {
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

    /// Closes `play` (saved, or the player chose to drop its unsaved
    /// edits), then ends the run if the window asked to close, or shows the
    /// launcher with `problem`.
    pub(super) fn close_play(&mut self, engine: &mut Engine, play: Play, problem: Option<String>) {
        play.close(engine);
        if self.exit_after_save {
            engine.request_exit();
        } else {
            self.show_launcher(engine, problem);
        }
    }

    /// Quits the world without saving what is not saved yet (the player
    /// chose it after a failed save).
    pub(super) fn quit_without_saving(&mut self, engine: &mut Engine) {
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
}
