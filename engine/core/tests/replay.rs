//! Record and replay on a real scene: a player steered by per-tick action
//! flags, bullets moved by a bevy system and despawned by timers, enemies
//! spawned by a repeating timer and wandering on the seeded RNG. A recorded
//! session of 10,000+ ticks replays to the identical state checksum, and the
//! sync test finds a deliberately injected nondeterminism at its exact tick.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use taos_core::deps::bevy_ecs::prelude::{Component, Query, Res, Resource};
use taos_core::game_loop::{
    ActionFlags, Delay, FiredTimers, GameAction, GameLoop, GameRng, LoopConfig, LoopControl,
    ManualClock, PauseReason, Recording, StateHash, StateHasher, SyncTest, TimerAction, Timers,
};
use taos_core::prelude::*;

#[derive(Component, Clone, Copy)]
struct Velocity(Vec3);

#[derive(Component, Clone, Copy)]
struct Health(i32);

#[derive(Resource, Default, Clone, Copy)]
struct Score(u64);

impl StateHash for Velocity {
    fn hash_state(&self, h: &mut StateHasher) {
        self.0.hash_state(h);
    }
}

impl StateHash for Health {
    fn hash_state(&self, h: &mut StateHasher) {
        h.write_u32(self.0 as u32);
    }
}

impl StateHash for Score {
    fn hash_state(&self, h: &mut StateHasher) {
        h.write_u64(self.0);
    }
}

const SPAWN_EVENT: u64 = 1;

/// Steers the player from the tick's action flags and fires bullets.
struct Pilot;

/// The test game's own action set: one bit each, plus a 7-bit absolute
/// heading in bits 8-14 that counts when `Heading` is on.
#[derive(Clone, Copy)]
enum Steer {
    TurnLeft,
    TurnRight,
    Forward,
    Backward,
    Run,
    StrafeLeft,
    StrafeRight,
    Fire,
    Heading = 15,
}

impl GameAction for Steer {
    fn bit(self) -> u8 {
        self as u8
    }
}

fn heading(flags: ActionFlags) -> f32 {
    ((flags.0 >> 8) & 0x7F) as f32 / 128.0 * std::f32::consts::TAU
}

impl Behaviour for Pilot {
    fn update(&mut self, cx: &mut BehaviourContext<'_>, dt: f32) -> BehaviourResult {
        let actions = *cx.world().resource::<Actions>();
        let on = |a: Steer| f32::from(u8::from(actions.held(a)));
        let mut transform = cx.transform_mut();
        if actions.held(Steer::Heading) {
            transform.rotation = Quat::from_rotation_y(heading(actions.current));
        } else {
            let turn = on(Steer::TurnLeft) - on(Steer::TurnRight);
            transform.rotation *= Quat::from_rotation_y(turn * 2.0 * dt);
        }
        let dir = on(Steer::Forward) - on(Steer::Backward);
        let speed = dir * if actions.held(Steer::Run) { 8.0 } else { 4.0 };
        let forward = transform.rotation * Vec3::NEG_Z;
        transform.position += forward * (speed * dt);
        let strafe = on(Steer::StrafeRight) - on(Steer::StrafeLeft);
        let right = transform.rotation * Vec3::X;
        transform.position += right * strafe * 3.0 * dt;
        let (origin, aim) = (transform.position, forward);
        if actions.held(Steer::Fire) {
            let world = cx.world_mut();
            let bullet = world
                .spawn((Transform::from_position(origin), Velocity(aim * 20.0)))
                .id();
            let lifetime = 10 + world.resource_mut::<GameRng>().below(40);
            world
                .resource_mut::<Timers>()
                .after(
                    Delay::Ticks(lifetime),
                    TimerAction::callback(move |scene: &mut Scene| {
                        scene.world_mut().despawn(bullet);
                        scene.world_mut().resource_mut::<Score>().0 += 1;
                    }),
                )
                .unwrap();
        }
        Ok(())
    }
}

/// Wanders on the seeded RNG; loses health every tick and removes itself at zero.
struct Wander;

impl Behaviour for Wander {
    fn update(&mut self, cx: &mut BehaviourContext<'_>, dt: f32) -> BehaviourResult {
        let (dx, dz) = {
            let mut rng = cx.world_mut().resource_mut::<GameRng>();
            (rng.range_f32(-1.0, 1.0), rng.range_f32(-1.0, 1.0))
        };
        cx.position_mut().x += dx * dt;
        cx.position_mut().z += dz * dt;
        let object = cx.object();
        let mut health = cx
            .world_mut()
            .get_mut::<Health>(object.entity())
            .expect("enemies carry health");
        health.0 -= 1;
        if health.0 <= 0 {
            cx.world_mut()
                .resource_mut::<Timers>()
                .after(
                    Delay::Ticks(0),
                    TimerAction::callback(move |scene: &mut Scene| {
                        scene.remove(object).ok();
                    }),
                )
                .unwrap();
        }
        Ok(())
    }
}

/// Spawns an enemy on every spawn event and schedules the next one.
struct Spawner;

impl Behaviour for Spawner {
    fn update(&mut self, cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
        if !cx.world().resource::<FiredTimers>().contains(SPAWN_EVENT) {
            return Ok(());
        }
        let (x, z, hp, next) = {
            let mut rng = cx.world_mut().resource_mut::<GameRng>();
            (
                rng.range_f32(-20.0, 20.0),
                rng.range_f32(-20.0, 20.0),
                30 + rng.below(300) as i32,
                f64::from(rng.range_f32(0.2, 0.8)),
            )
        };
        cx.world_mut()
            .resource_mut::<Timers>()
            .after(
                Delay::Ticks(0),
                TimerAction::callback(move |scene: &mut Scene| {
                    let enemy = scene.spawn("Enemy");
                    scene
                        .object_mut(enemy)
                        .unwrap()
                        .set_position(Vec3::new(x, 0.0, z));
                    scene.add_component(enemy, Health(hp)).unwrap();
                    scene.add_behaviour(enemy, Wander).unwrap();
                }),
            )
            .unwrap();
        cx.world_mut()
            .resource_mut::<Timers>()
            .after(Delay::Seconds(next), TimerAction::Event(SPAWN_EVENT))
            .unwrap();
        Ok(())
    }
}

fn move_bullets(mut bullets: Query<'_, '_, (&mut Transform, &Velocity)>, time: Res<'_, Time>) {
    for (mut transform, velocity) in &mut bullets {
        transform.position += velocity.0 * time.delta();
    }
}

/// Injects nondeterminism at one tick: the value depends on how many runs
/// reached that tick before, in this process.
struct Glitch {
    at_tick: u64,
}

static GLITCH_RUNS: AtomicU64 = AtomicU64::new(0);

impl Behaviour for Glitch {
    fn update(&mut self, cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
        if cx.resource::<LoopControl>().tick() == self.at_tick {
            let runs = GLITCH_RUNS.fetch_add(1, Ordering::SeqCst);
            cx.position_mut().y += runs as f32;
        }
        Ok(())
    }
}

const TICK_HZ: u32 = 60;

fn build(glitch_at: Option<u64>, clock: ManualClock) -> GameLoop {
    let mut scene = Scene::new();
    scene.world_mut().insert_resource(Score::default());
    let player = scene.spawn("Player");
    scene.add_component(player, Health(100)).unwrap();
    scene.add_behaviour(player, Pilot).unwrap();
    let director = scene.spawn("Director");
    scene.add_behaviour(director, Spawner).unwrap();
    let camera = scene.spawn_child(player, "Camera").unwrap();
    scene
        .object_mut(camera)
        .unwrap()
        .set_position(Vec3::new(0.0, 1.7, 0.0));
    if let Some(at_tick) = glitch_at {
        scene.add_behaviour(camera, Glitch { at_tick }).unwrap();
    }
    scene.add_systems(move_bullets);
    let mut game = GameLoop::new(scene, LoopConfig::fixed(TICK_HZ).unwrap(), clock).unwrap();
    game.checksum_mut()
        .component::<Velocity>()
        .component::<Health>()
        .resource::<Score>();
    game.scene_mut()
        .world_mut()
        .resource_mut::<Timers>()
        .after(Delay::Seconds(0.25), TimerAction::Event(SPAWN_EVENT))
        .unwrap();
    game
}

/// A player mashing keys and moving the mouse: random flags in every mode.
fn random_flags(rng: &mut GameRng) -> ActionFlags {
    let mut flags = 0;
    let mut set = |rng: &mut GameRng, action: Steer, p: f32| {
        if rng.chance(p) {
            flags |= action.mask();
        }
    };
    set(rng, Steer::TurnLeft, 0.3);
    set(rng, Steer::TurnRight, 0.3);
    set(rng, Steer::Forward, 0.6);
    set(rng, Steer::Backward, 0.1);
    set(rng, Steer::Run, 0.3);
    set(rng, Steer::StrafeLeft, 0.2);
    set(rng, Steer::StrafeRight, 0.2);
    set(rng, Steer::Fire, 0.1);
    if rng.chance(0.3) {
        flags |= Steer::Heading.mask() | (rng.below(128) as u32) << 8;
    }
    ActionFlags(flags)
}

#[test]
fn a_recorded_session_replays_bit_for_bit_three_times() {
    const SEED: u64 = 0x5EED;
    const TICKS: u64 = 10_000;
    // Record: live input through the real callback path, jittered callbacks.
    let clock = ManualClock::new();
    let mut game = build(None, clock.clone());
    game.start_recording(SEED).unwrap();
    let mut player = GameRng::new(99);
    game.set_action_mapper(move |_: &Input| random_flags(&mut player));
    let mut cadence = GameRng::new(3);
    let mut t = 0.0f64;
    let mut frames_with_many_ticks = 0;
    while game.tick_count() < TICKS {
        t += 0.004 + f64::from(cadence.range_f32(0.0, 0.04));
        clock.set(Duration::from_secs_f64(t));
        if game.on_clock().ticks > 1 {
            frames_with_many_ticks += 1;
        }
    }
    assert!(
        frames_with_many_ticks > 100,
        "the recording ran batched ticks"
    );
    let recorded_ticks = game.tick_count();
    let expected = game.state_checksum();
    let enemies = enemy_count(&game);
    assert!(enemies > 0, "enemies were spawned and are alive");
    assert!(
        game.scene().world().resource::<Score>().0 > 50,
        "bullets expired by timers"
    );

    let recording = game.take_recording().unwrap();
    assert_eq!(recording.ticks() as u64, recorded_ticks);
    let dir = std::env::temp_dir().join(format!("taos-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("session.taosrec");
    recording.save(&path).unwrap();

    for run in 0..3 {
        let loaded = Recording::load(&path).unwrap();
        let mut replay = build(None, ManualClock::new());
        replay.replay(loaded).unwrap();
        while replay.pause_reason() != Some(PauseReason::ReplayFinished) {
            replay.step();
        }
        assert_eq!(replay.tick_count(), recorded_ticks, "run {run}");
        assert_eq!(replay.state_checksum(), expected, "run {run} diverged");
        assert_eq!(enemy_count(&replay), enemies);
    }
    // The checksum notices one changed input in the middle of the session.
    let mut tampered = Recording::load(&path).unwrap();
    tampered.flags[5_000].0 ^= Steer::Forward.mask(); // toggle "forward" for one tick
    let mut replay = build(None, ManualClock::new());
    replay.replay(tampered).unwrap();
    while !replay.is_paused() {
        replay.step();
    }
    assert_ne!(
        replay.state_checksum(),
        expected,
        "one changed tick must change the state"
    );
    std::fs::remove_dir_all(&dir).ok();
}

fn enemy_count(game: &GameLoop) -> usize {
    game.scene()
        .world()
        .iter_entities()
        .filter(|e| e.contains::<Health>())
        .count()
        - 1
}

#[test]
fn sync_test_passes_a_deterministic_run_and_catches_an_injected_glitch() {
    let mut rng = GameRng::new(11);
    let mut sync = SyncTest::new(|| seeded(build(None, ManualClock::new())), 16);
    for _ in 0..2_000 {
        sync.advance(random_flags(&mut rng)).unwrap();
    }
    sync.verify().unwrap();

    let mut rng = GameRng::new(12);
    let mut sync = SyncTest::new(|| seeded(build(Some(777), ManualClock::new())), 16);
    let mut found = None;
    for _ in 0..2_000 {
        if let Err(divergence) = sync.advance(random_flags(&mut rng)) {
            found = Some(divergence);
            break;
        }
    }
    let divergence = found.expect("the glitch was caught");
    assert_eq!(divergence.tick, 777, "{divergence}");
    assert_ne!(divergence.first, divergence.resimulated);
}

fn seeded(mut game: GameLoop) -> GameLoop {
    game.seed(42);
    game
}
