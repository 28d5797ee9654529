//! Sound clips: decoded audio shared by every source that plays it.

use std::io::Cursor;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use kira::Frame;
use kira::sound::static_sound::StaticSoundData;

use crate::{AudioError, wav};

/// A decoded sound, cheap to clone (the samples are shared). Load one from a
/// WAV or OGG/Vorbis file or bytes, or make one in code from samples (see
/// [`synth`](crate::synth)).
#[derive(Clone)]
pub struct AudioClip {
    pub(crate) data: StaticSoundData,
}

impl std::fmt::Debug for AudioClip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AudioClip")
            .field("sample_rate", &self.data.sample_rate)
            .field("frames", &self.data.frames.len())
            .finish()
    }
}

impl AudioClip {
    /// Reads and decodes a WAV or OGG/Vorbis file.
    ///
    /// # Errors
    /// [`AudioError::Read`] if the file cannot be read, [`AudioError::Wav`] if
    /// it is a WAV whose header is unusable, [`AudioError::Decode`] if it is
    /// not a sound this build decodes.
    pub fn from_file(path: impl AsRef<Path>) -> Result<Self, AudioError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|source| AudioError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Self::decode(bytes, &path.display().to_string())
    }

    /// Decodes WAV or OGG/Vorbis bytes (a file embedded with `include_bytes!`,
    /// or fetched).
    ///
    /// # Errors
    /// [`AudioError::Wav`] if the bytes are a WAV whose header is unusable
    /// (a zero or absurd sample rate, no channels, a chunk larger than the
    /// bytes, ...; see [`WavError`](crate::WavError)), [`AudioError::Decode`]
    /// if they are not a sound this build decodes.
    pub fn from_bytes(bytes: impl Into<Vec<u8>>) -> Result<Self, AudioError> {
        Self::decode(bytes.into(), "<bytes>")
    }

    /// Whether `other` plays the very same decoded samples (a clone of this
    /// clip), not merely equal ones: how hot reload finds the sources
    /// playing a clip it replaces.
    #[must_use]
    pub fn same_samples(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.data.frames, &other.data.frames)
    }

    fn decode(bytes: Vec<u8>, origin: &str) -> Result<Self, AudioError> {
        // Before the decoder: it would trust the header's sizes to allocate.
        wav::check(&bytes).map_err(|problem| AudioError::Wav {
            origin: origin.to_owned(),
            problem,
        })?;
        let data = StaticSoundData::from_cursor(Cursor::new(bytes)).map_err(|error| {
            AudioError::Decode {
                origin: origin.to_owned(),
                reason: error.to_string(),
            }
        })?;
        let empty = data.frames.is_empty().then_some("no samples");
        let no_rate = (data.sample_rate == 0).then_some("the sample rate is 0");
        if let Some(reason) = empty.or(no_rate) {
            return Err(AudioError::Decode {
                origin: origin.to_owned(),
                reason: reason.to_owned(),
            });
        }
        Ok(Self { data })
    }

    /// A clip from mono samples in -1..=1 (played equally in both ears before
    /// spatialisation). Non-finite samples become silence.
    ///
    /// # Errors
    /// [`AudioError::Samples`] for a zero sample rate or no samples.
    pub fn from_mono(sample_rate: u32, samples: &[f32]) -> Result<Self, AudioError> {
        Self::from_frames(
            sample_rate,
            samples.iter().map(|&s| Frame::from_mono(finite(s))),
        )
    }

    /// A clip from stereo `[left, right]` samples in -1..=1. Non-finite samples
    /// become silence.
    ///
    /// # Errors
    /// [`AudioError::Samples`] for a zero sample rate or no samples.
    pub fn from_stereo(sample_rate: u32, samples: &[[f32; 2]]) -> Result<Self, AudioError> {
        Self::from_frames(
            sample_rate,
            samples
                .iter()
                .map(|&[l, r]| Frame::new(finite(l), finite(r))),
        )
    }

    fn from_frames(
        sample_rate: u32,
        frames: impl Iterator<Item = Frame>,
    ) -> Result<Self, AudioError> {
        if sample_rate == 0 {
            return Err(AudioError::Samples("the sample rate is 0"));
        }
        let frames: Arc<[Frame]> = frames.collect();
        if frames.is_empty() {
            return Err(AudioError::Samples("no samples"));
        }
        Ok(Self {
            data: StaticSoundData {
                sample_rate,
                frames,
                settings: Default::default(),
                slice: None,
            },
        })
    }

    /// How long the clip plays once (exact to the nanosecond, computed in
    /// integers: never panics, whatever the clip).
    #[must_use]
    pub fn duration(&self) -> Duration {
        duration(self.data.num_frames(), self.data.sample_rate)
    }

    /// Samples per second per channel.
    #[must_use]
    pub fn sample_rate(&self) -> u32 {
        self.data.sample_rate
    }

    /// The number of sample frames (one sample per channel each).
    #[must_use]
    pub fn frame_count(&self) -> usize {
        self.data.num_frames()
    }
}

/// `frames` at `sample_rate`; zero for a zero rate (no clip has one: they are
/// refused when made, but kira's own float `duration` would panic on it).
fn duration(frames: usize, sample_rate: u32) -> Duration {
    if sample_rate == 0 {
        return Duration::ZERO;
    }
    let (frames, rate) = (frames as u64, u64::from(sample_rate));
    let nanos = u128::from(frames % rate) * 1_000_000_000 / u128::from(rate);
    Duration::from_secs(frames / rate) + Duration::from_nanos(nanos as u64)
}

fn finite(sample: f32) -> f32 {
    if sample.is_finite() {
        sample.clamp(-1.0, 1.0)
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duration_is_exact_and_never_panics() {
        assert_eq!(duration(44_100, 44_100), Duration::from_secs(1));
        assert_eq!(duration(3, 8_000), Duration::from_nanos(375_000));
        assert_eq!(duration(5, 0), Duration::ZERO);
        assert_eq!(
            duration(usize::MAX, 1),
            Duration::from_secs(usize::MAX as u64)
        );
        let clip = AudioClip {
            data: StaticSoundData {
                sample_rate: 0,
                frames: Arc::new([Frame::ZERO; 4]),
                settings: Default::default(),
                slice: None,
            },
        };
        assert_eq!(clip.duration(), Duration::ZERO);
    }
}
