//! The PlayerController bridge: a player walking in a physics scene stops at
//! fixed colliders, climbs slopes and steps within its limits, stays on the
//! ground down stairs, pushes light dynamic bodies further than heavy ones
//! and sets off sensors.

use glam::{Quat, Vec2, Vec3};
use taos_core::behaviour_in;
use taos_core::controllers::{PlayerCommand, PlayerController, PlayerDrive};
use taos_core::prelude::*;
use taos_physics::{Collider, Physics, PhysicsConfig, PhysicsEventKind, PhysicsPlayer, RigidBody};

const DT: f32 = 1.0 / 60.0;

/// A scene with physics and a ground whose top is at y = 0, and a player
/// standing at the origin walking forward (-Z) every update.
fn walking_scene() -> (Scene, GameObject) {
    let mut scene = ground_scene();
    let player = scene.spawn_with(
        "Player",
        Transform::from_position(Vec3::new(0.0, 1.62, 0.0)),
    );
    let mut controller = PlayerController::default();
    controller.drive = PlayerDrive::commands(|_| PlayerCommand {
        walk: Vec2::new(0.0, 1.0),
        ..PlayerCommand::default()
    });
    scene
        .add_behaviour(player, PhysicsPlayer::new(controller))
        .unwrap();
    (scene, player)
}

fn feet(scene: &Scene, player: GameObject) -> Vec3 {
    behaviour_in::<PhysicsPlayer>(scene.world(), player)
        .unwrap()
        .controller
        .motor
        .position
}

fn run(scene: &mut Scene, ticks: usize) {
    for _ in 0..ticks {
        scene.tick(DT);
    }
}

#[test]
fn the_player_stands_on_a_collider_and_stops_at_a_fixed_box() {
    let (mut scene, player) = walking_scene();
    let wall = scene.spawn_with("Wall", Transform::from_position(Vec3::new(0.0, 1.0, -3.0)));
    scene
        .add_component(wall, Collider::cuboid(Vec3::new(2.0, 1.0, 0.25)).unwrap())
        .unwrap();
    run(&mut scene, 180);
    let at = feet(&scene, player);
    assert!(at.y.abs() < 0.02, "on the ground: {at}");
    // The wall's face is at z = -2.75; the player is 0.3 m half wide.
    assert!(at.z > -2.75 + 0.29, "stopped at the wall: {at}");
    assert!(at.z < -2.4, "walked up to the wall: {at}");
    let wall_at = scene.world_position(wall).unwrap();
    assert_eq!(
        wall_at,
        Vec3::new(0.0, 1.0, -3.0),
        "a fixed box never moves"
    );
}

#[test]
fn the_player_pushes_a_light_dynamic_box() {
    let (mut scene, player) = walking_scene();
    let crate_box = scene.spawn_with("Box", Transform::from_position(Vec3::new(0.0, 0.25, -2.0)));
    scene
        .add_component(crate_box, RigidBody::dynamic().with_mass(2.0).unwrap())
        .unwrap();
    scene
        .add_component(crate_box, Collider::cuboid(Vec3::splat(0.25)).unwrap())
        .unwrap();
    run(&mut scene, 180);
    let box_at = scene.world_position(crate_box).unwrap();
    let at = feet(&scene, player);
    assert!(box_at.z < -5.0, "pushed along -Z: {box_at}");
    assert!(box_at.x.abs() < 1.0, "straight ahead: {box_at}");
    assert!(at.z < -4.0, "the player followed it: {at}");
    assert!(
        at.z > box_at.z,
        "the player stays behind the box: {at} {box_at}"
    );
}

#[test]
fn a_heavy_box_is_not_pushed() {
    let (mut scene, player) = walking_scene();
    let heavy = scene.spawn_with("Heavy", Transform::from_position(Vec3::new(0.0, 0.5, -2.0)));
    scene
        .add_component(heavy, RigidBody::dynamic().with_mass(500.0).unwrap())
        .unwrap();
    scene
        .add_component(heavy, Collider::cuboid(Vec3::splat(0.5)).unwrap())
        .unwrap();
    run(&mut scene, 180);
    let box_at = scene.world_position(heavy).unwrap();
    let at = feet(&scene, player);
    assert!((box_at.z + 2.0).abs() < 0.05, "stays put: {box_at}");
    assert!(at.z > -1.5 + 0.29, "the player stopped at it: {at}");
}

fn player(scene: &Scene, player: GameObject) -> &PhysicsPlayer {
    behaviour_in::<PhysicsPlayer>(scene.world(), player).unwrap()
}

/// A scene with physics and a 100 m ground whose top is at y = 0.
fn ground_scene() -> Scene {
    let mut scene = Scene::new();
    taos_physics::install(&mut scene, PhysicsConfig::default());
    fixed_box(
        &mut scene,
        "Ground",
        Vec3::new(0.0, -0.5, 0.0),
        Quat::IDENTITY,
        Vec3::new(50.0, 0.5, 50.0),
    );
    scene
}

/// A fixed box of `half` extents at `centre`, turned by `rotation`.
fn fixed_box(
    scene: &mut Scene,
    name: &str,
    centre: Vec3,
    rotation: Quat,
    half: Vec3,
) -> GameObject {
    let object = scene.spawn_with(name, Transform::from_trs(centre, rotation, Vec3::ONE));
    scene
        .add_component(object, Collider::cuboid(half).unwrap())
        .unwrap();
    object
}

/// The highest the player's feet got walking forward for `ticks` into a
/// ramp of `degrees` that rises along -Z from the ground at z = -1, 8 m long.
fn highest_on_ramp(degrees: f32, max_slope_degrees: f32, ticks: usize) -> f32 {
    let (mut scene, walker) = walking_scene();
    {
        let behaviour =
            taos_core::behaviour_in_mut::<PhysicsPlayer>(scene.world_mut(), walker).unwrap();
        behaviour.controller.motor.settings.max_slope = max_slope_degrees.to_radians();
    }
    let angle = degrees.to_radians();
    let (half_length, half_thickness) = (4.0, 0.05);
    let centre = Vec3::new(
        0.0,
        half_length * angle.sin() - half_thickness * angle.cos(),
        -1.0 - half_length * angle.cos() - half_thickness * angle.sin(),
    );
    fixed_box(
        &mut scene,
        "Ramp",
        centre,
        Quat::from_rotation_x(angle),
        Vec3::new(1.5, half_thickness, half_length),
    );
    let mut highest = f32::MIN;
    for _ in 0..ticks {
        scene.tick(DT);
        highest = highest.max(feet(&scene, walker).y);
    }
    highest
}

#[test]
fn a_17_degree_ramp_is_climbed_and_a_35_degree_one_refused_at_a_30_degree_limit() {
    // The ramp's top is 8 m * sin(17 deg) = 2.34 m up.
    let gentle = highest_on_ramp(17.0, 30.0, 150);
    assert!(gentle > 2.0, "climbed to {gentle}");
    let steep = highest_on_ramp(35.0, 30.0, 150);
    assert!(steep < 0.4, "a 35 degree ramp is refused, got to {steep}");
}

/// The player's height after walking for 2 s into a ledge `height` tall whose
/// face is 1 m ahead.
fn after_ledge(height: f32) -> (f32, f32) {
    let (mut scene, walker) = walking_scene();
    fixed_box(
        &mut scene,
        "Ledge",
        Vec3::new(0.0, height * 0.5, -6.0),
        Quat::IDENTITY,
        Vec3::new(2.0, height * 0.5, 5.0),
    );
    run(&mut scene, 120);
    let at = feet(&scene, walker);
    (at.y, at.z)
}

#[test]
fn a_0_3_m_ledge_is_stepped_onto_and_a_0_6_m_one_is_not() {
    let (y, z) = after_ledge(0.3);
    assert!((y - 0.3).abs() < 0.03, "stepped up onto the ledge: y {y}");
    assert!(z < -2.0, "walked on along it: z {z}");
    let (y, z) = after_ledge(0.6);
    assert!(y < 0.05, "stayed below a 0.6 m ledge: y {y}");
    assert!(z > -1.0 + 0.29, "stopped at its face: z {z}");
}

#[test]
fn walking_down_stairs_keeps_the_player_on_the_ground() {
    let (mut scene, walker) = walking_scene();
    // A landing 2 m up under the player, then ten 0.2 m steps, 0.3 m deep,
    // down along -Z.
    fixed_box(
        &mut scene,
        "Landing",
        Vec3::new(0.0, 1.0, 0.0),
        Quat::IDENTITY,
        Vec3::new(2.0, 1.0, 1.0),
    );
    for step in 0..10 {
        let top = 2.0 - 0.2 * (step as f32 + 1.0);
        if top <= 0.0 {
            break;
        }
        let z = -1.0 - 0.3 * step as f32 - 0.15;
        fixed_box(
            &mut scene,
            "Step",
            Vec3::new(0.0, top * 0.5, z),
            Quat::IDENTITY,
            Vec3::new(2.0, top * 0.5, 0.15),
        );
    }
    {
        let behaviour =
            taos_core::behaviour_in_mut::<PhysicsPlayer>(scene.world_mut(), walker).unwrap();
        behaviour.controller.teleport(Vec3::new(0.0, 2.0, 0.5));
    }
    // Settle on the landing, then walk down.
    let mut airborne = 0;
    let mut ticks = 0;
    while feet(&scene, walker).z > -4.5 && ticks < 300 {
        scene.tick(DT);
        ticks += 1;
        if ticks > 10 && !player(&scene, walker).controller.motor.on_ground {
            airborne += 1;
        }
    }
    let at = feet(&scene, walker);
    assert!(at.z <= -4.5, "walked down the stairs: {at}");
    assert!(at.y < 0.05, "at the bottom: {at}");
    assert_eq!(
        airborne, 0,
        "left the ground on {airborne} ticks of {ticks}"
    );
}

/// How far a crate of `kg` (a 0.5 m cube 2 m ahead) is from where it started
/// after the player walks into it for 3 s.
fn crate_pushed(kg: f32) -> f32 {
    let (mut scene, walker) = walking_scene();
    let crate_box = scene.spawn_with(
        "Crate",
        Transform::from_position(Vec3::new(0.0, 0.25, -2.0)),
    );
    scene
        .add_component(crate_box, RigidBody::dynamic().with_mass(kg).unwrap())
        .unwrap();
    scene
        .add_component(crate_box, Collider::cuboid(Vec3::splat(0.25)).unwrap())
        .unwrap();
    run(&mut scene, 180);
    let intended = player(&scene, walker).controller.motor.intended_speed();
    assert!(
        (intended - 4.3).abs() < 1e-3,
        "the intended speed is the walking speed while pushing: {intended}"
    );
    (scene.world_position(crate_box).unwrap() - Vec3::new(0.0, 0.25, -2.0)).length()
}

#[test]
fn a_6_kg_crate_is_pushed_further_than_a_60_kg_one() {
    let light = crate_pushed(6.0);
    let heavy = crate_pushed(60.0);
    assert!(light > 3.0, "the 6 kg crate moved {light} m");
    assert!(
        light > heavy * 2.0 + 0.5,
        "6 kg: {light} m, 60 kg: {heavy} m"
    );
}

#[test]
fn a_sensor_goes_off_once_per_entry_with_no_component_on_the_player() {
    let mut scene = ground_scene();
    let coin = scene.spawn_with("Coin", Transform::from_position(Vec3::new(0.0, 1.0, -3.0)));
    scene
        .add_component(coin, Collider::ball(0.5).unwrap().sensor(true))
        .unwrap();
    let walker = scene.spawn_with(
        "Player",
        Transform::from_position(Vec3::new(0.0, 1.62, 0.0)),
    );
    // Forward for 1.5 s (through the coin), back for 1.5 s (through it again).
    let mut updates = 0;
    let mut controller = PlayerController::default();
    controller.drive = PlayerDrive::commands(move |_| {
        updates += 1;
        let forward = if updates <= 90 { 1.0 } else { -1.0 };
        PlayerCommand {
            walk: Vec2::new(0.0, forward),
            ..PlayerCommand::default()
        }
    });
    scene
        .add_behaviour(walker, PhysicsPlayer::new(controller))
        .unwrap();
    let (mut enters, mut exits) = (0, 0);
    for _ in 0..180 {
        scene.tick(DT);
        let physics = scene.world().resource::<Physics>();
        for event in physics.events_of(coin) {
            assert_eq!(event.other, walker, "only the player goes through the coin");
            match event.kind {
                PhysicsEventKind::TriggerEnter => enters += 1,
                PhysicsEventKind::TriggerExit => exits += 1,
                other => panic!("a sensor reports triggers, got {other:?}"),
            }
        }
    }
    assert_eq!((enters, exits), (2, 2), "in and out twice");
}

#[test]
fn a_third_person_camera_behind_a_wall_ends_up_in_front_of_it() {
    let mut scene = ground_scene();
    // A wall 2 m behind the character (the camera looks down -Z, so it
    // sits at +Z), from z = 2 to z = 2.5, taller than the camera.
    fixed_box(
        &mut scene,
        "Wall",
        Vec3::new(0.0, 3.0, 2.25),
        Quat::IDENTITY,
        Vec3::new(5.0, 3.0, 0.25),
    );
    let camera = scene.spawn("Camera");
    let hero = scene.spawn("Hero");
    let controller = PlayerController::third_person(Default::default(), camera);
    scene
        .add_behaviour(hero, PhysicsPlayer::new(controller))
        .unwrap();
    run(&mut scene, 30);
    let eye = scene.world_position(camera).unwrap();
    assert!(eye.z < 2.0 - 0.19, "in front of the wall: {eye}");
    assert!(eye.z > 1.0, "pulled in only as far as the wall: {eye}");
    let feet = scene.world_position(hero).unwrap();
    assert!(
        feet.y.abs() < 0.02 && feet.z.abs() < 1e-3,
        "standing on its feet: {feet}"
    );
    // The character walks away from the wall; the camera eases back out.
    {
        let behaviour =
            taos_core::behaviour_in_mut::<PhysicsPlayer>(scene.world_mut(), hero).unwrap();
        behaviour.controller.drive = PlayerDrive::commands(|_| PlayerCommand {
            walk: Vec2::new(0.0, 1.0),
            ..PlayerCommand::default()
        });
    }
    run(&mut scene, 120);
    let feet = scene.world_position(hero).unwrap();
    let eye = scene.world_position(camera).unwrap();
    let follow = player(&scene, hero).controller.third_person.unwrap();
    assert!(feet.z < -6.0, "walked away: {feet}");
    assert!(
        (follow.current_distance() - follow.distance).abs() < 1e-3,
        "back out: {eye}"
    );
    let facing = player(&scene, hero).controller.facing;
    assert!(
        facing.sin().abs() < 1e-3 && facing.cos() > 0.99,
        "faces -Z: {facing}"
    );
}
