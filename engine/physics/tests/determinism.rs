//! Determinism: the same run twice gives the same checksum, and a snapshot
//! restored mid-simulation continues bit for bit.

mod common;

use common::{dynamic, game, physics, plain_ground, position, run};
use glam::Vec3;
use taos_core::game_loop::GameLoop;
use taos_core::prelude::*;
use taos_physics::{Collider, RigidBody};

/// Bodies in the pile.
const BODIES: usize = 500;

/// 500 boxes and balls in a 10 x 5 x 10 lattice, slightly offset so they
/// tumble into each other on the way down.
fn pile() -> (GameLoop, Vec<GameObject>) {
    let mut game = game();
    plain_ground(&mut game);
    let mut objects = Vec::with_capacity(BODIES);
    for i in 0..BODIES {
        let (x, y, z) = (i % 10, i / 100, (i / 10) % 10);
        let jitter = (i % 7) as f32 * 0.03;
        let position = Vec3::new(
            x as f32 * 1.05 - 5.0 + jitter,
            2.0 + y as f32 * 1.2,
            z as f32 * 1.05 - 5.0 - jitter,
        );
        let collider = if i % 2 == 0 {
            Collider::cuboid(Vec3::splat(0.45)).unwrap()
        } else {
            Collider::ball(0.45).unwrap().with_restitution(0.3).unwrap()
        };
        let scene = game.scene_mut();
        let object = scene.spawn_with(format!("Body {i}"), Transform::from_position(position));
        scene.add_component(object, RigidBody::dynamic()).unwrap();
        scene.add_component(object, collider).unwrap();
        objects.push(object);
    }
    (game, objects)
}

fn transforms(game: &GameLoop, objects: &[GameObject]) -> Vec<[u32; 7]> {
    objects
        .iter()
        .map(|&o| {
            let t = game.scene().transform(o).unwrap();
            let [x, y, z] = t.position.to_array();
            let [a, b, c, d] = t.rotation.to_array();
            [x, y, z, a, b, c, d].map(f32::to_bits)
        })
        .collect()
}

/// Checksums after each of `ticks` ticks.
fn checksums(game: &mut GameLoop, ticks: u32) -> Vec<u64> {
    (0..ticks)
        .map(|_| {
            run(game, 1);
            game.state_checksum()
        })
        .collect()
}

#[test]
fn five_hundred_bodies_run_twice_give_the_same_checksums() {
    let (mut first, objects) = pile();
    let objects_lowest = |game: &GameLoop| {
        objects
            .iter()
            .map(|&o| game.scene().world_position(o).unwrap().y)
            .fold(f32::MAX, f32::min)
    };
    let (mut second, _) = pile();
    // 3 s: the pile lands (from 0.6 s on), tumbles and piles up.
    let a = checksums(&mut first, 180);
    let b = checksums(&mut second, 180);
    assert_eq!(a, b);
    // The checksum does see the bodies move.
    assert_ne!(a[0], a[179]);
    assert_eq!(physics(&first).body_count(), BODIES + 1);
    let lowest = objects_lowest(&first);
    assert!(
        lowest < 0.6,
        "the pile reached the ground: lowest centre {lowest}"
    );
}

#[test]
fn a_snapshot_restored_mid_fall_continues_bit_for_bit() {
    let (mut game, objects) = pile();
    // Mid-pile: bodies landing on the ground and on each other.
    run(&mut game, 60);
    let snapshot = game.snapshot().unwrap();
    // Through bytes, as a quick save on disk would go.
    let snapshot = taos_core::game_loop::Snapshot::from_bytes(&snapshot.to_bytes()).unwrap();
    let original = checksums(&mut game, 90);
    let original_transforms = transforms(&game, &objects);
    game.restore(&snapshot).unwrap();
    let again = checksums(&mut game, 90);
    assert_eq!(original, again, "checksums after the restore");
    assert_eq!(original_transforms, transforms(&game, &objects));
}

#[test]
fn the_checksum_covers_velocities() {
    let (mut game, objects) = pile();
    run(&mut game, 5);
    let before = game.state_checksum();
    game.scene_mut()
        .world_mut()
        .resource_mut::<taos_physics::Physics>()
        .set_linear_velocity(objects[0], Vec3::new(0.0, 1.0, 0.0))
        .unwrap();
    assert_ne!(before, game.state_checksum());
}

#[test]
fn a_restore_brings_back_a_removed_body_and_continues_exactly() {
    let mut game = game();
    plain_ground(&mut game);
    let scene = game.scene_mut();
    let ball = scene.spawn_with("Ball", Transform::from_position(Vec3::new(0.0, 3.0, 0.0)));
    scene.add_component(ball, RigidBody::dynamic()).unwrap();
    scene
        .add_component(
            ball,
            Collider::ball(0.5).unwrap().with_restitution(0.5).unwrap(),
        )
        .unwrap();
    let id = game.scene().id(ball).unwrap();
    run(&mut game, 20);
    let snapshot = game.snapshot().unwrap();
    let path = |game: &mut GameLoop| {
        (0..60)
            .map(|_| {
                run(game, 1);
                let object = game.scene().find_by_id(id).unwrap();
                game.scene()
                    .world_position(object)
                    .unwrap()
                    .to_array()
                    .map(f32::to_bits)
            })
            .collect::<Vec<_>>()
    };
    let original = path(&mut game);
    game.scene_mut().remove(ball).unwrap();
    run(&mut game, 5);
    assert_eq!(physics(&game).body_count(), 1);
    game.restore(&snapshot).unwrap();
    assert_eq!(path(&mut game), original);
    assert_eq!(physics(&game).body_count(), 2);
}

/// A player walking up a ramp and into a light crate; the motor's feet and
/// the crate's pose, as bits, every tick.
fn player_run() -> Vec<[u32; 6]> {
    use taos_core::controllers::{PlayerCommand, PlayerController, PlayerDrive};
    use taos_physics::PhysicsPlayer;

    let mut game = game();
    plain_ground(&mut game);
    let crate_box = dynamic(
        &mut game,
        "Crate",
        Vec3::new(0.3, 0.25, -6.0),
        RigidBody::dynamic().with_mass(6.0).unwrap(),
        Collider::cuboid(Vec3::splat(0.25)).unwrap(),
    );
    let scene = game.scene_mut();
    let ramp = scene.spawn_with(
        "Ramp",
        Transform::from_trs(
            Vec3::new(0.0, 0.3, -2.5),
            glam::Quat::from_rotation_x(0.3),
            Vec3::ONE,
        ),
    );
    scene
        .add_component(ramp, Collider::cuboid(Vec3::new(1.0, 0.1, 1.0)).unwrap())
        .unwrap();
    let player = scene.spawn_with(
        "Player",
        Transform::from_position(Vec3::new(0.0, 1.62, 0.0)),
    );
    let mut updates = 0_u32;
    let mut controller = PlayerController::default();
    controller.drive = PlayerDrive::commands(move |_| {
        updates += 1;
        PlayerCommand {
            walk: glam::Vec2::new((updates as f32 * 0.05).sin() * 0.3, 1.0),
            jump: updates.is_multiple_of(70),
            ..PlayerCommand::default()
        }
    });
    scene
        .add_behaviour(player, PhysicsPlayer::new(controller))
        .unwrap();
    (0..180)
        .map(|_| {
            game.step();
            let feet = taos_core::behaviour_in::<PhysicsPlayer>(game.scene().world(), player)
                .unwrap()
                .controller
                .motor
                .position;
            let at = position(&game, crate_box);
            [feet.x, feet.y, feet.z, at.x, at.y, at.z].map(f32::to_bits)
        })
        .collect()
}

#[test]
fn a_player_on_rapiers_controller_runs_the_same_twice() {
    let first = player_run();
    assert_eq!(first, player_run(), "the same inputs, the same bits");
    let last = first.last().unwrap();
    assert!(f32::from_bits(last[2]) < -4.0, "the player walked");
    assert_ne!(first[0][5], last[5], "the crate was pushed");
}
