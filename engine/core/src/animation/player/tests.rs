use std::sync::Arc;

use bevy_ecs::entity::Entity;
use glam::Vec3;

use super::advance::MAX_EVENT_LAPS;
use super::*;
use crate::animation::{AnimationChannel, Interpolation};
use crate::object::GameObject;

fn player(duration: f32) -> (AnimationPlayer, ClipId) {
    let target = GameObject::from_entity(Entity::from_raw_u32(1).unwrap());
    let clip = AnimationClip::new(
        "slide",
        vec![AnimationChannel::translation(
            target,
            vec![0.0, duration],
            vec![Vec3::ZERO, Vec3::X],
            Interpolation::Linear,
        )],
    )
    .unwrap();
    let mut player = AnimationPlayer::new();
    let id = player.add_clip(clip);
    (player, id)
}

#[test]
fn play_requires_one_of_its_own_clips() {
    let (mut player, id) = player(2.0);
    let stranger = ClipId(3);
    assert_eq!(
        player.play(stranger),
        Err(AnimationPlayerError::UnknownClip {
            clip: stranger,
            clips: 1
        })
    );
    assert_eq!(player.current(), None);
    assert!(!player.is_playing() && !player.is_finished());
    assert_eq!(player.seek(1.0), Err(AnimationPlayerError::NoCurrentClip));
    player.play(id).unwrap();
    assert!(player.is_playing());
    assert_eq!(player.find_clip("slide"), Some(id));
    assert_eq!(player.find_clip("walk"), None);
}

#[test]
fn bad_speed_and_seek_are_refused() {
    let (mut player, id) = player(2.0);
    player.play(id).unwrap();
    assert!(player.set_speed(f32::NAN).is_err());
    assert!(player.set_speed(f32::INFINITY).is_err());
    assert_eq!(player.speed(), 1.0);
    assert!(player.seek(f32::NAN).is_err());
    player.seek(-3.0).unwrap();
    assert_eq!(player.time(), 0.0);
    player.seek(30.0).unwrap();
    assert_eq!(player.time(), 2.0);
}

#[test]
fn step_writes_only_when_time_moved_or_a_pose_was_asked_for() {
    let (mut player, id) = player(2.0);
    assert!(player.step(0.1).is_none(), "nothing current");
    player.play(id).unwrap();
    assert!(player.step(0.0).is_some(), "the start pose after play");
    assert!(player.step(0.0).is_none(), "no time passed");
    assert_eq!(player.step(0.5).map(|(_, t)| t), Some(0.5));
    player.pause();
    assert!(player.step(0.5).is_none());
    player.seek(1.5).unwrap();
    assert_eq!(
        player.step(0.5).map(|(_, t)| t),
        Some(1.5),
        "seek while paused"
    );
    player.resume();
    assert_eq!(player.step(1.0).map(|(_, t)| t), Some(2.0));
    assert!(player.is_finished() && !player.is_playing());
    assert!(
        player.step(1.0).is_none(),
        "a finished clip writes nothing more"
    );
}

#[test]
fn negative_speed_plays_backwards_and_finishes_at_zero() {
    let (mut player, id) = player(2.0);
    player.set_speed(-1.0).unwrap();
    player.play(id).unwrap();
    assert_eq!(player.time(), 2.0, "backwards starts at the end");
    assert_eq!(player.step(0.5).map(|(_, t)| t), Some(1.5));
    player.step(5.0);
    assert_eq!(player.time(), 0.0);
    assert!(player.is_finished());
    player.set_looping(true);
    assert!(!player.is_finished());
    player.step(0.5);
    assert_eq!(player.time(), 1.5, "wraps to the end going backwards");
}

#[test]
fn a_zero_length_clip_loops_in_place_without_dividing_by_zero() {
    let target = GameObject::from_entity(Entity::from_raw_u32(1).unwrap());
    let still = AnimationClip::new(
        "still",
        vec![AnimationChannel::translation(
            target,
            vec![0.0],
            vec![Vec3::Y],
            Interpolation::Step,
        )],
    )
    .unwrap();
    let mut player = AnimationPlayer::new();
    let still = player.add_clip(still);
    player.set_looping(true);
    player.play(still).unwrap();
    player.step(1.0);
    assert_eq!(player.time(), 0.0);
    player.set_looping(false);
    assert!(player.is_finished());
}

fn names(player: &mut AnimationPlayer) -> Vec<String> {
    player
        .drain_events()
        .map(|event| event.name().to_owned())
        .collect()
}

#[test]
fn one_long_step_reports_every_lap_it_crossed_in_order() {
    let (mut player, id) = player(1.0);
    player.clips[0].add_event(0.25, "left").unwrap();
    player.clips[0].add_event(0.75, "right").unwrap();
    player.clips[0].add_event(1.0, "end").unwrap();
    player.set_looping(true);
    player.play(id).unwrap();
    player.advance(2.5);
    assert_eq!(player.time(), 0.5);
    assert_eq!(
        names(&mut player),
        ["left", "right", "end", "left", "right", "end", "left"]
    );
    // Backwards from 0.5 over a whole lap and a half: the end is met at each wrap.
    player.set_speed(-1.0).unwrap();
    player.advance(1.5);
    assert_eq!(player.time(), 0.0);
    assert_eq!(names(&mut player), ["left", "end", "right", "left"]);
    // Paused, or no time: nothing.
    player.advance(0.0);
    assert!(player.events().is_empty());
}

#[test]
fn a_huge_step_reports_a_bounded_number_of_laps() {
    let (mut player, id) = player(1.0);
    player.clips[0].add_event(0.5, "tick").unwrap();
    player.set_looping(true);
    player.play(id).unwrap();
    player.advance(1.0e6);
    let fired = player.events().len();
    assert!(
        fired >= 2 && fired <= 2 + MAX_EVENT_LAPS as usize,
        "{fired}"
    );
}

#[test]
fn weights_fade_linearly_and_finished_fades_take_the_layer_off() {
    let (mut player, id) = player(4.0);
    player.play(id).unwrap();
    player.fade_weight(id, 0.0, 2.0).unwrap();
    player.advance(0.5);
    assert_eq!(player.layer(id).unwrap().weight(), 0.75);
    assert_eq!(player.layer(id).unwrap().fade_progress(), Some(0.25));
    player.advance(2.0);
    let layer = player.layer(id).unwrap();
    assert_eq!((layer.weight(), layer.fade_progress()), (0.0, None));
    assert!(player.is_playing(), "a plain fade to 0 keeps the layer");
}

#[test]
fn a_layer_time_and_speed_are_set_by_clip() {
    let (mut player, id) = player(2.0);
    player.clips[0].add_event(0.5, "skipped").unwrap();
    assert_eq!(
        player.set_layer_time(id, 1.0),
        Err(AnimationPlayerError::NotPlaying { clip: id })
    );
    assert_eq!(
        player.set_layer_speed(id, 2.0),
        Err(AnimationPlayerError::NotPlaying { clip: id })
    );
    player
        .play_layer(id, LayerSettings::default().looping(true))
        .unwrap();
    player.advance(0.0);
    player.set_layer_time(id, 1.0).unwrap();
    assert_eq!(player.layer(id).unwrap().time(), 1.0);
    assert!(player.advance(0.0), "a moved time asks for a pose");
    assert!(
        player.events().is_empty(),
        "jumping over an event fires nothing"
    );
    player.set_layer_time(id, 9.0).unwrap();
    assert_eq!(player.layer(id).unwrap().time(), 2.0, "clamped to the clip");
    assert!(matches!(
        player.set_layer_time(id, f32::NAN),
        Err(AnimationPlayerError::InvalidTime { .. })
    ));
    assert_eq!(
        player.layer(id).unwrap().time(),
        2.0,
        "a refused time changes nothing"
    );
    player.set_layer_time(id, 0.0).unwrap();
    player.set_layer_speed(id, 2.0).unwrap();
    assert_eq!(player.layer(id).unwrap().speed(), 2.0);
    player.advance(0.25);
    assert_eq!(player.layer(id).unwrap().time(), 0.5);
    assert!(player.set_layer_speed(id, f32::INFINITY).is_err());
    assert_eq!(
        player.layer(id).unwrap().speed(),
        2.0,
        "the old speed stays"
    );
    let stranger = ClipId(5);
    assert_eq!(
        player.set_layer_speed(stranger, 1.0),
        Err(AnimationPlayerError::UnknownClip {
            clip: stranger,
            clips: 1
        })
    );
}

#[test]
fn a_restored_play_state_is_brought_into_range() {
    let (mut player, id) = player(2.0);
    player.clips[0].add_event(1.0, "mid").unwrap();
    player.play(id).unwrap();
    player.advance(1.5);
    assert_eq!(player.events().len(), 1);
    let mut state = player.play_state().clone();
    state.layers[0].time = 40.0;
    state.layers[0].weight = -3.0;
    state
        .layers
        .push(AnimationLayer::new(ClipId(9), LayerSettings::default()));
    state.events.push(AnimationEvent {
        clip: id,
        index: 7,
        time: 0.0,
        name: Arc::from(""),
    });
    let json = serde_json::to_value(&state).unwrap();
    let mut restored = player.clone();
    restored.restore_play_state(serde_json::from_value(json).unwrap());
    let layer = restored.layers();
    assert_eq!(layer.len(), 1, "the layer of an unknown clip is dropped");
    assert_eq!((layer[0].time(), layer[0].weight()), (2.0, 0.0));
    assert_eq!(restored.events().len(), 1);
    assert_eq!(
        restored.events()[0].name(),
        "mid",
        "names come back from the clip"
    );
}
