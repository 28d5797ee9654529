//! Behaviour of the simulation against analytic answers, on fixed ticks of
//! a manual clock (no sleeps, no wall clock).

mod common;

use common::{HZ, dynamic, game, ground, physics, physics_mut, plain_ground, position, run};
use glam::Vec3;
use taos_core::prelude::*;
use taos_physics::{Collider, RigidBody};

const G: f32 = 9.81;

#[test]
fn a_box_comes_to_rest_on_the_ground_without_jitter() {
    let mut game = game();
    plain_ground(&mut game);
    let cube = dynamic(
        &mut game,
        "Box",
        Vec3::new(0.0, 1.5, 0.0),
        RigidBody::dynamic(),
        Collider::cuboid(Vec3::splat(0.5)).unwrap(),
    );
    run(&mut game, 9 * HZ);
    // The last second of ten: the box must stay put.
    let (mut low, mut high) = (f32::MAX, f32::MIN);
    for _ in 0..HZ {
        run(&mut game, 1);
        let y = position(&game, cube).y;
        low = low.min(y);
        high = high.max(y);
    }
    let y = position(&game, cube).y;
    // Bound: rapier keeps a small allowed penetration (a few mm).
    assert!((y - 0.5).abs() < 0.01, "rests on the ground: centre at {y}");
    assert!(
        high - low < 1e-4,
        "jitter over the last second: {}",
        high - low
    );
    let v = physics(&game).linear_velocity(cube).unwrap();
    assert!(v.length() < 1e-3, "at rest, velocity {v}");
}

/// Drops a ball from `height` (its bottom above the ground) and returns the
/// apex of its first bounce (bottom above the ground).
fn bounce_apex(restitution: f32, height: f32) -> f32 {
    let mut game = game();
    plain_ground(&mut game);
    let radius = 0.25;
    let ball = dynamic(
        &mut game,
        "Ball",
        Vec3::new(0.0, height + radius, 0.0),
        RigidBody::dynamic(),
        Collider::ball(radius)
            .unwrap()
            .with_restitution(restitution)
            .unwrap(),
    );
    let mut bounced = false;
    let mut apex = f32::MIN;
    for _ in 0..5 * HZ {
        run(&mut game, 1);
        let vy = physics(&game).linear_velocity(ball).unwrap().y;
        let y = position(&game, ball).y - radius;
        if vy > 0.0 {
            bounced = true;
        }
        if bounced {
            if vy < 0.0 {
                break;
            }
            apex = apex.max(y);
        }
    }
    assert!(bounced, "the ball bounced");
    apex
}

#[test]
fn restitution_bounces_to_e_squared_of_the_drop_height() {
    // Analytic: the ball leaves the ground at e * v, so it rises to e^2 * h.
    let height = 2.0;
    for e in [0.5_f32, 0.8] {
        let apex = bounce_apex(e, height);
        let expected = e * e * height;
        // Tolerance: 10% (a discrete step meets the ground up to one tick late
        // and rapier's contact softness takes a little energy).
        assert!(
            (apex - expected).abs() < 0.1 * expected,
            "e = {e}: apex {apex}, analytic {expected}"
        );
    }
}

#[test]
fn friction_stops_a_sliding_box_at_the_analytic_distance() {
    // Analytic: deceleration mu * g, so the box slides v0^2 / (2 mu g).
    let (mu, v0) = (0.5_f32, 5.0_f32);
    let mut game = game();
    ground(
        &mut game,
        Collider::cuboid(Vec3::new(50.0, 0.5, 50.0))
            .unwrap()
            .with_friction(mu)
            .unwrap(),
    );
    let start = Vec3::new(0.0, 0.5, 0.0);
    let cube = dynamic(
        &mut game,
        "Slider",
        start,
        RigidBody::dynamic()
            .with_linear_velocity(Vec3::new(v0, 0.0, 0.0))
            .unwrap(),
        Collider::cuboid(Vec3::splat(0.5))
            .unwrap()
            .with_friction(mu)
            .unwrap(),
    );
    run(&mut game, 3 * HZ);
    let slid = position(&game, cube).x - start.x;
    let expected = v0 * v0 / (2.0 * mu * G);
    // Tolerance: 10% (friction acts through discrete contact points).
    assert!(
        (slid - expected).abs() < 0.1 * expected,
        "slid {slid} m, analytic {expected} m"
    );
    let v = physics(&game).linear_velocity(cube).unwrap();
    assert!(v.length() < 1e-2, "stopped, velocity {v}");
}

/// Fires a small fast ball at a thin wall (fixed, or kinematic: a door the
/// game moves); returns where the ball ended up (x).
fn fire_at_wall(wall_body: Option<RigidBody>, ccd: bool) -> f32 {
    let mut game = game();
    physics_mut(&mut game).set_gravity(Vec3::ZERO).unwrap();
    let scene = game.scene_mut();
    let wall = scene.spawn_with("Wall", Transform::from_position(Vec3::new(5.0, 0.0, 0.0)));
    scene
        .add_component(wall, Collider::cuboid(Vec3::new(0.025, 5.0, 5.0)).unwrap())
        .unwrap();
    if let Some(body) = wall_body {
        scene.add_component(wall, body).unwrap();
    }
    // 310 m/s: 5.17 m per tick, far more than the wall's 5 cm.
    let ball = dynamic(
        &mut game,
        "Bullet",
        Vec3::ZERO,
        RigidBody::dynamic()
            .with_linear_velocity(Vec3::new(310.0, 0.0, 0.0))
            .unwrap()
            .with_ccd(ccd),
        Collider::ball(0.05).unwrap(),
    );
    run(&mut game, 10);
    position(&game, ball).x
}

#[test]
fn ccd_stops_a_fast_ball_that_tunnels_without_it() {
    // Fixed geometry: rapier sweeps fast dynamic bodies against fixed
    // colliders by itself, so the ball stops with or without CCD.
    for ccd in [false, true] {
        let x = fire_at_wall(None, ccd);
        assert!(
            x < 5.0,
            "fixed wall, ccd {ccd}: the ball stays before it: x = {x}"
        );
    }
    // A kinematic wall: without CCD the ball is never seen overlapping it
    // (x = 0, then 5.17: past it) and tunnels; with CCD it stops.
    let without = fire_at_wall(Some(RigidBody::kinematic()), false);
    assert!(without > 5.0, "without CCD the ball tunnels: x = {without}");
    let with = fire_at_wall(Some(RigidBody::kinematic()), true);
    assert!(
        with < 5.0,
        "with CCD the ball stays before the wall: x = {with}"
    );
}

#[test]
fn kinematic_bodies_follow_their_transform_and_push_dynamic_ones() {
    let mut game = game();
    physics_mut(&mut game).set_gravity(Vec3::ZERO).unwrap();
    let scene = game.scene_mut();
    let pusher = scene.spawn("Pusher");
    scene.add_component(pusher, RigidBody::kinematic()).unwrap();
    scene
        .add_component(pusher, Collider::cuboid(Vec3::splat(0.5)).unwrap())
        .unwrap();
    let crate_ = dynamic(
        &mut game,
        "Crate",
        Vec3::new(2.0, 0.0, 0.0),
        RigidBody::dynamic(),
        Collider::cuboid(Vec3::splat(0.5)).unwrap(),
    );
    for tick in 1..=60 {
        let scene = game.scene_mut();
        scene.object_mut(pusher).unwrap().position_mut().x = tick as f32 * 0.05;
        run(&mut game, 1);
    }
    let (body, _) = physics(&game).pose(pusher).unwrap();
    assert!((body.x - 3.0).abs() < 1e-5, "the body followed: {body}");
    assert!(
        position(&game, crate_).x > 3.9,
        "the crate was pushed: {}",
        position(&game, crate_).x
    );
    // Its transform no longer changes: the body stands still (the step
    // does not look at an unchanged object again, and nothing drifts).
    run(&mut game, 30);
    let (still, _) = physics(&game).pose(pusher).unwrap();
    assert_eq!(still, body, "a kinematic body stops with its transform");
    assert_eq!(physics(&game).linear_velocity(pusher), Some(Vec3::ZERO));
}

#[test]
fn a_body_replaced_between_ticks_takes_effect() {
    let mut game = game();
    let ball = dynamic(
        &mut game,
        "Ball",
        Vec3::new(0.0, 10.0, 0.0),
        RigidBody::dynamic(),
        Collider::ball(0.5).unwrap(),
    );
    run(&mut game, 30);
    let y = position(&game, ball).y;
    assert!(y < 9.0, "falling: {y}");
    // Replaced by the game between two ticks (no system in between).
    game.scene_mut()
        .add_component(ball, RigidBody::fixed())
        .unwrap();
    run(&mut game, 30);
    assert_eq!(position(&game, ball).y, y, "a fixed body stays put");
    game.scene_mut()
        .add_component(ball, RigidBody::dynamic().with_gravity_scale(-1.0).unwrap())
        .unwrap();
    run(&mut game, 30);
    assert!(position(&game, ball).y > y + 1.0, "falls up now");
}

#[test]
fn a_teleported_dynamic_body_continues_from_its_new_place() {
    let mut game = game();
    plain_ground(&mut game);
    let ball = dynamic(
        &mut game,
        "Ball",
        Vec3::new(0.0, 5.0, 0.0),
        RigidBody::dynamic(),
        Collider::ball(0.5).unwrap(),
    );
    run(&mut game, 10);
    game.scene_mut()
        .object_mut(ball)
        .unwrap()
        .set_position(Vec3::new(10.0, 20.0, 0.0));
    run(&mut game, 1);
    let p = position(&game, ball);
    assert!(
        (p.x - 10.0).abs() < 1e-4 && p.y > 19.0 && p.y < 20.0,
        "teleported: {p}"
    );
}

#[test]
fn time_scale_zero_pauses_and_slow_motion_slows() {
    let fall = |scale: f32| {
        let mut game = game();
        let ball = dynamic(
            &mut game,
            "Ball",
            Vec3::new(0.0, 100.0, 0.0),
            RigidBody::dynamic(),
            Collider::ball(0.5).unwrap(),
        );
        game.time_mut().set_scale(scale).unwrap();
        run(&mut game, HZ);
        100.0 - position(&game, ball).y
    };
    assert!(fall(0.0).abs() < 1e-6, "paused: nothing falls");
    let (full, slow) = (fall(1.0), fall(0.5));
    // Free fall: 1/2 g t^2; at half speed half the time passes.
    assert!((full - 0.5 * G).abs() < 0.2, "fell {full} m in one second");
    assert!(
        (slow - 0.5 * G * 0.25).abs() < 0.1,
        "fell {slow} m in half a second"
    );
}

#[test]
fn a_dynamic_child_is_written_back_relative_to_its_parent() {
    let mut game = game();
    plain_ground(&mut game);
    let scene = game.scene_mut();
    let parent = scene.spawn_with("Parent", Transform::from_position(Vec3::new(3.0, 1.0, 0.0)));
    let child = scene.spawn_child(parent, "Child").unwrap();
    scene
        .object_mut(child)
        .unwrap()
        .set_position(Vec3::new(0.0, 2.0, 0.0));
    scene.add_component(child, RigidBody::dynamic()).unwrap();
    scene
        .add_component(child, Collider::cuboid(Vec3::splat(0.5)).unwrap())
        .unwrap();
    run(&mut game, 4 * HZ);
    let world = position(&game, child);
    // The box lands flat; the solver lets it drift a few millimetres.
    assert!(
        (world.y - 0.5).abs() < 0.01 && (world.x - 3.0).abs() < 0.02,
        "rests at {world}"
    );
    let local = game.scene().transform(child).unwrap().position;
    assert!(
        (local.y + 0.5).abs() < 0.01,
        "local is relative to the parent: {local}"
    );
}

#[test]
fn removing_an_object_removes_its_body() {
    let mut game = game();
    plain_ground(&mut game);
    let ball = dynamic(
        &mut game,
        "Ball",
        Vec3::new(0.0, 3.0, 0.0),
        RigidBody::dynamic(),
        Collider::ball(0.5).unwrap(),
    );
    run(&mut game, 1);
    assert_eq!(physics(&game).body_count(), 2);
    game.scene_mut().remove_component::<RigidBody>(ball);
    run(&mut game, 1);
    assert_eq!(
        physics(&game).body_count(),
        2,
        "the collider alone is now fixed"
    );
    game.scene_mut().remove(ball).unwrap();
    run(&mut game, 1);
    assert_eq!(physics(&game).body_count(), 1);
}

#[test]
fn kinematic_children_follow_their_parents_and_re_parenting() {
    let mut game = game();
    let scene = game.scene_mut();
    let carrier = scene.spawn("Carrier");
    let other = scene.spawn_with("Other", Transform::from_position(Vec3::new(0.0, 0.0, 10.0)));
    let platform = scene.spawn_child(carrier, "Platform").unwrap();
    scene
        .object_mut(platform)
        .unwrap()
        .set_position(Vec3::new(1.0, 0.0, 0.0));
    scene
        .add_component(platform, RigidBody::kinematic())
        .unwrap();
    scene
        .add_component(platform, Collider::cuboid(Vec3::splat(0.5)).unwrap())
        .unwrap();
    run(&mut game, 1);
    game.scene_mut()
        .object_mut(carrier)
        .unwrap()
        .set_position(Vec3::new(0.0, 2.0, 0.0));
    run(&mut game, 1);
    let (at, _) = physics(&game).pose(platform).unwrap();
    assert!(
        (at - Vec3::new(1.0, 2.0, 0.0)).length() < 1e-6,
        "moved with its parent: {at}"
    );
    game.scene_mut().add_child(other, platform).unwrap();
    run(&mut game, 1);
    let (at, _) = physics(&game).pose(platform).unwrap();
    assert!(
        (at - Vec3::new(1.0, 0.0, 10.0)).length() < 1e-6,
        "re-parented: {at}"
    );
}

#[test]
fn a_sleeping_body_writes_nothing() {
    let mut game = game();
    plain_ground(&mut game);
    let cube = dynamic(
        &mut game,
        "Box",
        Vec3::new(0.0, 1.0, 0.0),
        RigidBody::dynamic(),
        Collider::cuboid(Vec3::splat(0.5)).unwrap(),
    );
    run(&mut game, 10 * HZ);
    assert!(
        physics(&game).is_sleeping(cube),
        "at rest for long enough to sleep"
    );
    let before = game.scene().transform_stats();
    run(&mut game, HZ);
    assert_eq!(
        game.scene().transform_stats().local_rebuilds,
        before.local_rebuilds,
        "no transform was written, so none was rebuilt"
    );
}

#[test]
fn an_inactive_object_s_body_is_left_out() {
    let mut game = game();
    let ball = dynamic(
        &mut game,
        "Ball",
        Vec3::new(0.0, 10.0, 0.0),
        RigidBody::dynamic(),
        Collider::ball(0.5).unwrap(),
    );
    run(&mut game, 1);
    game.scene_mut().set_enabled(ball, false).unwrap();
    run(&mut game, 1);
    let frozen = position(&game, ball).y;
    run(&mut game, 30);
    assert_eq!(position(&game, ball).y, frozen, "disabled: not simulated");
    game.scene_mut().set_enabled(ball, true).unwrap();
    run(&mut game, 30);
    assert!(
        position(&game, ball).y < frozen - 0.5,
        "enabled again: falls"
    );
}

#[test]
fn changing_a_collider_rebuilds_it() {
    let mut game = game();
    plain_ground(&mut game);
    let ball = dynamic(
        &mut game,
        "Ball",
        Vec3::new(0.0, 3.0, 0.0),
        RigidBody::dynamic(),
        Collider::ball(0.5).unwrap(),
    );
    run(&mut game, 3 * HZ);
    assert!((position(&game, ball).y - 0.5).abs() < 0.02);
    game.scene_mut()
        .add_component(ball, Collider::ball(1.0).unwrap())
        .unwrap();
    run(&mut game, 3 * HZ);
    let y = position(&game, ball).y;
    assert!((y - 1.0).abs() < 0.02, "rests on its new radius: {y}");
}
