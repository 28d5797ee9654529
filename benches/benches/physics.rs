//! Physics step time: dynamic boxes falling onto a ground, through the
//! engine (a `Scene` with `taos_physics` installed, one `scene.tick(1/60)`
//! per step: mirroring, the rapier step, events, write-back) side by side
//! with rapier3d used directly on the same scene (same bodies, shapes,
//! friction, density, gravity and integration parameters) in the same run.
//!
//! Shape: 1 m boxes on a 20 x 20 grid, 1.2 m apart, in layers 1.2 m apart
//! from 1 m up (1,000 boxes: 2.5 layers; 5,000: 12.5), over a fixed 200 m
//! ground box. Each side runs the same window of the fall: steps 0 to 119
//! after the bodies exist, rebuilt (untimed) after every 120 timed steps,
//! so both average over the same falls, impacts and settling. The engine's
//! side also pays for what a game gets from it: its events kept per object,
//! poses written back into transforms, and the scene's other systems; the
//! direct side hands its events to rapier's `()` handler, which drops them.
//!
//! Run: `cargo bench -p taos_benches --bench physics`
//!
//! Steps are timed by the wall clock. With `TAOS_BENCH_CLOCK=thread-cpu`
//! both sides are timed by the bench thread's CPU time instead (the step is
//! single-threaded), which other processes sharing the cores do not
//! inflate: on a busy machine, that is the fair comparison. `--sample-size`
//! overrides the default of 10.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use rapier3d::math::Vector;
use rapier3d::prelude::{
    ActiveEvents, CoefficientCombineRule, ColliderBuilder, PhysicsWorld, RigidBodyBuilder,
};
use taos_benches::Clock;
use taos_engine::physics::{Collider, PhysicsConfig, RigidBody};
use taos_engine::prelude::{Scene, Transform, Vec3};

const DT: f32 = 1.0 / 60.0;
const WINDOW: u64 = 120;
const GRID: usize = 20;

/// Where box `i` starts.
fn box_position(i: usize) -> Vec3 {
    let layer = i / (GRID * GRID);
    let cell = i % (GRID * GRID);
    let (x, z) = (cell % GRID, cell / GRID);
    let half = GRID as f32 * 1.2 * 0.5;
    Vec3::new(
        x as f32 * 1.2 - half,
        1.0 + layer as f32 * 1.2,
        z as f32 * 1.2 - half,
    )
}

/// The engine's side: a scene with physics, stepped once so every body
/// exists before timing.
fn engine_scene(count: usize) -> Scene {
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
    for i in 0..count {
        let object = scene.spawn_with("Box", Transform::from_position(box_position(i)));
        scene.add_component(object, RigidBody::dynamic()).unwrap();
        scene
            .add_component(object, Collider::cuboid(Vec3::splat(0.5)).unwrap())
            .unwrap();
    }
    scene.tick(DT);
    scene
}

/// rapier3d's side: the same bodies and colliders as `taos_physics` builds
/// them (friction 0.5, restitution 0 combined by max, density 1000,
/// collision events on), stepped once like the engine's.
fn direct_world(count: usize) -> PhysicsWorld {
    let mut world = PhysicsWorld::new();
    world.gravity = Vector::new(0.0, -9.81, 0.0);
    world.integration_parameters.dt = DT;
    let collider = |half: Vec3| {
        ColliderBuilder::cuboid(half.x, half.y, half.z)
            .friction(0.5)
            .restitution(0.0)
            .restitution_combine_rule(CoefficientCombineRule::Max)
            .density(1000.0)
            .active_events(ActiveEvents::COLLISION_EVENTS)
            .build()
    };
    let ground =
        world.insert_body(RigidBodyBuilder::fixed().translation(Vector::new(0.0, -0.5, 0.0)));
    world.insert_collider(collider(Vec3::new(100.0, 0.5, 100.0)), Some(ground));
    for i in 0..count {
        let p = box_position(i);
        let body =
            world.insert_body(RigidBodyBuilder::dynamic().translation(Vector::new(p.x, p.y, p.z)));
        world.insert_collider(collider(Vec3::splat(0.5)), Some(body));
    }
    world.step_with_events(&(), &());
    world
}

/// Times `iters` steps of `step`, rebuilding with `build` (untimed) after
/// every [`WINDOW`] steps.
fn windowed<W>(
    iters: u64,
    clock: Clock,
    build: &impl Fn() -> W,
    step: &impl Fn(&mut W),
    state: &mut Option<(W, u64)>,
) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        if state.as_ref().is_none_or(|(_, done)| *done >= WINDOW) {
            *state = Some((build(), 0));
        }
        let Some((world, done)) = state.as_mut() else {
            continue;
        };
        total += clock.time(|| step(world));
        *done += 1;
    }
    total
}

fn physics_step(c: &mut Criterion) {
    let clock = Clock::from_env();
    let mut group = c.benchmark_group("physics_step");
    for count in [1_000, 5_000] {
        group.bench_with_input(BenchmarkId::new("engine", count), &count, |b, &count| {
            let mut state = None;
            b.iter_custom(|iters| {
                windowed(
                    iters,
                    clock,
                    &|| engine_scene(count),
                    &|scene: &mut Scene| {
                        black_box(scene.tick(DT));
                    },
                    &mut state,
                )
            });
        });
        group.bench_with_input(BenchmarkId::new("rapier", count), &count, |b, &count| {
            let mut state = None;
            b.iter_custom(|iters| {
                windowed(
                    iters,
                    clock,
                    &|| direct_world(count),
                    &|world: &mut PhysicsWorld| {
                        world.step_with_events(&(), &());
                        black_box(&world.bodies);
                    },
                    &mut state,
                )
            });
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = physics_step
}
criterion_main!(benches);
