//! [`Session`]: one world being played, shared by the window and headless
//! mode: the background mesher, the render handle and the save bookkeeping,
//! beside the engine loop whose scene holds the [`Game`].

use glam::Vec3;
use taos_engine::Scene;
use taos_engine::game_loop::{Clock, GameLoop, LoopConfig};
use taos_engine::storage::StorageBackend;

use crate::game::{Game, install, state, state_mut};
use crate::inventory::GameMode;
use crate::mesh::MeshScheduler;
use crate::player::{CraftyMapper, Player, inventory_state, restore_inventory};
use crate::render::CraftyRenderHandle;
use crate::save::{
    AppendReport, CompletedSave, LoadedWorld, PendingSave, PlaySnapshot, PlayerState, SaveError,
    SaveSession, SavedWorld, WorldStore,
};
use crate::time_of_day::TimeOfDay;
use crate::weather::{PrecipitationMap, Weather, weather_sky};
use crate::world::{ChunkGenerator, ChunkPos, JobFailures, TerrainGenerator, World};

pub use crate::game::TICK_HZ;
/// Chunks meshed (gathered and handed to the workers) per frame at most.
pub const MESH_JOBS_PER_FRAME: usize = 4;
/// Finished chunk meshes uploaded per frame at most.
pub const MESH_UPLOADS_PER_FRAME: usize = 8;
/// Chunks being generated in the background at once at most.
pub const GENERATION_IN_FLIGHT: usize = 16;

/// How a session's loop ticks.
#[derive(Debug, Clone, Copy)]
enum Ticking {
    /// Single player, at [`TICK_HZ`].
    Local,
    /// On a server, at its rate: the player stays where the server put it.
    Online(u32),
}

/// Why a multiplayer session could not start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OnlineError {
    /// The server asked for a tick rate the loop cannot run.
    #[error("the server ticks at {0} Hz; crafty plays at 1 to 1000 Hz")]
    TickRate(u32),
}

/// Moves a player whose body is inside solid blocks (a new world's spawn
/// point under a hill, or a corrupt position) up until it stands free.
fn lift_out_of_ground(world: &World, player: &mut Player) {
    let stuck = |player: &Player| {
        let (min, max) = player.body.bounds();
        let (lo, hi) = (min.floor().as_ivec3(), (max - 1e-3).floor().as_ivec3());
        (lo.x..=hi.x).any(|x| {
            (lo.y..=hi.y)
                .any(|y| (lo.z..=hi.z).any(|z| world.block(glam::IVec3::new(x, y, z)).is_solid()))
        })
    };
    while stuck(player) && player.body.position.y < crate::world::WORLD_HEIGHT as f32 {
        player.body.position.y = player.body.position.y.floor() + 1.0;
    }
}

/// Puts a player whose saved position is not a number, or far outside the
/// world (a damaged save), back at the spawn point.
fn sanitize_position(player: &mut Player) {
    let p = player.body.position;
    let height = crate::world::WORLD_HEIGHT as f32;
    // Far beyond any reachable place (or not a number): a damaged save.
    let sane = p.is_finite()
        && p.x.abs() < 3.0e7
        && p.z.abs() < 3.0e7
        && (-64.0..height + 64.0).contains(&p.y);
    if !sane {
        log::warn!("player position {p} is outside the world; moving to the spawn point");
        let spawn = crate::save::SPAWN;
        player.body.position = Vec3::new(spawn.x, spawn.y, spawn.z);
    }
}

/// A world being played, beside the [`GameLoop`] that runs its scene.
///
/// The loop (the scene with the [`Game`], its camera and sun, ticked at
/// [`TICK_HZ`]) is handed out by [`start`](Self::start) and
/// [`fresh`](Self::fresh): a window gives it to its [`Engine`](taos_engine::Engine)
/// ([`Engine::set_game_loop`](taos_engine::Engine::set_game_loop)); headless
/// play and tests step it directly. The session keeps what lives outside the
/// simulation (the background mesher, the render handle, the save
/// bookkeeping) and takes the loop by reference where it needs the game.
pub struct Session {
    terrain: ChunkGenerator,
    meshes: MeshScheduler,
    render: CraftyRenderHandle,
    saves: SaveSession,
    saved_edit_count: usize,
    noted_position: Vec3,
    precipitation: Option<PrecipitationMap>,
    precipitation_edits: usize,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("world", &self.saves.record().name)
            .finish_non_exhaustive()
    }
}

impl Session {
    /// Starts playing a loaded world: the seed regenerated, the edit log
    /// replayed, the player, time, mode and belongings restored. Returns the
    /// session and the loop that runs the world on `clock`.
    #[must_use]
    pub fn start(
        loaded: LoadedWorld,
        clock: impl Clock + 'static,
        render: CraftyRenderHandle,
    ) -> (Self, GameLoop) {
        let (world, saves) = SaveSession::start(loaded);
        Self::assemble(world, saves, clock, render, Ticking::Local)
    }

    /// Starts playing a world that has never been saved (no edits yet). A
    /// player still at the default [`SPAWN`](crate::save::SPAWN) of a biome
    /// world starts on the nearest dry land instead (not in the sea).
    #[must_use]
    pub fn fresh(
        mut record: SavedWorld,
        clock: impl Clock + 'static,
        render: CraftyRenderHandle,
    ) -> (Self, GameLoop) {
        let terrain = record.terrain();
        let spawn = crate::save::SPAWN;
        if record.player == spawn && terrain.generator() == TerrainGenerator::Biomes {
            let (x, z) = (spawn.x.floor() as i32, spawn.z.floor() as i32);
            if let Some((x, z, surface)) = terrain.land_near(x, z) {
                record.player.x = x as f32 + 0.5;
                record.player.z = z as f32 + 0.5;
                record.player.y = surface as f32 + 1.0;
            }
        }
        let world = World::with_terrain(terrain);
        Self::assemble(
            world,
            SaveSession::new(record),
            clock,
            render,
            Ticking::Local,
        )
    }

    /// Starts playing on a multiplayer server: the world of `seed` (the
    /// server's edits arrive later), the player where the server put it
    /// (not lifted or moved: the server owns the position), ticking at the
    /// server's `tick_hz` and keeping each tick's input
    /// ([`Game::take_played`]) for the client to send. Nothing is saved
    /// locally: `name` only labels the world.
    ///
    /// # Errors
    /// `tick_hz` is not a tick rate the loop can run (outside 1..=1000).
    pub fn online(
        name: &str,
        seed: u64,
        mode: GameMode,
        player: PlayerState,
        tick_hz: u32,
        clock: impl Clock + 'static,
        render: CraftyRenderHandle,
    ) -> Result<(Self, GameLoop), OnlineError> {
        if !(1..=1000).contains(&tick_hz) {
            return Err(OnlineError::TickRate(tick_hz));
        }
        let mut record = SavedWorld::create(name, seed, mode, 0);
        record.player = player;
        let (session, mut game_loop) = Self::assemble(
            World::new(seed),
            SaveSession::new(record),
            clock,
            render,
            Ticking::Online(tick_hz),
        );
        state_mut(&mut game_loop).keep_played(true);
        Ok((session, game_loop))
    }

    fn assemble(
        world: World,
        saves: SaveSession,
        clock: impl Clock + 'static,
        render: CraftyRenderHandle,
        ticking: Ticking,
    ) -> (Self, GameLoop) {
        let record = saves.record();
        let (tick_hz, online) = match ticking {
            Ticking::Local => (TICK_HZ, false),
            Ticking::Online(hz) => (hz, true),
        };
        let p = record.player;
        let mode = record.mode();
        let mut player = Player::new(Vec3::new(p.x, p.y, p.z), p.yaw, p.pitch, mode);
        // Sane coordinates before any chunk is generated around them.
        sanitize_position(&mut player);
        if let (GameMode::Survival, Some(state)) = (mode, &record.inventory) {
            (player.inventory, player.hotbar) = restore_inventory(state);
        }
        let time = TimeOfDay::new(record.sun_angle, record.moon_phase.unwrap_or(0.0));
        let saved_edit_count = world.edits().len();
        let mut scene = Scene::new();
        let mut game = Game::new(world, player, time);
        if let Some(saved) = record.weather {
            game.weather = Weather::restore(record.seed, saved);
        }
        // Now with trees and edits loaded around the player.
        if !online {
            lift_out_of_ground(&game.world, &mut game.player);
        }
        install(&mut scene, game, tick_hz);
        let config = LoopConfig::fixed(tick_hz).expect("callers pass a tick rate in 1..=1000");
        let mut game_loop =
            GameLoop::new(scene, config, clock).expect("a fixed tick rate is a valid loop");
        game_loop.set_action_mapper(CraftyMapper::default());
        game_loop.checksum_mut().resource::<Game>();
        // The first view was generated in place (the spawn is ready at
        // once); what the view gains from now on comes from the workers.
        state_mut(&mut game_loop).set_background_generation(true);
        let terrain = ChunkGenerator::new(*state(&game_loop).world.terrain());
        let mut session = Self {
            terrain,
            meshes: MeshScheduler::new(),
            render,
            saves,
            saved_edit_count,
            noted_position: Vec3::NAN,
            precipitation: None,
            precipitation_edits: 0,
        };
        session.sync_render(&mut game_loop, MESH_JOBS_PER_FRAME, MESH_UPLOADS_PER_FRAME);
        (session, game_loop)
    }

    /// The handle the session feeds the renderer through (fog, chunks, sky).
    #[must_use]
    pub fn render(&self) -> &CraftyRenderHandle {
        &self.render
    }

    /// The saved record as last written.
    #[must_use]
    pub fn record(&self) -> &SavedWorld {
        self.saves.record()
    }

    /// Notes edits made, or a walk of more than a block, since the last
    /// call (starting the autosave debounce).
    pub fn note_progress(&mut self, game: &GameLoop, now_ms: u64) {
        let game = state(game);
        let edits = game.world.edits().len();
        let position = game.player.body.position;
        // NaN (nothing noted yet) counts as moved.
        let moved = position
            .distance(self.noted_position)
            .partial_cmp(&1.0)
            .is_none_or(std::cmp::Ordering::is_gt);
        if edits != self.saved_edit_count || moved {
            if self.noted_position.is_finite() {
                self.saves.note_change(now_ms);
            }
            self.saved_edit_count = edits;
            self.noted_position = position;
        }
    }

    /// Hands dirty chunks to the mesher (at most `jobs` new jobs, nearest
    /// first), uploads at most `uploads` finished meshes, drops meshes of
    /// unloaded chunks, and passes the sky and weather of this moment of game
    /// time and the highlight to the renderer.
    pub fn sync_render(&mut self, game: &mut GameLoop, jobs: usize, uploads: usize) {
        self.generate(game, GENERATION_IN_FLIGHT, false);
        let (dirty, unloaded) = {
            let mut game = state_mut(game);
            (game.take_dirty(), game.take_unloaded())
        };
        for pos in unloaded {
            self.meshes.forget(pos);
            self.render.remove_chunk(pos);
        }
        // Only chunks under the precipitation map (two chunks around the
        // player) change where rain stops.
        let (near, _) = ChunkPos::of_block(state(game).player.body.position.floor().as_ivec3());
        let world_changed = dirty.iter().any(|pos| {
            let d = pos.0 - near.0;
            d.x.abs() <= 2 && d.z.abs() <= 2
        });
        self.meshes.request_all(dirty);
        let game = state(game);
        self.refresh_precipitation(game, world_changed);
        self.meshes
            .gather_jobs(&game.world, game.player.body.position, jobs);
        for (pos, mesh) in self.meshes.poll_finished(uploads) {
            self.render.set_chunk(pos, &mesh);
        }
        let weather = game.weather.view();
        self.render.set_sky(weather_sky(game.time.sky(), &weather));
        self.render.set_weather(weather);
        self.render.set_highlight(game.target.map(|hit| hit.block));
        self.render.set_underwater(game.eye_under_water());
    }

    /// Rebuilds the map of where rain stops when the player has walked away
    /// from its centre, blocks changed, or chunks loaded.
    fn refresh_precipitation(&mut self, game: &Game, world_changed: bool) {
        let center = game.player.body.position.floor().as_ivec3();
        let edits = game.world.edits().len();
        let stale = self.precipitation.as_ref().is_none_or(|map| {
            world_changed || edits != self.precipitation_edits || map.is_stale_for(center)
        });
        if stale {
            let map = PrecipitationMap::around(&game.world, center);
            self.render.set_precipitation(&map);
            self.precipitation = Some(map);
            self.precipitation_edits = edits;
        }
    }

    /// Queues the chunks the view still lacks on the background generator
    /// (keeping at most `in_flight` there) and loads those it finished;
    /// with `wait`, until none is missing.
    fn generate(&mut self, game: &mut GameLoop, in_flight: usize, wait: bool) {
        loop {
            let wanted = state(game).chunks_wanted();
            let room = in_flight.saturating_sub(self.terrain.in_flight());
            self.terrain.request(&wanted, room);
            let done = if wait {
                self.terrain.wait_all()
            } else {
                self.terrain.poll()
            };
            if !done.is_empty() {
                let mut game = state_mut(game);
                for (pos, chunk) in done {
                    game.accept_generated(pos, chunk);
                }
            }
            // Chunks given up on (their job kept panicking) are not waited for.
            let waiting = self.terrain.in_flight() > 0
                || state(game)
                    .chunks_wanted()
                    .iter()
                    .any(|&pos| !self.terrain.gave_up(pos));
            if !wait || !waiting {
                break;
            }
        }
    }

    /// Chunks of the view loaded, and all the view holds (what a loading
    /// screen shows).
    #[must_use]
    pub fn generation_progress(&self, game: &GameLoop) -> (usize, usize) {
        let game = state(game);
        let side = (2 * game.view_radius + 1) as usize;
        let total = side * side * crate::world::WORLD_CHUNKS_Y as usize;
        (total.saturating_sub(game.chunks_wanted().len()), total)
    }

    /// Meshes waiting or being made.
    #[must_use]
    pub fn meshes_pending(&self) -> usize {
        self.meshes.pending()
    }

    /// Mesh jobs that panicked (each logged) and the chunks left without a
    /// mesh, for the HUD.
    #[must_use]
    pub fn mesh_failures(&self) -> JobFailures {
        self.meshes.failures()
    }

    /// Terrain jobs that panicked (each logged) and the chunks left
    /// unloaded, for the HUD.
    #[must_use]
    pub fn terrain_failures(&self) -> JobFailures {
        self.terrain.failures()
    }

    /// Test seam: every mesh job for `pos` panics from now on.
    #[doc(hidden)]
    pub fn inject_mesh_panic(&mut self, pos: ChunkPos) {
        self.meshes.inject_panic(pos);
    }

    /// Test seam: every background terrain job for `pos` panics from now on.
    #[doc(hidden)]
    pub fn inject_terrain_panic(&mut self, pos: ChunkPos) {
        self.terrain.inject_panic(pos);
    }

    /// Generates and meshes every chunk still waiting, blocking until all
    /// are uploaded (headless runs and screenshots).
    pub fn finish_meshing(&mut self, game: &mut GameLoop) {
        self.generate(game, usize::MAX, true);
        loop {
            self.sync_render(game, usize::MAX, usize::MAX);
            if self.meshes.is_idle() {
                break;
            }
            let game = state(game);
            self.meshes
                .gather_jobs(&game.world, game.player.body.position, usize::MAX);
            for (pos, mesh) in self.meshes.wait_finished(usize::MAX) {
                self.render.set_chunk(pos, &mesh);
            }
        }
    }

    /// Drops this world's chunks from the renderer (leaving the world).
    pub fn clear_render(&mut self, game: &GameLoop) {
        for pos in state(game).world.loaded_chunks() {
            self.meshes.forget(pos);
            self.render.remove_chunk(pos);
        }
    }

    /// What an autosave records besides the edits.
    #[must_use]
    pub fn snapshot(game: &GameLoop) -> PlaySnapshot {
        let game = state(game);
        let player = &game.player;
        let position = player.body.position;
        PlaySnapshot {
            player: PlayerState {
                x: position.x,
                y: position.y,
                z: position.z,
                yaw: player.yaw,
                pitch: player.pitch,
            },
            sun_angle: game.time.sun_angle,
            moon_phase: Some(game.time.moon_phase),
            game_mode: player.mode,
            inventory: (player.mode == GameMode::Survival)
                .then(|| inventory_state(&player.inventory, &player.hotbar)),
        }
    }

    /// A save of this moment (the edits since the last one, the player,
    /// the sky and the weather) taken out of the session, to write while
    /// play goes on; hand the written save to
    /// [`finish_save`](Self::finish_save).
    ///
    /// # Errors
    /// As [`SaveSession::prepare_save`].
    pub fn prepare_save(&mut self, game: &GameLoop, now_ms: u64) -> Result<PendingSave, SaveError> {
        let snapshot = Self::snapshot(game);
        self.saves.set_weather(state(game).weather.state());
        self.saves
            .prepare_save(&state(game).world, &snapshot, now_ms)
    }

    /// Counts a save from [`prepare_save`](Self::prepare_save) as stored.
    pub fn finish_save(&mut self, game: &GameLoop, done: CompletedSave, now_ms: u64) {
        self.saves.finish_save(done, &state(game).world, now_ms);
    }

    /// Edits of the live world already stored.
    #[must_use]
    pub fn persisted_edits(&self) -> usize {
        self.saves.persisted_edits()
    }

    /// An autosave is due at `now_ms`.
    #[must_use]
    pub fn autosave_due(&self, now_ms: u64) -> bool {
        self.saves.due(now_ms)
    }

    /// Saves if the debounce says it is time; `None` when nothing was due.
    ///
    /// # Errors
    /// [`SaveError`] from the store; the edits stay unsaved and are retried.
    pub async fn autosave_if_due<B: StorageBackend>(
        &mut self,
        game: &GameLoop,
        store: &WorldStore<B>,
        now_ms: u64,
    ) -> Result<Option<AppendReport>, SaveError> {
        let snapshot = Self::snapshot(game);
        self.saves.set_weather(state(game).weather.state());
        self.saves
            .autosave_if_due(store, &state(game).world, &snapshot, now_ms)
            .await
    }

    /// Saves now (quitting, or leaving for the launcher), and stores
    /// `thumbnail` (a JPEG) when given.
    ///
    /// # Errors
    /// [`SaveError`] from the store.
    pub async fn save_now<B: StorageBackend>(
        &mut self,
        game: &GameLoop,
        store: &WorldStore<B>,
        now_ms: u64,
        thumbnail: Option<&[u8]>,
    ) -> Result<AppendReport, SaveError> {
        let snapshot = Self::snapshot(game);
        self.saves.set_weather(state(game).weather.state());
        let report = self
            .saves
            .autosave(store, &state(game).world, &snapshot, now_ms)
            .await?;
        if let Some(jpeg) = thumbnail {
            store
                .set_thumbnail(&self.saves.record().id, Some(jpeg))
                .await?;
        }
        Ok(report)
    }
}
