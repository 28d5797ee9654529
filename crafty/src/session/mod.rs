//! [`Session`]: one world being played, shared by the window and headless
//! mode: the background mesher, the render handle and the save bookkeeping,
//! beside the engine loop whose scene holds the [`Game`].
//!
//! - here: starting a session (single player, fresh, or on a server);
//! - `streaming`: generation, meshing and what the renderer is handed;
//! - `saving`: the save bookkeeping and saves.

mod far;
mod saving;
mod streaming;

pub use far::FarStats;

use glam::Vec3;
use taos_engine::Scene;
use taos_engine::game_loop::{Clock, GameLoop, LoopConfig};

use crate::game::{Game, install, state, state_mut};
use crate::inventory::GameMode;
use crate::mesh::MeshScheduler;
use crate::particles::{CraftyParticles, ParticleLevel};
use crate::player::{CraftyMapper, Player, restore_inventory};
use crate::render::CraftyRenderHandle;
use crate::save::{LoadedWorld, PlayerState, SaveSession, SavedWorld};
use crate::time_of_day::TimeOfDay;
use crate::weather::{PrecipitationMap, Weather};
use crate::world::{ChunkGenerator, TerrainGenerator, World};

pub use crate::game::TICK_HZ;
/// Chunks meshed (gathered and handed to the workers) per frame at most.
pub const MESH_JOBS_PER_FRAME: usize = 4;
/// Finished chunk meshes uploaded per frame at most.
pub const MESH_UPLOADS_PER_FRAME: usize = 8;
/// Chunks being generated in the background at once at most.
pub const GENERATION_IN_FLIGHT: usize = 16;
/// The near radius: chunks this close (in x and z) are loaded with all
/// their blocks and meshed in full; beyond, out to the view distance, the
/// far view draws level-of-detail terrain ([`crate::lod`]).
pub const NEAR_CHUNKS: i32 = 8;
/// The longest view distance, chunks: 64 natively, 32 in the browser.
pub const MAX_VIEW_DISTANCE: i32 = if cfg!(target_arch = "wasm32") { 32 } else { 64 };

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
    particles: CraftyParticles,
    far: far::FarView,
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
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        let far = far::FarView::new(terrain.terrain(), cores.saturating_sub(1).clamp(1, 4));
        let mut session = Self {
            far,
            terrain,
            meshes: MeshScheduler::new(),
            render,
            saves,
            saved_edit_count,
            noted_position: Vec3::NAN,
            precipitation: None,
            precipitation_edits: 0,
            particles: CraftyParticles::new(),
        };
        session.sync_render(&mut game_loop, MESH_JOBS_PER_FRAME, MESH_UPLOADS_PER_FRAME);
        (session, game_loop)
    }

    /// The handle the session feeds the renderer through (fog, chunks, sky).
    #[must_use]
    pub fn render(&self) -> &CraftyRenderHandle {
        &self.render
    }

    /// The particle emitters the session keeps in its scene (debris,
    /// splashes).
    #[must_use]
    pub fn particles(&self) -> &CraftyParticles {
        &self.particles
    }

    /// How many particles to draw from the next frame on (the player's
    /// setting; [`ParticleLevel::Off`] removes every emitter).
    pub fn set_particle_level(&mut self, game: &mut GameLoop, level: ParticleLevel) {
        self.particles.set_level(level);
        if level == ParticleLevel::Off {
            self.particles.clear(game.scene_mut());
        }
    }

    /// The saved record as last written.
    #[must_use]
    pub fn record(&self) -> &SavedWorld {
        self.saves.record()
    }
}
