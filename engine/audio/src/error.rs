//! What can go wrong loading clips and mixing.

use std::path::PathBuf;

use crate::WavError;

/// A clip could not be loaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AudioError {
    /// The file could not be read.
    #[error("cannot read sound {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The bytes are not a WAV or OGG/Vorbis stream this build decodes.
    #[error("cannot decode sound {origin}: {reason} (WAV and OGG/Vorbis are supported)")]
    Decode {
        /// The file, or `<bytes>`.
        origin: String,
        /// The decoder's message.
        reason: String,
    },
    /// The bytes are a WAV whose header lies or asks for what cannot be
    /// played (checked before anything is decoded or allocated).
    #[error("bad WAV {origin}: {problem}")]
    Wav {
        /// The file, or `<bytes>`.
        origin: String,
        /// What is wrong with it.
        #[source]
        problem: WavError,
    },
    /// The samples given in code are unusable.
    #[error("bad samples: {0}")]
    Samples(&'static str),
}

/// [`Audio::mix`](crate::Audio::mix) was called on an engine that plays
/// through a device (the device pulls the mix itself).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("this Audio plays through a device; only a buffer output can be mixed on demand")]
pub struct MixError;
