//! One world being played in the window.
//!
//! - here: starting and closing play, settings, per-frame update,
//!   scripts, and what the page is told;
//! - [`input`]: mouse, gamepad and touch look, and the keys of play;
//! - [`menu`]: the HUD and the pause menu;
//! - [`saving`]: autosave, and saving with a thumbnail on the way out;
//! - [`online`]: a world played on a server, and its chat line.

mod input;
mod menu;
mod online;
mod saving;

use online::OnlinePlay;
use saving::Saving;

use taos_engine::audio::AudioListener;
use taos_engine::controllers::TouchControls;
use taos_engine::game_loop::{GameLoop, LoopConfig, PauseReason, RealClock, Recording};
use taos_engine::{Camera, Engine, Scene};

use super::Store;
use super::hud;
use super::sounds::CraftySounds;
use super::world_lock::WorldLock;
#[cfg(target_arch = "wasm32")]
use crate::game::state;
use crate::game::state_mut;
use crate::online::Online;
use crate::player::{CraftyMapper, touch_layout};
use crate::render::CraftyRenderHandle;
use crate::save::LoadedWorld;
use crate::session::{MESH_JOBS_PER_FRAME, MESH_UPLOADS_PER_FRAME, Session};
use crate::settings::{PlayerSettings, Settings};
use crate::view::ViewObjects;

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
    /// The autosave and the last save: what is in flight, what failed.
    saving: Saving,
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
    /// This window is the world's one writer while it plays (`None` on a
    /// server: the server keeps the world).
    _lock: Option<WorldLock>,
    /// The server, when this world is played on one.
    online: Option<OnlinePlay>,
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
        play.online = Some(OnlinePlay::new(online));
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
            saving: Saving::default(),
            #[cfg(target_arch = "wasm32")]
            loaded_edits: 0,
            sounds,
            settings: settings.settings.clone(),
            touch: TouchControls::new(touch_layout()),
            menu_open: false,
            last_update_ms: None,
            picker_open: false,
            icons: None,
            _lock: lock,
            online: None,
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
    /// edge), shadows, light shafts and particles, volumes, and the bindings (a new mapper for the loop).
    pub(super) fn apply_settings(&mut self, engine: &mut Engine, settings: &PlayerSettings) {
        self.settings = settings.settings.clone().sanitized();
        self.session
            .set_view_distance(engine.game_loop(), self.settings.view_distance);
        let render = self.session.render();
        render.set_shadows(self.settings.shadows.shadows());
        render.set_godrays(self.settings.godrays());
        self.session
            .set_particle_level(engine.game_loop(), self.settings.particles);
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
        if self.online.is_some() {
            self.sync_online(engine);
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

    /// The line shown over the HUD, if any.
    #[cfg(test)]
    pub(super) fn notice(&self) -> Option<&str> {
        self.notice.as_deref()
    }

    /// Shows a line over the HUD (a failed settings save).
    pub(super) fn set_notice(&mut self, notice: String) {
        self.notice = Some(notice);
    }

    /// The page's status line while this world is played.
    #[cfg(target_arch = "wasm32")]
    pub(super) fn page_status(&self, engine: &mut Engine) -> super::web::PageStatus {
        let backend = format!("{:?}", engine.renderer().gpu().adapter_info().backend);
        let render_stats = self.session.render().stats();
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
            busy: self.saving.autosave.is_some(),
            backend,
            frames,
            redraws,
            paused,
            world: Some(self.session.record().id.clone()),
            edits: world.edits().len(),
            saved_edits: self.session.persisted_edits(),
            saves: self.saving.saves,
            saving_edits: self.saving.saving_edits,
            script_ticks_left: game.replay_remaining(),
            loaded_edits: self.loaded_edits,
            loaded_last_edit,
            last_edit,
            job_failures: hud::job_failures(&self.session),
            view_distance: self.settings.view_distance,
            chunks: render_stats.chunks,
            far_sections: render_stats.far_sections,
            gpu_buffer_bytes: render_stats.buffer_bytes,
            wasm_memory_bytes: super::web::wasm_memory_bytes(),
            online: self
                .online
                .as_ref()
                .map(|online| &online.server)
                .map(|online| super::web::OnlineStatus {
                    address: online.address.clone(),
                    name: online.connection.name.clone(),
                    players: online.connection.roster.values().cloned().collect(),
                    accepted: online.connection.accepted.len(),
                    pending: online.connection.pending_edits(),
                    chunks_cached: online.connection.chunks_cached,
                    chunks_fetched: online.connection.chunks_fetched,
                    chunk_bytes: online.connection.chunk_bytes,
                    joined: online.join_cost().map(|cost| cost.to_string()),
                }),
            ..super::web::PageStatus::default()
        }
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
