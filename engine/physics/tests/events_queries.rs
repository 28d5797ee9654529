//! Trigger and contact events as behaviours see them, and queries.

mod common;

use common::{dynamic, game, physics, physics_mut, plain_ground, run};
use glam::{Quat, Vec3};
use taos_core::prelude::*;
use taos_physics::{
    Collider, CollisionLayers, Physics, PhysicsEventKind, QueryFilter, RigidBody, Shape,
};

/// Counts the events its object sees, read through the behaviour context.
#[derive(Default)]
struct Counter {
    seen: Vec<(PhysicsEventKind, GameObject)>,
}

impl Behaviour for Counter {
    fn update(&mut self, cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
        let me = cx.object();
        let physics = cx.resource::<Physics>();
        self.seen
            .extend(physics.events_of(me).map(|e| (e.kind, e.other)));
        Ok(())
    }
}

fn count(list: &[(PhysicsEventKind, GameObject)], kind: PhysicsEventKind) -> usize {
    list.iter().filter(|(k, _)| *k == kind).count()
}

#[test]
fn a_trigger_reports_one_entry_and_one_exit_to_both_objects() {
    let mut game = game();
    physics_mut(&mut game).set_gravity(Vec3::ZERO).unwrap();
    let scene = game.scene_mut();
    let zone = scene.spawn("Zone");
    scene
        .add_component(
            zone,
            Collider::cuboid(Vec3::splat(1.0)).unwrap().sensor(true),
        )
        .unwrap();
    scene.add_behaviour(zone, Counter::default()).unwrap();
    let ball = dynamic(
        &mut game,
        "Ball",
        Vec3::new(-4.0, 0.0, 0.0),
        RigidBody::dynamic()
            .with_linear_velocity(Vec3::new(4.0, 0.0, 0.0))
            .unwrap(),
        Collider::ball(0.25).unwrap(),
    );
    game.scene_mut()
        .add_behaviour(ball, Counter::default())
        .unwrap();
    // 2 s at 4 m/s: from x = -4 through the zone (-1..1) to x = 4.
    common::run(&mut game, 2 * common::HZ + 5);
    let zone_saw = &game.scene().behaviour::<Counter>(zone).unwrap().seen;
    let ball_saw = &game.scene().behaviour::<Counter>(ball).unwrap().seen;
    assert_eq!(
        count(zone_saw, PhysicsEventKind::TriggerEnter),
        1,
        "{zone_saw:?}"
    );
    assert_eq!(
        count(zone_saw, PhysicsEventKind::TriggerExit),
        1,
        "{zone_saw:?}"
    );
    assert_eq!(
        count(ball_saw, PhysicsEventKind::TriggerEnter),
        1,
        "{ball_saw:?}"
    );
    assert_eq!(
        count(ball_saw, PhysicsEventKind::TriggerExit),
        1,
        "{ball_saw:?}"
    );
    assert_eq!(zone_saw.len(), 2, "nothing else: {zone_saw:?}");
    assert!(zone_saw.iter().all(|(_, other)| *other == ball));
    assert!(ball_saw.iter().all(|(_, other)| *other == zone));
    assert!(physics(&game).is_sensor(zone) && !physics(&game).is_sensor(ball));
}

#[test]
fn events_are_seen_once_even_while_paused() {
    let mut game = game();
    plain_ground(&mut game);
    let ball = dynamic(
        &mut game,
        "Ball",
        Vec3::new(0.0, 0.6, 0.0),
        RigidBody::dynamic(),
        Collider::ball(0.5).unwrap(),
    );
    game.scene_mut()
        .add_behaviour(ball, Counter::default())
        .unwrap();
    let mut starts = 0;
    for _ in 0..30 {
        run(&mut game, 1);
        starts += physics(&game)
            .events()
            .iter()
            .filter(|e| e.kind == PhysicsEventKind::ContactStart)
            .count();
        if starts > 0 {
            break;
        }
    }
    assert_eq!(starts, 1, "the ball lands once");
    game.time_mut().set_scale(0.0).unwrap();
    run(&mut game, 10);
    let saw = &game.scene().behaviour::<Counter>(ball).unwrap().seen;
    assert_eq!(count(saw, PhysicsEventKind::ContactStart), 1, "{saw:?}");
    assert!(
        physics(&game).events().is_empty(),
        "a paused step clears them"
    );
}

/// Three boxes along +X at x = 2, 4 and 6; the first on layer 2 only.
fn row_of_boxes(game: &mut taos_core::game_loop::GameLoop) -> [GameObject; 3] {
    let scene = game.scene_mut();
    let mut out = Vec::new();
    for (i, x) in [2.0_f32, 4.0, 6.0].into_iter().enumerate() {
        let object = scene.spawn_with(
            format!("Box {i}"),
            Transform::from_position(Vec3::new(x, 0.0, 0.0)),
        );
        let layers = if i == 0 {
            CollisionLayers::new(0b10, u32::MAX)
        } else {
            CollisionLayers::new(0b01, u32::MAX)
        };
        scene
            .add_component(
                object,
                Collider::cuboid(Vec3::splat(0.5))
                    .unwrap()
                    .with_layers(layers),
            )
            .unwrap();
        out.push(object);
    }
    [out[0], out[1], out[2]]
}

#[test]
fn a_ray_hits_the_first_collider_on_its_path() {
    let mut game = game();
    let boxes = row_of_boxes(&mut game);
    run(&mut game, 1);
    let physics = physics(&game);
    let hit = physics
        .cast_ray(Vec3::ZERO, Vec3::X, 100.0, &QueryFilter::ALL)
        .unwrap()
        .expect("a hit");
    assert_eq!(hit.object, boxes[0]);
    assert!((hit.distance - 1.5).abs() < 1e-5, "{hit:?}");
    assert!(
        (hit.point - Vec3::new(1.5, 0.0, 0.0)).length() < 1e-5,
        "{hit:?}"
    );
    assert!((hit.normal - Vec3::NEG_X).length() < 1e-5, "{hit:?}");
    // Layer 1 only: the first box (layer 2) is skipped.
    let hit = physics
        .cast_ray(Vec3::ZERO, Vec3::X, 100.0, &QueryFilter::layers(0b01))
        .unwrap()
        .unwrap();
    assert_eq!(hit.object, boxes[1]);
    // Excluding an object, and a ray too short to reach anything.
    let hit = physics
        .cast_ray(
            Vec3::ZERO,
            Vec3::X,
            100.0,
            &QueryFilter::ALL.excluding(boxes[0]),
        )
        .unwrap()
        .unwrap();
    assert_eq!(hit.object, boxes[1]);
    assert!(
        physics
            .cast_ray(Vec3::ZERO, Vec3::X, 1.0, &QueryFilter::ALL)
            .unwrap()
            .is_none()
    );
}

#[test]
fn shape_casts_and_overlaps_find_the_boxes() {
    let mut game = game();
    let boxes = row_of_boxes(&mut game);
    run(&mut game, 1);
    let physics = physics(&game);
    let ball = Shape::ball(0.25).unwrap();
    let hit = physics
        .cast_shape(
            &ball,
            Vec3::ZERO,
            Quat::IDENTITY,
            Vec3::X,
            100.0,
            &QueryFilter::ALL,
        )
        .unwrap()
        .unwrap();
    assert_eq!(hit.object, boxes[0]);
    assert!((hit.distance - 1.25).abs() < 1e-3, "{hit:?}");
    let mut found = Vec::new();
    let wide = Shape::cuboid(Vec3::new(2.0, 0.5, 0.5)).unwrap();
    physics
        .overlaps(
            &wide,
            Vec3::new(3.0, 0.0, 0.0),
            Quat::IDENTITY,
            &QueryFilter::ALL,
            &mut found,
        )
        .unwrap();
    found.sort();
    let mut expected = vec![boxes[0], boxes[1]];
    expected.sort();
    assert_eq!(found, expected);
}

#[test]
fn a_trimesh_collider_holds_a_ball_and_answers_rays() {
    let mut game = game();
    let positions = [
        Vec3::new(-10.0, 0.0, -10.0),
        Vec3::new(10.0, 0.0, -10.0),
        Vec3::new(10.0, 0.0, 10.0),
        Vec3::new(-10.0, 0.0, 10.0),
    ];
    // Counter-clockwise seen from above.
    let indices = [0, 2, 1, 0, 3, 2];
    let scene = game.scene_mut();
    let floor = scene.spawn("Floor");
    scene
        .add_component(floor, Collider::trimesh(&positions, &indices).unwrap())
        .unwrap();
    let ball = dynamic(
        &mut game,
        "Ball",
        Vec3::new(1.0, 2.0, 1.0),
        RigidBody::dynamic(),
        Collider::ball(0.5).unwrap(),
    );
    run(&mut game, 3 * common::HZ);
    let y = common::position(&game, ball).y;
    assert!((y - 0.5).abs() < 0.02, "rests on the mesh: {y}");
    let hit = physics(&game)
        .cast_ray(
            Vec3::new(5.0, 3.0, -5.0),
            Vec3::NEG_Y,
            10.0,
            &QueryFilter::ALL,
        )
        .unwrap()
        .unwrap();
    assert_eq!(hit.object, floor);
    assert!((hit.distance - 3.0).abs() < 1e-4, "{hit:?}");
}

/// Looks down from its object with a ray and kicks it up once, all through
/// the behaviour context.
#[derive(Default)]
struct Hopper {
    ground_below: Option<(GameObject, f32)>,
    kicked: bool,
}

impl Behaviour for Hopper {
    fn update(&mut self, cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
        let me = cx.object();
        let from = cx.world_position();
        let filter = QueryFilter::ALL.excluding(me);
        self.ground_below = cx
            .resource::<Physics>()
            .cast_ray(from, Vec3::NEG_Y, 100.0, &filter)?
            .map(|hit| (hit.object, hit.distance));
        if !self.kicked && cx.resource::<Physics>().has_body(me) {
            cx.resource_mut::<Physics>()
                .apply_impulse(me, Vec3::new(0.0, 5.0, 0.0))?;
            self.kicked = true;
        }
        Ok(())
    }
}

#[test]
fn behaviours_query_and_push_through_their_context() {
    let mut game = game();
    let ground = plain_ground(&mut game);
    let ball = dynamic(
        &mut game,
        "Ball",
        Vec3::new(0.0, 2.0, 0.0),
        RigidBody::dynamic().with_mass(1.0).unwrap(),
        Collider::ball(0.5).unwrap(),
    );
    game.scene_mut()
        .add_behaviour(ball, Hopper::default())
        .unwrap();
    run(&mut game, 3);
    let hopper = game.scene().behaviour::<Hopper>(ball).unwrap();
    assert!(hopper.kicked);
    let (below, distance) = hopper.ground_below.expect("the ground is below");
    assert_eq!(below, ground);
    assert!(distance > 1.9, "the ball rose: {distance}");
    assert!(physics(&game).linear_velocity(ball).unwrap().y > 3.0);
    assert!(game.take_errors().is_empty());
}
