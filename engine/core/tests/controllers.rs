//! The controllers on the manual clock: the same input gives the same path at
//! 30 and 144 fps, nothing tunnels through a one-block wall, orbit and fly
//! cameras respond to input.

mod common;

use std::time::Duration;

use taos_core::behaviour_in;
use taos_core::controllers::{
    Aabb, BoxWorld, CameraController, CameraMode, CollisionQuery, PlayerCommand, PlayerController,
    PlayerDrive, SceneCollision,
};
use taos_core::game_loop::{ManualClock, PadAxis, STICK_DEAD_ZONE};
use taos_core::prelude::*;

/// A floor at y = 0 and a one-block wall at x in 6..7.
fn level() -> BoxWorld {
    BoxWorld(vec![
        Aabb::new(
            Vec3::new(-100.0, -1.0, -100.0),
            Vec3::new(100.0, 0.0, 100.0),
        ),
        Aabb::new(Vec3::new(6.0, 0.0, -100.0), Vec3::new(7.0, 3.0, 100.0)),
    ])
}

/// A variable-step loop over a scene holding one object with `behaviour`.
fn world_with(behaviour: impl Behaviour, at: Vec3) -> (GameLoop, ManualClock, GameObject) {
    let mut scene = Scene::new();
    scene
        .world_mut()
        .insert_resource(SceneCollision(Box::new(level())));
    let object = scene.spawn("Controlled");
    scene.object_mut(object).unwrap().set_position(at);
    scene.add_behaviour(object, behaviour).unwrap();
    let (game, clock) = common::started(scene, LoopConfig::default());
    (game, clock, object)
}

/// Runs `seconds` at `fps`, feeding `script`'s events at their times (which
/// must lie on both frame grids), and samples the object's position every
/// 1/6 s.
fn path(
    behaviour: impl Behaviour,
    start: Vec3,
    fps: u32,
    seconds: u32,
    script: &[(f64, InputEvent)],
) -> Vec<Vec3> {
    let (mut game, clock, object) = world_with(behaviour, start);
    let frames = fps * seconds;
    let mut samples = Vec::new();
    for frame in 1..=frames {
        let t_before = f64::from(frame - 1) / f64::from(fps);
        for (at, event) in script {
            if (*at - t_before).abs() < 1e-9 {
                game.push_input(*event);
            }
        }
        clock.set(Duration::from_nanos(
            (f64::from(frame) * 1e9 / f64::from(fps)).round() as u64,
        ));
        game.on_clock();
        if (frame * 6) % fps == 0 {
            samples.push(game.scene().world_position(object).unwrap());
        }
    }
    samples
}

fn assert_same_path(a: &[Vec3], b: &[Vec3], tolerance: f32, what: &str) {
    assert_eq!(a.len(), b.len());
    for (i, (p, q)) in a.iter().zip(b).enumerate() {
        assert!(
            p.distance(*q) <= tolerance,
            "{what}: sample {i} (t = {:.3} s): {p} at 30 fps vs {q} at 144 fps",
            (i + 1) as f32 / 6.0
        );
    }
}

#[test]
fn a_player_walks_and_jumps_the_same_path_at_30_and_144_fps() {
    let script = [
        (0.0, InputEvent::KeyDown(Key::W)),
        (0.0, InputEvent::MouseMotion(Vec2::new(-200.0, 0.0))),
        (0.5, InputEvent::KeyDown(Key::Space)),
        (0.5, InputEvent::KeyDown(Key::ControlLeft)),
        (1.0, InputEvent::KeyUp(Key::Space)),
        (1.5, InputEvent::KeyUp(Key::W)),
        (1.5, InputEvent::KeyDown(Key::D)),
        (2.0, InputEvent::KeyUp(Key::D)),
    ];
    let start = Vec3::new(0.0, 1.62, 0.0);
    let slow = path(PlayerController::default(), start, 30, 3, &script);
    let fast = path(PlayerController::default(), start, 144, 3, &script);
    // Tolerance 1 mm: both runs take the same fixed 120 Hz steps; only float
    // rounding in the frame-time accumulators differs.
    assert_same_path(&slow, &fast, 1e-3, "player");
    let end = *slow.last().unwrap();
    assert!(end.distance(start) > 3.0, "it moved: {end}");
    let highest = slow.iter().map(|p| p.y).fold(f32::MIN, f32::max);
    assert!(highest > start.y + 0.5, "it jumped: {highest}");
    assert!((end.y - start.y).abs() < 0.01, "and landed: {end}");
}

#[test]
fn a_fly_camera_takes_the_same_path_at_30_and_144_fps() {
    let script = [
        (0.0, InputEvent::KeyDown(Key::W)),
        (0.5, InputEvent::KeyDown(Key::E)),
        (1.0, InputEvent::MouseDown(MouseButton::Left)),
        (1.0, InputEvent::MouseMotion(Vec2::new(150.0, 40.0))),
        (1.5, InputEvent::KeyUp(Key::E)),
        (1.5, InputEvent::MouseUp(MouseButton::Left)),
    ];
    let start = Vec3::new(0.0, 5.0, 0.0);
    let slow = path(CameraController::fly(), start, 30, 2, &script);
    let fast = path(CameraController::fly(), start, 144, 2, &script);
    assert_same_path(&slow, &fast, 1e-3, "fly camera");
    assert!(slow.last().unwrap().distance(start) > 10.0);
}

#[test]
fn no_speed_tunnels_through_a_one_block_wall() {
    for fps in [10, 30, 144] {
        for speed in [20.0, 200.0, 5_000.0] {
            let mut controller = PlayerController::default();
            controller.motor.flying = true;
            controller.motor.settings.fly_speed = speed;
            controller.yaw = -std::f32::consts::FRAC_PI_2; // facing +X
            let script = [(0.0, InputEvent::KeyDown(Key::W))];
            let samples = path(controller, Vec3::new(0.0, 1.62, 0.0), fps, 2, &script);
            for p in samples {
                assert!(
                    p.x + 0.3 <= 6.0,
                    "{fps} fps at {speed} m/s: through the wall at {p}"
                );
            }
        }
    }
}

#[test]
fn the_fly_key_toggles_gravity() {
    let script = [
        (0.0, InputEvent::KeyDown(Key::F)),
        (0.0, InputEvent::KeyDown(Key::Space)),
        (0.5, InputEvent::KeyUp(Key::Space)),
    ];
    let samples = path(
        PlayerController::default(),
        Vec3::new(0.0, 1.62, 0.0),
        60,
        2,
        &script,
    );
    let last = *samples.last().unwrap();
    assert!(last.y > 5.0, "rose while flying and stayed up: {last}");
}

/// One 16 ms frame with `events`; returns where `object` is after it.
fn step(
    game: &mut GameLoop,
    clock: &ManualClock,
    object: GameObject,
    events: &[InputEvent],
) -> Vec3 {
    for e in events {
        game.push_input(*e);
    }
    clock.advance(Duration::from_millis(16));
    game.on_clock();
    game.scene().world_position(object).unwrap()
}

#[test]
fn an_orbit_camera_turns_zooms_and_pans() {
    let (mut game, clock, camera) =
        world_with(CameraController::orbit(Vec3::ZERO, 10.0), Vec3::ZERO);
    let frame = |game: &mut GameLoop, events: &[InputEvent]| step(game, &clock, camera, events);
    let first = frame(&mut game, &[]);
    assert!((first.length() - 10.0).abs() < 1e-3);

    let zoomed = frame(&mut game, &[InputEvent::Wheel(2.0)]);
    assert!(
        (zoomed.length() - 8.1).abs() < 1e-3,
        "two lines, 10% each: {zoomed}"
    );

    let turned = frame(
        &mut game,
        &[
            InputEvent::MouseDown(MouseButton::Left),
            InputEvent::MouseMotion(Vec2::new(100.0, 0.0)),
        ],
    );
    assert!(
        (turned.length() - 8.1).abs() < 1e-3,
        "turning keeps the distance"
    );
    assert!(turned.distance(zoomed) > 1.0, "and moves around the target");

    frame(
        &mut game,
        &[
            InputEvent::MouseUp(MouseButton::Left),
            InputEvent::MouseDown(MouseButton::Right),
            InputEvent::MouseMotion(Vec2::new(0.0, 50.0)),
        ],
    );
    let scene = game.scene_mut();
    let CameraMode::Orbit { target, .. } =
        scene.behaviour::<CameraController>(camera).unwrap().mode
    else {
        panic!("still an orbit");
    };
    assert!(target.length() > 0.1, "panned the target: {target}");
}

#[test]
fn two_fingers_pinch_to_zoom() {
    let (mut game, clock, camera) =
        world_with(CameraController::orbit(Vec3::ZERO, 10.0), Vec3::ZERO);
    let frame = |game: &mut GameLoop, events: &[InputEvent]| step(game, &clock, camera, events);
    frame(
        &mut game,
        &[
            InputEvent::TouchStart {
                id: 1,
                at: Vec2::new(100.0, 100.0),
            },
            InputEvent::TouchStart {
                id: 2,
                at: Vec2::new(200.0, 100.0),
            },
        ],
    );
    let spread = frame(
        &mut game,
        &[
            InputEvent::TouchMove {
                id: 1,
                at: Vec2::new(50.0, 100.0),
            },
            InputEvent::TouchMove {
                id: 2,
                at: Vec2::new(250.0, 100.0),
            },
        ],
    );
    assert!(
        (spread.length() - 5.0).abs() < 1e-3,
        "fingers twice as far apart: half the distance, {spread}"
    );
}

#[test]
fn a_half_tilted_stick_walks_at_half_speed_and_the_right_stick_turns() {
    let stick = |value: f32| InputEvent::PadAxis {
        pad: 0,
        axis: PadAxis::LeftY,
        value,
    };
    let start = Vec3::new(0.0, 1.62, 0.0);
    // Full tilt, then (a fresh walker) just over half way past the dead zone.
    let full = path(
        PlayerController::default(),
        start,
        60,
        2,
        &[(0.0, stick(1.0))],
    );
    let half_value = STICK_DEAD_ZONE + 0.5 * (1.0 - STICK_DEAD_ZONE);
    let half = path(
        PlayerController::default(),
        start,
        60,
        2,
        &[(0.0, stick(half_value))],
    );
    let (full_run, half_run) = (start.z - full[11].z, start.z - half[11].z);
    assert!(full_run > 5.0, "full tilt walks forward (-Z): {full_run} m");
    assert!(
        (half_run / full_run - 0.5).abs() < 0.03,
        "half tilt: {half_run} m vs {full_run} m"
    );

    let (mut game, clock, object) = world_with(PlayerController::default(), start);
    game.push_input(InputEvent::PadAxis {
        pad: 0,
        axis: PadAxis::RightX,
        value: 1.0,
    });
    for frame in 1..=30u64 {
        clock.set(Duration::from_nanos(frame * 1_000_000_000 / 60));
        game.on_clock();
    }
    let yaw = game
        .scene()
        .behaviour::<PlayerController>(object)
        .unwrap()
        .yaw;
    // Half a second right at 2.5 rad/s: yaw (positive turns left) is -1.25.
    let expected = (-1.25f32).rem_euclid(std::f32::consts::TAU);
    assert!(
        (yaw - expected).abs() < 0.05,
        "yaw {yaw}, expected {expected}"
    );
}

#[test]
fn the_touch_joystick_walks_and_the_touch_jump_button_jumps() {
    let start = Vec3::new(0.0, 1.62, 0.0);
    let (mut game, clock, object) = world_with(PlayerController::default(), start);
    game.set_size(1000, 500);
    let finger = Vec2::new(200.0, 400.0);
    game.push_input(InputEvent::TouchStart { id: 1, at: finger });
    let mut frame = 0u64;
    let mut run = |game: &mut GameLoop, frames: u64| {
        for _ in 0..frames {
            frame += 1;
            clock.set(Duration::from_nanos(frame * 1_000_000_000 / 60));
            game.on_clock();
        }
    };
    run(&mut game, 1);
    game.push_input(InputEvent::TouchMove {
        id: 1,
        at: finger - Vec2::Y * 70.0,
    });
    run(&mut game, 60);
    let walked = game.scene().world_position(object).unwrap();
    assert!(start.z - walked.z > 3.0, "walked forward: {walked}");
    assert!((walked.y - start.y).abs() < 1e-3, "still on the floor");

    // The Jump button sits at (0.88, 0.78) of the viewport.
    game.push_input(InputEvent::TouchStart {
        id: 2,
        at: Vec2::new(880.0, 390.0),
    });
    run(&mut game, 12);
    let jumped = game.scene().world_position(object).unwrap();
    assert!(jumped.y > start.y + 0.3, "jumped: {jumped}");
}

/// What a game's own action map asks of the player (read by [`scripted`]).
#[derive(Resource, Default)]
struct Script(PlayerCommand);

fn scripted(world: &bevy_ecs::world::World) -> PlayerCommand {
    world
        .get_resource::<Script>()
        .map(|s| s.0)
        .unwrap_or_default()
}

/// A game's own collision, kept in its own resource (not [`SceneCollision`]).
#[derive(Resource)]
struct Level(BoxWorld);

fn level_collision(world: &bevy_ecs::world::World) -> Option<&dyn CollisionQuery> {
    world
        .get_resource::<Level>()
        .map(|level| &level.0 as &dyn CollisionQuery)
}

/// Where a system saw the player's feet after each tick.
#[derive(Resource, Default)]
struct Seen(Vec<Vec3>);

#[test]
fn a_game_drives_the_player_with_commands_against_its_own_collision() {
    let mut scene = Scene::new();
    scene.world_mut().insert_resource(Level(level()));
    scene.world_mut().insert_resource(Script::default());
    scene.world_mut().insert_resource(Seen::default());
    let player = scene.spawn("Player");
    scene
        .object_mut(player)
        .unwrap()
        .set_position(Vec3::new(0.0, 1.62, 0.0));
    let mut controller = PlayerController::default();
    controller.drive = PlayerDrive::commands(scripted);
    controller.collision = level_collision;
    scene.add_behaviour(player, controller).unwrap();
    // A system sees the controller through the bare ECS world.
    scene.add_systems(move |world: &mut bevy_ecs::world::World| {
        let feet = behaviour_in::<PlayerController>(world, player)
            .map(|c| c.motor.position)
            .unwrap();
        world.resource_mut::<Seen>().0.push(feet);
    });
    // Devices are ignored: a held W does nothing.
    scene
        .world_mut()
        .resource_mut::<Input>()
        .push(InputEvent::KeyDown(Key::W));
    for _ in 0..30 {
        scene.tick(1.0 / 60.0);
    }
    let feet = scene
        .behaviour::<PlayerController>(player)
        .unwrap()
        .motor
        .position;
    assert!(
        feet.x.abs() < 1e-4 && feet.z.abs() < 1e-4,
        "stood still: {feet}"
    );
    // Turn right a quarter turn in one command, then walk forward (now +x) into the wall.
    scene.world_mut().resource_mut::<Script>().0 = PlayerCommand {
        turn: Vec2::new(-std::f32::consts::FRAC_PI_2, 0.0),
        walk: Vec2::Y,
        ..PlayerCommand::default()
    };
    scene.tick(1.0 / 60.0);
    scene.world_mut().resource_mut::<Script>().0.turn = Vec2::ZERO;
    for _ in 0..240 {
        scene.tick(1.0 / 60.0);
    }
    let controller = scene.behaviour::<PlayerController>(player).unwrap();
    let feet = controller.motor.position;
    assert!(
        (feet.x - (6.0 - 0.3)).abs() < 0.01 && feet.z.abs() < 0.01,
        "walked east to the game's wall: {feet}"
    );
    let seen = &scene.world().resource::<Seen>().0;
    assert_eq!(seen.len(), 271);
    assert_eq!(
        *seen.last().unwrap(),
        feet,
        "the system ran after the controller"
    );
}

#[test]
fn a_closure_with_its_own_state_drives_the_player() {
    // A tiny AI: walk forward for 60 updates, then stand. Its counter lives
    // in the closure, not in a resource of the scene.
    let mut updates = 0u32;
    let mut controller = PlayerController::default();
    controller.drive = PlayerDrive::commands(move |_world| {
        updates += 1;
        PlayerCommand {
            walk: if updates <= 60 { Vec2::Y } else { Vec2::ZERO },
            ..PlayerCommand::default()
        }
    });
    let mut scene = Scene::new();
    scene
        .world_mut()
        .insert_resource(SceneCollision(Box::new(level())));
    let player = scene.spawn("Player");
    scene
        .object_mut(player)
        .unwrap()
        .set_position(Vec3::new(0.0, 1.62, 0.0));
    scene.add_behaviour(player, controller).unwrap();
    let feet = |scene: &Scene| {
        scene
            .behaviour::<PlayerController>(player)
            .unwrap()
            .motor
            .position
    };
    for _ in 0..60 {
        scene.tick(1.0 / 60.0);
    }
    let walked = feet(&scene);
    assert!(walked.z < -1.0, "walked forward (-z): {walked}");
    for _ in 0..60 {
        scene.tick(1.0 / 60.0);
    }
    let stood = feet(&scene);
    assert!(
        (stood - walked).length() < 0.5 && stood.y.abs() < 0.01,
        "stopped once the closure said so: {walked} -> {stood}"
    );
}

/// A camera tilted 0.4 rad down and turned 0.7 rad left.
fn authored_rotation() -> Quat {
    Quat::from_euler(taos_core::deps::glam::EulerRot::YXZ, 0.7, -0.4, 0.0)
}

fn assert_rotation_kept(behaviour: impl Behaviour) {
    let mut scene = Scene::new();
    let object = scene.spawn("Tilted");
    scene
        .object_mut(object)
        .unwrap()
        .set_position(Vec3::new(0.0, 5.0, 0.0));
    scene
        .object_mut(object)
        .unwrap()
        .set_rotation(authored_rotation());
    scene.add_behaviour(object, behaviour).unwrap();
    scene.tick(1.0 / 60.0);
    let rotation = scene.transform(object).unwrap().rotation;
    assert!(
        rotation.angle_between(authored_rotation()) < 1e-4,
        "authored {:?}, now {rotation:?}",
        authored_rotation()
    );
}

#[test]
fn a_fly_camera_keeps_its_authored_tilt() {
    assert_rotation_kept(CameraController::fly());
}

#[test]
fn a_player_keeps_its_authored_heading_and_pitch() {
    assert_rotation_kept(PlayerController::default());
}
