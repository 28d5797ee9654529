//! The [`AnimationPlayer`] component: which clips play, where they are, how
//! fast and how strongly; cross-fades, masks, events and root motion.

mod advance;
mod events;
mod layers;
mod playback;
mod root_motion;
mod state;
#[cfg(test)]
mod tests;

use bevy_ecs::component::Component;
use serde::{Deserialize, Serialize};

use super::AnimationClip;
use super::blend::Pose;
use super::mask::AnimationMask;
use crate::object::GameObject;

pub use events::AnimationEvent;
pub use layers::{AnimationLayer, LayerSettings};
pub(crate) use state::PlayState;

/// Names one clip of one [`AnimationPlayer`]: returned by
/// [`AnimationPlayer::add_clip`] and [`AnimationPlayer::find_clip`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct ClipId(u32);

impl ClipId {
    /// Position of the clip in its player, in the order clips were added.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// Names one [`AnimationMask`] of one [`AnimationPlayer`]: returned by
/// [`AnimationPlayer::add_mask`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct MaskId(u32);

impl MaskId {
    /// Position of the mask in its player, in the order masks were added.
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// Why an [`AnimationPlayer`] call was refused. Nothing was changed.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum AnimationPlayerError {
    /// The id names no clip of this player (it came from another player).
    #[error("{clip:?} is not one of this player's {clips} clips")]
    UnknownClip {
        /// The id given.
        clip: ClipId,
        /// How many clips the player holds.
        clips: usize,
    },
    /// [`seek`](AnimationPlayer::seek) needs a current clip.
    #[error("no clip is current: play one before seeking")]
    NoCurrentClip,
    /// A speed that is NaN or infinite.
    #[error("animation speed must be finite, got {speed}")]
    InvalidSpeed {
        /// The rejected value.
        speed: f32,
    },
    /// A seek time that is NaN or infinite.
    #[error("seek time must be finite, got {time}")]
    InvalidTime {
        /// The rejected value.
        time: f32,
    },
    /// A layer weight that is NaN, infinite or negative.
    #[error("layer weight must be finite and >= 0, got {weight}")]
    InvalidWeight {
        /// The rejected value.
        weight: f32,
    },
    /// A fade duration that is NaN, infinite or negative.
    #[error("fade duration must be finite and >= 0, got {duration}")]
    InvalidDuration {
        /// The rejected value.
        duration: f32,
    },
    /// The id names no mask of this player.
    #[error("{mask:?} is not one of this player's {masks} masks")]
    UnknownMask {
        /// The id given.
        mask: MaskId,
        /// How many masks the player holds.
        masks: usize,
    },
    /// The clip is one of this player's but is not playing as a layer.
    #[error("{clip:?} is not playing")]
    NotPlaying {
        /// The id given.
        clip: ClipId,
    },
}
/// Scratch buffers reused from step to step; never part of the state.
#[derive(Debug, Default)]
struct Scratch(Pose);

impl Clone for Scratch {
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl PartialEq for Scratch {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
/// Plays [`AnimationClip`]s on the GameObjects they target.
///
/// Put it on any GameObject (usually the root of an imported model) with
/// [`Scene::add_component`](crate::Scene::add_component) and control it
/// through [`Scene::get_component_mut`](crate::Scene::get_component_mut).
/// The scene advances it by its **scaled** delta at the start of every
/// [`Scene::update`](crate::Scene::update): time scale 0 freezes it, and a
/// paused loop (which runs no update) pauses it. A player on an inactive
/// object (disabled, or below a disabled ancestor) does not advance.
///
/// After advancing, it writes the pose at the clips' times into the targets'
/// local [`Transform`](crate::Transform)s and [`MorphWeights`](crate::MorphWeights),
/// only the properties its clips have channels for; targets that were
/// removed are skipped. It writes only when a time or weight moved or after
/// [`play`](Self::play), [`stop`](Self::stop) or [`seek`](Self::seek), so a
/// paused or finished player leaves the targets free to be moved by hand.
///
/// **Speed** multiplies scene time. It may be negative: the clip plays
/// backwards, [`play`](Self::play) and [`stop`](Self::stop) start it from
/// its end, and without looping it finishes at time 0. Speed 0 holds it.
///
/// **Looping** (off by default) wraps time into `0..duration`; without it,
/// time stops at the end and [`is_finished`](Self::is_finished) turns true.
///
/// # Layers
/// Several clips may play at once, each as an [`AnimationLayer`] with its
/// own time, speed, looping and weight. [`play`](Self::play) replaces every
/// layer with one (the *current* clip); [`play_layer`](Self::play_layer)
/// adds one; [`cross_fade`](Self::cross_fade) fades everything out and
/// another clip in. A property animated by several blended layers gets the
/// weighted average of their values, normalised by the total weight
/// (rotations: the normalised weighted sum, each aligned to the first's
/// hemisphere). A layer with a [mask](AnimationMask) leaves the targets
/// outside it alone. Additive layers then add their change since their
/// clip's first frame, times their weight, to properties the blended
/// layers animate. Layers are identified by clip: a clip plays in one
/// layer at most.
///
/// # Events and root motion
/// Every step, events whose time a layer crossed are collected, in order,
/// for [`events`](Self::events) and [`drain_events`](Self::drain_events).
/// With [`set_root_motion`](Self::set_root_motion), the horizontal travel of
/// a root bone moves the player's own object instead of the bone.
#[derive(Component, Debug, Clone, PartialEq)]
pub struct AnimationPlayer {
    clips: Vec<AnimationClip>,
    masks: Vec<AnimationMask>,
    root_motion: Option<GameObject>,
    state: PlayState,
    scratch: Scratch,
}

impl Default for AnimationPlayer {
    fn default() -> Self {
        Self::new()
    }
}

impl AnimationPlayer {
    /// A player with no clips, speed 1, not looping.
    #[must_use]
    pub fn new() -> Self {
        Self {
            clips: Vec::new(),
            masks: Vec::new(),
            root_motion: None,
            state: PlayState {
                layers: Vec::new(),
                current: None,
                speed: 1.0,
                looping: false,
                paused: false,
                pose_pending: false,
                events: Vec::new(),
                root_delta: [0.0; 3],
                root_total: [0.0; 3],
            },
            scratch: Scratch::default(),
        }
    }

    /// Adds a clip and returns its id; it does not start playing.
    pub fn add_clip(&mut self, clip: AnimationClip) -> ClipId {
        let id = ClipId(u32::try_from(self.clips.len()).unwrap_or(u32::MAX));
        self.clips.push(clip);
        id
    }

    /// The first clip with this name.
    #[must_use]
    pub fn find_clip(&self, name: &str) -> Option<ClipId> {
        let index = self.clips.iter().position(|clip| clip.name() == name)?;
        u32::try_from(index).ok().map(ClipId)
    }

    /// The clip with this id, if it is one of this player's.
    #[must_use]
    pub fn clip(&self, id: ClipId) -> Option<&AnimationClip> {
        self.clips.get(id.index())
    }

    /// Every clip, in the order added (a clip's [`ClipId::index`] is its position).
    #[must_use]
    pub fn clips(&self) -> &[AnimationClip] {
        &self.clips
    }

    /// Adds a mask for [`LayerSettings::mask`] and returns its id.
    pub fn add_mask(&mut self, mask: AnimationMask) -> MaskId {
        let id = MaskId(u32::try_from(self.masks.len()).unwrap_or(u32::MAX));
        self.masks.push(mask);
        id
    }

    /// The mask with this id, if it is one of this player's.
    #[must_use]
    pub fn mask(&self, id: MaskId) -> Option<&AnimationMask> {
        self.masks.get(id.index())
    }

    pub(super) fn check_clip(&self, clip: ClipId) -> Result<&AnimationClip, AnimationPlayerError> {
        self.clip(clip).ok_or(AnimationPlayerError::UnknownClip {
            clip,
            clips: self.clips.len(),
        })
    }
}
