//! Joints: a pendulum keeps its length and swings with the analytic
//! period, a hinge stops at its limit, two jointed bodies move as one, a
//! rope holds at its length, an unresolved joint is reported and made once
//! its target has a body, and a snapshot restores joints bit for bit.

mod common;

use common::{dynamic, game, physics_mut, plain_ground, position, run};
use glam::{Quat, Vec3};
use taos_core::prelude::*;
use taos_physics::{Collider, Joint, RigidBody, StepError};

/// A small ball of radius 0.05 m, 1 m from a world pivot at the origin,
/// held by a ball joint; released `angle` radians from straight down.
fn pendulum(game: &mut GameLoop, angle: f32) -> GameObject {
    let start = Vec3::new(angle.sin(), -angle.cos(), 0.0);
    let ball = dynamic(
        game,
        "Bob",
        start,
        RigidBody::dynamic(),
        Collider::ball(0.05).unwrap(),
    );
    let joint = Joint::ball()
        .with_anchor(-start)
        .unwrap()
        .with_connected_anchor(Vec3::ZERO)
        .unwrap();
    game.scene_mut().add_component(ball, joint).unwrap();
    ball
}

#[test]
fn a_pendulum_keeps_its_length_and_swings_with_the_analytic_period() {
    let mut game = game();
    let bob = pendulum(&mut game, 0.15);
    // A physical pendulum: I = m L^2 + 2/5 m r^2 about the pivot.
    let (length, radius, g) = (1.0_f32, 0.05_f32, 9.81_f32);
    let quarter = std::f32::consts::FRAC_PI_2
        * ((length * length + 0.4 * radius * radius) / (g * length)).sqrt();
    let mut crossing = None;
    for tick in 1..=120 {
        run(&mut game, 1);
        let p = position(&game, bob);
        assert!(
            (p.length() - length).abs() < 0.01,
            "tick {tick}: the bob is {} m from the pivot",
            p.length()
        );
        if crossing.is_none() && p.x <= 0.0 {
            crossing = Some(tick as f32 / 60.0);
        }
    }
    let crossing = crossing.expect("the bob swings through the bottom");
    assert!(
        (crossing - quarter).abs() < 2.0 / 60.0,
        "crossed the bottom after {crossing} s; a quarter period is {quarter} s"
    );
    // Past the bottom, on the other side.
    assert!(position(&game, bob).x.abs() > 0.0);
}

#[test]
fn a_hinge_stops_at_its_limit() {
    let mut game = game();
    // A 2 m plank, hinged about Z at its left end, falls until -0.5 rad.
    let plank = dynamic(
        &mut game,
        "Plank",
        Vec3::new(1.0, 0.0, 0.0),
        RigidBody::dynamic(),
        Collider::cuboid(Vec3::new(1.0, 0.05, 0.2)).unwrap(),
    );
    let hinge = Joint::hinge(Vec3::Z)
        .unwrap()
        .with_anchor(Vec3::new(-1.0, 0.0, 0.0))
        .unwrap()
        .with_limits(-0.5, 0.5)
        .unwrap();
    game.scene_mut().add_component(plank, hinge).unwrap();
    run(&mut game, 180);
    let p = position(&game, plank);
    let angle = p.y.atan2(p.x);
    assert!(
        (angle + 0.5).abs() < 0.03,
        "the plank hangs at {angle} rad, the limit is -0.5"
    );
    assert!((p.length() - 1.0).abs() < 0.01, "pivot held: {p}");
}

#[test]
fn a_fixed_joint_makes_two_bodies_move_as_one() {
    let mut game = game();
    plain_ground(&mut game);
    let a = dynamic(
        &mut game,
        "A",
        Vec3::new(0.0, 3.0, 0.0),
        RigidBody::dynamic(),
        Collider::cuboid(Vec3::splat(0.25)).unwrap(),
    );
    let b = dynamic(
        &mut game,
        "B",
        Vec3::new(1.0, 3.5, 0.0),
        RigidBody::dynamic(),
        Collider::cuboid(Vec3::splat(0.25)).unwrap(),
    );
    let a_id = game.scene().id(a).unwrap();
    game.scene_mut()
        .add_component(b, Joint::fixed().connected_to(a_id))
        .unwrap();
    // Tumbling onto the ground together.
    run(&mut game, 150);
    let (pa, pb) = (position(&game, a), position(&game, b));
    assert!(pa.y < 1.5, "the pair fell: {pa}");
    assert!(
        ((pb - pa).length() - Vec3::new(1.0, 0.5, 0.0).length()).abs() < 0.02,
        "the offset held: {pa} {pb}"
    );
}

#[test]
fn a_rope_holds_at_its_length_and_is_slack_inside_it() {
    let mut game = game();
    let lamp = dynamic(
        &mut game,
        "Lamp",
        Vec3::new(0.0, 4.0, 0.0),
        RigidBody::dynamic(),
        Collider::ball(0.1).unwrap(),
    );
    let rope = Joint::rope(2.0)
        .unwrap()
        .with_connected_anchor(Vec3::new(0.0, 5.0, 0.0))
        .unwrap();
    game.scene_mut().add_component(lamp, rope).unwrap();
    // Slack: 1 m below the hook, it falls freely for the first metre.
    run(&mut game, 10);
    let y = position(&game, lamp).y;
    let free = 4.0 - 0.5 * 9.81 * (10.0_f32 / 60.0).powi(2);
    assert!(
        (y - free).abs() < 0.02,
        "free fall inside the rope: {y} vs {free}"
    );
    run(&mut game, 170);
    let y = position(&game, lamp).y;
    assert!((y - 3.0).abs() < 0.03, "hangs 2 m below the hook: {y}");
}

#[test]
fn a_joint_to_an_object_without_a_body_is_reported_then_made() {
    let mut game = game();
    let weight = dynamic(
        &mut game,
        "Weight",
        Vec3::new(0.0, 1.0, 0.0),
        RigidBody::dynamic(),
        Collider::ball(0.1).unwrap(),
    );
    let hook = game
        .scene_mut()
        .spawn_with("Hook", Transform::from_position(Vec3::new(0.0, 2.0, 0.0)));
    let hook_id = game.scene().id(hook).unwrap();
    game.scene_mut()
        .add_component(weight, Joint::ball().connected_to(hook_id))
        .unwrap();
    run(&mut game, 30);
    let errors = physics_mut(&mut game).take_errors();
    assert!(
        matches!(errors.as_slice(), [StepError::JointUnresolved { .. }]),
        "reported once: {errors:?}"
    );
    assert!(position(&game, weight).y < 0.0, "no joint yet: it fell");
    // The hook becomes fixed geometry: the joint is made where things are.
    let y = position(&game, weight).y;
    game.scene_mut()
        .add_component(hook, Collider::ball(0.05).unwrap())
        .unwrap();
    run(&mut game, 60);
    assert!(physics_mut(&mut game).take_errors().is_empty());
    assert!(
        (position(&game, weight).y - y).abs() < 0.05,
        "held where it was when the joint was made"
    );
}

#[test]
fn removing_the_joint_frees_the_body() {
    let mut game = game();
    let bob = pendulum(&mut game, 0.0);
    run(&mut game, 30);
    assert!((position(&game, bob).y + 1.0).abs() < 0.01);
    game.scene_mut()
        .remove_component::<Joint>(bob)
        .expect("had a joint");
    run(&mut game, 30);
    assert!(position(&game, bob).y < -2.0, "falls once freed");
}

#[test]
fn a_snapshot_restores_joints_bit_for_bit() {
    let mut game = game();
    plain_ground(&mut game);
    let mut chain = Vec::new();
    let mut previous = None;
    for i in 0..6 {
        let link = dynamic(
            &mut game,
            "Link",
            Vec3::new(i as f32 * 0.5, 4.0, 0.0),
            RigidBody::dynamic(),
            Collider::capsule(0.2, 0.05).unwrap(),
        );
        game.scene_mut()
            .object_mut(link)
            .unwrap()
            .set_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2));
        // Each link's -X end (local +Y, turned) on the previous link's +X
        // end; the first one's on a world pivot.
        let joint = Joint::ball()
            .with_anchor(Vec3::new(0.0, 0.25, 0.0))
            .unwrap();
        let joint = match previous {
            None => joint,
            Some(id) => joint.connected_to(id),
        };
        game.scene_mut().add_component(link, joint).unwrap();
        previous = game.scene().id(link);
        chain.push(link);
    }
    run(&mut game, 40);
    let snapshot = game.snapshot().unwrap();
    let snapshot = taos_core::game_loop::Snapshot::from_bytes(&snapshot.to_bytes()).unwrap();
    let mut original = Vec::new();
    let mut lowest = f32::INFINITY;
    for _ in 0..60 {
        game.step();
        original.push(game.state_checksum());
        lowest = lowest.min(position(&game, chain[5]).y);
        let links: Vec<Vec3> = chain.iter().map(|&l| position(&game, l)).collect();
        for pair in links.windows(2) {
            let gap = (pair[1] - pair[0]).length();
            assert!(gap < 0.52, "links stay joined: {links:?}");
        }
    }
    let ends: Vec<Vec3> = chain.iter().map(|&l| position(&game, l)).collect();
    game.restore(&snapshot).unwrap();
    let mut again = Vec::new();
    for _ in 0..60 {
        game.step();
        again.push(game.state_checksum());
    }
    assert_eq!(original, again);
    let restored: Vec<Vec3> = chain.iter().map(|&l| position(&game, l)).collect();
    assert_eq!(ends, restored);
    // The chain swung down from the first link's pivot (2.5 m of links
    // reach 1.5 m at the bottom of the swing) and held together.
    assert!(lowest < 2.0, "the chain swung down to {lowest}");
}

#[test]
fn bad_joint_settings_are_errors() {
    assert!(Joint::hinge(Vec3::ZERO).is_err());
    assert!(Joint::slider(Vec3::NAN).is_err());
    assert!(Joint::rope(-1.0).is_err());
    assert!(Joint::rope(f32::INFINITY).is_err());
    assert!(Joint::ball().with_anchor(Vec3::INFINITY).is_err());
    assert!(
        Joint::hinge(Vec3::X)
            .unwrap()
            .with_limits(1.0, -1.0)
            .is_err()
    );
    assert!(
        Joint::hinge(Vec3::X)
            .unwrap()
            .with_limits(f32::NAN, 1.0)
            .is_err()
    );
}

/// A chain saved to a scene file and loaded into a fresh scene simulates
/// exactly as the original: bodies, colliders and joints (by id) are in
/// the file.
#[test]
fn bodies_and_joints_round_trip_through_a_scene_file() {
    use taos_core::scene_file::{SceneTypes, load_scene, save_scene};

    let build = |scene: &mut Scene| {
        let hook = scene.spawn_with("Hook", Transform::from_position(Vec3::new(0.0, 5.0, 0.0)));
        scene
            .add_component(hook, Collider::ball(0.1).unwrap())
            .unwrap();
        let mut previous = scene.id(hook).unwrap();
        for i in 0..4 {
            let link = scene.spawn_with(
                "Link",
                Transform::from_position(Vec3::new(0.5 + i as f32 * 0.5, 5.0, 0.0)),
            );
            scene
                .add_component(link, RigidBody::dynamic().with_mass(2.0).unwrap())
                .unwrap();
            scene
                .add_component(link, Collider::ball(0.2).unwrap())
                .unwrap();
            let joint = Joint::ball()
                .with_anchor(Vec3::new(-0.25, 0.0, 0.0))
                .unwrap()
                .connected_to(previous);
            scene.add_component(link, joint).unwrap();
            previous = scene.id(link).unwrap();
        }
    };
    let mut types = SceneTypes::default();
    taos_physics::scene_types(&mut types);
    let mut original = Scene::new();
    build(&mut original);
    let text = save_scene(&original, &types).unwrap().text;
    assert!(
        text.contains("taos.Joint") && text.contains("taos.RigidBody"),
        "{text}"
    );

    let mut copy = Scene::new();
    load_scene(&mut copy, &text, "chain.scene.json", &types, None).unwrap();
    assert_eq!(save_scene(&copy, &types).unwrap().text, text);
    for scene in [&mut original, &mut copy] {
        taos_physics::install(scene, taos_physics::PhysicsConfig::default());
        for _ in 0..90 {
            scene.tick(1.0 / 60.0);
        }
    }
    let ends = |scene: &Scene| {
        let mut out: Vec<(ObjectId, [u32; 3])> = scene
            .roots()
            .into_iter()
            .map(|o| {
                let p = scene.world_position(o).unwrap();
                (scene.id(o).unwrap(), p.to_array().map(f32::to_bits))
            })
            .collect();
        out.sort_unstable();
        out
    };
    assert_eq!(ends(&original), ends(&copy));
    // The last link started at (2, 5, 0) and swung past the hook.
    let last = original.roots().into_iter().last().unwrap();
    let at = original.world_position(last).unwrap();
    assert!(at.x < 0.0, "the chain swung: {at}");
}
