//! Node animation: keyframed translation, rotation, scale and morph weights
//! of GameObjects, played by an [`AnimationPlayer`] on scene time, in
//! blended layers.
//!
//! - An [`AnimationClip`] is a name, a duration, [`AnimationChannel`]s and
//!   optional named [`ClipEvent`]s. A channel drives one property
//!   ([`AnimatedProperty`]: a part of the transform, or the
//!   [`MorphWeights`](crate::MorphWeights)) of one
//!   [`GameObject`](crate::GameObject) through keyframes, with
//!   [`Interpolation::Step`], [`Linear`](Interpolation::Linear) or
//!   [`CubicSpline`](Interpolation::CubicSpline) (glTF 2.0 semantics). Clips
//!   are validated once, by [`AnimationClip::new`], which returns an
//!   [`AnimationClipError`] naming the bad channel instead of panicking.
//! - An [`AnimationPlayer`] is a component holding clips, masks and the play
//!   state: the playing [`AnimationLayer`]s (each a clip with its own time,
//!   speed, looping and weight), the current clip, speed, pause, the events
//!   of the last step and root-motion totals.
//!
//! Targets are GameObjects, so a clip is built once its targets exist: an
//! importer spawns the nodes first, then builds channels from
//! `(GameObject, property, times, values, interpolation)`.
//! [`AnimationClip::retarget`] moves a clip to another copy of the same model.
//!
//! ```
//! use taos_core::prelude::*;
//!
//! let mut scene = Scene::new();
//! let model = scene.spawn("Model");
//! let door = scene.spawn_child(model, "Door")?;
//!
//! // Slide the door 10 units along +X over 2 seconds.
//! let open = AnimationClip::new(
//!     "open",
//!     vec![AnimationChannel::translation(
//!         door,
//!         vec![0.0, 2.0],
//!         vec![Vec3::ZERO, Vec3::new(10.0, 0.0, 0.0)],
//!         Interpolation::Linear,
//!     )],
//! )?;
//! let mut player = AnimationPlayer::new();
//! let open = player.add_clip(open);
//! player.play(open)?;
//! scene.add_component(model, player)?;
//!
//! // One second of scene time, in frames of 0.1 s: halfway.
//! for _ in 0..10 {
//!     scene.tick(0.1);
//! }
//! let x = scene.transform(door).unwrap().position.x;
//! assert!((x - 5.0).abs() < 1e-4);
//!
//! // Time scale 0 freezes it.
//! scene.time_mut().set_scale(0.0)?;
//! scene.tick(0.1);
//! assert!((scene.transform(door).unwrap().position.x - x).abs() < 1e-6);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Layers, cross-fades and masks
//! [`AnimationPlayer::play`] plays one clip, replacing whatever played.
//! [`play_layer`](AnimationPlayer::play_layer) adds another on top, with
//! [`LayerSettings`] (weight, speed, looping, additive, mask). Where
//! several blended layers animate one property, the result is their
//! weighted average, normalised by the total weight: translation and scale
//! average, rotations are summed as quaternions aligned to the first one's
//! hemisphere and normalised (nlerp), morph weights average. A property a
//! clip does not animate is not touched by that clip.
//!
//! - [`cross_fade(to, seconds)`](AnimationPlayer::cross_fade) fades every
//!   layer's weight to 0 and `to`'s to 1, linearly over that much scene
//!   time; then only `to` plays. 0 seconds switches at once.
//!   [`fade_weight`](AnimationPlayer::fade_weight) fades one layer.
//! - An [`AnimationMask`] (registered with
//!   [`add_mask`](AnimationPlayer::add_mask)) limits a layer to some
//!   targets: outside it the layer contributes nothing.
//!   [`AnimationMask::subtree`] takes a bone and everything below it;
//!   [`inverted`](AnimationMask::inverted) the rest of the body.
//! - An **additive** layer adds `weight * (value(t) - value(0))` to what
//!   the blended layers produced (rotations: turns by the change from its
//!   first frame, slerped from identity by the weight), only on properties
//!   the blended layers animate.
//!
//! ## Events and root motion
//! [`AnimationClip::add_event`] names moments of a clip. Each step, every
//! layer reports the events its time crossed (forward, backward, across
//! loop wraps; once per crossing) as [`AnimationEvent`]s, in order:
//! [`events`](AnimationPlayer::events) holds the last step's, and
//! [`drain_events`](AnimationPlayer::drain_events) takes them. Layers
//! report whatever their weight, so a cross-fade reports both clips' events;
//! filter by [`AnimationEvent::clip`] when that matters. [`Locomotion`]
//! blends idle, walk and run by speed with the strides in phase, and passes
//! only the leading stride's events.
//!
//! [`set_root_motion(Some(bone))`](AnimationPlayer::set_root_motion) keeps
//! the bone at its clip-start X and Z and moves the player's own object by
//! the bone's horizontal travel instead, turned by the object's rotation;
//! loop wraps carry on forward.
//!
//! ```
//! use taos_core::prelude::*;
//! use taos_core::{AnimationMask, LayerSettings};
//!
//! let mut scene = Scene::new();
//! let hero = scene.spawn("Hero");
//! let hips = scene.spawn_child(hero, "Hips")?;
//! let arm = scene.spawn_child(hips, "Arm")?;
//! let stride = |length: f32| {
//!     AnimationChannel::translation(
//!         hips,
//!         vec![0.0, 1.0],
//!         vec![Vec3::Y, Vec3::new(0.0, 1.0, length)],
//!         Interpolation::Linear,
//!     )
//! };
//! let walk = AnimationClip::new("walk", vec![stride(1.0)])?
//!     .with_event(0.25, "left")?
//!     .with_event(0.75, "right")?;
//! let run = AnimationClip::new("run", vec![stride(3.0)])?;
//! let wave = AnimationClip::new(
//!     "wave",
//!     vec![AnimationChannel::rotation(
//!         arm,
//!         vec![0.0, 0.5],
//!         vec![Quat::IDENTITY, Quat::from_rotation_z(1.0)],
//!         Interpolation::Linear,
//!     )],
//! )?;
//!
//! let mut player = AnimationPlayer::new();
//! let (walk, run, wave) = (player.add_clip(walk), player.add_clip(run), player.add_clip(wave));
//! let arm_only = player.add_mask(AnimationMask::subtree(&scene, arm));
//! player.set_looping(true);
//! player.set_root_motion(Some(hips));
//! player.play(walk)?;
//! player.play_layer(wave, LayerSettings::default().mask(arm_only))?;
//! scene.add_component(hero, player)?;
//!
//! for _ in 0..3 {
//!     scene.tick(0.1);
//! }
//! let mut player = scene.get_component_mut::<AnimationPlayer>(hero).unwrap();
//! // The last step went from 0.2 s to 0.3 s, over the left footstep.
//! let steps: Vec<String> = player.drain_events().map(|e| e.name().to_owned()).collect();
//! assert_eq!(steps, ["left"]);
//! player.cross_fade(run, 0.5)?; // half a second from walking to running
//! drop(player);
//! for _ in 0..10 {
//!     scene.tick(0.1);
//! }
//! let player = scene.get_component::<AnimationPlayer>(hero).unwrap();
//! assert_eq!(player.layers().len(), 1); // the walk and the wave faded out
//! // The hips stayed; the hero walked and then ran forward.
//! assert_eq!(scene.transform(hips).unwrap().position.z, 0.0);
//! assert!(scene.transform(hero).unwrap().position.z > 1.0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Snapshots and replays
//! Players step on scene time with the scaled delta, in fixed ticks under a
//! fixed-step loop, with no wall clock and no randomness, so recordings
//! replay bit for bit. [`Snapshot`](crate::game_loop::Snapshot)s carry
//! every player's play state (layers, times, weights, fade progress, the
//! last step's events, root-motion totals) and the
//! [`MorphWeights`](crate::MorphWeights); clips, masks and the root-motion
//! bone are setup, and stay as the live player has them. A restore in the
//! middle of a cross-fade carries on exactly.
//!
//! ## Where it runs in a frame
//! The scene steps every player at the start of [`Scene::update`](crate::Scene::update),
//! before behaviours and systems, with the same scaled `dt` they get. So:
//! - it follows **scene time**: time scale 0 freezes it, a paused loop pauses it,
//!   and a fixed-step loop advances it once per tick, deterministically (it
//!   replays bit for bit like the rest of the simulation);
//! - behaviours and systems in the same update see this tick's pose, and may
//!   adjust it (a look-at on top of an animated head): their writes win;
//! - transforms are refreshed after the update as usual, so children of
//!   animated nodes follow in world space.
//!
//! It does not run in `update_render`. Under the fixed-step loop with render
//! interpolation ([`Scene::interpolates`](crate::Scene::interpolates)), frames
//! drawn between ticks place rendered objects between their last two tick
//! placements; since animation writes transforms inside ticks, animated
//! objects are recorded and smoothed like any other moving object, and
//! nothing writes them per frame to fight the interpolation. The cost is that
//! an animation is sampled at the tick rate; interpolation hides that.

mod blend;
mod clip;
mod locomotion;
mod mask;
mod player;
mod sample;

pub(crate) use blend::PoseValue;
pub use clip::{
    AnimatedProperty, AnimationChannel, AnimationClip, AnimationClipError, AnimationEventError,
    ChannelProblem, ClipEvent, Interpolation,
};
pub use locomotion::{Locomotion, LocomotionError, LocomotionWeights};
pub use mask::AnimationMask;
pub(crate) use player::PlayState;
pub use player::{
    AnimationEvent, AnimationLayer, AnimationPlayer, AnimationPlayerError, ClipId, LayerSettings,
    MaskId,
};
