//! The character controller's cost per player per tick: 100 players
//! walking among 5,000 colliders, through the engine (the core's
//! `CharacterMotor` stepping against the scene's `Physics` world, which
//! answers with rapier's kinematic character controller: velocity, gravity,
//! the capsule's sweep with slopes, steps and snapping, and what it touched)
//! side by side with rapier's controller called directly on the same
//! colliders with the same settings and the same wanted motions, in the same
//! run.
//!
//! Shape: a 200 m ground box and 5,000 fixed 1 m boxes on a grid 2.8 m
//! apart; 100 players spread over it, each walking its own heading at
//! 4.3 m/s for a window of 120 ticks at 60 Hz (rebuilt, untimed, after each
//! window), so both sides cover the same walks, wall slides and steps.
//!
//! Run: `cargo bench -p taos_benches --bench character`

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use rapier3d::control::{CharacterAutostep, CharacterLength, KinematicCharacterController};
use rapier3d::math::{Pose, Vector};
use rapier3d::prelude::{ColliderBuilder, PhysicsWorld, QueryFilter, SharedShape};
use taos_engine::controllers::{CharacterMotor, MotorSettings, MoveIntent};
use taos_engine::physics::{Collider, Physics, PhysicsConfig};
use taos_engine::prelude::{Scene, Transform, Vec3};

const DT: f32 = 1.0 / 60.0;
const WINDOW: u64 = 120;
const COLLIDERS: usize = 5_000;
const PLAYERS: usize = 100;
const SPACING: f32 = 2.8;

/// Where fixed box `i` stands (on the ground, centre 0.5 m up).
fn box_position(i: usize) -> Vec3 {
    let side = (COLLIDERS as f32).sqrt().ceil() as usize;
    let half = side as f32 * SPACING * 0.5;
    Vec3::new(
        (i % side) as f32 * SPACING - half,
        0.5,
        (i / side) as f32 * SPACING - half,
    )
}

/// Where player `i` starts (between boxes) and which way it walks.
fn player_start(i: usize) -> (Vec3, Vec3) {
    let side = (PLAYERS as f32).sqrt().ceil() as usize;
    let spread = 15.0 * SPACING;
    let at = Vec3::new(
        (i % side) as f32 * spread / side as f32 - spread * 0.5 + SPACING * 0.5,
        0.0,
        (i / side) as f32 * spread / side as f32 - spread * 0.5 + SPACING * 0.5,
    );
    let angle = i as f32 * 2.399_963;
    (at, Vec3::new(angle.sin(), 0.0, angle.cos()))
}

/// The engine's side: a scene whose physics world holds the colliders
/// (stepped once so they are in it).
fn engine_scene() -> Scene {
    let mut scene = Scene::new();
    taos_engine::physics::install(&mut scene, PhysicsConfig::default());
    let ground = scene.spawn_with(
        "Ground",
        Transform::from_position(Vec3::new(0.0, -0.5, 0.0)),
    );
    scene
        .add_component(
            ground,
            Collider::cuboid(Vec3::new(100.0, 0.5, 100.0)).unwrap(),
        )
        .unwrap();
    for i in 0..COLLIDERS {
        let object = scene.spawn_with("Box", Transform::from_position(box_position(i)));
        scene
            .add_component(object, Collider::cuboid(Vec3::splat(0.5)).unwrap())
            .unwrap();
    }
    scene.tick(DT);
    scene
}

fn motors() -> Vec<(CharacterMotor, MoveIntent)> {
    (0..PLAYERS)
        .map(|i| {
            let (at, heading) = player_start(i);
            let mut motor = CharacterMotor::new(at, MotorSettings::default());
            motor.on_ground = true;
            let intent = MoveIntent {
                wish: heading,
                ..MoveIntent::default()
            };
            (motor, intent)
        })
        .collect()
}

/// rapier's side: the same colliders in a world of its own.
fn direct_world() -> PhysicsWorld {
    let mut world = PhysicsWorld::new();
    world.insert_collider(
        ColliderBuilder::cuboid(100.0, 0.5, 100.0)
            .translation(Vector::new(0.0, -0.5, 0.0))
            .build(),
        None,
    );
    for i in 0..COLLIDERS {
        let p = box_position(i);
        world.insert_collider(
            ColliderBuilder::cuboid(0.5, 0.5, 0.5)
                .translation(Vector::new(p.x, p.y, p.z))
                .build(),
            None,
        );
    }
    world.step();
    world
}

/// rapier's controller with the motor's default settings.
fn direct_controller() -> KinematicCharacterController {
    let s = MotorSettings::default();
    KinematicCharacterController {
        offset: CharacterLength::Absolute(0.01),
        autostep: Some(CharacterAutostep {
            max_height: CharacterLength::Absolute(s.step_height),
            min_width: CharacterLength::Absolute(s.half_width * 0.5),
            include_dynamic_bodies: false,
        }),
        max_slope_climb_angle: s.max_slope,
        min_slope_slide_angle: s.max_slope,
        snap_to_ground: Some(CharacterLength::Absolute(s.snap_distance)),
        ..KinematicCharacterController::default()
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("character_100_players_5000_colliders");
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(8));

    let scene = engine_scene();
    group.bench_function("engine_motor", |b| {
        b.iter_custom(|iters| {
            let physics = scene.world().resource::<Physics>();
            let mut players = motors();
            let mut total = Duration::ZERO;
            for tick in 0..iters {
                if tick > 0 && tick % WINDOW == 0 {
                    players = motors();
                }
                let start = Instant::now();
                for (motor, intent) in &mut players {
                    motor.step(physics, *intent, DT);
                }
                total += start.elapsed();
                black_box(&players);
            }
            total
        });
    });

    let world = direct_world();
    let controller = direct_controller();
    let s = MotorSettings::default();
    let shape = SharedShape::capsule_y(s.height * 0.5 - s.half_width, s.half_width);
    let starts = || -> Vec<(Vec3, Vec3)> {
        (0..PLAYERS)
            .map(|i| {
                let (at, heading) = player_start(i);
                (at, heading * s.walk_speed)
            })
            .collect()
    };
    group.bench_function("rapier_direct", |b| {
        b.iter_custom(|iters| {
            let pipeline = world.query_pipeline_with_filter(QueryFilter::new().exclude_sensors());
            let mut players = starts();
            let mut total = Duration::ZERO;
            for tick in 0..iters {
                if tick > 0 && tick % WINDOW == 0 {
                    players = starts();
                }
                let start = Instant::now();
                for (feet, velocity) in &mut players {
                    let centre = *feet + Vec3::Y * s.height * 0.5;
                    let pose = Pose::from_translation(Vector::new(centre.x, centre.y, centre.z));
                    let wanted = *velocity * DT;
                    let moved = controller.move_shape(
                        DT,
                        &pipeline,
                        shape.as_ref(),
                        &pose,
                        Vector::new(wanted.x, wanted.y, wanted.z),
                        |collision| {
                            black_box(collision.handle);
                        },
                    );
                    let t = moved.translation;
                    *feet += Vec3::new(t.x, t.y, t.z);
                }
                total += start.elapsed();
                black_box(&players);
            }
            total
        });
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
