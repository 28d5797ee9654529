//! [`Game`]: one crafty session's simulation state, stepped by the engine's
//! fixed ticks from action flags.
//!
//! The game lives in the engine [`Scene`] as a resource and is advanced by a
//! bevy system on every tick, so the [`GameLoop`]
//! paces it, records its input and replays it like any other scene. The
//! player is a GameObject of that scene: its engine
//! [`PlayerController`] moves it first in each tick (from the same action
//! flags, through the game's voxel world), then the system copies where it
//! went into [`Game::player`] and does the rest of the tick.

use std::collections::BTreeSet;

use bevy_ecs::change_detection::Mut;
use bevy_ecs::prelude::Resource;
use glam::{IVec3, Vec3};
use taos_core::controllers::PlayerController;
use taos_core::game_loop::{Actions, GameLoop, StateHash, StateHasher};
use taos_core::{Scene, Time, behaviour_in};

use crate::player::ActionFlagsExt as _;

use crate::player::{Body, Player, RayHit};
use crate::time_of_day::TimeOfDay;
use crate::view::{ViewObjects, spawn_view};
use crate::weather::Weather;
use crate::world::{BlockType, ChunkPos, World};

/// Chunks kept loaded around the player, in each direction (x and z).
pub const DEFAULT_VIEW_RADIUS: i32 = 4;
/// The view radii a player can choose, in chunks.
pub const VIEW_RADII: std::ops::RangeInclusive<i32> = 2..=16;
/// Chunks around the player always generated in the tick itself, even with
/// background generation: everything the player can touch or target is in
/// them, so the simulation never depends on when a worker finishes.
pub const NEAR_RADIUS: i32 = 1;
/// Simulation ticks per second.
pub const TICK_HZ: u32 = 60;

/// The state of one crafty session.
#[derive(Resource, Debug, Clone)]
pub struct Game {
    /// Terrain plus edits.
    pub world: World,
    /// The player.
    pub player: Player,
    /// Sun and moon.
    pub time: TimeOfDay,
    /// Clear, rain, snow or storm; starts with the world seed's first spell.
    pub weather: Weather,
    /// Chunks kept loaded around the player.
    pub view_radius: i32,
    /// The block the player looks at, refreshed every tick.
    pub target: Option<RayHit>,
    /// Ticks simulated.
    pub ticks: u64,
    dirty: BTreeSet<(i32, i32, i32)>,
    unloaded: Vec<ChunkPos>,
    /// Sounds the last ticks made, until the app plays them (at most
    /// [`MAX_PENDING_SOUNDS`]; a headless run never takes them).
    sounds: Vec<GameSound>,
    /// Blocks broken by anyone in the last ticks, until the app shows them
    /// (at most [`MAX_PENDING_BREAKS`]).
    breaks: Vec<BlockBreak>,
    /// Metres walked on the ground since the last footstep.
    stride: f32,
    /// Chunks beyond [`NEAR_RADIUS`] come from a background generator
    /// ([`accept_generated`](Game::accept_generated)) instead of being
    /// generated in the tick.
    background_generation: bool,
    /// Each tick's input as played, kept for a multiplayer client to send
    /// (`None`: not kept).
    played: Option<Vec<PlayedTick>>,
}

/// One tick's input as the player played it: what a multiplayer client
/// sends the server so it can step the player the same way.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlayedTick {
    /// The tick's action flags.
    pub flags: u32,
    /// The heading the tick started from (mouse look turns between ticks).
    pub yaw: f32,
    /// The pitch the tick started from.
    pub pitch: f32,
}

/// Played ticks kept at most between [`Game::take_played`] calls.
pub const MAX_PLAYED_KEPT: usize = 1024;

/// A sound the simulation made; the app plays it (headless runs are silent).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum GameSound {
    /// The player's foot came down, at the feet.
    Footstep(Vec3),
    /// A block was broken.
    Break(IVec3),
    /// A block was placed.
    Place(IVec3),
    /// Lightning struck (thunder, heard everywhere).
    Thunder,
}

/// Sounds kept for the app at most (older ones are dropped).
pub const MAX_PENDING_SOUNDS: usize = 32;

/// A block that was broken (by this player, or by another player on a
/// server): what it was and when, for the debris the app shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockBreak {
    /// Where it was.
    pub at: IVec3,
    /// What it was.
    pub block: BlockType,
    /// The tick it broke in ([`Game::ticks`] then).
    pub tick: u64,
}

/// Breaks kept for the app at most (older ones are dropped).
pub const MAX_PENDING_BREAKS: usize = 32;
/// Metres walked between footsteps.
const STRIDE: f32 = 1.7;
/// Lightning brighter than this is a new strike (thunder).
const STRIKE_FLASH: f32 = 0.7;

impl Game {
    /// A session on `world` with `player` at `time`; loads the chunks around
    /// the player and marks them all for meshing.
    #[must_use]
    pub fn new(world: World, player: Player, time: TimeOfDay) -> Self {
        let weather = Weather::new(world.seed());
        let mut game = Self {
            world,
            player,
            time,
            weather,
            view_radius: DEFAULT_VIEW_RADIUS,
            target: None,
            ticks: 0,
            dirty: BTreeSet::new(),
            unloaded: Vec::new(),
            sounds: Vec::new(),
            breaks: Vec::new(),
            stride: 0.0,
            background_generation: false,
            played: None,
        };
        game.stream_chunks();
        game.target = game.player.target(&game.world);
        game
    }

    /// One tick of `dt` game seconds with this tick's and the previous tick's
    /// actions, after the player's controller moved it to `moved` (`None`:
    /// the player did not move).
    pub fn tick(&mut self, actions: &Actions, moved: Option<PlayerPose>, dt: f32) {
        if let Some(played) = &mut self.played
            && played.len() < MAX_PLAYED_KEPT
        {
            // The pose before `follow`: the look this tick started from.
            played.push(PlayedTick {
                flags: actions.current.0,
                yaw: self.player.yaw,
                pitch: self.player.pitch,
            });
        }
        let now = actions.current.decode();
        let previous = actions.previous.decode();
        let before = self.player.body.position;
        if let Some(pose) = moved {
            self.follow(pose);
        }
        let outcome = self.player.act(&mut self.world, &now, &previous);
        for pos in outcome.dirty_chunks {
            self.mark_dirty(pos);
        }
        self.note_sounds(before, outcome.broken, outcome.placed);
        if let (Some(at), Some(block)) = (outcome.broken, outcome.broken_block) {
            self.note_break(at, block);
        }
        self.time.advance(dt);
        let flash = self.weather.lightning();
        self.weather.advance(dt);
        // A strike's first stroke (the return stroke stays below this).
        if flash < STRIKE_FLASH && self.weather.lightning() >= STRIKE_FLASH {
            self.sounds.push(GameSound::Thunder);
        }
        self.stream_chunks();
        self.target = self.player.target(&self.world);
        self.ticks += 1;
    }

    /// Changes how many chunks stay loaded around the player (clamped to
    /// [`VIEW_RADII`]); the chunks it adds are loaded and marked for meshing
    /// now, those beyond it unloaded.
    pub fn set_view_radius(&mut self, radius: i32) {
        let radius = radius.clamp(*VIEW_RADII.start(), *VIEW_RADII.end());
        if radius != self.view_radius {
            self.view_radius = radius;
            self.stream_chunks();
        }
    }

    /// True when the player's eye is in water (the view is then murky).
    #[must_use]
    pub fn eye_under_water(&self) -> bool {
        let eye = self.player.body.eye();
        eye.is_finite()
            && self.world.block(eye.floor().as_ivec3()) == crate::world::BlockType::Water
    }

    /// Copies where the player's controller has the player now.
    pub fn follow(&mut self, pose: PlayerPose) {
        self.player.body = pose.body;
        self.player.yaw = pose.yaw;
        self.player.pitch = pose.pitch;
    }

    /// Moves the sky and the weather on by `seconds` of game time, as if
    /// that much had been played (a client joining a server whose world
    /// has run that long: its time of day and weather follow from the
    /// server's clock and the seed). Large spans are passed in hour-long
    /// steps, so no precision is lost.
    pub fn pass_time(&mut self, seconds: f64) {
        const STEP: f64 = 3_600.0;
        if !seconds.is_finite() || seconds <= 0.0 {
            return;
        }
        let mut left = seconds;
        while left > 0.0 {
            let dt = left.min(STEP);
            self.time.advance(dt as f32);
            self.weather.advance(dt as f32);
            left -= dt;
        }
    }

    /// Starts (or stops) keeping each tick's input for
    /// [`take_played`](Self::take_played).
    pub fn keep_played(&mut self, keep: bool) {
        self.played = keep.then(Vec::new);
    }

    /// Takes the ticks played since the last call, oldest first (at most
    /// [`MAX_PLAYED_KEPT`]; empty when not kept).
    pub fn take_played(&mut self) -> Vec<PlayedTick> {
        self.played.as_mut().map(std::mem::take).unwrap_or_default()
    }

    /// Sets a block another player (or the server) changed, and marks the
    /// chunks that show it for meshing.
    /// A solid block turned to air is a break ([`take_breaks`](Self::take_breaks)).
    pub fn set_block_from_server(&mut self, at: IVec3, block: BlockType) {
        let before = self.world.block(at);
        if before == block {
            return;
        }
        if let Ok(dirty) = self.world.set_block(at, block) {
            for pos in dirty {
                self.mark_dirty(pos);
            }
            if block.is_air() && before.is_solid() {
                self.note_break(at, before);
            }
        }
    }

    /// Takes the sounds made since the last call, oldest first.
    pub fn take_sounds(&mut self) -> Vec<GameSound> {
        std::mem::take(&mut self.sounds)
    }

    /// Takes the blocks broken since the last call, oldest first (at most
    /// [`MAX_PENDING_BREAKS`]; a caller that never takes them loses only
    /// the oldest).
    pub fn take_breaks(&mut self) -> Vec<BlockBreak> {
        std::mem::take(&mut self.breaks)
    }

    fn note_break(&mut self, at: IVec3, block: BlockType) {
        self.breaks.push(BlockBreak {
            at,
            block,
            tick: self.ticks,
        });
        if self.breaks.len() > MAX_PENDING_BREAKS {
            let excess = self.breaks.len() - MAX_PENDING_BREAKS;
            self.breaks.drain(..excess);
        }
    }

    fn note_sounds(&mut self, before: Vec3, broken: Option<IVec3>, placed: Option<IVec3>) {
        let body = &self.player.body;
        if body.on_ground && !body.flying {
            let walked = (body.position - before).with_y(0.0).length();
            self.stride += walked;
            if self.stride >= STRIDE {
                self.stride = 0.0;
                self.sounds.push(GameSound::Footstep(body.position));
            }
        }
        self.sounds.extend(broken.map(GameSound::Break));
        self.sounds.extend(placed.map(GameSound::Place));
        if self.sounds.len() > MAX_PENDING_SOUNDS {
            let excess = self.sounds.len() - MAX_PENDING_SOUNDS;
            self.sounds.drain(..excess);
        }
    }

    /// Marks a chunk for re-meshing.
    pub fn mark_dirty(&mut self, pos: ChunkPos) {
        self.dirty.insert(pos.0.into());
    }

    /// Takes the chunks whose meshes are out of date (sorted, no repeats).
    pub fn take_dirty(&mut self) -> Vec<ChunkPos> {
        std::mem::take(&mut self.dirty)
            .into_iter()
            .map(|c| ChunkPos(IVec3::from(c)))
            .collect()
    }

    /// Takes the chunks unloaded since the last call (their meshes can go).
    pub fn take_unloaded(&mut self) -> Vec<ChunkPos> {
        std::mem::take(&mut self.unloaded)
    }

    /// Lets a background generator make the chunks beyond [`NEAR_RADIUS`]:
    /// from now on the tick generates only those, and the rest of the view
    /// arrives through [`accept_generated`](Self::accept_generated) (see
    /// [`chunks_wanted`](Self::chunks_wanted)). Off (everything generated in
    /// the tick) for a new game.
    pub fn set_background_generation(&mut self, on: bool) {
        self.background_generation = on;
        self.stream_chunks();
    }

    /// The chunks of the view not loaded yet, nearest first, for a
    /// background generator; empty without background generation.
    #[must_use]
    pub fn chunks_wanted(&self) -> Vec<ChunkPos> {
        if !self.background_generation {
            return Vec::new();
        }
        let center = self.player.body.position.floor().as_ivec3();
        self.world.missing_around(center, self.view_radius)
    }

    /// Loads a chunk a background generator made (from this world's
    /// terrain) and marks it for meshing; refused (false) when it is loaded
    /// already or no longer in view.
    pub fn accept_generated(&mut self, pos: ChunkPos, chunk: crate::world::Chunk) -> bool {
        let center = self.player.body.position.floor().as_ivec3();
        let (middle, _) = ChunkPos::of_block(center);
        let d = pos.0 - middle.0;
        let in_view = d.x.abs().max(d.z.abs()) <= self.view_radius;
        if in_view && self.world.insert_generated(pos, chunk) {
            self.note_loaded(pos);
            return true;
        }
        false
    }

    /// Marks a newly loaded chunk for meshing, with its already-loaded
    /// neighbours, whose borders change.
    fn note_loaded(&mut self, pos: ChunkPos) {
        self.mark_dirty(pos);
        for offset in [IVec3::X, IVec3::NEG_X, IVec3::Z, IVec3::NEG_Z] {
            let next = pos.offset(offset);
            if self.world.chunk(next).is_some() {
                self.mark_dirty(next);
            }
        }
    }

    /// Loads chunks within the view radius (or, with background generation,
    /// within [`NEAR_RADIUS`]) and marks them for meshing, and unloads those
    /// beyond the view radius plus one.
    fn stream_chunks(&mut self) {
        let center = self.player.body.position.floor().as_ivec3();
        let radius = if self.background_generation {
            NEAR_RADIUS.min(self.view_radius)
        } else {
            self.view_radius
        };
        for pos in self.world.load_around(center, radius) {
            self.note_loaded(pos);
        }
        let gone = self.world.unload_beyond(center, self.view_radius + 1);
        for pos in &gone {
            self.dirty.remove(&pos.0.into());
        }
        self.unloaded.extend(gone);
    }
}

impl StateHash for Game {
    /// Everything the simulation decides: the player's body, view, mode and
    /// belongings, the time of day, the weather, the tick count and every
    /// edit.
    fn hash_state(&self, h: &mut StateHasher) {
        let player = &self.player;
        for v in [player.body.position, player.body.velocity] {
            v.to_array().iter().for_each(|&c| h.write_f32(c));
        }
        let body = &player.body;
        h.write_u8(
            u8::from(body.on_ground) | u8::from(body.flying) << 1 | u8::from(body.crouching) << 2,
        );
        h.write_f32(player.yaw);
        h.write_f32(player.pitch);
        h.write_u8(player.mode as u8);
        for &(block, count) in player.inventory.stacks() {
            h.write_u8(block.into());
            h.write_u32(count);
        }
        for slot in player.hotbar.slots() {
            h.write_u8(slot.map_or(255, u8::from));
        }
        h.write_u8(player.hotbar.selected() as u8);
        h.write_f32(self.time.sun_angle);
        h.write_f32(self.time.moon_phase);
        let weather = self.weather.state();
        h.write_u32(weather.spell);
        h.write_f32(weather.elapsed);
        h.write_u8(weather.forced.map_or(255, |kind| kind as u8));
        h.write_f32(weather.wetness);
        h.write_u64(self.ticks);
        for edit in self.world.edits() {
            h.write_u32(edit.x as u32);
            h.write_u32(edit.y as u32);
            h.write_u32(edit.z as u32);
            h.write_u8(edit.block.into());
        }
    }
}

/// The player's body and view as its controller left them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlayerPose {
    /// Position, velocity, ground contact, flying, crouching.
    pub body: Body,
    /// Heading, radians.
    pub yaw: f32,
    /// Radians above the horizon.
    pub pitch: f32,
}

impl PlayerPose {
    /// The pose `controller` has now.
    #[must_use]
    pub fn of(controller: &PlayerController) -> Self {
        Self {
            body: Body::of_motor(&controller.motor),
            yaw: controller.yaw,
            pitch: controller.pitch,
        }
    }
}

/// Puts `game` into `scene`, registers the system that ticks it, and spawns
/// the player object (its controller stepping once per tick of a `tick_hz`
/// loop, and the camera) and the sun
/// ([`view::spawn_view`](crate::view::spawn_view)).
pub fn install(scene: &mut Scene, game: Game, tick_hz: u32) -> ViewObjects {
    scene.world_mut().insert_resource(game);
    scene.add_systems(tick_game);
    spawn_view(scene, tick_hz).expect("a fresh scene takes the player and the sun")
}

/// Turns the player's view by radians (mouse look between ticks): the
/// controller, and the game's copy, so targeting and the camera agree.
pub fn look(game_loop: &mut GameLoop, yaw: f32, pitch: f32) {
    steer_player(game_loop, |controller| controller.look(yaw, pitch));
}

/// Moves the player's feet to `feet` at once, standing still (benches,
/// scripted tours, a teleport command); non-finite positions are ignored.
pub fn teleport(game_loop: &mut GameLoop, feet: Vec3) {
    steer_player(game_loop, |controller| controller.teleport(feet));
}

/// Puts the player in `pose` at once (a multiplayer server's correction of
/// a predicted body): position, velocity, contact, flying, crouching and
/// look.
pub fn set_pose(game_loop: &mut GameLoop, pose: PlayerPose) {
    steer_player(game_loop, |controller| {
        controller.teleport(pose.body.position);
        controller.motor = pose.body.motor();
        controller.motor.flying &= controller.can_fly;
        controller.yaw = pose.yaw;
        controller.pitch = pose.pitch;
    });
}

/// Changes the player's controller between ticks with `change`, then copies
/// the new pose into the game (nothing happens in a loop without a player).
fn steer_player(game_loop: &mut GameLoop, change: impl FnOnce(&mut PlayerController)) {
    let scene = game_loop.scene_mut();
    let Some(player) = scene
        .world()
        .get_resource::<ViewObjects>()
        .map(|v| v.player)
    else {
        return;
    };
    let Some(controller) = scene.behaviour_mut::<PlayerController>(player) else {
        return;
    };
    change(controller);
    let pose = PlayerPose::of(controller);
    scene.world_mut().resource_mut::<Game>().follow(pose);
}

/// The game a session's loop runs.
///
/// # Panics
/// If the loop's scene holds no [`Game`] (it was not [`install`]ed, as
/// crafty's `Session` does).
#[must_use]
pub fn state(game_loop: &GameLoop) -> &Game {
    game_loop.scene().world().resource::<Game>()
}

/// The game a session's loop runs, mutable (mouse look, hotbar keys).
///
/// # Panics
/// As [`state`].
pub fn state_mut(game_loop: &mut GameLoop) -> Mut<'_, Game> {
    game_loop.scene_mut().world_mut().resource_mut::<Game>()
}

/// The tick after the behaviours ran: the player's new pose, then the game.
fn tick_game(world: &mut bevy_ecs::world::World) {
    let actions = world.get_resource::<Actions>().copied().unwrap_or_default();
    let dt = world.resource::<Time>().delta();
    let moved = world
        .get_resource::<ViewObjects>()
        .and_then(|view| behaviour_in::<PlayerController>(world, view.player))
        .map(PlayerPose::of);
    world.resource_mut::<Game>().tick(&actions, moved, dt);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::GameMode;
    use glam::Vec3;
    use taos_core::game_loop::{ActionFlags, GameLoop, LoopConfig, ManualClock};

    /// A 60 Hz loop over seed 7's world, a creative player dropped in the air.
    fn creative_loop() -> GameLoop {
        let world = World::new(7);
        let player = Player::new(Vec3::new(64.0, 110.0, 64.0), 0.0, 0.0, GameMode::Creative);
        let mut scene = Scene::new();
        let mut game = Game::new(world, player, TimeOfDay::default());
        game.view_radius = 1;
        let _ = install(&mut scene, game, 60);
        GameLoop::new(scene, LoopConfig::fixed(60).unwrap(), ManualClock::new()).unwrap()
    }

    #[test]
    fn passing_time_matches_playing_it() {
        let player = Player::new(Vec3::new(64.0, 110.0, 64.0), 0.0, 0.0, GameMode::Creative);
        let mut played = Game::new(World::new(7), player, TimeOfDay::default());
        played.view_radius = 1;
        let mut passed = played.clone();
        // Five hours, second by second, against one call.
        for _ in 0..5 * 3_600 {
            played.time.advance(1.0);
            played.weather.advance(1.0);
        }
        passed.pass_time(5.0 * 3_600.0);
        assert!((played.time.sun_angle - passed.time.sun_angle).abs() < 1e-3);
        assert_eq!(played.weather.state().spell, passed.weather.state().spell);
        assert!((played.weather.state().elapsed - passed.weather.state().elapsed).abs() < 0.5);
        passed.pass_time(f64::NAN);
        passed.pass_time(-1.0);
        assert!((played.time.sun_angle - passed.time.sun_angle).abs() < 1e-3);
    }

    #[test]
    fn the_loop_ticks_the_game_from_action_flags() {
        let mut game_loop = creative_loop();
        let forward = ActionFlags(1 << 15);
        for _ in 0..30 {
            game_loop.step_with(forward);
        }
        let game = game_loop.scene().world().resource::<Game>();
        assert_eq!(game.ticks, 30);
        // Facing -z at walking speed for half a second.
        assert!(
            game.player.body.position.z < 64.0 - 1.5,
            "{}",
            game.player.body.position.z
        );
        assert!(game.time.sun_angle > TimeOfDay::default().sun_angle);
    }

    #[test]
    fn each_lightning_strike_thunders_once() {
        let mut game_loop = creative_loop();
        let mut game = game_loop.scene_mut().world_mut().resource_mut::<Game>();
        game.weather.force(crate::weather::WeatherKind::Storm);
        let _ = game.take_sounds();
        // The strikes of the next 100 seconds, found by the weather itself.
        let seconds = 100.0;
        let mut probe = game.weather.clone();
        let (mut strikes, mut waited) = (0, 0.0);
        while let Some(wait) = probe.next_lightning(seconds - waited) {
            strikes += 1;
            probe.advance(wait + 0.5);
            waited += wait + 0.5;
        }
        let actions = Actions::default();
        for _ in 0..60 * 100 {
            game.tick(&actions, None, 1.0 / 60.0);
        }
        let thunder = game
            .take_sounds()
            .iter()
            .filter(|s| matches!(s, GameSound::Thunder))
            .count();
        assert!(strikes > 0, "100 seconds of storm strike at least once");
        assert_eq!(thunder, strikes);
    }

    #[test]
    fn walking_on_the_ground_makes_footsteps_and_nobody_listening_keeps_few() {
        let mut game_loop = creative_loop();
        // Fall to the ground standing still: no footsteps in the air.
        for _ in 0..240 {
            game_loop.step_with(ActionFlags(0));
        }
        let mut game = game_loop.scene_mut().world_mut().resource_mut::<Game>();
        assert!(game.player.body.on_ground);
        assert!(
            game.take_sounds().is_empty(),
            "no steps while falling or standing"
        );
        let forward = ActionFlags(1 << 15);
        for _ in 0..120 {
            game_loop.step_with(forward);
        }
        let mut game = game_loop.scene_mut().world_mut().resource_mut::<Game>();
        let steps = game
            .take_sounds()
            .iter()
            .filter(|s| matches!(s, GameSound::Footstep(_)))
            .count();
        // Two seconds at 4.3 m/s is about 8.6 m: five 1.7 m strides (fewer
        // if a block is in the way).
        assert!((1..=5).contains(&steps), "{steps} footsteps");
        for _ in 0..3_000 {
            game_loop.step_with(forward);
        }
        let mut game = game_loop.scene_mut().world_mut().resource_mut::<Game>();
        assert!(game.take_sounds().len() <= MAX_PENDING_SOUNDS);
    }

    #[test]
    fn the_player_is_an_object_its_controller_moves() {
        let mut game_loop = creative_loop();
        let player = game_loop.scene().world().resource::<ViewObjects>().player;
        for _ in 0..240 {
            game_loop.step_with(ActionFlags(0));
        }
        // Forward and crouch (look-don't-turn, bit 18) for half a second.
        for _ in 0..30 {
            game_loop.step_with(ActionFlags(1 << 15 | 1 << 18));
        }
        let scene = game_loop.scene();
        let controller = scene.behaviour::<PlayerController>(player).unwrap();
        let game = scene.world().resource::<Game>();
        assert_eq!(PlayerPose::of(controller).body, game.player.body);
        assert!(game.player.body.crouching && game.player.body.on_ground);
        let eye = scene.world_position(player).unwrap();
        assert!(
            eye.abs_diff_eq(game.player.body.eye(), 1e-4),
            "{eye} vs {}",
            game.player.body.eye()
        );
        // Mouse look turns the controller and the game's copy together.
        look(&mut game_loop, 0.5, -0.25);
        let scene = game_loop.scene();
        let controller = scene.behaviour::<PlayerController>(player).unwrap();
        let game = scene.world().resource::<Game>();
        assert_eq!((controller.yaw, controller.pitch), (0.5, -0.25));
        assert_eq!((game.player.yaw, game.player.pitch), (0.5, -0.25));
    }

    #[test]
    fn a_new_view_radius_loads_and_unloads_chunks_at_once() {
        let mut game_loop = creative_loop();
        // One tick lets go of what the start loaded beyond the test's radius of 1.
        game_loop.step_with(ActionFlags(0));
        let mut game = state_mut(&mut game_loop);
        let _ = (game.take_dirty(), game.take_unloaded());
        let loaded = |game: &Game| game.world.loaded_chunks().count();
        let small = loaded(&game);
        game.set_view_radius(4);
        assert_eq!(game.view_radius, 4);
        assert!(loaded(&game) > small);
        assert!(!game.take_dirty().is_empty(), "new chunks are meshed");
        game.set_view_radius(0);
        assert_eq!(game.view_radius, *VIEW_RADII.start(), "clamped");
        // Chunks more than one beyond the new radius go.
        assert!(!game.take_unloaded().is_empty(), "far chunks let go");
    }
}
