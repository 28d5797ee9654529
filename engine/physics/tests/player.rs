//! The PlayerController bridge: a player walking in a physics scene stops at
//! fixed colliders and pushes light dynamic bodies.

use glam::{Vec2, Vec3};
use taos_core::behaviour_in;
use taos_core::controllers::{PlayerCommand, PlayerController, PlayerDrive};
use taos_core::prelude::*;
use taos_physics::{Collider, PhysicsConfig, PhysicsPlayer, RigidBody};

const DT: f32 = 1.0 / 60.0;

/// A scene with physics and a ground whose top is at y = 0, and a player
/// standing at the origin walking forward (-Z) every update.
fn walking_scene() -> (Scene, GameObject) {
    let mut scene = Scene::new();
    taos_physics::install(&mut scene, PhysicsConfig::default());
    let ground = scene.spawn_with(
        "Ground",
        Transform::from_position(Vec3::new(0.0, -0.5, 0.0)),
    );
    scene
        .add_component(
            ground,
            Collider::cuboid(Vec3::new(50.0, 0.5, 50.0)).unwrap(),
        )
        .unwrap();
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
    assert!(at.y.abs() < 0.01, "on the ground: {at}");
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
