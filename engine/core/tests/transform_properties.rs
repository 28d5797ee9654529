//! Property tests: after any sequence of moves, same-value writes, re-parentings
//! and detaches on random forests, every cached world matrix, inverse and
//! decomposition equals one recomputed from scratch.

mod common;

use common::{assert_affine_close, scratch_world};
use proptest::prelude::*;
use taos_core::deps::glam::Affine3A;
use taos_core::prelude::*;

const TOLERANCE: f32 = 1e-5;

#[derive(Debug, Clone)]
enum Op {
    Move {
        node: usize,
        position: Vec3,
        angle: f32,
        scale: f32,
    },
    SameValue {
        node: usize,
    },
    Reparent {
        node: usize,
        parent: usize,
    },
    Detach {
        node: usize,
    },
    ReadOne {
        node: usize,
    },
}

fn vec3() -> impl Strategy<Value = Vec3> {
    (-10.0f32..10.0, -10.0f32..10.0, -10.0f32..10.0).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn op(n: usize) -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0..n, vec3(), -3.0f32..3.0, prop_oneof![0.8f32..1.25, -1.25f32..-0.8])
            .prop_map(|(node, position, angle, scale)| Op::Move { node, position, angle, scale }),
        2 => (0..n).prop_map(|node| Op::SameValue { node }),
        2 => (0..n, 0..n).prop_map(|(node, parent)| Op::Reparent { node, parent }),
        1 => (0..n).prop_map(|node| Op::Detach { node }),
        2 => (0..n).prop_map(|node| Op::ReadOne { node }),
    ]
}

/// A forest: node i's parent is some earlier node, or none.
fn forest() -> impl Strategy<Value = Vec<Option<usize>>> {
    (1usize..1000).prop_flat_map(|n| {
        (0..n)
            .map(|i| {
                if i == 0 {
                    Just(None).boxed()
                } else {
                    prop_oneof![1 => Just(None), 9 => (0..i).prop_map(Some)].boxed()
                }
            })
            .collect::<Vec<_>>()
    })
}

/// What to verify after a step. Skipping some checks lets stale state pile up
/// across steps, as it does between frames.
#[derive(Debug, Clone, Copy)]
enum Check {
    Sweep,
    SingleReads,
    Nothing,
}

fn scenario() -> impl Strategy<Value = (Vec<Option<usize>>, Vec<(Op, Check)>)> {
    forest().prop_flat_map(|parents| {
        let n = parents.len();
        let check = prop_oneof![
            Just(Check::Sweep),
            Just(Check::SingleReads),
            Just(Check::Nothing)
        ];
        (Just(parents), prop::collection::vec((op(n), check), 1..32))
    })
}

fn build(parents: &[Option<usize>]) -> (Scene, Vec<GameObject>) {
    let mut scene = Scene::new();
    let mut objects = Vec::with_capacity(parents.len());
    for (i, parent) in parents.iter().enumerate() {
        let t = Transform::from_trs(
            Vec3::new(i as f32 * 0.1, 1.0, -(i as f32) * 0.05),
            Quat::from_rotation_y(i as f32 * 0.37),
            Vec3::splat(if i % 7 == 0 { 1.1 } else { 1.0 }),
        );
        let o = scene.spawn_with(format!("n{i}"), t);
        if let Some(p) = parent {
            scene.add_child(objects[*p], o).unwrap();
        }
        objects.push(o);
    }
    (scene, objects)
}

fn check_decomposition(scene: &mut Scene, o: GameObject, scratch: &Affine3A) {
    let (s_scale, s_rotation, _) = Mat4::from(*scratch).to_scale_rotation_translation();
    // glam leaves sheared bases un-normalised; the engine hands out unit rotations.
    let s_rotation = s_rotation.normalize();
    let mut view = scene.object_mut(o).unwrap();
    let inverse = view.world_to_local();
    let rotation = view.world_rotation();
    let scale = view.world_scale();
    let magnitude = 1.0 + s_scale.abs().max_element();
    assert!(
        scale.abs_diff_eq(s_scale, TOLERANCE * magnitude * 10.0),
        "scale {scale} vs {s_scale}"
    );
    assert!(
        rotation.dot(s_rotation).abs() > 1.0 - 1e-4,
        "rotation {rotation} vs {s_rotation}"
    );
    assert_affine_close(
        &Affine3A::from_mat4(inverse),
        &scratch.inverse(),
        TOLERANCE * 10.0,
        "inverse",
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn cached_matrices_equal_scratch((parents, ops) in scenario()) {
        let (mut scene, objects) = build(&parents);
        for &(ref op, check) in &ops {
            match *op {
                Op::Move { node, position, angle, scale } => {
                    let mut view = scene.object_mut(objects[node]).unwrap();
                    *view.position_mut() += position * 0.1;
                    let mut t = view.transform_mut();
                    t.rotation = (Quat::from_rotation_x(angle) * t.rotation).normalize();
                    t.scale = Vec3::new(scale, scale.abs(), 1.0);
                }
                Op::SameValue { node } => {
                    scene.refresh_transforms();
                    let before = scene.transform_stats();
                    let mut view = scene.object_mut(objects[node]).unwrap();
                    let p = view.position();
                    view.set_position(p);
                    scene.refresh_transforms();
                    prop_assert_eq!(before, scene.transform_stats(), "same-value write rebuilt something");
                }
                Op::Reparent { node, parent } => {
                    let result = scene.add_child(objects[parent], objects[node]);
                    let mut ancestor = Some(objects[parent]);
                    let mut would_cycle = false;
                    while let Some(a) = ancestor {
                        would_cycle |= a == objects[node];
                        ancestor = scene.parent(a);
                    }
                    prop_assert_eq!(result.is_err(), would_cycle);
                }
                Op::Detach { node } => scene.detach(objects[node]).unwrap(),
                Op::ReadOne { node } => {
                    let o = objects[node];
                    let cached = scene.world_matrix(o).unwrap();
                    assert_affine_close(&cached, &scratch_world(&scene, o), TOLERANCE, "single read");
                }
            }
            if let Check::Sweep = check {
                // Whole-scene sweep, then read every cached matrix.
                let mut seen = Vec::with_capacity(objects.len());
                scene.for_each_world_matrix(|o, m| seen.push((o, *m)));
                prop_assert_eq!(seen.len(), objects.len());
                for (o, cached) in seen {
                    assert_affine_close(&cached, &scratch_world(&scene, o), TOLERANCE, "sweep");
                }
            } else if let Check::SingleReads = check {
                // Compare-on-read through single reads, including derived caches.
                for &o in &objects {
                    let scratch = scratch_world(&scene, o);
                    let cached = scene.world_matrix(o).unwrap();
                    assert_affine_close(&cached, &scratch, TOLERANCE, "single read");
                    check_decomposition(&mut scene, o, &scratch);
                }
            }
        }
    }

    #[test]
    fn same_value_writes_never_rebuild((parents, _ops) in scenario()) {
        let (mut scene, objects) = build(&parents);
        scene.refresh_transforms();
        let before = scene.transform_stats();
        for &o in &objects {
            let mut view = scene.object_mut(o).unwrap();
            let t = *view.transform();
            *view.transform_mut() = t;
        }
        scene.refresh_transforms();
        for &o in &objects {
            let _ = scene.world_matrix(o);
        }
        prop_assert_eq!(before, scene.transform_stats());
    }

    /// Every node of a forest spawned depth-first (each parent's slot below
    /// its children's: the sweep's full pass walks the arrays in slot
    /// order) moved in the same frame, round after round; then one node
    /// reparented (the order table again) and all moved once more.
    #[test]
    fn a_depth_first_forest_moved_all_at_once_equals_scratch(
        (parents, rounds, reparent) in depth_first_forest().prop_flat_map(|parents| {
            let n = parents.len();
            (Just(parents), 1usize..4, (0..n, 0..n))
        })
    ) {
        let (mut scene, objects) = build(&parents);
        let check_all = |scene: &mut Scene, round: usize| {
            for (i, &o) in objects.iter().enumerate() {
                let mut view = scene.object_mut(o).unwrap();
                *view.position_mut() += Vec3::new(0.01 * (round + 1) as f32, 0.0, i as f32 * 0.001);
            }
            let before = scene.transform_stats();
            let mut seen = Vec::with_capacity(objects.len());
            scene.for_each_world_matrix(|o, m| seen.push((o, *m)));
            let after = scene.transform_stats();
            assert_eq!(
                after.world_recomputes - before.world_recomputes,
                objects.len() as u64,
                "every node recomputed once"
            );
            for (o, cached) in seen {
                assert_affine_close(&cached, &scratch_world(scene, o), TOLERANCE, "full pass");
            }
        };
        for round in 0..rounds {
            check_all(&mut scene, round);
        }
        let (node, parent) = reparent;
        let _ = scene.add_child(objects[parent], objects[node]);
        check_all(&mut scene, rounds);
    }
}

/// A forest in depth-first pre-order: node i's parent is one of node
/// i - 1's ancestors (or i - 1 itself), or none.
fn depth_first_forest() -> impl Strategy<Value = Vec<Option<usize>>> {
    prop::collection::vec(0usize..6, 1..400).prop_map(|depths| {
        let mut chain: Vec<usize> = Vec::new();
        depths
            .iter()
            .enumerate()
            .map(|(i, &depth)| {
                chain.truncate(depth.min(chain.len()));
                let parent = chain.last().copied();
                chain.push(i);
                parent
            })
            .collect()
    })
}
