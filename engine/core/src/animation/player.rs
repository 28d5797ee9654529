//! The [`AnimationPlayer`] component: which clip plays, where it is, how fast.

use bevy_ecs::component::Component;

use super::AnimationClip;

/// Names one clip of one [`AnimationPlayer`]: returned by
/// [`AnimationPlayer::add_clip`] and [`AnimationPlayer::find_clip`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClipId(u32);

impl ClipId {
    /// Position of the clip in its player, in the order clips were added.
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
/// After advancing, it writes the current clip's value at
/// [`time`](Self::time) into the targets' local [`Transform`](crate::Transform)s,
/// only the properties the clip has channels for; targets that were removed
/// are skipped. It writes only when its time moved or after
/// [`play`](Self::play), [`stop`](Self::stop) or [`seek`](Self::seek), so a
/// paused or finished player leaves the targets free to be moved by hand.
///
/// **Speed** multiplies scene time. It may be negative: the clip plays
/// backwards, [`play`](Self::play) and [`stop`](Self::stop) start it from
/// its end, and without looping it finishes at time 0. Speed 0 holds it.
///
/// **Looping** (off by default) wraps time into `0..duration`; without it,
/// time stops at the end and [`is_finished`](Self::is_finished) turns true.
#[derive(Component, Debug, Clone, PartialEq)]
pub struct AnimationPlayer {
    clips: Vec<AnimationClip>,
    current: Option<ClipId>,
    time: f32,
    speed: f32,
    looping: bool,
    paused: bool,
    /// The targets have not been written since time last changed.
    pose_pending: bool,
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
            current: None,
            time: 0.0,
            speed: 1.0,
            looping: false,
            paused: false,
            pose_pending: false,
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

    /// Makes `clip` current and plays it from its start (time 0, or its end
    /// when the speed is negative), unpaused.
    ///
    /// # Errors
    /// [`AnimationPlayerError::UnknownClip`] when `clip` is not one of this player's.
    pub fn play(&mut self, clip: ClipId) -> Result<(), AnimationPlayerError> {
        if self.clip(clip).is_none() {
            return Err(AnimationPlayerError::UnknownClip {
                clip,
                clips: self.clips.len(),
            });
        }
        self.current = Some(clip);
        self.paused = false;
        self.rewind();
        Ok(())
    }

    /// Stops advancing; the targets keep their pose.
    pub fn pause(&mut self) {
        self.paused = true;
    }

    /// Advances again after [`pause`](Self::pause) or [`stop`](Self::stop).
    pub fn resume(&mut self) {
        self.paused = false;
    }

    /// Pauses and goes back to the start (time 0, or the end when the speed
    /// is negative); the targets get the start pose at the next update.
    pub fn stop(&mut self) {
        self.paused = true;
        self.rewind();
    }

    fn rewind(&mut self) {
        self.time = if self.speed < 0.0 {
            self.current_clip().map_or(0.0, AnimationClip::duration)
        } else {
            0.0
        };
        self.pose_pending = true;
    }

    /// Sets the speed: 1 normal, 2 twice as fast, 0 held, negative backwards.
    ///
    /// # Errors
    /// [`AnimationPlayerError::InvalidSpeed`] for NaN or infinity; the old speed stays.
    pub fn set_speed(&mut self, speed: f32) -> Result<(), AnimationPlayerError> {
        if !speed.is_finite() {
            return Err(AnimationPlayerError::InvalidSpeed { speed });
        }
        self.speed = speed;
        Ok(())
    }

    /// Turns looping on or off. Turning it off on a looping player lets the
    /// current lap run to the end.
    pub fn set_looping(&mut self, looping: bool) {
        self.looping = looping;
    }

    /// Jumps to `time` seconds into the current clip, clamped to
    /// `0..=duration`; the targets get that pose at the next update, even
    /// while paused.
    ///
    /// # Errors
    /// [`AnimationPlayerError::NoCurrentClip`] before any [`play`](Self::play),
    /// [`AnimationPlayerError::InvalidTime`] for NaN or infinity.
    pub fn seek(&mut self, time: f32) -> Result<(), AnimationPlayerError> {
        let duration = self
            .current_clip()
            .ok_or(AnimationPlayerError::NoCurrentClip)?
            .duration();
        if !time.is_finite() {
            return Err(AnimationPlayerError::InvalidTime { time });
        }
        self.time = time.clamp(0.0, duration);
        self.pose_pending = true;
        Ok(())
    }

    /// The current clip's id, if one was played.
    #[must_use]
    pub fn current(&self) -> Option<ClipId> {
        self.current
    }

    /// The current clip, if one was played.
    #[must_use]
    pub fn current_clip(&self) -> Option<&AnimationClip> {
        self.current.and_then(|id| self.clip(id))
    }

    /// Seconds into the current clip.
    #[must_use]
    pub fn time(&self) -> f32 {
        self.time
    }

    /// The speed multiplier.
    #[must_use]
    pub fn speed(&self) -> f32 {
        self.speed
    }

    /// Whether time wraps at the end.
    #[must_use]
    pub fn is_looping(&self) -> bool {
        self.looping
    }

    /// Whether [`pause`](Self::pause) or [`stop`](Self::stop) holds it.
    #[must_use]
    pub fn is_paused(&self) -> bool {
        self.paused
    }

    /// `true` while scene time moves it: a clip is current, it is not paused,
    /// and it has not finished.
    #[must_use]
    pub fn is_playing(&self) -> bool {
        self.current.is_some() && !self.paused && !self.is_finished()
    }

    /// `true` once a non-looping clip has reached its end (its start, when
    /// playing backwards). [`play`](Self::play), [`stop`](Self::stop) or
    /// [`seek`](Self::seek) start it over.
    #[must_use]
    pub fn is_finished(&self) -> bool {
        let Some(clip) = self.current_clip() else {
            return false;
        };
        !self.looping
            && if self.speed < 0.0 {
                self.time <= 0.0
            } else {
                self.time >= clip.duration()
            }
    }

    /// Advances by `dt` scene seconds; returns the clip and time to write
    /// when the targets need a new pose.
    pub(crate) fn step(&mut self, dt: f32) -> Option<(&AnimationClip, f32)> {
        if self.is_playing() && dt != 0.0 && self.speed != 0.0 {
            let duration = self.current_clip().map_or(0.0, AnimationClip::duration);
            let time = self.time + dt * self.speed;
            let time = if !self.looping {
                time.clamp(0.0, duration)
            } else if duration > 0.0 {
                time.rem_euclid(duration)
            } else {
                0.0
            };
            if time != self.time {
                self.time = time;
                self.pose_pending = true;
            }
        }
        if !std::mem::take(&mut self.pose_pending) {
            return None;
        }
        let time = self.time;
        self.current_clip().map(|clip| (clip, time))
    }
}

#[cfg(test)]
mod tests {
    use bevy_ecs::entity::Entity;
    use glam::Vec3;

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
}
