//! Node animation on scene time: players advance by the scaled delta inside
//! `Scene::update` and write their targets' transforms. Time is fed by hand.

mod common;

use std::f32::consts::FRAC_PI_2;

use taos_core::AnimationPlayerError;
use taos_core::game_loop::PresentOn;
use taos_core::prelude::*;

const EPS: f32 = 1e-4;

/// Ticks the scene through `seconds` of real time in frames of 0.1 s (the
/// clock's longest frame).
fn run(scene: &mut Scene, seconds: f32) {
    let frames = (seconds / 0.1).round() as u32;
    for _ in 0..frames {
        scene.tick(0.1);
    }
}

fn x(scene: &Scene, object: GameObject) -> f32 {
    scene.transform(object).unwrap().position.x
}

fn assert_near(got: f32, want: f32, what: &str) {
    assert!((got - want).abs() < EPS, "{what}: got {got}, want {want}");
}

/// A scene with `node` under a `root` holding a player whose clip "slide"
/// moves `node` linearly from x = 0 to x = 10 over 2 s; already playing.
fn slide_scene() -> (Scene, GameObject, GameObject) {
    let mut scene = Scene::new();
    let root = scene.spawn("Root");
    let node = scene.spawn_child(root, "Node").unwrap();
    let clip = AnimationClip::new(
        "slide",
        vec![AnimationChannel::translation(
            node,
            vec![0.0, 2.0],
            vec![Vec3::ZERO, Vec3::new(10.0, 0.0, 0.0)],
            Interpolation::Linear,
        )],
    )
    .unwrap();
    let mut player = AnimationPlayer::new();
    let id = player.add_clip(clip);
    player.play(id).unwrap();
    scene.add_component(root, player).unwrap();
    (scene, root, node)
}

fn player(
    scene: &mut Scene,
    root: GameObject,
) -> impl std::ops::DerefMut<Target = AnimationPlayer> + '_ {
    scene.get_component_mut::<AnimationPlayer>(root).unwrap()
}

#[test]
fn linear_translation_is_halfway_after_half_the_clip() {
    let (mut scene, root, node) = slide_scene();
    run(&mut scene, 1.0);
    assert_near(x(&scene, node), 5.0, "after 1 s");
    assert_near(player(&mut scene, root).time(), 1.0, "player time");
    // Only the channel's property is written.
    let t = scene.transform(node).unwrap();
    assert_eq!((t.rotation, t.scale), (Quat::IDENTITY, Vec3::ONE));
}

#[test]
fn time_scale_zero_freezes_it_and_slow_motion_slows_it() {
    let (mut scene, _root, node) = slide_scene();
    run(&mut scene, 0.5);
    assert_near(x(&scene, node), 2.5, "before the freeze");
    scene.time_mut().set_scale(0.0).unwrap();
    run(&mut scene, 1.0);
    assert_near(x(&scene, node), 2.5, "frozen");
    scene.time_mut().set_scale(0.5).unwrap();
    run(&mut scene, 1.0);
    assert_near(x(&scene, node), 5.0, "half speed: 0.5 s of game time more");
}

#[test]
fn looping_wraps_and_a_single_shot_finishes_at_the_end() {
    let (mut scene, root, node) = slide_scene();
    player(&mut scene, root).set_looping(true);
    run(&mut scene, 2.5);
    assert_near(x(&scene, node), 2.5, "wrapped to 0.5 s");
    assert!(!player(&mut scene, root).is_finished());
    assert!(player(&mut scene, root).is_playing());

    let (mut scene, root, node) = slide_scene();
    run(&mut scene, 2.5);
    assert_near(x(&scene, node), 10.0, "held at the end");
    let p = player(&mut scene, root);
    assert!(p.is_finished() && !p.is_playing());
    assert_near(p.time(), 2.0, "time stops at the duration");
}

#[test]
fn pause_holds_and_resume_continues() {
    let (mut scene, root, node) = slide_scene();
    run(&mut scene, 0.5);
    player(&mut scene, root).pause();
    run(&mut scene, 1.0);
    assert_near(x(&scene, node), 2.5, "paused");
    // A paused player leaves its targets free to move by hand.
    scene.object_mut(node).unwrap().position_mut().x = -1.0;
    run(&mut scene, 0.2);
    assert_near(x(&scene, node), -1.0, "not overwritten while paused");
    player(&mut scene, root).resume();
    run(&mut scene, 0.5);
    assert_near(x(&scene, node), 5.0, "resumed from 0.5 s");
}

#[test]
fn stop_rewinds_and_seek_poses_even_while_paused() {
    let (mut scene, root, node) = slide_scene();
    run(&mut scene, 1.0);
    player(&mut scene, root).stop();
    run(&mut scene, 0.5);
    assert_near(x(&scene, node), 0.0, "stopped at the start");
    assert!(player(&mut scene, root).is_paused());
    player(&mut scene, root).seek(1.5).unwrap();
    run(&mut scene, 0.1);
    assert_near(x(&scene, node), 7.5, "seeked while paused");
    let slide = player(&mut scene, root).find_clip("slide").unwrap();
    player(&mut scene, root).play(slide).unwrap();
    run(&mut scene, 0.1);
    assert_near(x(&scene, node), 0.5, "play restarts from 0");
}

#[test]
fn speed_two_doubles_progress_and_negative_speed_plays_backwards() {
    let (mut scene, root, node) = slide_scene();
    player(&mut scene, root).set_speed(2.0).unwrap();
    run(&mut scene, 0.5);
    assert_near(x(&scene, node), 5.0, "speed 2: 1 s of clip in 0.5 s");
    assert!(matches!(
        player(&mut scene, root).set_speed(f32::NAN),
        Err(AnimationPlayerError::InvalidSpeed { .. })
    ));

    player(&mut scene, root).set_speed(-1.0).unwrap();
    run(&mut scene, 0.5);
    assert_near(x(&scene, node), 2.5, "backwards from 1 s");
    run(&mut scene, 1.0);
    assert_near(x(&scene, node), 0.0, "stops at the start");
    assert!(player(&mut scene, root).is_finished());
}

#[test]
fn step_holds_each_value_until_the_next_key() {
    let mut scene = Scene::new();
    let node = scene.spawn("Node");
    let clip = AnimationClip::new(
        "blink",
        vec![AnimationChannel::scale(
            node,
            vec![0.0, 1.0],
            vec![Vec3::ONE, Vec3::splat(3.0)],
            Interpolation::Step,
        )],
    )
    .unwrap();
    let mut player = AnimationPlayer::new();
    let blink = player.add_clip(clip);
    player.play(blink).unwrap();
    scene.add_component(node, player).unwrap();
    run(&mut scene, 0.9);
    assert_eq!(
        scene.transform(node).unwrap().scale,
        Vec3::ONE,
        "held at 0.9 s"
    );
    run(&mut scene, 0.2);
    assert_eq!(
        scene.transform(node).unwrap().scale,
        Vec3::splat(3.0),
        "jumped at 1 s"
    );
}

#[test]
fn rotation_slerps_halfway() {
    let mut scene = Scene::new();
    let node = scene.spawn("Node");
    let from = Quat::from_rotation_y(0.2);
    let to = Quat::from_rotation_y(0.2 + FRAC_PI_2);
    let clip = AnimationClip::new(
        "turn",
        vec![AnimationChannel::rotation(
            node,
            vec![0.0, 1.0],
            vec![from, to],
            Interpolation::Linear,
        )],
    )
    .unwrap();
    let mut player = AnimationPlayer::new();
    let turn = player.add_clip(clip);
    player.play(turn).unwrap();
    scene.add_component(node, player).unwrap();
    run(&mut scene, 0.5);
    let got = scene.transform(node).unwrap().rotation;
    let want = Quat::from_rotation_y(0.2 + FRAC_PI_2 / 2.0);
    assert!(
        got.dot(want).abs() > 1.0 - 1e-5,
        "got {got:?}, want {want:?}"
    );
    // The object's world rotation follows (a root: world == local).
    let world = scene.object_mut(node).unwrap().world_rotation();
    assert!(world.dot(want).abs() > 1.0 - 1e-5);
}

#[test]
fn cubic_spline_passes_through_its_keys() {
    let mut scene = Scene::new();
    let node = scene.spawn("Node");
    let keys = [
        Vec3::ZERO,
        Vec3::new(1.0, 4.0, -2.0),
        Vec3::new(3.0, 0.0, 1.0),
    ];
    let tangent = Vec3::new(2.0, -1.0, 0.5);
    // (in-tangent, value, out-tangent) per key; non-zero tangents.
    let values = keys.iter().flat_map(|&v| [tangent, v, -tangent]).collect();
    let clip = AnimationClip::new(
        "curve",
        vec![AnimationChannel::translation(
            node,
            vec![0.0, 0.5, 1.5],
            values,
            Interpolation::CubicSpline,
        )],
    )
    .unwrap();
    let mut player = AnimationPlayer::new();
    let curve = player.add_clip(clip);
    player.play(curve).unwrap();
    scene.add_component(node, player).unwrap();
    for (time, want) in [(0.0, keys[0]), (0.5, keys[1]), (1.5, keys[2])] {
        let mut p = scene.get_component_mut::<AnimationPlayer>(node).unwrap();
        p.seek(time).unwrap();
        scene.update(0.0);
        let got = scene.transform(node).unwrap().position;
        assert!(
            got.abs_diff_eq(want, EPS),
            "at {time} s: got {got}, want {want}"
        );
    }
}

#[test]
fn a_removed_target_is_skipped_and_the_others_still_move() {
    let mut scene = Scene::new();
    let root = scene.spawn("Root");
    let gone = scene.spawn_child(root, "Gone").unwrap();
    let kept = scene.spawn_child(root, "Kept").unwrap();
    let slide = |target| {
        AnimationChannel::translation(
            target,
            vec![0.0, 1.0],
            vec![Vec3::ZERO, Vec3::X],
            Interpolation::Linear,
        )
    };
    let clip = AnimationClip::new("both", vec![slide(gone), slide(kept)]).unwrap();
    let mut player = AnimationPlayer::new();
    let both = player.add_clip(clip);
    player.play(both).unwrap();
    scene.add_component(root, player).unwrap();
    run(&mut scene, 0.2);
    scene.remove(gone).unwrap();
    // A new object may reuse the removed entity's index; the stale handle must not reach it.
    let newcomer = scene.spawn("Newcomer");
    run(&mut scene, 0.3);
    assert_near(x(&scene, kept), 0.5, "the live target");
    assert_eq!(x(&scene, newcomer), 0.0, "untouched");
    assert!(!scene.has_errors());
}

#[test]
fn a_child_of_an_animated_parent_follows_in_world_space() {
    let (mut scene, _root, node) = slide_scene();
    let child = scene.spawn_child(node, "Child").unwrap();
    scene
        .object_mut(child)
        .unwrap()
        .set_position(Vec3::new(0.0, 1.0, 0.0));
    run(&mut scene, 1.0);
    let world = scene.object_mut(child).unwrap().world_position();
    assert!(world.abs_diff_eq(Vec3::new(5.0, 1.0, 0.0), EPS), "{world}");
    let world = scene.world_position(child).unwrap();
    assert!(
        world.abs_diff_eq(Vec3::new(5.0, 1.0, 0.0), EPS),
        "&self read: {world}"
    );
}

#[test]
fn a_player_on_a_disabled_object_does_not_advance() {
    let (mut scene, root, node) = slide_scene();
    run(&mut scene, 0.5);
    scene.set_enabled(root, false).unwrap();
    run(&mut scene, 1.0);
    assert_near(player(&mut scene, root).time(), 0.5, "held while disabled");
    scene.set_enabled(root, true).unwrap();
    run(&mut scene, 0.5);
    assert_near(x(&scene, node), 5.0, "continues");
}

#[test]
fn behaviours_see_the_pose_of_this_tick_and_can_override_it() {
    struct Lift;
    impl Behaviour for Lift {
        fn update(&mut self, cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
            let mut transform = cx.transform_mut();
            transform.position.y = transform.position.x;
            Ok(())
        }
    }
    let (mut scene, _root, node) = slide_scene();
    scene.add_behaviour(node, Lift).unwrap();
    run(&mut scene, 1.0);
    let position = scene.transform(node).unwrap().position;
    assert!(
        position.abs_diff_eq(Vec3::new(5.0, 5.0, 0.0), EPS),
        "{position}"
    );
}

#[test]
fn a_fixed_step_loop_advances_it_per_tick_and_pausing_the_loop_pauses_it() {
    let (scene, root, node) = slide_scene();
    // 10 Hz ticks, frames presented every callback (render interpolation on).
    let (mut game, clock) = common::started(scene, common::fixed(10, PresentOn::EveryCallback));
    assert!(game.scene().interpolates());
    clock.advance(std::time::Duration::from_millis(1000));
    game.on_clock();
    assert_near(x(game.scene(), node), 5.0, "ten ticks of 0.1 s");

    // Half a tick later: the transform holds the last tick's pose, and the
    // drawn placement is interpolated between the last two ticks.
    clock.advance(std::time::Duration::from_millis(50));
    game.on_clock();
    assert_near(x(game.scene(), node), 5.0, "no tick ran");
    let drawn = game.scene().interpolated_world_matrix(node, 0.5);
    assert!(drawn.is_none(), "only rendered objects are interpolated");

    game.pause();
    clock.advance(std::time::Duration::from_millis(1000));
    game.on_clock();
    assert_near(x(game.scene(), node), 5.0, "paused loop");
    game.resume();
    clock.advance(std::time::Duration::from_millis(450));
    game.on_clock();
    let p = game
        .scene_mut()
        .get_component_mut::<AnimationPlayer>(root)
        .unwrap();
    assert!(p.time() > 1.0, "moving again after resume: {}", p.time());
}

#[test]
fn an_animated_mesh_is_interpolated_between_fixed_ticks() {
    let (scene, _root, node) = slide_scene();
    let (mut game, clock) = common::started(scene, common::fixed(10, PresentOn::EveryCallback));
    game.scene_mut()
        .add_component(node, MeshRenderer::new(MeshHandle(0), MaterialHandle(0)))
        .unwrap();
    clock.advance(std::time::Duration::from_millis(1050));
    game.on_clock();
    // Ticks at 0.9 s (x = 4.5) and 1.0 s (x = 5.0): halfway between is 4.75.
    let drawn = game.scene().interpolated_world_matrix(node, 0.5).unwrap();
    assert_near(drawn.translation.x, 4.75, "drawn between the ticks");
}

#[test]
fn an_animated_scene_is_work_for_auto_pause() {
    let (mut scene, root, _node) = slide_scene();
    scene.tick(0.1);
    assert_eq!(scene.runnable_work(), 1, "one playing player");
    player(&mut scene, root).pause();
    scene.tick(0.1);
    assert_eq!(scene.runnable_work(), 0);
}
