//! Transform propagation on Bevy's propagation scene shape, side by side with
//! `bevy_transform` (the version matching our bevy_ecs) in the same run.
//!
//! Shape: 48 roots with fan-out 4-4-3-3-2-2 (51,696 nodes in trees) plus 12,000
//! childless objects. One iteration is one frame: bring every world matrix up to
//! date and read each one once. The writes of the frame happen before the timed
//! part, identically for both sides.
//!
//! Cases: `static` (nothing moves), `move_4096` (4,096 random nodes move),
//! `move_all` (every node moves), `same_value_4096` (4,096 writes of the value
//! already there).
//!
//! Run: `cargo bench -p taos_benches --bench transform`
//! With Bevy's parallel propagation as the baseline:
//! `cargo bench -p taos_benches --bench transform --features bevy-multi-threaded`

use std::hint::black_box;
use std::time::{Duration, Instant};

use bevy_ecs::prelude::*;
use bevy_ecs::schedule::Schedule;
use criterion::{Criterion, criterion_group, criterion_main};
use taos_engine::prelude::{GameObject, Scene, Transform as TaosTransform, Vec3};

const ROOTS: usize = 48;
const FAN_OUT: [usize; 6] = [4, 4, 3, 3, 2, 2];
const LONE: usize = 12_000;
const MOVED: usize = 4_096;

/// Deterministic xorshift, so both sides move the same nodes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Depth-first spawn of the forest; `spawn(parent, index)` returns the new node.
fn spawn_shape<N: Copy>(mut spawn: impl FnMut(Option<N>, usize) -> N) -> Vec<N> {
    fn level<N: Copy>(
        parent: N,
        depth: usize,
        all: &mut Vec<N>,
        spawn: &mut impl FnMut(Option<N>, usize) -> N,
    ) {
        let Some(&fan) = FAN_OUT.get(depth) else {
            return;
        };
        for _ in 0..fan {
            let node = spawn(Some(parent), all.len());
            all.push(node);
            level(node, depth + 1, all, spawn);
        }
    }
    let mut all = Vec::new();
    for _ in 0..ROOTS {
        let root = spawn(None, all.len());
        all.push(root);
        level(root, 0, &mut all, &mut spawn);
    }
    for _ in 0..LONE {
        let node = spawn(None, all.len());
        all.push(node);
    }
    all
}

fn offset(i: usize) -> (f32, f32, f32) {
    let f = i as f32;
    ((f * 0.37).sin(), (f * 0.11).cos(), (f * 0.05).sin())
}

struct Taos {
    scene: Scene,
    nodes: Vec<GameObject>,
}

impl Taos {
    fn new() -> Self {
        let mut scene = Scene::new();
        let nodes = spawn_shape(|parent, i| {
            let (x, y, z) = offset(i);
            let o = scene.spawn_with("n", TaosTransform::from_position(Vec3::new(x, y, z)));
            if let Some(p) = parent {
                scene
                    .add_child(p, o)
                    .expect("a fresh node cannot close a cycle");
            }
            o
        });
        let mut taos = Self { scene, nodes };
        taos.frame();
        taos
    }

    fn write(&mut self, node: usize, dx: f32) {
        let mut t = self
            .scene
            .get_component_mut::<TaosTransform>(self.nodes[node])
            .expect("live node");
        t.position.x += dx;
    }

    fn frame(&mut self) -> f32 {
        let mut sum = 0.0;
        self.scene
            .for_each_world_matrix(|_, m| sum += m.translation.x);
        sum
    }
}

struct Bevy {
    world: World,
    schedule: Schedule,
    nodes: Vec<Entity>,
    reader: QueryState<&'static bevy_transform::components::GlobalTransform>,
}

impl Bevy {
    fn new() -> Self {
        use bevy_transform::components::Transform;
        use bevy_transform::systems::{
            StaticTransformOptimizations, mark_dirty_trees, propagate_parent_transforms,
            sync_simple_transforms,
        };
        #[cfg(feature = "bevy-multi-threaded")]
        bevy_tasks::ComputeTaskPool::get_or_init(bevy_tasks::TaskPool::default);
        let mut world = World::new();
        world.init_resource::<StaticTransformOptimizations>();
        let mut schedule = Schedule::default();
        schedule.add_systems(
            (
                mark_dirty_trees,
                propagate_parent_transforms,
                sync_simple_transforms,
            )
                .chain(),
        );
        let nodes = spawn_shape(|parent, i| {
            let (x, y, z) = offset(i);
            let mut e = world.spawn(Transform::from_xyz(x, y, z));
            if let Some(p) = parent {
                e.insert(ChildOf(p));
            }
            e.id()
        });
        let reader = world.query();
        let mut bevy = Self {
            world,
            schedule,
            nodes,
            reader,
        };
        bevy.frame();
        bevy
    }

    fn write(&mut self, node: usize, dx: f32) {
        let mut t = self
            .world
            .get_mut::<bevy_transform::components::Transform>(self.nodes[node])
            .expect("live node");
        t.translation.x += dx;
    }

    fn frame(&mut self) -> f32 {
        self.schedule.run(&mut self.world);
        let mut sum = 0.0;
        for g in self.reader.iter(&self.world) {
            sum += g.translation().x;
        }
        sum
    }
}

/// What a frame writes before the timed update.
#[derive(Clone, Copy)]
enum Case {
    Static,
    Move4096,
    MoveAll,
    SameValue4096,
}

impl Case {
    fn name(self) -> &'static str {
        match self {
            Case::Static => "static",
            Case::Move4096 => "move_4096",
            Case::MoveAll => "move_all",
            Case::SameValue4096 => "same_value_4096",
        }
    }

    /// Calls `write(node, dx)` for this frame's writes.
    fn writes(self, frame: u64, total: usize, mut write: impl FnMut(usize, f32)) {
        let dx = if frame.is_multiple_of(2) {
            0.001
        } else {
            -0.001
        };
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ frame.wrapping_mul(0x2545_F491_4F6C_DD1D));
        match self {
            Case::Static => {}
            Case::Move4096 => (0..MOVED).for_each(|_| write(rng.pick(total), dx)),
            Case::MoveAll => (0..total).for_each(|i| write(i, dx)),
            Case::SameValue4096 => (0..MOVED).for_each(|_| write(rng.pick(total), 0.0)),
        }
    }
}

/// One implementation under test.
trait Side {
    fn write(&mut self, node: usize, dx: f32);
    fn frame(&mut self) -> f32;
}

impl Side for Taos {
    fn write(&mut self, node: usize, dx: f32) {
        Taos::write(self, node, dx);
    }
    fn frame(&mut self) -> f32 {
        Taos::frame(self)
    }
}

impl Side for Bevy {
    fn write(&mut self, node: usize, dx: f32) {
        Bevy::write(self, node, dx);
    }
    fn frame(&mut self) -> f32 {
        Bevy::frame(self)
    }
}

/// Runs `iters` frames of `case`, timing only the update-and-read part.
fn timed(iters: u64, case: Case, total: usize, side: &mut impl Side) -> Duration {
    let mut elapsed = Duration::ZERO;
    for i in 0..iters {
        case.writes(i, total, |n, dx| side.write(n, dx));
        let start = Instant::now();
        black_box(side.frame());
        elapsed += start.elapsed();
    }
    elapsed
}

fn transform_propagation(c: &mut Criterion) {
    let mut taos = Taos::new();
    let mut bevy = Bevy::new();
    let total = taos.nodes.len();
    assert_eq!(total, 51_696 + LONE);
    let (ours, theirs) = (taos.frame(), bevy.frame());
    assert!(
        (ours - theirs).abs() < 1e-2 * theirs.abs().max(1.0),
        "sides disagree: {ours} vs {theirs}"
    );
    for case in [
        Case::Static,
        Case::Move4096,
        Case::MoveAll,
        Case::SameValue4096,
    ] {
        let mut group = c.benchmark_group(format!("transform/{}", case.name()));
        group.sample_size(30);
        group.bench_function("taos", |b| {
            b.iter_custom(|iters| timed(iters, case, total, &mut taos));
        });
        group.bench_function("bevy_transform", |b| {
            b.iter_custom(|iters| timed(iters, case, total, &mut bevy));
        });
        group.finish();
    }
}

criterion_group!(benches, transform_propagation);
criterion_main!(benches);
