//! [`Locomotion`]: idle, walk and run blended by speed on scene time, the
//! strides in phase, and footsteps only from the stride that shows.

use taos_core::prelude::*;
use taos_core::{AnimationPlayerError, ClipId, Locomotion, LocomotionError, LocomotionWeights};

/// A frame of 1/64 s: sums of it are exact in binary.
const FRAME: f32 = 1.0 / 64.0;
const WALK_SPEED: f32 = 2.0;
const RUN_SPEED: f32 = 5.0;
const BLEND: f32 = 0.25;
const FOOTSTEP: &str = "footstep";

struct Rig {
    scene: Scene,
    hero: GameObject,
    idle: ClipId,
    walk: ClipId,
    run: ClipId,
    locomotion: Locomotion,
}

/// A cycle of `seconds` moving one node, with a footstep half way through.
fn cycle(node: GameObject, name: &str, seconds: f32) -> AnimationClip {
    AnimationClip::new(
        name,
        vec![AnimationChannel::translation(
            node,
            vec![0.0, seconds],
            vec![Vec3::ZERO, Vec3::Z],
            Interpolation::Linear,
        )],
    )
    .unwrap()
    .with_event(seconds / 2.0, FOOTSTEP)
    .unwrap()
}

/// Idle 2 s, walk 1 s (natural at 2 m/s), run 0.7 s (natural at 5 m/s).
fn rig() -> Rig {
    let mut scene = Scene::new();
    let hero = scene.spawn("Hero");
    let hips = scene.spawn_child(hero, "Hips").unwrap();
    let mut player = AnimationPlayer::new();
    let idle = player.add_clip(
        AnimationClip::new(
            "idle",
            vec![AnimationChannel::translation(
                hips,
                vec![0.0, 2.0],
                vec![Vec3::ZERO, Vec3::ZERO],
                Interpolation::Linear,
            )],
        )
        .unwrap(),
    );
    let walk = player.add_clip(cycle(hips, "walk", 1.0));
    let run = player.add_clip(cycle(hips, "run", 0.7));
    scene.add_component(hero, player).unwrap();
    let locomotion = Locomotion::new(idle, walk, WALK_SPEED)
        .unwrap()
        .with_run(run, RUN_SPEED)
        .unwrap()
        .with_blend_time(BLEND)
        .unwrap();
    Rig {
        scene,
        hero,
        idle,
        walk,
        run,
        locomotion,
    }
}

impl Rig {
    fn player(&self) -> &AnimationPlayer {
        self.scene
            .get_component::<AnimationPlayer>(self.hero)
            .unwrap()
    }

    /// One frame as a behaviour sees it: the scene steps the player, then
    /// the behaviour updates the locomotion. Returns the footsteps that
    /// [`Locomotion::events`] passed and all the player reported.
    fn frame(&mut self, speed: f32) -> (usize, usize) {
        self.scene.tick(FRAME);
        self.update(speed)
    }

    /// The behaviour's half of [`frame`](Self::frame).
    fn update(&mut self, speed: f32) -> (usize, usize) {
        let Self {
            scene,
            hero,
            locomotion,
            ..
        } = self;
        let mut player = scene.get_component_mut::<AnimationPlayer>(*hero).unwrap();
        locomotion.update(&mut player, speed, FRAME).unwrap();
        let steps = |events: &mut dyn Iterator<Item = &taos_core::AnimationEvent>| {
            events.filter(|event| event.name() == FOOTSTEP).count()
        };
        (
            steps(&mut locomotion.events(&player)),
            steps(&mut player.events().iter()),
        )
    }

    fn frames(&mut self, count: u32, speed: f32) -> (usize, usize) {
        (0..count).fold((0, 0), |(a, b), _| {
            let (x, y) = self.frame(speed);
            (a + x, b + y)
        })
    }

    fn weights(&self) -> LocomotionWeights {
        let player = self.player();
        let weight = |clip| player.layer(clip).map_or(0.0, |layer| layer.weight());
        LocomotionWeights {
            idle: weight(self.idle),
            walk: weight(self.walk),
            run: weight(self.run),
        }
    }

    /// Walk's and run's normalised phases.
    fn phases(&self) -> (f32, f32) {
        let player = self.player();
        let phase = |clip| {
            let duration = player.clip(clip).unwrap().duration();
            player.layer(clip).unwrap().time() / duration
        };
        (phase(self.walk), phase(self.run))
    }
}

fn near(a: LocomotionWeights, b: LocomotionWeights) -> bool {
    let close = |x: f32, y: f32| (x - y).abs() < 1e-4;
    close(a.idle, b.idle) && close(a.walk, b.walk) && close(a.run, b.run)
}

fn weights(idle: f32, walk: f32, run: f32) -> LocomotionWeights {
    LocomotionWeights { idle, walk, run }
}

/// The distance between two phases on the circle (0.999 and 0.001 are close).
fn phase_gap(a: f32, b: f32) -> f32 {
    let d = (a - b).rem_euclid(1.0);
    d.min(1.0 - d)
}

#[test]
fn weights_follow_the_speed_and_sum_to_one() {
    let rig = rig();
    let at = |speed| rig.locomotion.weights_at(speed);
    assert_eq!(at(0.0), weights(1.0, 0.0, 0.0));
    assert_eq!(at(1.0), weights(0.5, 0.5, 0.0));
    assert_eq!(at(WALK_SPEED), weights(0.0, 1.0, 0.0));
    assert!(near(at(3.5), weights(0.0, 0.5, 0.5)));
    assert_eq!(at(RUN_SPEED), weights(0.0, 0.0, 1.0));
    assert_eq!(at(20.0), weights(0.0, 0.0, 1.0));
    assert_eq!(at(f32::INFINITY), weights(0.0, 0.0, 1.0));
    assert_eq!(at(f32::NAN), weights(1.0, 0.0, 0.0), "NaN is standing");
    assert_eq!(at(-3.0), weights(1.0, 0.0, 0.0), "negative is standing");
    for tenth in 0..80 {
        let w = at(tenth as f32 / 10.0);
        assert!((w.idle + w.walk + w.run - 1.0).abs() < 1e-6, "{w:?}");
    }
    // Without a run, walking on is all walk.
    let walk_only = Locomotion::new(rig.idle, rig.walk, WALK_SPEED).unwrap();
    assert_eq!(walk_only.weights_at(9.0), weights(0.0, 1.0, 0.0));
}

#[test]
fn the_layers_settle_at_the_weights_of_the_speed() {
    for (speed, expected) in [
        (0.0, weights(1.0, 0.0, 0.0)),
        (WALK_SPEED, weights(0.0, 1.0, 0.0)),
        (3.5, weights(0.0, 0.5, 0.5)),
        (RUN_SPEED, weights(0.0, 0.0, 1.0)),
        (f32::NAN, weights(1.0, 0.0, 0.0)),
    ] {
        let mut rig = rig();
        rig.frames(64, 0.0);
        rig.frames(64, speed);
        assert!(
            near(rig.weights(), expected),
            "{speed}: {:?}",
            rig.weights()
        );
        let player = rig.player();
        for clip in [rig.idle, rig.walk, rig.run] {
            assert!(player.layer(clip).unwrap().is_looping());
        }
    }
}

#[test]
fn weights_blend_in_and_out_linearly_over_the_blend_time() {
    let mut rig = rig();
    rig.frame(0.0);
    assert_eq!(
        rig.weights(),
        weights(1.0, 0.0, 0.0),
        "nothing to blend from: at once"
    );
    let half = (BLEND / 2.0 / FRAME) as u32;
    rig.frames(half, WALK_SPEED);
    assert!(
        near(rig.weights(), weights(0.5, 0.5, 0.0)),
        "{:?}",
        rig.weights()
    );
    rig.frames(half, WALK_SPEED);
    assert_eq!(rig.weights(), weights(0.0, 1.0, 0.0));
    rig.frames(half, RUN_SPEED);
    assert!(
        near(rig.weights(), weights(0.0, 0.5, 0.5)),
        "{:?}",
        rig.weights()
    );
    rig.frames(half, RUN_SPEED);
    assert_eq!(rig.weights(), weights(0.0, 0.0, 1.0));
    // Straight from run to idle, in the same time, summing to 1 throughout.
    for _ in 0..half {
        rig.frame(0.0);
        let w = rig.weights();
        assert!((w.idle + w.walk + w.run - 1.0).abs() < 1e-5, "{w:?}");
    }
    assert!(
        near(rig.weights(), weights(0.5, 0.0, 0.5)),
        "{:?}",
        rig.weights()
    );
    rig.frames(half, 0.0);
    assert_eq!(rig.weights(), weights(1.0, 0.0, 0.0));
}

#[test]
fn a_zero_blend_time_switches_at_once() {
    let mut rig = rig();
    rig.locomotion = rig.locomotion.clone().with_blend_time(0.0).unwrap();
    rig.frame(0.0);
    rig.frame(RUN_SPEED);
    assert_eq!(rig.weights(), weights(0.0, 0.0, 1.0));
}

#[test]
fn walk_and_run_share_one_phase_however_long_their_cycles() {
    let mut rig = rig();
    rig.frame(WALK_SPEED);
    let mut both_weighted = 0;
    let mut wraps = 0;
    let mut last = rig.locomotion.phase(rig.player()).unwrap();
    for frame in 0..2000 {
        // Between walking and running, leaning either way, and beyond.
        let t = frame as f32 * FRAME;
        let speed = 3.5 + 2.5 * (t * 0.7).sin();
        // Checked after the player's step, before the update puts the
        // lighter stride back on the heavier's phase: they did not drift.
        rig.scene.tick(FRAME);
        let w = rig.weights();
        let (walk, run) = rig.phases();
        if w.walk > 0.0 && w.run > 0.0 {
            both_weighted += 1;
            assert!(
                phase_gap(walk, run) < 1e-3,
                "frame {frame}: {walk} vs {run}"
            );
        }
        if frame % 250 == 125 {
            // Knock one out of step, as a game or a restarted layer might.
            let clip = if frame % 500 == 125 {
                rig.walk
            } else {
                rig.run
            };
            let mut player = rig
                .scene
                .get_component_mut::<AnimationPlayer>(rig.hero)
                .unwrap();
            player.set_layer_time(clip, 0.3).unwrap();
        }
        let heavier = if w.run > w.walk { rig.run } else { rig.walk };
        let time = |rig: &Rig| rig.player().layer(heavier).unwrap().time();
        let before = time(&rig);
        rig.update(speed);
        let moved = (time(&rig) - before).abs();
        assert!(moved < 1e-5, "the leading stride is not moved: {moved}");
        let phase = rig.locomotion.phase(rig.player()).unwrap();
        if phase < last {
            wraps += 1;
        }
        last = phase;
    }
    assert!(both_weighted > 600, "{both_weighted}");
    // 31 s of walking and running: about one cycle a second or faster.
    assert!(wraps > 25, "{wraps}");
}

#[test]
fn the_playback_rate_keeps_the_feet_planted() {
    let mut rig = rig();
    let speeds = |rig: &Rig| {
        let player = rig.player();
        (
            player.layer(rig.walk).unwrap().speed(),
            player.layer(rig.run).unwrap().speed(),
        )
    };
    rig.frames(64, WALK_SPEED);
    assert_eq!(
        speeds(&rig).0,
        1.0,
        "walking at the walk's speed: its own rate"
    );
    rig.frames(64, 1.0);
    assert!(
        (speeds(&rig).0 - 0.5).abs() < 1e-6,
        "half the speed, half the rate"
    );
    rig.frames(64, 0.0);
    assert_eq!(speeds(&rig).0, 0.5, "clamped to the playback range");
    rig.frames(64, RUN_SPEED);
    let (walk, run) = speeds(&rig);
    assert!((run - 1.0).abs() < 1e-6, "{run}");
    assert!(
        (walk - 1.0 / 0.7).abs() < 1e-5,
        "the walk keeps the run's phase: {walk}"
    );
    rig.frames(64, 100.0);
    assert_eq!(speeds(&rig).1, 2.0, "clamped to the playback range");
    // Mid-blend: one blended stride (3.5 m of walk's 2 m and run's 3.5 m,
    // averaged: 2.75 m) per blended cycle at 3.5 m/s.
    rig.frames(64, 3.5);
    let (walk, run) = speeds(&rig);
    let cycle_seconds = 1.0 / walk;
    assert!(
        (run * cycle_seconds - 0.7).abs() < 1e-5,
        "one run cycle per walk cycle"
    );
    assert!((3.5 * cycle_seconds - 2.75).abs() < 1e-4, "{cycle_seconds}");

    rig.locomotion = rig
        .locomotion
        .clone()
        .with_playback_range(1.0, 1.0)
        .unwrap();
    rig.frames(64, RUN_SPEED * 3.0);
    assert_eq!(speeds(&rig).1, 1.0);
}

#[test]
fn footsteps_never_come_from_a_stride_at_weight_zero() {
    let mut rig = rig();
    let (passed, reported) = rig.frames(256, 0.0);
    assert!(reported >= 1, "the walk plays on at weight 0 and reports");
    assert_eq!(passed, 0, "but standing makes no footsteps");
    let player = rig.player();
    assert_eq!(rig.locomotion.leading(), Some(rig.idle));
    assert_eq!(rig.locomotion.events_with_weight(player, 0.0).count(), 0);
}

#[test]
fn walking_steps_once_per_cycle() {
    let mut rig = rig();
    rig.frames(64, 0.0);
    rig.frames(64, WALK_SPEED); // one second to settle
    assert_eq!(rig.locomotion.leading(), Some(rig.walk));
    let (passed, _) = rig.frames(8 * 64, WALK_SPEED);
    assert_eq!(passed, 8, "8 s of a 1 s walk cycle at its own speed");
}

#[test]
fn mid_blend_steps_once_per_blended_cycle_not_twice() {
    let mut rig = rig();
    rig.frames(64, 3.5);
    let mut last = rig.locomotion.phase(rig.player()).unwrap();
    let (mut wraps, mut passed, mut reported, mut weighted) = (0, 0, 0, 0);
    for _ in 0..6 * 64 {
        let (p, r) = rig.frame(3.5);
        passed += p;
        reported += r;
        weighted += rig
            .locomotion
            .events_with_weight(rig.player(), 0.25)
            .filter(|event| event.name() == FOOTSTEP)
            .count();
        let phase = rig.locomotion.phase(rig.player()).unwrap();
        if phase < last {
            wraps += 1;
        }
        last = phase;
    }
    assert!(wraps >= 5, "{wraps}");
    assert!(
        passed.abs_diff(wraps) <= 1,
        "{passed} footsteps, {wraps} cycles"
    );
    assert!(
        reported >= 2 * passed - 1,
        "walk and run both report: {reported}"
    );
    assert_eq!(weighted, reported, "both weigh 0.5, over 0.25");
}

#[test]
fn update_refuses_clips_of_another_player_and_changes_nothing() {
    let mut rig = rig();
    // The fourth clip of another player: `rig`'s player has three.
    let mut other = AnimationPlayer::new();
    let idle = rig.player().clip(rig.idle).unwrap().clone();
    let stranger = (0..4).map(|_| other.add_clip(idle.clone())).last().unwrap();
    let mut locomotion = Locomotion::new(stranger, rig.walk, WALK_SPEED).unwrap();
    let hero = rig.hero;
    let mut player = rig
        .scene
        .get_component_mut::<AnimationPlayer>(hero)
        .unwrap();
    assert_eq!(
        locomotion.update(&mut player, 1.0, FRAME),
        Err(AnimationPlayerError::UnknownClip {
            clip: stranger,
            clips: 3
        })
    );
    assert!(
        player.layers().is_empty(),
        "the walk was not started either"
    );
}

#[test]
fn bad_settings_are_refused() {
    let rig = rig();
    let (idle, walk, run) = (rig.idle, rig.walk, rig.run);
    assert_eq!(
        Locomotion::new(idle, walk, 0.0),
        Err(LocomotionError::InvalidSpeed {
            clip: walk,
            speed: 0.0
        })
    );
    assert!(matches!(
        Locomotion::new(idle, walk, f32::NAN),
        Err(LocomotionError::InvalidSpeed { .. })
    ));
    assert_eq!(
        Locomotion::new(idle, idle, 1.0),
        Err(LocomotionError::SameClip { clip: idle })
    );
    let walking = Locomotion::new(idle, walk, WALK_SPEED).unwrap();
    assert_eq!(
        walking.clone().with_run(run, WALK_SPEED),
        Err(LocomotionError::RunNotFaster {
            walk: WALK_SPEED,
            run: WALK_SPEED
        })
    );
    assert_eq!(
        walking.clone().with_run(walk, RUN_SPEED),
        Err(LocomotionError::SameClip { clip: walk })
    );
    assert_eq!(
        walking.clone().with_blend_time(-1.0),
        Err(LocomotionError::InvalidBlendTime { seconds: -1.0 })
    );
    assert!(walking.clone().with_blend_time(f32::INFINITY).is_err());
    assert_eq!(
        walking.clone().with_playback_range(2.0, 1.0),
        Err(LocomotionError::InvalidPlaybackRange { min: 2.0, max: 1.0 })
    );
    assert!(walking.clone().with_playback_range(0.0, 0.0).is_err());
    assert!(walking.with_playback_range(0.0, 1.0).is_ok());
}
