//! Animation clips: named sets of keyframed channels, each driving one
//! GameObject's translation, rotation, scale or morph weights, and named
//! events at clip times. Validated once, at construction.

use std::fmt;
use std::sync::Arc;

use glam::{Quat, Vec3};

use super::sample::{sample_quat, sample_vec3, sample_weights};
use crate::object::GameObject;
use crate::transform::Transform;

/// How a channel's value moves between two keyframes (glTF 2.0's three modes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Interpolation {
    /// The value of a key holds until the next key's time, then jumps.
    Step,
    /// Straight-line blend between the two keys: `lerp` for translation and
    /// scale, shortest-path `slerp` for rotation.
    #[default]
    Linear,
    /// A cubic Hermite spline. Each key holds three values, in this order:
    /// in-tangent, value, out-tangent. Tangents are in units per second and
    /// are scaled by the interval between the two keys (glTF 2.0, appendix
    /// "Interpolation"); rotations are normalised after interpolating.
    CubicSpline,
}

impl Interpolation {
    /// Values stored per keyframe: 3 for [`CubicSpline`](Self::CubicSpline), otherwise 1.
    #[must_use]
    pub const fn values_per_key(self) -> usize {
        match self {
            Self::CubicSpline => 3,
            Self::Step | Self::Linear => 1,
        }
    }
}

/// The part of a [`Transform`] a channel writes, or the target's
/// [`MorphWeights`](crate::MorphWeights).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AnimatedProperty {
    /// [`Transform::position`] (glTF's `translation`).
    Translation,
    /// [`Transform::rotation`].
    Rotation,
    /// [`Transform::scale`].
    Scale,
    /// The [`MorphWeights`](crate::MorphWeights) component (glTF's `weights`),
    /// added to the target when missing.
    Weights,
}

impl fmt::Display for AnimatedProperty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Translation => "translation",
            Self::Rotation => "rotation",
            Self::Scale => "scale",
            Self::Weights => "weights",
        })
    }
}

/// A transform value sampled from a channel.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Sample {
    Translation(Vec3),
    Rotation(Quat),
    Scale(Vec3),
}

/// Keyframe values, typed by the property they drive.
#[derive(Debug, Clone, PartialEq)]
enum Keys {
    Translation(Vec<Vec3>),
    Rotation(Vec<Quat>),
    Scale(Vec<Vec3>),
    /// `targets` weights per value, flattened.
    Weights {
        values: Vec<f32>,
        targets: usize,
    },
}

impl Keys {
    /// Values stored, counted in whole values (a weights value is `targets` floats).
    fn len(&self) -> usize {
        match self {
            Self::Translation(v) | Self::Scale(v) => v.len(),
            Self::Rotation(v) => v.len(),
            Self::Weights { values, .. } => values.len(),
        }
    }
}

/// One animated property of one GameObject: keyframe times, values and how
/// to interpolate between them.
///
/// Build it with [`translation`](Self::translation), [`rotation`](Self::rotation),
/// [`scale`](Self::scale) or [`weights`](Self::weights); nothing is checked until the channels go into
/// [`AnimationClip::new`], which reports any problem with the channel's index.
///
/// Times are in seconds from the start of the clip, strictly increasing,
/// finite and `>= 0`. Values hold one entry per time, or three
/// (in-tangent, value, out-tangent) for [`Interpolation::CubicSpline`].
#[derive(Debug, Clone, PartialEq)]
pub struct AnimationChannel {
    target: GameObject,
    times: Vec<f32>,
    keys: Keys,
    interpolation: Interpolation,
}

impl AnimationChannel {
    /// A channel driving `target`'s local position.
    #[must_use]
    pub fn translation(
        target: GameObject,
        times: Vec<f32>,
        values: Vec<Vec3>,
        interpolation: Interpolation,
    ) -> Self {
        Self {
            target,
            times,
            keys: Keys::Translation(values),
            interpolation,
        }
    }

    /// A channel driving `target`'s local rotation. Values are normalised
    /// when the clip is built (cubic-spline tangents are left as they are).
    #[must_use]
    pub fn rotation(
        target: GameObject,
        times: Vec<f32>,
        values: Vec<Quat>,
        interpolation: Interpolation,
    ) -> Self {
        Self {
            target,
            times,
            keys: Keys::Rotation(values),
            interpolation,
        }
    }

    /// A channel driving `target`'s local scale.
    #[must_use]
    pub fn scale(
        target: GameObject,
        times: Vec<f32>,
        values: Vec<Vec3>,
        interpolation: Interpolation,
    ) -> Self {
        Self {
            target,
            times,
            keys: Keys::Scale(values),
            interpolation,
        }
    }

    /// A channel driving `target`'s [`MorphWeights`](crate::MorphWeights):
    /// `targets` weights per value, flattened, so `values` holds
    /// `times.len() * targets` floats, or `3 * times.len() * targets` for
    /// [`Interpolation::CubicSpline`], where each key holds all its
    /// in-tangents, then all its values, then all its out-tangents (glTF's
    /// layout). The player adds a [`MorphWeights`](crate::MorphWeights) to
    /// the target when it has none.
    #[must_use]
    pub fn weights(
        target: GameObject,
        times: Vec<f32>,
        values: Vec<f32>,
        targets: usize,
        interpolation: Interpolation,
    ) -> Self {
        Self {
            target,
            times,
            keys: Keys::Weights { values, targets },
            interpolation,
        }
    }

    /// Number of morph targets a [`Weights`](AnimatedProperty::Weights)
    /// channel drives; 0 for the other properties.
    #[must_use]
    pub fn morph_targets(&self) -> usize {
        match self.keys {
            Keys::Weights { targets, .. } => targets,
            _ => 0,
        }
    }

    /// The GameObject this channel writes.
    #[must_use]
    pub fn target(&self) -> GameObject {
        self.target
    }

    /// Points the channel at another GameObject (see [`AnimationClip::retarget`]).
    pub fn set_target(&mut self, target: GameObject) {
        self.target = target;
    }

    /// Which part of the transform it writes.
    #[must_use]
    pub fn property(&self) -> AnimatedProperty {
        match self.keys {
            Keys::Translation(_) => AnimatedProperty::Translation,
            Keys::Rotation(_) => AnimatedProperty::Rotation,
            Keys::Scale(_) => AnimatedProperty::Scale,
            Keys::Weights { .. } => AnimatedProperty::Weights,
        }
    }

    /// How values move between keys.
    #[must_use]
    pub fn interpolation(&self) -> Interpolation {
        self.interpolation
    }

    /// The keyframe times, in seconds.
    #[must_use]
    pub fn times(&self) -> &[f32] {
        &self.times
    }

    /// Time of the last key (0 for a channel without keys, which a clip never holds).
    #[must_use]
    pub fn end_time(&self) -> f32 {
        self.times.last().copied().unwrap_or(0.0)
    }

    /// Writes this channel's value at `time` (seconds, clamped to the first
    /// and last keys) into the matching field of `transform`, leaving the
    /// other fields alone. A [`Weights`](AnimatedProperty::Weights) channel
    /// writes nothing here (see [`sample_weights`](Self::sample_weights)).
    pub fn apply(&self, time: f32, transform: &mut Transform) {
        match self.sample(time) {
            Some(Sample::Translation(v)) => transform.position = v,
            Some(Sample::Rotation(q)) => transform.rotation = q,
            Some(Sample::Scale(v)) => transform.scale = v,
            None => {}
        }
    }

    /// Writes a [`Weights`](AnimatedProperty::Weights) channel's weights at
    /// `time` into `out`: `out.len()` of them, at most
    /// [`morph_targets`](Self::morph_targets). Returns `false` (writing
    /// nothing) for the other properties.
    pub fn sample_weights(&self, time: f32, out: &mut [f32]) -> bool {
        let Keys::Weights { values, targets } = &self.keys else {
            return false;
        };
        if self.times.is_empty() || values.len() < self.times.len() * targets {
            return false; // only reachable before validation
        }
        sample_weights(&self.times, values, *targets, self.interpolation, time, out);
        true
    }

    /// The transform value at `time`; `None` for weights (and before validation).
    pub(crate) fn sample(&self, time: f32) -> Option<Sample> {
        if self.times.is_empty() {
            return None; // only reachable before validation
        }
        let (times, mode) = (&self.times[..], self.interpolation);
        Some(match &self.keys {
            Keys::Translation(values) => {
                Sample::Translation(sample_vec3(times, values, mode, time))
            }
            Keys::Rotation(values) => Sample::Rotation(sample_quat(times, values, mode, time)),
            Keys::Scale(values) => Sample::Scale(sample_vec3(times, values, mode, time)),
            Keys::Weights { .. } => return None,
        })
    }

    /// Checks the channel and normalises rotation values.
    fn validate(&mut self) -> Result<(), ChannelProblem> {
        if self.times.is_empty() {
            return Err(ChannelProblem::Empty);
        }
        let mut previous: Option<f32> = None;
        for (index, &time) in self.times.iter().enumerate() {
            if !time.is_finite() || time < 0.0 {
                return Err(ChannelProblem::InvalidTime { index, time });
            }
            if let Some(previous) = previous
                && time <= previous
            {
                return Err(ChannelProblem::TimesNotIncreasing {
                    index,
                    previous,
                    time,
                });
            }
            previous = Some(time);
        }
        let per_key = self.interpolation.values_per_key();
        let floats_per_value = match self.keys {
            Keys::Weights { targets: 0, .. } => return Err(ChannelProblem::NoMorphTargets),
            Keys::Weights { targets, .. } => targets,
            _ => 1,
        };
        let expected = self
            .times
            .len()
            .saturating_mul(per_key)
            .saturating_mul(floats_per_value);
        if self.keys.len() != expected {
            return Err(ChannelProblem::ValueCountMismatch {
                times: self.times.len(),
                values: self.keys.len(),
                expected,
            });
        }
        match &mut self.keys {
            Keys::Weights { values, .. } => {
                if let Some(index) = values.iter().position(|w| !w.is_finite()) {
                    return Err(ChannelProblem::NonFiniteValue { index });
                }
            }
            Keys::Translation(values) | Keys::Scale(values) => {
                if let Some(index) = values.iter().position(|v| !v.is_finite()) {
                    return Err(ChannelProblem::NonFiniteValue { index });
                }
            }
            Keys::Rotation(values) => {
                if let Some(index) = values.iter().position(|q| !q.is_finite()) {
                    return Err(ChannelProblem::NonFiniteValue { index });
                }
                // With cubic splines only the middle entry of each key is a rotation.
                let value_slot = per_key / 2;
                for (index, q) in values.iter_mut().enumerate() {
                    if index % per_key != value_slot {
                        continue;
                    }
                    // Finite components (checked above) give a finite or
                    // overflowing length, never NaN.
                    let length = q.length();
                    if length <= f32::EPSILON || !length.is_finite() {
                        return Err(ChannelProblem::ZeroRotation { index });
                    }
                    *q = Quat::from_vec4(glam::Vec4::from(*q) / length);
                }
            }
        }
        Ok(())
    }
}

/// What is wrong with one channel (see [`AnimationClipError`]).
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ChannelProblem {
    /// The channel has no keyframes.
    #[error("it has no keyframes")]
    Empty,
    /// A keyframe time is negative, NaN or infinite.
    #[error("keyframe {index} has time {time}, which is not finite and >= 0")]
    InvalidTime {
        /// Index of the keyframe.
        index: usize,
        /// Its time.
        time: f32,
    },
    /// A keyframe time is not after the one before it.
    #[error("keyframe {index} at {time} s does not come after keyframe {} at {previous} s", index - 1)]
    TimesNotIncreasing {
        /// Index of the keyframe out of order.
        index: usize,
        /// Time of the keyframe before it.
        previous: f32,
        /// Its time.
        time: f32,
    },
    /// A weights channel for zero morph targets.
    #[error("a weights channel needs at least one morph target")]
    NoMorphTargets,
    /// The number of values does not fit the number of times and the
    /// interpolation (and, for weights, the number of morph targets: values
    /// are then counted in floats).
    #[error("{times} keyframe times need {expected} values, got {values}")]
    ValueCountMismatch {
        /// Number of keyframe times.
        times: usize,
        /// Number of values given.
        values: usize,
        /// Number expected: `times`, or `3 * times` for cubic splines (times
        /// the morph target count for weights).
        expected: usize,
    },
    /// A value (or cubic-spline tangent) holds NaN or infinity.
    #[error("value {index} is not finite")]
    NonFiniteValue {
        /// Index into the values (tangents included).
        index: usize,
    },
    /// A rotation value has (nearly) zero length, so it names no rotation.
    #[error("rotation value {index} has zero length")]
    ZeroRotation {
        /// Index into the values (tangents included).
        index: usize,
    },
}

/// Returned by [`AnimationClip::new`]: which channel of which clip is wrong,
/// and how. Nothing was built.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
#[error("animation clip {clip:?}, channel {channel} ({property} of {target:?}): {problem}")]
pub struct AnimationClipError {
    /// The clip's name.
    pub clip: String,
    /// Index of the channel in the list given to [`AnimationClip::new`].
    pub channel: usize,
    /// The channel's target.
    pub target: GameObject,
    /// The property it animates.
    pub property: AnimatedProperty,
    /// What is wrong.
    pub problem: ChannelProblem,
}

/// A named moment of an [`AnimationClip`] (a footstep, a sword hit): an
/// [`AnimationPlayer`](crate::AnimationPlayer) reports it as an
/// [`AnimationEvent`](crate::AnimationEvent) each time a playing clip's time
/// crosses it. Added with [`AnimationClip::add_event`].
#[derive(Debug, Clone, PartialEq)]
pub struct ClipEvent {
    time: f32,
    name: Arc<str>,
}

impl ClipEvent {
    /// Seconds from the start of the clip.
    #[must_use]
    pub fn time(&self) -> f32 {
        self.time
    }

    /// The event's name.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    pub(crate) fn shared_name(&self) -> &Arc<str> {
        &self.name
    }
}

/// Returned by [`AnimationClip::add_event`]: the event was not added.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum AnimationEventError {
    /// The time is NaN, infinite, negative or past the clip's duration.
    #[error("event {name:?} at {time} s lies outside the clip's 0..={duration} s")]
    InvalidTime {
        /// The event's name.
        name: String,
        /// The rejected time.
        time: f32,
        /// The clip's duration.
        duration: f32,
    },
}

/// A named animation: channels that each drive one property of one
/// GameObject, over [`duration`](Self::duration) seconds, and optional
/// [`ClipEvent`]s at clip times.
///
/// The duration is the time of the latest key of any channel; a channel that
/// ends earlier holds its last value from then on, and one that starts later
/// holds its first value until then.
#[derive(Debug, Clone, PartialEq)]
pub struct AnimationClip {
    name: String,
    duration: f32,
    channels: Vec<AnimationChannel>,
    /// Sorted by time; equal times keep the order added.
    events: Vec<ClipEvent>,
}

impl AnimationClip {
    /// Builds a clip from its channels, checking each one: keys present,
    /// times finite, `>= 0` and strictly increasing, one value per time
    /// (three for cubic splines), values finite, rotations of non-zero length
    /// (they are normalised). A clip without channels is valid and lasts 0 s.
    ///
    /// # Errors
    /// [`AnimationClipError`] naming the first bad channel and its problem.
    pub fn new(
        name: impl Into<String>,
        channels: Vec<AnimationChannel>,
    ) -> Result<Self, AnimationClipError> {
        let name = name.into();
        let mut channels = channels;
        for (index, channel) in channels.iter_mut().enumerate() {
            channel.validate().map_err(|problem| AnimationClipError {
                clip: name.clone(),
                channel: index,
                target: channel.target,
                property: channel.property(),
                problem,
            })?;
        }
        let duration = channels
            .iter()
            .map(AnimationChannel::end_time)
            .fold(0.0, f32::max);
        Ok(Self {
            name,
            duration,
            channels,
            events: Vec::new(),
        })
    }

    /// Adds a named event at `time` seconds into the clip (within
    /// `0..=duration`). Events at the same time are reported in the order
    /// added. A player reports an event when a layer's time crosses it: not
    /// at the time a clip starts from, but at each loop wrap onto it (on a
    /// loop, time 0 and the duration are the same moment, so events at
    /// either are reported there).
    ///
    /// # Errors
    /// [`AnimationEventError::InvalidTime`] for a time that is not finite or
    /// lies outside the clip; nothing is added.
    pub fn add_event(
        &mut self,
        time: f32,
        name: impl Into<Arc<str>>,
    ) -> Result<(), AnimationEventError> {
        let name = name.into();
        if !time.is_finite() || !(0.0..=self.duration).contains(&time) {
            return Err(AnimationEventError::InvalidTime {
                name: name.to_string(),
                time,
                duration: self.duration,
            });
        }
        let at = self.events.partition_point(|event| event.time <= time);
        self.events.insert(at, ClipEvent { time, name });
        Ok(())
    }

    /// [`add_event`](Self::add_event), for building a clip in one expression.
    ///
    /// # Errors
    /// As [`add_event`](Self::add_event).
    pub fn with_event(
        mut self,
        time: f32,
        name: impl Into<Arc<str>>,
    ) -> Result<Self, AnimationEventError> {
        self.add_event(time, name)?;
        Ok(self)
    }

    /// The events, sorted by time.
    #[must_use]
    pub fn events(&self) -> &[ClipEvent] {
        &self.events
    }

    /// The clip's name (glTF animations may be unnamed: then it is whatever the importer chose).
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Seconds from the start to the last key of any channel.
    #[must_use]
    pub fn duration(&self) -> f32 {
        self.duration
    }

    /// The channels, in the order given.
    #[must_use]
    pub fn channels(&self) -> &[AnimationChannel] {
        &self.channels
    }

    /// Points every channel at another object: `map` gets each channel's
    /// target and returns the new one. For reusing a clip on a second copy
    /// of a model, mapping the first copy's nodes to the second's.
    pub fn retarget(&mut self, mut map: impl FnMut(GameObject) -> GameObject) {
        for channel in &mut self.channels {
            channel.target = map(channel.target);
        }
    }
}

#[cfg(test)]
mod tests;
