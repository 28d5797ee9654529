//! What skinned characters cost on the CPU: for N characters of 50 joints
//! each (a tube of 400 vertices bent along a chain of joints), the per-frame
//! joint work, that is every joint matrix gathered from the scene
//! (`Scene::collect_deformations_into`) and handed to the renderer
//! (`Renderer::deform`: posed bounds, one upload of every matrix, one
//! compute dispatch recorded per pool), at N = 100, 1,000 and 5,000. The
//! joints' transforms are changed and propagated before each iteration,
//! outside the measurement (that is the animation's and the transform
//! system's cost, measured by the `transform` bench).
//!
//! In the same run, whole frames (GPU work waited for) of the skinned
//! characters against the same number of rigid meshes with the same vertex
//! count, so the difference is what deforming adds end to end (at 100 and
//! 1,000; 5,000 measures the joint work only).
//!
//! Every character shares one list of inverse bind matrices, as copies of
//! one glTF model do.
//!
//! `joint_updates_tenth_moving`: the same crowd with one character in ten
//! swaying and the rest standing still, gathered as the presenter does
//! (`Scene::collect_changed_deformations_into`: only poses that changed).
//!
//! Target: 1,000 characters' joint updates under 2 ms of CPU (5,000: under 8 ms).
//!
//! Run: `cargo bench -p taos_benches --bench skinning -- --warm-up-time 1 --measurement-time 3`
//! (`TAOS_BENCH_CLOCK=thread-cpu` times the bench thread's CPU time
//! instead of the wall clock: lavapipe's threads are then not counted).

use std::f32::consts::TAU;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use glam::{Mat4, Quat, Vec2, Vec3};
use taos_benches::{Clock, frame_waited, settle};
use taos_engine::prelude::*;
use taos_engine::renderer::deform::{DeformPose, DeformableMeshData, MeshDeformations};
use taos_engine::renderer::resources::{MeshData, MeshId, PbrMaterial, Vertex};
use taos_engine::{AssetHandle, Deformations, Engine, EngineConfig, SkinnedMesh};
use taos_renderer::presets::{PresetOptions, forward_preset};

const JOINTS: usize = 50;
const RING: usize = 8;
const SEGMENT: f32 = 0.1;

/// A tube along +Y, one ring of vertices per joint, each ring bound half
/// to its joint and half to the next.
fn tube() -> (MeshData, Vec<[u16; 4]>, Vec<[f32; 4]>) {
    let mut vertices = Vec::new();
    let mut joints = Vec::new();
    let mut weights = Vec::new();
    for j in 0..JOINTS {
        for k in 0..RING {
            let angle = k as f32 / RING as f32 * TAU;
            let normal = Vec3::new(angle.cos(), 0.0, angle.sin());
            let position = normal * 0.05 + Vec3::Y * (j as f32 * SEGMENT);
            vertices.push(Vertex::new(
                position,
                normal,
                Vec2::new(k as f32 / RING as f32, 0.0),
            ));
            let next = (j + 1).min(JOINTS - 1) as u16;
            joints.push([j as u16, next, 0, 0]);
            weights.push([0.5, 0.5, 0.0, 0.0]);
        }
    }
    let mut indices = Vec::new();
    for j in 0..JOINTS - 1 {
        for k in 0..RING {
            let a = (j * RING + k) as u32;
            let b = (j * RING + (k + 1) % RING) as u32;
            let (c, d) = (a + RING as u32, b + RING as u32);
            indices.extend([a, c, b, b, c, d]);
        }
    }
    let mesh = MeshData::new(vertices, indices).expect("a valid tube");
    (mesh, joints, weights)
}

/// `count` characters in a grid, skinned or rigid; returns the engine and
/// every character's joints.
fn scene(count: usize, skinned: bool) -> (Engine, Vec<Vec<GameObject>>) {
    let options = PresetOptions {
        shadow: None,
        ..PresetOptions::default()
    };
    let mut engine = Engine::headless(EngineConfig::new(160, 90), forward_preset(options))
        .expect("benches need a GPU adapter (lavapipe on a machine without one)");
    let (mesh, joints, weights) = tube();
    let (assets, gpu) = engine.renderer().assets_mut();
    let material = assets.add_material(PbrMaterial::default());
    let rigid = assets.add_mesh(gpu, "tube", &mesh);
    let source = assets
        .add_deformable_mesh(
            gpu,
            "tube",
            DeformableMeshData::new(mesh)
                .with_skin(joints, weights)
                .expect("one influence per vertex"),
        )
        .expect("skinned");
    let instances: Vec<MeshId> = if skinned {
        (0..count)
            .map(|_| {
                assets
                    .add_deformed_instance(gpu, source)
                    .expect("the source is in this store")
            })
            .collect()
    } else {
        Vec::new()
    };
    let scene = engine.scene_mut();
    let camera = scene.spawn_with(
        "Camera",
        Transform::from_trs(Vec3::new(0.0, 8.0, 30.0), Quat::IDENTITY, Vec3::ONE),
    );
    scene
        .add_component(
            camera,
            Camera::perspective(60.0, 0.1, 200.0, 16.0 / 9.0).expect("valid"),
        )
        .expect("spawned");
    // One list for every character, as copies of one glTF model share it.
    let inverse_bind: Arc<[Mat4]> = (0..JOINTS)
        .map(|j| Mat4::from_translation(Vec3::Y * -(j as f32 * SEGMENT)))
        .collect();
    let side = (count as f32).sqrt().ceil() as usize;
    let mut characters = Vec::with_capacity(count);
    for i in 0..count {
        let at = Vec3::new(
            (i % side) as f32 - side as f32 / 2.0,
            0.0,
            -((i / side) as f32),
        );
        let root = scene.spawn_with("Character", Transform::from_position(at));
        let mut chain = Vec::with_capacity(JOINTS);
        let mut parent = root;
        for j in 0..JOINTS {
            let offset = if j == 0 { 0.0 } else { SEGMENT };
            let joint = scene
                .spawn_child(parent, format!("joint {j}"))
                .expect("the parent exists");
            scene
                .object_mut(joint)
                .expect("spawned")
                .set_position(Vec3::Y * offset);
            chain.push(joint);
            parent = joint;
        }
        let body = scene.spawn_child(root, "Body").expect("the root exists");
        let mesh = instances.get(i).copied().unwrap_or(rigid);
        scene
            .add_component(body, MeshRenderer::new(mesh.handle(), material.handle()))
            .expect("spawned");
        if skinned {
            scene
                .add_component(
                    body,
                    SkinnedMesh::new(chain.clone(), Arc::clone(&inverse_bind)).expect("valid"),
                )
                .expect("spawned");
        }
        characters.push(chain);
    }
    frame_waited(&mut engine);
    (engine, characters)
}

/// Sways every joint a little (a new pose each call) and propagates transforms.
fn sway(engine: &mut Engine, characters: &[Vec<GameObject>], step: &mut f32) {
    sway_every(engine, characters, step, 1);
}

/// [`sway`] for every `nth` character only (the others stand still).
fn sway_every(engine: &mut Engine, characters: &[Vec<GameObject>], step: &mut f32, nth: usize) {
    *step += 0.05;
    let scene = engine.scene_mut();
    for (c, chain) in characters.iter().enumerate().step_by(nth) {
        for (j, &joint) in chain.iter().enumerate().skip(1) {
            let angle = (*step + c as f32 * 0.3 + j as f32 * 0.2).sin() * 0.05;
            scene
                .object_mut(joint)
                .expect("spawned")
                .set_rotation(Quat::from_rotation_z(angle));
        }
    }
    scene.refresh_transforms();
}

/// What the presenter does between gathering and deforming: the lists
/// change hands (swapped, not copied) and the poses name the instances.
fn hand_over(gathered: &mut Deformations, poses: &mut MeshDeformations) {
    poses.poses.clear();
    std::mem::swap(&mut poses.joint_matrices, &mut gathered.joint_matrices);
    std::mem::swap(&mut poses.morph_weights, &mut gathered.morph_weights);
    poses
        .poses
        .extend(gathered.draws.iter().map(|draw| DeformPose {
            mesh: MeshId(draw.mesh.0),
            joints: draw.joints.clone(),
            weights: draw.weights.clone(),
        }));
}

/// The characters of one scene, with the lists the presenter reuses.
struct Bench {
    engine: Engine,
    characters: Vec<Vec<GameObject>>,
    step: f32,
    gathered: Deformations,
    poses: MeshDeformations,
}

impl Bench {
    fn new(count: usize, skinned: bool) -> Self {
        let (engine, characters) = scene(count, skinned);
        Self {
            engine,
            characters,
            step: 0.0,
            gathered: Deformations::default(),
            poses: MeshDeformations::default(),
        }
    }

    fn sway(&mut self) {
        sway(&mut self.engine, &self.characters, &mut self.step);
    }

    fn gather(&mut self) {
        self.engine
            .scene_mut()
            .collect_deformations_into(1.0, &mut self.gathered);
    }

    /// Sways one character in ten; the other nine stand still.
    fn sway_tenth(&mut self) {
        sway_every(&mut self.engine, &self.characters, &mut self.step, 10);
    }

    /// What the presenter gathers: only the poses that changed.
    fn gather_changed(&mut self) {
        self.engine
            .scene_mut()
            .collect_changed_deformations_into(1.0, &mut self.gathered);
    }

    fn deform(&mut self) {
        hand_over(&mut self.gathered, &mut self.poses);
        black_box(self.engine.renderer().deform(&self.poses));
    }

    /// `iterations` runs of `timed`, each after `before` and followed by
    /// the GPU settling, neither of them timed.
    fn time(
        &mut self,
        iterations: u64,
        before: impl Fn(&mut Self),
        timed: impl Fn(&mut Self),
    ) -> Duration {
        let clock = Clock::from_env();
        let mut total = Duration::ZERO;
        for _ in 0..iterations {
            before(self);
            total += clock.time(|| timed(self));
            settle(&mut self.engine);
        }
        total
    }
}

fn skinning(c: &mut Criterion) {
    let mut group = c.benchmark_group("skinning");
    group.sample_size(10);
    for count in [100, 1_000, 5_000] {
        let mut bench = Bench::new(count, true);
        group.bench_function(BenchmarkId::new("joint_updates", count), |b| {
            b.iter_custom(|n| {
                bench.time(n, Bench::sway, |b| {
                    b.gather();
                    b.deform();
                })
            });
        });
        // The two halves apart: gathering the matrices from the scene, and
        // the renderer's work on them (bounds, upload, dispatches).
        group.bench_function(BenchmarkId::new("gather", count), |b| {
            b.iter_custom(|n| bench.time(n, Bench::sway, Bench::gather));
        });
        group.bench_function(BenchmarkId::new("deform", count), |b| {
            b.iter_custom(|n| bench.time(n, |b| b.gather(), Bench::deform));
        });
        // A crowd where one in ten moves, as the presenter hands it on:
        // only changed poses are gathered and deformed.
        group.bench_function(BenchmarkId::new("joint_updates_tenth_moving", count), |b| {
            b.iter_custom(|n| {
                bench.time(n, Bench::sway_tenth, |b| {
                    b.gather_changed();
                    b.deform();
                })
            });
        });
        if count > 1_000 {
            // Joint work only: whole frames of this many tubes take lavapipe seconds.
            continue;
        }
        // Whole frames, skinned then rigid, in the same run.
        let frame = |b: &mut Bench| {
            black_box(frame_waited(&mut b.engine).draw_calls);
        };
        group.bench_function(BenchmarkId::new("frame_skinned", count), |b| {
            b.iter_custom(|n| bench.time(n, Bench::sway, frame));
        });
        drop(bench);
        let mut rigid = Bench::new(count, false);
        group.bench_function(BenchmarkId::new("frame_rigid", count), |b| {
            b.iter_custom(|n| rigid.time(n, Bench::sway, frame));
        });
    }
    group.finish();
}

criterion_group!(benches, skinning);
criterion_main!(benches);
