//! One world being played in the window: input (mouse, gamepad and touch
//! look), per-frame streaming and autosave, the HUD, the pause menu, and
//! saving with a thumbnail on the way out.

use taos_engine::audio::AudioListener;
use taos_engine::controllers::TouchControls;
use taos_engine::game_loop::{
    GameLoop, Input, InputEvent, Key, LoopConfig, MouseButton, PauseReason, RealClock, Recording,
};
use taos_engine::touch_overlay::draw_touch_controls;
use taos_engine::{Camera, Engine, PendingReadback, Scene, WindowEvent, egui};

use super::Store;
use super::hud;
use super::sounds::CraftySounds;
use super::tasks::Pending;
use super::world_lock::WorldLock;
use crate::game::{state, state_mut};
use crate::online::Online;
use crate::player::{CraftyMapper, touch_layout};
use crate::render::{CraftyRenderHandle, Fog};
use crate::save::{CompletedSave, LoadedWorld, SaveError, UnsavedEdits, encode_thumbnail};
use crate::session::{MESH_JOBS_PER_FRAME, MESH_UPLOADS_PER_FRAME, Session};
use crate::settings::{PlayerSettings, Settings, TouchMode};
use crate::view::ViewObjects;
use crafty_client::ConnectionEvent;

/// Radians per second the right stick turns the view at full tilt (at
/// sensitivity 1).
const PAD_LOOK_SPEED: f32 = 2.5;
/// The longest frame gamepad look integrates over (a stall does not spin
/// the view).
const MAX_LOOK_FRAME_MS: u64 = 100;
/// Opens and closes the block picker.
const PICKER_KEY: Key = Key::B;
/// Opens the chat line on a server.
const CHAT_KEY: Key = Key::T;
/// Size of the thumbnail render (scaled to 160x90 when encoded).
const THUMBNAIL_RENDER: (u32, u32) = (320, 180);

/// What play made of a window event.
pub(super) enum Reaction {
    /// The engine goes on with it (input reaches the game loop).
    Continue,
    /// Play used it up (the click that grabs the pointer, mouse look).
    Handled,
    /// The player asked to leave for the launcher (F10).
    Leave,
}

/// What the pause menu asked for.
pub(super) enum MenuChoice {
    /// Open the settings screen.
    Settings,
    /// Save and go back to the launcher (or, after a failed last save,
    /// try that save again).
    Leave,
    /// After a failed last save: close the world without its unsaved edits.
    QuitWithoutSaving,
    /// After a failed last save: back to the world (the menu closed).
    KeepPlaying,
    /// After a failed last save: write the unsaved edits to a file.
    ExportUnsaved,
}

pub(super) struct Play {
    session: Session,
    captured: bool,
    fps: FpsCounter,
    notice: Option<String>,
    /// After a failed autosave, no new attempt before this time.
    retry_autosave_at: u64,
    /// An autosave being written (in the browser it finishes on a later
    /// frame; play goes on meanwhile).
    autosave: Option<Pending<Result<CompletedSave, SaveError>>>,
    /// Saves written since the world was opened.
    saves: u64,
    /// The world's edit count when the save in flight was prepared: what
    /// it will have stored once it completes.
    saving_edits: Option<usize>,
    /// Edits the world had when it was opened (the page reports them).
    #[cfg(target_arch = "wasm32")]
    loaded_edits: usize,
    /// Footsteps, block sounds and the wind (`None` if they could not be made).
    sounds: Option<CraftySounds>,
    /// Sensitivity, field of view, volumes, touch.
    settings: Settings,
    /// The on-screen controls as drawn (the loop's mapper reads its own copy
    /// per tick); touch look turns the view from here.
    touch: TouchControls,
    /// The pause menu is open (the simulation is paused).
    menu_open: bool,
    /// When the previous frame's update ran, for gamepad look.
    last_update_ms: Option<u64>,
    /// The block picker is open (the simulation goes on).
    picker_open: bool,
    /// Block icons for the hotbar and the picker, made on the first frame.
    icons: Option<hud::BlockIcons>,
    /// Why the last save failed: the world stays open, paused, until it
    /// is saved or the player chooses to quit without saving.
    save_failed: Option<String>,
    /// This window is the world's one writer while it plays (`None` on a
    /// server: the server keeps the world).
    _lock: Option<WorldLock>,
    /// The server, when this world is played on one.
    online: Option<Online>,
    /// Why the server connection ended; the app goes back to the launcher.
    disconnected: Option<String>,
    /// A chat line being typed (T opens it, Enter sends it).
    chat_line: Option<String>,
}

impl Play {
    /// Starts playing `loaded`: its game loop becomes the engine's, on the
    /// real clock, and the scene is shown.
    pub(super) fn start(
        engine: &mut Engine,
        loaded: LoadedWorld,
        lock: WorldLock,
        render: CraftyRenderHandle,
        settings: &PlayerSettings,
    ) -> Self {
        let warnings: Vec<String> = loaded.warnings.iter().map(ToString::to_string).collect();
        for warning in &warnings {
            log::warn!("{warning}");
        }
        engine.set_title(&format!("crafty: {}", loaded.record.name));
        let (session, game) = Session::start(loaded, RealClock::new(), render);
        let notice = (!warnings.is_empty()).then(|| warnings.join("\n"));
        Self::begin(engine, session, game, Some(lock), settings, notice)
    }

    /// Starts playing on a server: `online` was welcomed and made
    /// `session` and `game`. Nothing is saved locally.
    pub(super) fn start_online(
        engine: &mut Engine,
        online: Online,
        session: Session,
        game: GameLoop,
        settings: &PlayerSettings,
    ) -> Self {
        engine.set_title(&format!("crafty: {}", session.record().name));
        let mut play = Self::begin(engine, session, game, None, settings, None);
        play.online = Some(online);
        play
    }

    /// Hands `game` to the engine and shows it, with sounds and settings.
    fn begin(
        engine: &mut Engine,
        session: Session,
        game: GameLoop,
        lock: Option<WorldLock>,
        settings: &PlayerSettings,
        notice: Option<String>,
    ) -> Self {
        // The launcher's loop had nothing in it.
        drop(engine.set_game_loop(game));
        engine.show_scene(true);
        let sounds = CraftySounds::new()
            .inspect_err(|e| log::warn!("crafty: no sounds ({e})"))
            .ok();
        let camera = engine
            .scene()
            .world()
            .get_resource::<ViewObjects>()
            .map(|view| view.player);
        if let (Some(sounds), Some(camera)) = (&sounds, camera) {
            let scene = engine.scene_mut();
            let added = scene
                .add_component(camera, AudioListener)
                .and_then(|()| scene.add_component(camera, sounds.ambience()));
            if let Err(e) = added {
                log::warn!("crafty: no ambience ({e})");
            }
        }
        let mut play = Self {
            session,
            captured: false,
            fps: FpsCounter::default(),
            notice,
            retry_autosave_at: 0,
            autosave: None,
            saves: 0,
            saving_edits: None,
            #[cfg(target_arch = "wasm32")]
            loaded_edits: 0,
            sounds,
            settings: settings.settings.clone(),
            touch: TouchControls::new(touch_layout()),
            menu_open: false,
            last_update_ms: None,
            picker_open: false,
            icons: None,
            save_failed: None,
            _lock: lock,
            online: None,
            disconnected: None,
            chat_line: None,
        };
        #[cfg(target_arch = "wasm32")]
        {
            play.loaded_edits = state(engine.game_loop()).world.edits().len();
        }
        play.apply_settings(engine, settings);
        play
    }

    /// Applies new settings at once: look speed, the camera's field of
    /// view, the view distance (chunks loaded, and the fog that hides their
    /// edge), shadows and light shafts, volumes, and the bindings (a new mapper for the loop).
    pub(super) fn apply_settings(&mut self, engine: &mut Engine, settings: &PlayerSettings) {
        self.settings = settings.settings.clone().sanitized();
        state_mut(engine.game_loop()).set_view_radius(self.settings.view_distance);
        let render = self.session.render();
        render.set_fog(Fog::for_view_radius(self.settings.view_distance));
        render.set_shadows(self.settings.shadows.shadows());
        render.set_godrays(self.settings.godrays());
        engine.audio().set_volumes(self.settings.volumes());
        engine
            .game_loop()
            .set_action_mapper(CraftyMapper::new(settings.bindings.clone()));
        let camera = engine
            .scene()
            .world()
            .get_resource::<ViewObjects>()
            .map(|view| view.player);
        if let Some(mut camera) =
            camera.and_then(|c| engine.scene_mut().get_component_mut::<Camera>(c))
            && let Err(e) = camera.set_fov_y_degrees(self.settings.fov_degrees)
        {
            log::warn!("field of view not applied: {e}");
        }
    }

    /// Opens (pausing the simulation, freeing the pointer) or closes the
    /// pause menu.
    pub(super) fn set_menu_open(&mut self, engine: &mut Engine, open: bool) {
        self.menu_open = open;
        if open {
            self.capture(engine, false);
            engine.game_loop().pause();
        } else {
            engine.game_loop().resume();
        }
        engine.request_redraw();
    }

    /// Mouse-free look: the right stick over this frame, and touch drags.
    fn look_without_mouse(&mut self, engine: &mut Engine, now_ms: u64) {
        let frame_ms = self
            .last_update_ms
            .map_or(0, |last| now_ms.saturating_sub(last).min(MAX_LOOK_FRAME_MS));
        self.last_update_ms = Some(now_ms);
        let Some(input) = engine.scene().world().get_resource::<Input>() else {
            return;
        };
        let stick = input.right_stick();
        let drag = self.touch.update(input).look;
        if self.menu_open {
            return;
        }
        let speed = PAD_LOOK_SPEED * self.settings.mouse_sensitivity * frame_ms as f32 / 1000.0;
        let per_pixel = self.settings.look_radians_per_pixel();
        let (yaw, pitch) = (
            -stick.x * speed - drag.x * per_pixel,
            stick.y * speed - drag.y * per_pixel,
        );
        if yaw != 0.0 || pitch != 0.0 {
            crate::game::look(engine.game_loop(), yaw, pitch);
        }
    }

    /// Plays `script` (see [`crate::script`]) from the next tick: the
    /// player's input is held back until it ends, then takes over. A script
    /// made for another tick rate is refused with a warning on the HUD.
    pub(super) fn play_script(&mut self, engine: &mut Engine, script: Recording) {
        let ticks = script.flags.len();
        match engine.game_loop().replay(script) {
            Ok(()) => log::info!("playing a {ticks}-tick input script"),
            Err(e) => {
                log::warn!("input script not played: {e}");
                self.notice = Some(format!("input script not played: {e}"));
            }
        }
    }

    /// Per frame, before the loop's callback: autosave when due, meshing.
    pub(super) fn update(&mut self, engine: &mut Engine, store: &Store, now_ms: u64) {
        let game = engine.game_loop();
        if game.pause_reason() == Some(PauseReason::ReplayFinished) {
            // A start script ended: the player's input takes over.
            game.resume();
        } else if game.replay_remaining().is_some() {
            // The loop pauses when the script runs out and then waits for an
            // event: keep frames coming so that this update sees it.
            engine.request_redraw();
        }
        self.look_without_mouse(engine, now_ms);
        if let Some(online) = &mut self.online {
            for event in online.sync(engine.game_loop()) {
                if let ConnectionEvent::Closed(reason) = event {
                    self.disconnected = Some(reason);
                }
            }
            let eye = state(engine.game_loop()).player.body.position;
            let mut figures: Vec<(glam::Vec3, f32)> = online
                .avatars()
                .into_iter()
                .map(|avatar| (avatar.feet, avatar.yaw))
                .collect();
            figures.sort_by(|a, b| {
                a.0.distance_squared(eye)
                    .total_cmp(&b.0.distance_squared(eye))
            });
            self.session.render().set_avatars(&figures);
        } else {
            self.autosave_if_due(engine, store, now_ms);
        }
        let game = engine.game_loop();
        self.session
            .sync_render(game, MESH_JOBS_PER_FRAME, MESH_UPLOADS_PER_FRAME);
        let events = state_mut(engine.game_loop()).take_sounds();
        if let Some(sounds) = &mut self.sounds {
            sounds.play(engine.audio(), &events);
        }
    }

    fn autosave_if_due(&mut self, engine: &mut Engine, store: &Store, now_ms: u64) {
        self.session.note_progress(engine.game_loop(), now_ms);
        if self.collect_autosave(engine, now_ms)
            && now_ms >= self.retry_autosave_at
            && self.session.autosave_due(now_ms)
        {
            self.start_autosave(engine, store, now_ms);
        }
    }

    /// Whether this world is played on a server.
    pub(super) fn is_online(&self) -> bool {
        self.online.is_some()
    }

    /// The server this world is played on, if it is.
    #[cfg(test)]
    pub(super) fn online(&self) -> Option<&Online> {
        self.online.as_ref()
    }

    /// Why the server connection ended, once it has.
    pub(super) fn disconnected(&self) -> Option<String> {
        let online = self.online.as_ref()?;
        self.disconnected
            .as_ref()
            .map(|reason| format!("disconnected from {}: {reason}", online.address))
    }

    /// Leaves the server (it keeps this player's record).
    pub(super) fn leave_server(&mut self) {
        if let Some(online) = &mut self.online {
            online.leave();
        }
    }

    /// Starts an autosave of everything not saved yet.
    fn start_autosave(&mut self, engine: &mut Engine, store: &Store, now_ms: u64) {
        match self.session.prepare_save(engine.game_loop(), now_ms) {
            Ok(save) => {
                self.saving_edits = Some(state(engine.game_loop()).world.edits().len());
                let store = store.clone();
                self.autosave = Some(Pending::start(async move { save.write(&store).await }));
                self.collect_autosave(engine, now_ms);
            }
            Err(e) => self.autosave_failed(&e, now_ms),
        }
    }

    /// The window was hidden (a tab switched away, a page going away, a
    /// minimised window): saves now, not when the autosave delay is up, since
    /// a hidden page may never get another frame. Returns whether a save
    /// was started.
    pub(super) fn save_on_hide(&mut self, engine: &mut Engine, store: &Store, now_ms: u64) -> bool {
        if !self.collect_autosave(engine, now_ms) || self.unsaved_edits(engine) == 0 {
            return false;
        }
        log::info!("the window was hidden: saving now");
        self.start_autosave(engine, store, now_ms);
        true
    }

    /// The HUD, the touch controls, and the pause menu when open.
    pub(super) fn ui(
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
            super::online_hud::draw_name_tags(ui, engine, online);
            let sent = super::online_hud::draw_chat(ui, online, &mut self.chat_line);
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
    fn save_failed_ui(
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
                        self.save_failed = None;
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

    /// The line shown over the HUD, if any.
    #[cfg(test)]
    pub(super) fn notice(&self) -> Option<&str> {
        self.notice.as_deref()
    }

    /// Shows a line over the HUD (a failed settings save).
    pub(super) fn set_notice(&mut self, notice: String) {
        self.notice = Some(notice);
    }

    /// Handles a window event before the engine does.
    pub(super) fn on_window_event(&mut self, engine: &mut Engine, event: &WindowEvent) -> Reaction {
        if self.chat_line.is_some() {
            // Typing a chat line: keys are text, not play (Escape drops it).
            return match event {
                WindowEvent::Input {
                    event: InputEvent::KeyDown(Key::Escape),
                    ..
                } => {
                    self.chat_line = None;
                    Reaction::Handled
                }
                WindowEvent::Input { .. } | WindowEvent::MouseMotion { .. } => Reaction::Handled,
                _ => Reaction::Continue,
            };
        }
        if self.online.is_some()
            && !self.menu_open
            && matches!(
                event,
                WindowEvent::Input {
                    event: InputEvent::KeyDown(CHAT_KEY),
                    ..
                }
            )
        {
            self.chat_line = Some(String::new());
            self.capture(engine, false);
            engine.request_redraw();
            return Reaction::Handled;
        }
        match *event {
            WindowEvent::Input {
                event: InputEvent::MouseDown(_),
                ui_consumed: false,
            } if self.picker_open => {
                // A click beside the picker closes it and breaks nothing.
                self.picker_open = false;
                Reaction::Handled
            }
            WindowEvent::Input {
                event: InputEvent::MouseDown(MouseButton::Left),
                ui_consumed: false,
            } if !self.captured && !self.menu_open => {
                // The click that grabs the pointer breaks nothing.
                self.capture(engine, true);
                Reaction::Handled
            }
            WindowEvent::MouseMotion { delta } if self.captured => {
                let turn = -delta * self.settings.look_radians_per_pixel();
                // The camera follows in this frame's update_render, not at the next tick.
                crate::game::look(engine.game_loop(), turn.x, turn.y);
                Reaction::Handled
            }
            WindowEvent::Focused(false) => {
                // The engine lets go of held keys after this.
                self.capture(engine, false);
                Reaction::Continue
            }
            WindowEvent::Input {
                event: InputEvent::KeyDown(Key::F10),
                ..
            } => Reaction::Leave,
            WindowEvent::Input {
                event: InputEvent::KeyDown(Key::Escape),
                ..
            } if self.picker_open => {
                self.picker_open = false;
                Reaction::Handled
            }
            WindowEvent::Input {
                event: InputEvent::KeyDown(Key::Escape),
                ..
            } => {
                self.set_menu_open(engine, !self.menu_open);
                Reaction::Handled
            }
            WindowEvent::Input {
                event: InputEvent::KeyDown(PICKER_KEY),
                ..
            } if !self.menu_open => {
                // The pointer goes free to click in the picker; the world
                // goes on.
                self.picker_open = !self.picker_open;
                if self.picker_open {
                    self.capture(engine, false);
                }
                engine.request_redraw();
                Reaction::Handled
            }
            WindowEvent::Input {
                event:
                    InputEvent::PadDown {
                        button: taos_engine::game_loop::PadButton::Start,
                        ..
                    },
                ..
            } => {
                self.set_menu_open(engine, !self.menu_open);
                Reaction::Handled
            }
            WindowEvent::Input {
                event: InputEvent::KeyDown(key),
                ..
            } => {
                if let Some(slot) = hotbar_key(key) {
                    state_mut(engine.game_loop()).player.hotbar.select(slot);
                }
                Reaction::Continue
            }
            _ => Reaction::Continue,
        }
    }

    /// Picks up the autosave being written, if it finished; returns
    /// whether none is in flight now.
    pub(super) fn collect_autosave(&mut self, engine: &mut Engine, now_ms: u64) -> bool {
        let Some(saving) = &self.autosave else {
            return true;
        };
        let Some(result) = saving.take() else {
            saving.keep_polling(engine);
            return false;
        };
        self.autosave = None;
        self.saving_edits = None;
        match result {
            Ok(done) => {
                self.session.finish_save(engine.game_loop(), done, now_ms);
                self.saves += 1;
                self.notice = None;
            }
            Err(e) => self.autosave_failed(&e, now_ms),
        }
        true
    }

    /// The page's status line while this world is played.
    #[cfg(target_arch = "wasm32")]
    pub(super) fn page_status(&self, engine: &mut Engine) -> super::web::PageStatus {
        let backend = format!("{:?}", engine.renderer().gpu().adapter_info().backend);
        let redraws = engine.window_stats().redraws;
        let game = engine.game_loop();
        let paused = game.is_paused();
        let frames = game.frame_count();
        let world = &state(game).world;
        let last_edit = world.edits().last().map(|edit| {
            let at = [edit.x, edit.y, edit.z];
            let now = world.block(glam::IVec3::from_array(at));
            (at, format!("{now:?}"))
        });
        let loaded_last_edit = self
            .loaded_edits
            .checked_sub(1)
            .and_then(|i| world.edits().get(i))
            .map(|edit| ([edit.x, edit.y, edit.z], format!("{:?}", edit.block)));
        super::web::PageStatus {
            screen: "playing",
            message: self
                .save_failure()
                .map(str::to_owned)
                .or_else(|| self.notice.clone()),
            busy: self.autosave.is_some(),
            backend,
            frames,
            redraws,
            paused,
            world: Some(self.session.record().id.clone()),
            edits: world.edits().len(),
            saved_edits: self.session.persisted_edits(),
            saves: self.saves,
            saving_edits: self.saving_edits,
            script_ticks_left: game.replay_remaining(),
            loaded_edits: self.loaded_edits,
            loaded_last_edit,
            last_edit,
            job_failures: hud::job_failures(&self.session),
            online: self.online.as_ref().map(|online| super::web::OnlineStatus {
                address: online.address.clone(),
                name: online.connection.name.clone(),
                players: online.connection.roster.values().cloned().collect(),
                accepted: online.connection.accepted.len(),
                pending: online.connection.pending_edits(),
            }),
            ..super::web::PageStatus::default()
        }
    }

    /// Says so on the HUD, and waits before the next attempt; the edits
    /// stay unsaved (nothing of a failed save is written).
    fn autosave_failed(&mut self, error: &SaveError, now_ms: u64) {
        log::warn!("autosave failed (retrying in 5 s): {error}");
        self.notice = Some(if storage_full(error) {
            "storage is full: the newest edits are not saved (what was saved is safe). \
             Delete a world, or free space for this site, and saving resumes (retrying every 5 s)"
                .to_owned()
        } else {
            format!("autosave failed (retrying in 5 s): {error}")
        });
        self.retry_autosave_at = now_ms + crate::save::AUTOSAVE_DELAY_MS;
    }

    fn capture(&mut self, engine: &mut Engine, on: bool) {
        self.captured = engine.set_pointer_locked(on) && on;
    }

    /// Starts the last save (with a fresh thumbnail) and pauses the world
    /// meanwhile; the world stays open until
    /// [`last_save_done`](Self::last_save_done) says it is saved. Call it
    /// when no autosave is in flight ([`collect_autosave`](Self::collect_autosave)
    /// says so), or the two saves would both append the same edits.
    pub(super) fn start_last_save(
        &mut self,
        engine: &mut Engine,
        store: &Store,
        now_ms: u64,
    ) -> Pending<Result<CompletedSave, SaveError>> {
        self.capture(engine, false);
        engine.game_loop().pause();
        let thumbnail = Self::thumbnail(engine);
        let save = self.session.prepare_save(engine.game_loop(), now_ms);
        let id = self.session.record().id.clone();
        let store = store.clone();
        Pending::start(async move {
            let done = save?.write(&store).await?;
            if let Some(pixels) = thumbnail {
                // A thumbnail is a nicety: the edits are saved already.
                let (w, h) = THUMBNAIL_RENDER;
                let jpeg = pixels
                    .await
                    .map_err(|e| e.to_string())
                    .and_then(|rgba| encode_thumbnail(&rgba, w, h).map_err(|e| e.to_string()));
                let stored = match jpeg {
                    Ok(jpeg) => store
                        .set_thumbnail(&id, Some(&jpeg))
                        .await
                        .map_err(|e| e.to_string()),
                    Err(e) => Err(e),
                };
                if let Err(e) = stored {
                    log::warn!("no thumbnail for this save: {e}");
                }
            }
            Ok(done)
        })
    }

    /// Takes the answer of [`start_last_save`](Self::start_last_save):
    /// `true` when every edit is saved and the world may close. On failure
    /// the world stays open and paused, the menu offers to retry or to quit
    /// without saving, and `false` is returned.
    pub(super) fn last_save_done(
        &mut self,
        engine: &mut Engine,
        result: Result<CompletedSave, SaveError>,
        now_ms: u64,
    ) -> bool {
        match result {
            Ok(done) => {
                self.session.finish_save(engine.game_loop(), done, now_ms);
                self.saves += 1;
                self.save_failed = None;
                true
            }
            Err(e) => {
                log::warn!("the last save failed; the world stays open: {e}");
                let unsaved = self.unsaved_edits(engine);
                let advice = if storage_full(&e) {
                    "storage is full: free space (or delete another world from a second \
                     window) and try again"
                } else {
                    "try again, or quit without saving"
                };
                self.save_failed = Some(format!(
                    "Saving failed: {e}\n{unsaved} edits are not saved yet. The world stays \
                     open: nothing is lost while it does; {advice}."
                ));
                self.menu_open = true;
                engine.request_redraw();
                false
            }
        }
    }

    /// Why the last save failed, while the world waits for a retry.
    pub(super) fn save_failure(&self) -> Option<&str> {
        self.save_failed.as_deref()
    }

    /// The edits made since the last successful save, for a file.
    pub(super) fn unsaved(&self, engine: &mut Engine) -> UnsavedEdits {
        let edits = state(engine.game_loop()).world.edits();
        let first = self.session.persisted_edits().min(edits.len());
        UnsavedEdits::new(self.session.record(), first, edits[first..].to_vec())
    }

    /// Adds what became of an export to the failure dialog.
    pub(super) fn exported(&mut self, outcome: Result<String, String>) {
        let line = match outcome {
            Ok(done) => done,
            Err(e) => format!("Export failed: {e}"),
        };
        if let Some(failure) = &mut self.save_failed {
            failure.push('\n');
            failure.push_str(&line);
        }
    }

    /// Edits made since the last successful save.
    pub(super) fn unsaved_edits(&self, engine: &mut Engine) -> usize {
        state(engine.game_loop())
            .world
            .edits()
            .len()
            .saturating_sub(self.session.persisted_edits())
    }

    /// Closes the world: clears its chunks from the renderer and gives the
    /// engine an empty, paused loop back. Whatever is not saved is gone:
    /// call it after [`last_save_done`](Self::last_save_done) said `true`,
    /// or when the player chose to quit without saving.
    pub(super) fn close(mut self, engine: &mut Engine) {
        self.capture(engine, false);
        self.session.render().set_avatars(&[]);
        self.session.clear_render(engine.game_loop());
        let idle = GameLoop::new(Scene::new(), LoopConfig::default(), RealClock::new())
            .expect("the default loop configuration is valid");
        drop(engine.set_game_loop(idle));
    }

    /// Renders the save's thumbnail now; its pixels arrive later (a page
    /// cannot wait for the GPU), in the save task.
    fn thumbnail(engine: &mut Engine) -> Option<PendingReadback> {
        let (w, h) = THUMBNAIL_RENDER;
        engine
            .capture_later(w, h)
            .inspect_err(|e| log::warn!("no thumbnail for this save: {e}"))
            .ok()
    }
}

/// The save failed because the disk, or the browser's quota for the site,
/// is full.
fn storage_full(error: &SaveError) -> bool {
    matches!(error, SaveError::Storage(storage) if storage.is_full())
}

/// Keys 1 to 9 pick hotbar slots 0 to 8.
fn hotbar_key(key: Key) -> Option<usize> {
    key.digit()
        .and_then(|digit| digit.checked_sub(1))
        .map(usize::from)
}

/// Frames per second, averaged over each second.
#[derive(Default)]
struct FpsCounter {
    window_start: u64,
    frames: u32,
    fps: f32,
}

impl FpsCounter {
    fn tick(&mut self, now_ms: u64) -> f32 {
        self.frames += 1;
        let elapsed = now_ms.saturating_sub(self.window_start);
        if elapsed >= 1000 {
            self.fps = self.frames as f32 * 1000.0 / elapsed as f32;
            self.frames = 0;
            self.window_start = now_ms;
        }
        self.fps
    }
}

#[cfg(test)]
mod tests {
    use taos_engine::storage::StorageError;

    use super::{SaveError, storage_full};

    #[test]
    fn a_full_store_is_told_apart_from_other_save_failures() {
        let quota = SaveError::Storage(StorageError::Full {
            database: "crafty".to_owned(),
            detail: "the site's quota".to_owned(),
        });
        assert!(storage_full(&quota));
        // ENOSPC, as the OS words it natively.
        let disk = SaveError::Storage(StorageError::Io {
            path: "/saves/crafty.redb".into(),
            source: std::io::Error::from_raw_os_error(28),
        });
        assert!(storage_full(&disk), "{disk}");
        let missing = SaveError::NotFound { id: "w".to_owned() };
        assert!(!storage_full(&missing));
    }
}
