//! Animation layers: blending by weight, cross-fades, masks, additive
//! layers, clip events, root motion and morph-weight channels, all on scene
//! time; and the play state surviving snapshots and replays bit for bit.

mod common;

use std::f32::consts::FRAC_PI_2;

use common::{fixed, started};
use taos_core::game_loop::{PresentOn, Recording, Snapshot};
use taos_core::prelude::*;
use taos_core::{
    AnimationEventError, AnimationMask, AnimationPlayerError, ChannelProblem, ClipId, LayerSettings,
};

const EPS: f32 = 1e-4;
/// A frame of 1/16 s: sums of it are exact in binary, so times land on keys.
const FRAME: f32 = 0.0625;

fn run_frames(scene: &mut Scene, frames: u32) {
    for _ in 0..frames {
        scene.tick(FRAME);
    }
}

fn near(a: f32, b: f32) -> bool {
    (a - b).abs() < EPS
}

fn same_rotation(a: Quat, b: Quat) -> bool {
    a.dot(b).abs() > 1.0 - EPS
}

/// Holds `target` at `position` (two keys, so the clip lasts `duration`).
fn hold(target: GameObject, position: Vec3, duration: f32) -> AnimationChannel {
    AnimationChannel::translation(
        target,
        vec![0.0, duration],
        vec![position, position],
        Interpolation::Linear,
    )
}

fn clip(name: &str, channels: Vec<AnimationChannel>) -> AnimationClip {
    AnimationClip::new(name, channels).unwrap()
}

fn position(scene: &Scene, object: GameObject) -> Vec3 {
    scene.transform(object).unwrap().position
}

fn player(
    scene: &mut Scene,
    object: GameObject,
) -> impl std::ops::DerefMut<Target = AnimationPlayer> + '_ {
    scene.get_component_mut::<AnimationPlayer>(object).unwrap()
}

#[test]
fn two_layers_at_equal_weight_give_the_midpoint() {
    let mut scene = Scene::new();
    let root = scene.spawn("Root");
    let node = scene.spawn_child(root, "Node").unwrap();
    let mut p = AnimationPlayer::new();
    let a = p.add_clip(clip(
        "a",
        vec![
            hold(node, Vec3::ZERO, 1.0),
            AnimationChannel::rotation(node, vec![0.0], vec![Quat::IDENTITY], Interpolation::Step),
            AnimationChannel::weights(node, vec![0.0], vec![0.0, 1.0], 2, Interpolation::Step),
        ],
    ));
    let b = p.add_clip(clip(
        "b",
        vec![
            hold(node, Vec3::new(10.0, 4.0, 0.0), 1.0),
            AnimationChannel::rotation(
                node,
                vec![0.0],
                // The far hemisphere: blending aligns it to the first layer's.
                vec![-Quat::from_rotation_y(FRAC_PI_2)],
                Interpolation::Step,
            ),
            AnimationChannel::weights(node, vec![0.0], vec![1.0, 0.0], 2, Interpolation::Step),
        ],
    ));
    p.play(a).unwrap();
    p.play_layer(b, LayerSettings::default()).unwrap();
    scene.add_component(root, p).unwrap();
    run_frames(&mut scene, 1);

    let t = *scene.transform(node).unwrap();
    assert!(near(t.position.x, 5.0) && near(t.position.y, 2.0), "{t:?}");
    assert!(
        same_rotation(t.rotation, Quat::from_rotation_y(FRAC_PI_2 / 2.0)),
        "nlerp halfway: {:?}",
        t.rotation
    );
    assert!((t.rotation.length() - 1.0).abs() < EPS);
    let weights = scene.get_component::<MorphWeights>(node).unwrap().weights();
    assert!(
        near(weights[0], 0.5) && near(weights[1], 0.5),
        "{weights:?}"
    );

    // 3 : 1 is a quarter of the way to b.
    player(&mut scene, root).set_weight(a, 3.0).unwrap();
    run_frames(&mut scene, 1);
    assert!(near(position(&scene, node).x, 2.5));
    // A layer at weight 0 counts for nothing.
    player(&mut scene, root).set_weight(b, 0.0).unwrap();
    run_frames(&mut scene, 1);
    assert_eq!(position(&scene, node).x, 0.0);
}

/// A player on `root` whose clips hold `node` at x = 0 ("idle") and x = 10
/// ("run"), both looping, idle playing.
fn idle_and_run() -> (Scene, GameObject, GameObject, ClipId, ClipId) {
    let mut scene = Scene::new();
    let root = scene.spawn("Root");
    let node = scene.spawn_child(root, "Node").unwrap();
    let mut p = AnimationPlayer::new();
    let idle = p.add_clip(clip("idle", vec![hold(node, Vec3::ZERO, 1.0)]));
    let run = p.add_clip(clip("run", vec![hold(node, Vec3::X * 10.0, 1.0)]));
    p.set_looping(true);
    p.play(idle).unwrap();
    scene.add_component(root, p).unwrap();
    (scene, root, node, idle, run)
}

#[test]
fn a_cross_fade_moves_linearly_and_then_only_the_new_clip_plays() {
    let (mut scene, root, node, idle, run) = idle_and_run();
    run_frames(&mut scene, 4);
    player(&mut scene, root).cross_fade(run, 1.0).unwrap();
    assert_eq!(player(&mut scene, root).current(), Some(run));
    assert_eq!(player(&mut scene, root).cross_fade_progress(), Some(0.0));

    run_frames(&mut scene, 4); // 0.25 s
    {
        let p = player(&mut scene, root);
        assert_eq!(p.cross_fade_progress(), Some(0.25));
        assert_eq!(p.layer(idle).unwrap().weight(), 0.75);
        assert!(p.layer(idle).unwrap().is_fading_out());
        assert_eq!(p.layer(run).unwrap().weight(), 0.25);
        assert_eq!(
            p.layer(run).unwrap().time(),
            0.25,
            "run starts from its start"
        );
    }
    assert!(near(position(&scene, node).x, 2.5));

    run_frames(&mut scene, 8); // 0.75 s
    assert!(near(position(&scene, node).x, 7.5));

    run_frames(&mut scene, 4); // 1 s: done
    {
        let p = player(&mut scene, root);
        assert_eq!(p.cross_fade_progress(), None);
        assert_eq!(p.layers().len(), 1, "only run is left");
        assert_eq!(p.layer(run).unwrap().weight(), 1.0);
        assert!(p.layer(idle).is_none() && p.is_playing());
    }
    assert_eq!(position(&scene, node).x, 10.0);

    // Duration 0 switches at once.
    player(&mut scene, root).cross_fade(idle, 0.0).unwrap();
    run_frames(&mut scene, 1);
    assert_eq!(position(&scene, node).x, 0.0);
    assert_eq!(player(&mut scene, root).layers().len(), 1);
}

#[test]
fn a_cross_fade_back_midway_keeps_the_clip_and_its_time() {
    let (mut scene, root, node, idle, run) = idle_and_run();
    player(&mut scene, root).cross_fade(run, 1.0).unwrap();
    run_frames(&mut scene, 8); // halfway
    let idle_time = player(&mut scene, root).layer(idle).unwrap().time();
    player(&mut scene, root).cross_fade(idle, 1.0).unwrap();
    {
        let p = player(&mut scene, root);
        let layer = p.layer(idle).unwrap();
        assert_eq!((layer.time(), layer.weight()), (idle_time, 0.5));
    }
    run_frames(&mut scene, 16);
    assert_eq!(position(&scene, node).x, 0.0);
    assert_eq!(player(&mut scene, root).layers().len(), 1);
}

#[test]
fn a_mask_keeps_the_legs_on_one_clip_while_the_upper_body_follows_another() {
    let mut scene = Scene::new();
    let root = scene.spawn("Root");
    let hips = scene.spawn_child(root, "Hips").unwrap();
    let leg = scene.spawn_child(hips, "Leg").unwrap();
    let spine = scene.spawn_child(hips, "Spine").unwrap();
    let arm = scene.spawn_child(spine, "Arm").unwrap();
    let upper = AnimationMask::subtree(&scene, spine);
    assert!(upper.contains(spine) && upper.contains(arm));
    assert!(!upper.contains(leg) && !upper.contains(hips));

    let mut p = AnimationPlayer::new();
    let walk = p.add_clip(clip(
        "walk",
        vec![hold(leg, Vec3::X, 1.0), hold(arm, Vec3::X, 1.0)],
    ));
    let wave = p.add_clip(clip(
        "wave",
        vec![
            hold(leg, Vec3::X * -5.0, 1.0),
            hold(arm, Vec3::X * 7.0, 1.0),
        ],
    ));
    let lower = p.add_mask(upper.clone().inverted());
    let upper = p.add_mask(upper);
    p.play_layer(walk, LayerSettings::default().looping(true).mask(lower))
        .unwrap();
    p.play_layer(wave, LayerSettings::default().looping(true).mask(upper))
        .unwrap();
    scene.add_component(root, p).unwrap();
    run_frames(&mut scene, 3);
    assert_eq!(position(&scene, leg).x, 1.0, "legs walk");
    assert_eq!(position(&scene, arm).x, 7.0, "the upper body waves");

    // An unmasked walk shares the upper body with the wave by weight.
    player(&mut scene, root)
        .play_layer(walk, LayerSettings::default().looping(true))
        .unwrap();
    player(&mut scene, root).set_weight(wave, 3.0).unwrap();
    run_frames(&mut scene, 1);
    assert_eq!(
        position(&scene, leg).x,
        1.0,
        "the wave leaves the legs alone"
    );
    assert!(near(position(&scene, arm).x, (1.0 + 3.0 * 7.0) / 4.0));
}

#[test]
fn an_additive_layer_adds_its_change_on_top_of_the_blend() {
    let mut scene = Scene::new();
    let root = scene.spawn("Root");
    let node = scene.spawn_child(root, "Node").unwrap();
    let base_rotation = Quat::from_rotation_y(0.5);
    let mut p = AnimationPlayer::new();
    let base = p.add_clip(clip(
        "base",
        vec![
            hold(node, Vec3::new(2.0, 0.0, 0.0), 1.0),
            AnimationChannel::rotation(node, vec![0.0], vec![base_rotation], Interpolation::Step),
        ],
    ));
    let breathe = p.add_clip(clip(
        "breathe",
        vec![
            // Starts away from zero: only the change from its first frame counts.
            AnimationChannel::translation(
                node,
                vec![0.0, 1.0],
                vec![Vec3::new(5.0, 0.0, 0.0), Vec3::new(5.0, 1.0, 0.0)],
                Interpolation::Linear,
            ),
            AnimationChannel::rotation(
                node,
                vec![0.0, 1.0],
                vec![Quat::IDENTITY, Quat::from_rotation_x(0.4)],
                Interpolation::Linear,
            ),
            // No blended layer animates scale: the additive layer leaves it.
            AnimationChannel::scale(
                node,
                vec![0.0, 1.0],
                vec![Vec3::ONE, Vec3::splat(3.0)],
                Interpolation::Linear,
            ),
        ],
    ));
    p.play(base).unwrap();
    p.play_layer(breathe, LayerSettings::default().additive().weight(0.5))
        .unwrap();
    scene.add_component(root, p).unwrap();
    run_frames(&mut scene, 16); // 1 s: breathe at its end
    let t = *scene.transform(node).unwrap();
    assert!(near(t.position.x, 2.0) && near(t.position.y, 0.5), "{t:?}");
    assert!(
        same_rotation(t.rotation, Quat::from_rotation_x(0.2) * base_rotation),
        "{:?}",
        t.rotation
    );
    assert_eq!(t.scale, Vec3::ONE);
}

/// A looping 1 s clip on a fresh node with events at 0 ("start"), 0.25
/// ("left") and 0.75 ("right").
fn footsteps() -> (Scene, GameObject, ClipId) {
    let mut scene = Scene::new();
    let root = scene.spawn("Root");
    let node = scene.spawn_child(root, "Node").unwrap();
    let walk = clip("walk", vec![hold(node, Vec3::ZERO, 1.0)])
        .with_event(0.75, "right")
        .unwrap()
        .with_event(0.25, "left")
        .unwrap()
        .with_event(0.0, "start")
        .unwrap();
    assert_eq!(walk.events()[0].name(), "start", "kept sorted by time");
    let mut p = AnimationPlayer::new();
    let walk = p.add_clip(walk);
    p.set_looping(true);
    scene.add_component(root, p).unwrap();
    (scene, root, walk)
}

/// Runs `frames` frames, draining the player's events after each.
fn events_over(scene: &mut Scene, root: GameObject, frames: u32) -> Vec<String> {
    let mut names = Vec::new();
    for _ in 0..frames {
        scene.tick(FRAME);
        names.extend(
            player(scene, root)
                .drain_events()
                .map(|e| e.name().to_owned()),
        );
    }
    names
}

#[test]
fn events_fire_once_per_crossing_across_loop_wraps_and_backwards() {
    let (mut scene, root, walk) = footsteps();
    player(&mut scene, root).play(walk).unwrap();
    // 2.5 s forward: two wraps.
    assert_eq!(
        events_over(&mut scene, root, 40),
        ["left", "right", "start", "left", "right", "start", "left"]
    );

    // Backwards from the end for 1.5 s: through 0, then round to 0.75 again.
    player(&mut scene, root).set_speed(-1.0).unwrap();
    player(&mut scene, root).play(walk).unwrap();
    assert_eq!(player(&mut scene, root).time(), 1.0);
    assert_eq!(
        events_over(&mut scene, root, 24),
        ["right", "left", "start", "right"]
    );

    // Events carry their clip and time; the list is the last step's.
    player(&mut scene, root).set_speed(1.0).unwrap();
    player(&mut scene, root).play(walk).unwrap();
    run_frames(&mut scene, 4);
    {
        let p = player(&mut scene, root);
        let event = &p.events()[0];
        assert_eq!((event.clip(), event.index(), event.time()), (walk, 1, 0.25));
    }
    run_frames(&mut scene, 1);
    assert!(player(&mut scene, root).events().is_empty());

    // A single shot reports its last event at the end, once.
    player(&mut scene, root).set_looping(false);
    player(&mut scene, root).play(walk).unwrap();
    assert_eq!(events_over(&mut scene, root, 40), ["left", "right"]);
}

#[test]
fn root_motion_moves_the_object_and_not_the_bone() {
    let mut scene = Scene::new();
    let root = scene.spawn("Character");
    scene.object_mut(root).unwrap().transform_mut().rotation = Quat::from_rotation_y(FRAC_PI_2);
    let hips = scene.spawn_child(root, "Hips").unwrap();
    let mut p = AnimationPlayer::new();
    // 2 units forward (+Z) per 1 s lap, bobbing in Y.
    let walk = p.add_clip(clip(
        "walk",
        vec![AnimationChannel::translation(
            hips,
            vec![0.0, 0.5, 1.0],
            vec![
                Vec3::new(0.0, 1.0, 0.0),
                Vec3::new(0.0, 1.2, 1.0),
                Vec3::new(0.0, 1.0, 2.0),
            ],
            Interpolation::Linear,
        )],
    ));
    p.set_looping(true);
    p.set_root_motion(Some(hips));
    p.play(walk).unwrap();
    scene.add_component(root, p).unwrap();

    let mut last_x = 0.0;
    for frame in 1..=24 {
        run_frames(&mut scene, 1);
        let hips_at = position(&scene, hips);
        assert_eq!(
            (hips_at.x, hips_at.z),
            (0.0, 0.0),
            "the bone stays, frame {frame}"
        );
        let x = position(&scene, root).x;
        assert!(x > last_x, "no jump back at the wrap, frame {frame}");
        last_x = x;
    }
    // 1.5 s: 3 units along the clip's +Z, which the 90 degree turn makes +X.
    let at = position(&scene, root);
    assert!(near(at.x, 3.0) && near(at.z, 0.0) && at.y == 0.0, "{at:?}");
    let p = player(&mut scene, root);
    assert!(
        p.root_motion_total()
            .abs_diff_eq(Vec3::new(0.0, 0.0, 3.0), EPS)
    );
    assert!(
        p.root_motion_delta()
            .abs_diff_eq(Vec3::new(0.0, 0.0, 2.0 * FRAME), EPS)
    );
    drop(p);
    // The bone's Y still bobs: at 0.5 s into a lap it is at the top.
    assert!(near(position(&scene, hips).y, 1.2));
}

#[test]
fn weight_channels_write_morph_weights_step_linear_and_cubic() {
    let mut scene = Scene::new();
    let root = scene.spawn("Root");
    let faces = [
        scene.spawn_child(root, "Step").unwrap(),
        scene.spawn_child(root, "Linear").unwrap(),
        scene.spawn_child(root, "Cubic").unwrap(),
    ];
    // One face already has weights; the others get them.
    scene
        .add_component(faces[1], MorphWeights::new(vec![9.0; 5]).unwrap())
        .unwrap();
    let times = vec![0.0, 1.0];
    let zero = [0.0, 0.0];
    let cubic: Vec<f32> = [zero, [0.0, 1.0], zero, zero, [1.0, 0.0], zero].concat();
    let mut p = AnimationPlayer::new();
    let faces_clip = p.add_clip(clip(
        "faces",
        vec![
            AnimationChannel::weights(
                faces[0],
                times.clone(),
                vec![0.0, 1.0, 1.0, 0.0],
                2,
                Interpolation::Step,
            ),
            AnimationChannel::weights(
                faces[1],
                times.clone(),
                vec![0.0, 1.0, 1.0, 0.0],
                2,
                Interpolation::Linear,
            ),
            AnimationChannel::weights(faces[2], times, cubic, 2, Interpolation::CubicSpline),
        ],
    ));
    p.play(faces_clip).unwrap();
    scene.add_component(root, p).unwrap();
    run_frames(&mut scene, 4); // 0.25 s
    let weights = |scene: &Scene, face| {
        scene
            .get_component::<MorphWeights>(face)
            .unwrap()
            .weights()
            .to_vec()
    };
    assert_eq!(weights(&scene, faces[0]), [0.0, 1.0]);
    assert_eq!(weights(&scene, faces[1]), [0.25, 0.75]);
    // Zero tangents: smoothstep(0.25) = 0.15625.
    let cubic = weights(&scene, faces[2]);
    assert!(
        near(cubic[0], 0.15625) && near(cubic[1], 0.84375),
        "{cubic:?}"
    );
    run_frames(&mut scene, 12);
    assert_eq!(weights(&scene, faces[0]), [1.0, 0.0]);
    assert_eq!(weights(&scene, faces[2]), [1.0, 0.0]);
}

#[test]
fn bad_weight_channels_are_named() {
    let mut scene = Scene::new();
    let face = scene.spawn("Face");
    let problem = |channel| AnimationClip::new("f", vec![channel]).unwrap_err().problem;
    assert_eq!(
        problem(AnimationChannel::weights(
            face,
            vec![0.0, 1.0],
            vec![0.0; 3],
            2,
            Interpolation::Linear
        )),
        ChannelProblem::ValueCountMismatch {
            times: 2,
            values: 3,
            expected: 4
        }
    );
    assert_eq!(
        problem(AnimationChannel::weights(
            face,
            vec![0.0, 1.0],
            vec![0.0; 4],
            2,
            Interpolation::CubicSpline
        )),
        ChannelProblem::ValueCountMismatch {
            times: 2,
            values: 4,
            expected: 12
        }
    );
    assert_eq!(
        problem(AnimationChannel::weights(
            face,
            vec![0.0],
            vec![],
            0,
            Interpolation::Step
        )),
        ChannelProblem::NoMorphTargets
    );
    assert_eq!(
        problem(AnimationChannel::weights(
            face,
            vec![0.0],
            vec![0.0, f32::NAN],
            2,
            Interpolation::Step
        )),
        ChannelProblem::NonFiniteValue { index: 1 }
    );
    let e = AnimationClip::new(
        "f",
        vec![AnimationChannel::weights(
            face,
            vec![0.0],
            vec![],
            0,
            Interpolation::Step,
        )],
    )
    .unwrap_err();
    assert!(e.to_string().contains("weights"), "{e}");
}

#[test]
fn bad_input_is_refused_with_typed_errors_and_changes_nothing() {
    let (mut scene, root, idle, run) = {
        let (scene, root, _node, idle, run) = idle_and_run();
        (scene, root, idle, run)
    };
    let mut p = player(&mut scene, root);
    let before = p.clone();
    // The sixth clip of another player: no clip of this one.
    let mut other = AnimationPlayer::new();
    let unknown = (0..6)
        .map(|_| other.add_clip(clip("x", vec![])))
        .last()
        .unwrap();
    assert!(matches!(
        p.set_weight(idle, f32::NAN),
        Err(AnimationPlayerError::InvalidWeight { weight }) if weight.is_nan()
    ));
    assert_eq!(
        p.set_weight(idle, -1.0),
        Err(AnimationPlayerError::InvalidWeight { weight: -1.0 })
    );
    assert_eq!(
        p.cross_fade(run, -0.5),
        Err(AnimationPlayerError::InvalidDuration { duration: -0.5 })
    );
    assert!(matches!(
        p.cross_fade(run, f32::NAN),
        Err(AnimationPlayerError::InvalidDuration { .. })
    ));
    assert_eq!(
        p.cross_fade(unknown, 1.0),
        Err(AnimationPlayerError::UnknownClip {
            clip: unknown,
            clips: 2
        })
    );
    assert!(matches!(
        p.play_layer(unknown, LayerSettings::default()),
        Err(AnimationPlayerError::UnknownClip { .. })
    ));
    assert_eq!(
        p.set_weight(run, 1.0),
        Err(AnimationPlayerError::NotPlaying { clip: run })
    );
    assert!(matches!(
        p.fade_weight(idle, 1.0, f32::INFINITY),
        Err(AnimationPlayerError::InvalidDuration { .. })
    ));
    assert!(matches!(
        p.play_layer(run, LayerSettings::default().weight(f32::INFINITY)),
        Err(AnimationPlayerError::InvalidWeight { .. })
    ));
    assert!(matches!(
        p.play_layer(run, LayerSettings::default().speed(f32::NAN)),
        Err(AnimationPlayerError::InvalidSpeed { .. })
    ));
    let bad_mask = other.add_mask(AnimationMask::default());
    assert!(matches!(
        p.play_layer(run, LayerSettings::default().mask(bad_mask)),
        Err(AnimationPlayerError::UnknownMask { .. })
    ));
    assert!(*p == before, "refused calls change nothing");
    assert!(!p.stop_layer(run));

    let mut walk = clip("walk", vec![hold(root, Vec3::ZERO, 1.0)]);
    for time in [f32::NAN, -0.1, 1.5, f32::INFINITY] {
        assert!(matches!(
            walk.add_event(time, "step"),
            Err(AnimationEventError::InvalidTime { .. })
        ));
    }
    assert!(walk.events().is_empty());
    walk.add_event(1.0, "end").unwrap();
}

/// A character with a walk (footstep events, the whole body) and a run;
/// an upper-body wave masked in; the player on `root`.
fn character() -> (Scene, [GameObject; 4]) {
    let mut scene = Scene::new();
    let root = scene.spawn("Character");
    let hips = scene.spawn_child(root, "Hips").unwrap();
    let leg = scene.spawn_child(hips, "Leg").unwrap();
    let arm = scene.spawn_child(hips, "Arm").unwrap();
    let swing = |target, amount: f32| {
        AnimationChannel::rotation(
            target,
            vec![0.0, 0.5, 1.0],
            vec![
                Quat::from_rotation_x(-amount),
                Quat::from_rotation_x(amount),
                Quat::from_rotation_x(-amount),
            ],
            Interpolation::Linear,
        )
    };
    let stride = |length: f32, duration: f32| {
        AnimationChannel::translation(
            hips,
            vec![0.0, duration],
            vec![Vec3::Y, Vec3::new(0.0, 1.0, length)],
            Interpolation::Linear,
        )
    };
    let walk = clip(
        "walk",
        vec![stride(1.5, 1.0), swing(leg, 0.4), swing(arm, 0.3)],
    )
    .with_event(0.25, "left")
    .unwrap()
    .with_event(0.75, "right")
    .unwrap();
    let run = clip("run", vec![stride(2.0, 0.6), swing(leg, 0.9)])
        .with_event(0.1, "left")
        .unwrap()
        .with_event(0.4, "right")
        .unwrap();
    let wave = clip(
        "wave",
        vec![AnimationChannel::rotation(
            arm,
            vec![0.0, 0.3, 0.6],
            vec![Quat::IDENTITY, Quat::from_rotation_z(1.2), Quat::IDENTITY],
            Interpolation::Linear,
        )],
    );
    let mut p = AnimationPlayer::new();
    let walk = p.add_clip(walk);
    p.add_clip(run);
    let wave = p.add_clip(wave);
    let upper = p.add_mask(AnimationMask::only([arm]));
    p.set_looping(true);
    p.set_root_motion(Some(hips));
    p.play(walk).unwrap();
    p.play_layer(
        wave,
        LayerSettings::default()
            .looping(true)
            .weight(0.7)
            .mask(upper),
    )
    .unwrap();
    scene.add_component(root, p).unwrap();
    (scene, [root, hips, leg, arm])
}

/// Everything a tick leaves behind that a replay must repeat.
fn trace(game: &mut GameLoop, objects: &[GameObject]) -> (Vec<[f32; 10]>, Vec<String>, u64) {
    let scene = game.scene_mut();
    let transforms = objects
        .iter()
        .map(|&o| {
            let t = scene.transform(o).unwrap();
            let (p, r, s) = (t.position, t.rotation, t.scale);
            [p.x, p.y, p.z, r.x, r.y, r.z, r.w, s.x, s.y, s.z]
        })
        .collect();
    let events = scene
        .get_component::<AnimationPlayer>(objects[0])
        .unwrap()
        .events()
        .iter()
        .map(|e| format!("{:?}:{}", e.clip(), e.name()))
        .collect();
    (transforms, events, game.state_checksum())
}

#[test]
fn a_restore_in_the_middle_of_a_cross_fade_carries_on_bit_for_bit() {
    let (scene, objects) = character();
    let (mut game, _clock) = started(scene, fixed(60, PresentOn::Tick));
    game.checksum_mut()
        .component::<AnimationPlayer>()
        .component::<MorphWeights>();
    for _ in 0..50 {
        game.step();
    }
    let run = {
        let mut p = game
            .scene_mut()
            .get_component_mut::<AnimationPlayer>(objects[0])
            .unwrap();
        let run = p.find_clip("run").unwrap();
        p.cross_fade(run, 0.5).unwrap();
        run
    };
    for _ in 0..12 {
        game.step();
    }
    let progress = |game: &mut GameLoop| {
        game.scene_mut()
            .get_component::<AnimationPlayer>(objects[0])
            .unwrap()
            .cross_fade_progress()
    };
    let mid = progress(&mut game).unwrap();
    assert!(mid > 0.3 && mid < 0.5, "mid-fade: {mid}");
    let saved = Snapshot::from_bytes(&game.snapshot().unwrap().to_bytes()).unwrap();

    let mut first = Vec::new();
    for _ in 0..90 {
        game.step();
        first.push(trace(&mut game, &objects));
    }
    assert!(
        first.iter().any(|(_, events, _)| !events.is_empty()),
        "footsteps fired"
    );
    {
        let p = game
            .scene()
            .get_component::<AnimationPlayer>(objects[0])
            .unwrap();
        assert_eq!(
            (p.current(), p.layers().len()),
            (Some(run), 1),
            "only run is left"
        );
    }

    game.restore(&saved).unwrap();
    assert_eq!(
        progress(&mut game),
        Some(mid),
        "the fade is back where it was"
    );
    let mut second = Vec::new();
    for _ in 0..90 {
        game.step();
        second.push(trace(&mut game, &objects));
    }
    assert_eq!(first, second);
}

/// Cross-fades between walk and run on each Space press, and counts
/// footsteps into its own object's scale, so the checksum sees events.
struct Director {
    steps: u32,
}

impl Behaviour for Director {
    fn update(&mut self, cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
        let presses = cx.resource::<Input>().press_count(Key::Space);
        let me = cx.object().entity();
        let mut player = cx.world_mut().get_mut::<AnimationPlayer>(me).unwrap();
        self.steps += u32::try_from(player.drain_events().count()).unwrap_or(0);
        for _ in 0..presses {
            let next = if player.current() == player.find_clip("walk") {
                player.find_clip("run")
            } else {
                player.find_clip("walk")
            };
            player.cross_fade(next.unwrap(), 0.4).unwrap();
        }
        let steps = self.steps as f32;
        cx.transform_mut().scale = Vec3::new(1.0, 1.0 + steps, 1.0);
        Ok(())
    }
}

#[test]
fn a_recorded_game_with_blended_clips_replays_to_the_same_checksum() {
    let build = || {
        let (mut scene, objects) = character();
        scene
            .add_behaviour(objects[0], Director { steps: 0 })
            .unwrap();
        let (mut game, _clock) = started(scene, fixed(60, PresentOn::Tick));
        game.checksum_mut().component::<AnimationPlayer>();
        (game, objects)
    };
    let (mut game, objects) = build();
    game.start_recording(5).unwrap();
    for i in 0..150u32 {
        if i % 40 == 17 {
            game.push_input(InputEvent::KeyDown(Key::Space));
            game.push_input(InputEvent::KeyUp(Key::Space));
        }
        game.step();
    }
    let expected = game.state_checksum();
    let footsteps = game.scene().transform(objects[0]).unwrap().scale.y - 1.0;
    assert!(footsteps >= 4.0, "footsteps were counted: {footsteps}");
    let recording = Recording::from_bytes(&game.take_recording().unwrap().to_bytes()).unwrap();

    let (mut replay, _) = build();
    replay.replay(recording).unwrap();
    while replay.replay_remaining().is_some_and(|left| left > 0) {
        replay.step();
    }
    assert_eq!(replay.tick_count(), 150);
    assert_eq!(replay.state_checksum(), expected);
}
