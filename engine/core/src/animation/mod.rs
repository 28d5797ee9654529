//! Node animation: keyframed translation, rotation and scale of GameObjects,
//! played by an [`AnimationPlayer`] on scene time.
//!
//! - An [`AnimationClip`] is a name, a duration and [`AnimationChannel`]s. A
//!   channel drives one property ([`AnimatedProperty`]) of one
//!   [`GameObject`](crate::GameObject) through keyframes, with
//!   [`Interpolation::Step`], [`Linear`](Interpolation::Linear) or
//!   [`CubicSpline`](Interpolation::CubicSpline) (glTF 2.0 semantics). Clips
//!   are validated once, by [`AnimationClip::new`], which returns an
//!   [`AnimationClipError`] naming the bad channel instead of panicking.
//! - An [`AnimationPlayer`] is a component holding clips and the play state
//!   (current clip, time, speed, looping, paused).
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
mod mask;
mod player;
mod sample;

pub(crate) use blend::PoseValue;
pub use clip::{
    AnimatedProperty, AnimationChannel, AnimationClip, AnimationClipError, AnimationEventError,
    ChannelProblem, ClipEvent, Interpolation,
};
pub use mask::AnimationMask;
pub(crate) use player::PlayState;
pub use player::{
    AnimationEvent, AnimationLayer, AnimationPlayer, AnimationPlayerError, ClipId, LayerSettings,
    MaskId,
};
