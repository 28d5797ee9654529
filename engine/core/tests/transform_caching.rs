//! Behaviour of compare-on-read transforms: what gets rebuilt, and when.

mod common;

use common::{assert_affine_close, scratch_world};
use taos_core::TransformStats;
use taos_core::deps::bevy_ecs::hierarchy::ChildOf;
use taos_core::prelude::*;

fn delta(before: TransformStats, after: TransformStats) -> (u64, u64) {
    (
        after.local_rebuilds - before.local_rebuilds,
        after.world_recomputes - before.world_recomputes,
    )
}

/// root -> a -> leaf, root -> b; plus a lone root.
fn small_tree() -> (Scene, [GameObject; 5]) {
    let mut scene = Scene::new();
    let root = scene.spawn("root");
    let a = scene.spawn_child(root, "a").unwrap();
    let leaf = scene.spawn_child(a, "leaf").unwrap();
    let b = scene.spawn_child(root, "b").unwrap();
    let lone = scene.spawn("lone");
    for (i, o) in [root, a, leaf, b, lone].into_iter().enumerate() {
        scene
            .object_mut(o)
            .unwrap()
            .set_position(Vec3::new(i as f32, 1.0, 0.0));
    }
    scene.refresh_transforms();
    (scene, [root, a, leaf, b, lone])
}

#[test]
fn first_read_bakes_once_then_nothing() {
    let mut scene = Scene::new();
    let o = scene.spawn("o");
    let before = scene.transform_stats();
    scene.object_mut(o).unwrap().world_matrix();
    assert_eq!(
        delta(before, scene.transform_stats()),
        (1, 1),
        "NaN start forces one bake"
    );
    let before = scene.transform_stats();
    for _ in 0..10 {
        scene.object_mut(o).unwrap().world_matrix();
        scene.refresh_transforms();
    }
    assert_eq!(delta(before, scene.transform_stats()), (0, 0));
}

#[test]
fn moving_a_leaf_rebuilds_only_that_leaf() {
    let (mut scene, [_, _, leaf, ..]) = small_tree();
    let before = scene.transform_stats();
    scene.object_mut(leaf).unwrap().position_mut().z += 1.0;
    scene.refresh_transforms();
    assert_eq!(delta(before, scene.transform_stats()), (1, 1));
}

#[test]
fn moving_a_root_rebuilds_its_whole_subtree_and_nothing_else() {
    let (mut scene, [root, a, leaf, b, lone]) = small_tree();
    let before = scene.transform_stats();
    scene.object_mut(root).unwrap().position_mut().z += 1.0;
    scene.refresh_transforms();
    // One local rebuild (the root), four world recomputes (root, a, leaf, b).
    assert_eq!(delta(before, scene.transform_stats()), (1, 4));
    for o in [root, a, leaf, b, lone] {
        let cached = scene.world_matrix(o).unwrap();
        assert_affine_close(&cached, &scratch_world(&scene, o), 1e-6, "after root move");
    }
}

#[test]
fn same_value_writes_rebuild_nothing() {
    let (mut scene, objects) = small_tree();
    let before = scene.transform_stats();
    for o in objects {
        let mut view = scene.object_mut(o).unwrap();
        let p = view.position();
        view.set_position(p); // marks the ECS change tick, same value
        let same = view.rotation();
        view.set_rotation(same);
    }
    scene.refresh_transforms();
    for o in objects {
        scene.object_mut(o).unwrap().world_position();
    }
    assert_eq!(delta(before, scene.transform_stats()), (0, 0));
}

#[test]
fn a_read_of_a_still_leaf_does_no_matrix_work() {
    let (mut scene, [_, _, leaf, ..]) = small_tree();
    let before = scene.transform_stats();
    for _ in 0..100 {
        scene.object_mut(leaf).unwrap().world_matrix();
    }
    assert_eq!(delta(before, scene.transform_stats()), (0, 0));
}

#[test]
fn single_reads_see_parent_moves_without_a_sweep() {
    let (mut scene, [root, _, leaf, b, _]) = small_tree();
    scene.object_mut(root).unwrap().position_mut().x += 10.0;
    let p = scene.object_mut(leaf).unwrap().world_position();
    let expected = Vec3::from(scratch_world(&scene, leaf).translation);
    assert!((p - expected).length() < 1e-5);
    // The read recomputed root, a and leaf only; the sweep must still reach the
    // sibling b, whose cached matrix is read here straight from the sweep.
    let mut swept_b = None;
    scene.for_each_world_matrix(|o, m| {
        if o == b {
            swept_b = Some(*m);
        }
    });
    assert_affine_close(
        &swept_b.unwrap(),
        &scratch_world(&scene, b),
        1e-6,
        "sibling after sweep",
    );
}

#[test]
fn reparenting_and_detaching_are_noticed_without_notification() {
    let (mut scene, [root, a, leaf, b, lone]) = small_tree();
    scene
        .object_mut(lone)
        .unwrap()
        .set_rotation(Quat::from_rotation_z(1.0));
    scene.add_child(lone, a).unwrap();
    scene.refresh_transforms();
    for o in [a, leaf] {
        assert_affine_close(
            &scene.world_matrix(o).unwrap(),
            &scratch_world(&scene, o),
            1e-6,
            "re-parented",
        );
    }
    scene.detach(a).unwrap();
    let local = scene.transform(a).unwrap().compute_local_matrix();
    assert_affine_close(
        &scene.world_matrix(a).unwrap(),
        &local,
        1e-6,
        "detached root = local",
    );
    // A link made with plain bevy_ecs is followed too.
    scene
        .world_mut()
        .entity_mut(b.entity())
        .insert(ChildOf(leaf.entity()));
    scene.refresh_transforms();
    assert_affine_close(
        &scene.world_matrix(b).unwrap(),
        &scratch_world(&scene, b),
        1e-6,
        "bevy link",
    );
    assert_eq!(scene.parent(b), Some(leaf));
    let _ = root;
}

#[test]
fn a_parent_swap_between_equal_version_parents_is_detected() {
    // Two parents recomputed the same number of times: versions are globally unique,
    // so the swap still shows.
    let mut scene = Scene::new();
    let p1 = scene.spawn_with("p1", Transform::from_position(Vec3::X));
    let p2 = scene.spawn_with("p2", Transform::from_position(Vec3::Y));
    let child = scene.spawn_child(p1, "child").unwrap();
    scene.refresh_transforms();
    scene.add_child(p2, child).unwrap();
    assert_eq!(scene.object_mut(child).unwrap().world_position(), Vec3::Y);
}

#[test]
fn cycles_are_errors_not_hangs() {
    let (mut scene, [root, a, leaf, ..]) = small_tree();
    assert!(matches!(
        scene.add_child(leaf, root),
        Err(SceneError::WouldCreateCycle { .. })
    ));
    assert!(matches!(
        scene.add_child(a, a),
        Err(SceneError::WouldCreateCycle { .. })
    ));
    // The hierarchy is unchanged.
    assert_eq!(scene.parent(root), None);
    assert_eq!(scene.parent(leaf), Some(a));
    // The same cycle made with raw bevy_ecs is refused and undone.
    scene
        .world_mut()
        .entity_mut(root.entity())
        .insert(ChildOf(leaf.entity()));
    scene.world_mut().flush();
    assert_eq!(scene.parent(root), None);
    scene.refresh_transforms();
    assert!(scene.world_matrix(leaf).is_some());
}

#[test]
fn removing_a_parent_removes_its_subtree() {
    let (mut scene, [root, a, leaf, b, lone]) = small_tree();
    scene.remove(a).unwrap();
    assert!(!scene.contains(a) && !scene.contains(leaf));
    assert!(scene.contains(root) && scene.contains(b) && scene.contains(lone));
    assert_eq!(scene.len(), 3);
    assert_eq!(scene.remove(a), Err(SceneError::StaleObject(a)));
    assert!(scene.object_mut(leaf).is_err());
    // Slots are reused safely.
    let fresh = scene.spawn_child(b, "fresh").unwrap();
    scene.refresh_transforms();
    assert_affine_close(
        &scene.world_matrix(fresh).unwrap(),
        &scratch_world(&scene, fresh),
        1e-6,
        "reused slot",
    );
}

#[test]
fn inverse_and_decomposition_are_cached_against_the_version() {
    let mut scene = Scene::new();
    let parent = scene.spawn_with(
        "parent",
        Transform::from_trs(
            Vec3::new(1.0, 2.0, 3.0),
            Quat::from_rotation_y(0.5),
            Vec3::splat(2.0),
        ),
    );
    let child = scene.spawn_child(parent, "child").unwrap();
    scene
        .object_mut(child)
        .unwrap()
        .set_rotation(Quat::from_rotation_x(0.3));
    let mut view = scene.object_mut(child).unwrap();
    let rotation = view.world_rotation();
    let scale = view.world_scale();
    let inverse = view.world_to_local();
    let world = view.local_to_world();
    assert!((world * inverse).abs_diff_eq(Mat4::IDENTITY, 1e-5));
    assert!(scale.abs_diff_eq(Vec3::splat(2.0), 1e-5));
    let expected = Quat::from_rotation_y(0.5) * Quat::from_rotation_x(0.3);
    assert!(rotation.dot(expected).abs() > 1.0 - 1e-5);
    let before = scene.transform_stats();
    for _ in 0..5 {
        let mut view = scene.object_mut(child).unwrap();
        view.world_to_local();
        view.world_rotation();
        view.world_scale();
    }
    let after = scene.transform_stats();
    assert_eq!(after.inverse_computes, before.inverse_computes);
    assert_eq!(after.decompositions, before.decompositions);
    scene.object_mut(parent).unwrap().position_mut().x = 9.0;
    scene.object_mut(child).unwrap().world_to_local();
    assert_eq!(
        scene.transform_stats().inverse_computes,
        after.inverse_computes + 1
    );
}

#[test]
fn a_mirrored_world_matrix_folds_the_sign_into_x() {
    let mut scene = Scene::new();
    let o = scene.spawn_with(
        "mirror",
        Transform::from_trs(
            Vec3::ZERO,
            Quat::from_rotation_z(0.7),
            Vec3::new(1.0, -2.0, 3.0),
        ),
    );
    let mut view = scene.object_mut(o).unwrap();
    let scale = view.world_scale();
    let rotation = view.world_rotation();
    assert!(scale.x < 0.0 && scale.y > 0.0 && scale.z > 0.0, "{scale}");
    let rebuilt = Mat4::from_scale_rotation_translation(scale, rotation, Vec3::ZERO);
    assert!(rebuilt.abs_diff_eq(view.local_to_world(), 1e-5));
}

#[test]
fn nan_transforms_do_not_panic_or_poison_siblings() {
    let (mut scene, [_, a, leaf, b, _]) = small_tree();
    scene.object_mut(a).unwrap().position_mut().x = f32::NAN;
    scene.refresh_transforms();
    assert!(scene.world_matrix(leaf).unwrap().translation.x.is_nan());
    assert!(scene.world_matrix(b).unwrap().is_finite());
    assert!(!scene.transform(a).unwrap().is_finite());
}
