//! Sound clips: decoded audio shared by every source that plays it.

use std::io::Cursor;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use kira::Frame;
use kira::sound::static_sound::StaticSoundData;

use crate::AudioError;

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
    /// [`AudioError::Read`] if the file cannot be read, [`AudioError::Decode`]
    /// if it is not a sound this build decodes.
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
    /// [`AudioError::Decode`] if the bytes are not a sound this build decodes.
    pub fn from_bytes(bytes: impl Into<Vec<u8>>) -> Result<Self, AudioError> {
        Self::decode(bytes.into(), "<bytes>")
    }

    fn decode(bytes: Vec<u8>, origin: &str) -> Result<Self, AudioError> {
        let data = StaticSoundData::from_cursor(Cursor::new(bytes)).map_err(|error| {
            AudioError::Decode {
                origin: origin.to_owned(),
                reason: error.to_string(),
            }
        })?;
        if data.frames.is_empty() {
            return Err(AudioError::Decode {
                origin: origin.to_owned(),
                reason: "no samples".to_owned(),
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

    /// How long the clip plays once.
    #[must_use]
    pub fn duration(&self) -> Duration {
        self.data.duration()
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

fn finite(sample: f32) -> f32 {
    if sample.is_finite() {
        sample.clamp(-1.0, 1.0)
    } else {
        0.0
    }
}
