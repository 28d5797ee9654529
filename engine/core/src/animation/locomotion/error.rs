//! [`LocomotionError`]: a [`Locomotion`](super::Locomotion) setting refused.

use crate::animation::ClipId;

/// Why a [`Locomotion`](super::Locomotion) setting was refused.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum LocomotionError {
    /// A reference speed that is NaN, infinite, zero or negative.
    #[error("the reference speed of {clip:?} must be finite and > 0, got {speed}")]
    InvalidSpeed {
        /// The clip it was given for.
        clip: ClipId,
        /// The rejected value.
        speed: f32,
    },
    /// The run's reference speed is not above the walk's.
    #[error("the run's reference speed ({run}) must be above the walk's ({walk})")]
    RunNotFaster {
        /// The walk's reference speed.
        walk: f32,
        /// The rejected run speed.
        run: f32,
    },
    /// One clip given for two gaits (a clip plays in one layer at most).
    #[error("{clip:?} is given for two gaits")]
    SameClip {
        /// The clip given twice.
        clip: ClipId,
    },
    /// A blend time that is NaN, infinite or negative.
    #[error("the blend time must be finite and >= 0, got {seconds}")]
    InvalidBlendTime {
        /// The rejected value.
        seconds: f32,
    },
    /// A playback range that is not `0 <= min <= max`, finite, with `max > 0`.
    #[error(
        "the playback range must be finite with 0 <= min <= max and max > 0, got {min}..={max}"
    )]
    InvalidPlaybackRange {
        /// The rejected lower bound.
        min: f32,
        /// The rejected upper bound.
        max: f32,
    },
}
