//! Recorded sessions: per-tick action flags plus what a replay needs.
//!
//! File layout (little-endian): magic `TAOSREC\0`, format version (u32),
//! seed (u64), tick rate in Hz (u32), engine version (u16 length + UTF-8),
//! tick count (u64), one u32 of action flags per tick, then an FNV-1a
//! checksum (u64) of everything before it. Saving writes a temporary file and
//! renames it over the target, so a crash mid-save never destroys an older
//! recording.

use std::path::{Path, PathBuf};

use super::checksum::StateHasher;
use crate::game_loop::config::{LoopConfig, LoopPolicy, Rate};
use crate::input::ActionFlags;

const MAGIC: &[u8; 8] = b"TAOSREC\0";
/// Format 2 adds the raw input events; format 1 (flags only) still loads.
const FORMAT_VERSION: u32 = 2;

/// The engine version written into recordings and required on replay.
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");

/// A recorded play session.
#[derive(Debug, Clone, PartialEq)]
pub struct Recording {
    /// Seed the simulation was built from.
    pub seed: u64,
    /// Fixed tick rate of the run.
    pub tick_rate: Rate,
    /// Engine version that recorded it.
    pub engine_version: String,
    /// One entry per tick, in order.
    pub flags: Vec<ActionFlags>,
    /// The raw input events each tick saw, in order (`tick` indexes `flags`):
    /// a replay feeds them to the tick's [`Input`](crate::game_loop::Input) instead of
    /// live input, so behaviours that read `Input` replay bit for bit too.
    pub inputs: Vec<RecordedInput>,
}

/// One raw input event and the tick (index into [`Recording::flags`]) it reached.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RecordedInput {
    /// The tick that saw it.
    pub tick: u64,
    /// The event.
    pub event: crate::input::InputEvent,
}

/// Why a recording cannot be read, written or replayed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RecordingError {
    /// Reading or writing the file failed.
    #[error("recording {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The data does not start with the recording magic.
    #[error("not a Taos recording (bad magic)")]
    BadMagic,
    /// Written by a newer format.
    #[error("recording format {found} is not supported (this build reads {FORMAT_VERSION})")]
    UnsupportedFormat {
        /// The format version found.
        found: u32,
    },
    /// The data ends early.
    #[error("recording is truncated: needs {needed} bytes, has {found}")]
    Truncated {
        /// Bytes needed.
        needed: usize,
        /// Bytes present.
        found: usize,
    },
    /// The stored checksum does not match the content.
    #[error("recording is corrupt (checksum {stored:016x}, content hashes to {actual:016x})")]
    Corrupt {
        /// Checksum stored in the file.
        stored: u64,
        /// Checksum of the content read.
        actual: u64,
    },
    /// A field holds an impossible value.
    #[error("recording field {field} is invalid")]
    Invalid {
        /// The field.
        field: &'static str,
    },
    /// Recorded by another engine version: a bit-exact replay is not guaranteed.
    #[error("recorded with engine {recorded}, this is {running}")]
    VersionMismatch {
        /// Version in the recording.
        recorded: String,
        /// Version running.
        running: &'static str,
    },
    /// The loop is not configured for the recorded fixed tick rate.
    #[error("recorded at {recorded} Hz fixed ticks, the loop is configured for {running}")]
    TickRateMismatch {
        /// Rate in the recording.
        recorded: u32,
        /// What the loop runs ("variable" or "N Hz").
        running: String,
    },
}

impl Recording {
    /// An empty recording for a run built from `seed` at `tick_rate`.
    #[must_use]
    pub fn new(seed: u64, tick_rate: Rate) -> Self {
        Self {
            seed,
            tick_rate,
            engine_version: ENGINE_VERSION.to_owned(),
            flags: Vec::new(),
            inputs: Vec::new(),
        }
    }

    /// Number of recorded ticks.
    #[must_use]
    pub fn ticks(&self) -> usize {
        self.flags.len()
    }

    /// Checks that `config` can replay this recording bit for bit.
    ///
    /// # Errors
    /// [`RecordingError::VersionMismatch`] or [`RecordingError::TickRateMismatch`].
    pub fn check_compatible(&self, config: &LoopConfig) -> Result<(), RecordingError> {
        if self.engine_version != ENGINE_VERSION {
            return Err(RecordingError::VersionMismatch {
                recorded: self.engine_version.clone(),
                running: ENGINE_VERSION,
            });
        }
        match config.policy {
            LoopPolicy::Fixed(step) if step.rate == self.tick_rate => Ok(()),
            LoopPolicy::Fixed(step) => Err(RecordingError::TickRateMismatch {
                recorded: self.tick_rate.get(),
                running: format!("{} Hz", step.rate.get()),
            }),
            LoopPolicy::Variable => Err(RecordingError::TickRateMismatch {
                recorded: self.tick_rate.get(),
                running: "variable steps".to_owned(),
            }),
        }
    }

    /// The recording as bytes.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let version = self.engine_version.as_bytes();
        let mut out = Vec::with_capacity(48 + version.len() + 4 * self.flags.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.extend_from_slice(&self.seed.to_le_bytes());
        out.extend_from_slice(&self.tick_rate.get().to_le_bytes());
        let len = u16::try_from(version.len()).unwrap_or(u16::MAX);
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&version[..usize::from(len)]);
        out.extend_from_slice(&(self.flags.len() as u64).to_le_bytes());
        for flags in &self.flags {
            out.extend_from_slice(&flags.0.to_le_bytes());
        }
        out.extend_from_slice(&(self.inputs.len() as u64).to_le_bytes());
        for input in &self.inputs {
            out.extend_from_slice(&input.tick.to_le_bytes());
            crate::input::codec::encode(&input.event, &mut out);
        }
        let mut h = StateHasher::default();
        h.write(&out);
        out.extend_from_slice(&h.finish().to_le_bytes());
        out
    }

    /// Parses bytes written by [`to_bytes`](Self::to_bytes).
    ///
    /// # Errors
    /// [`RecordingError`] naming what is wrong: magic, format, truncation,
    /// checksum or an invalid field.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, RecordingError> {
        let mut r = Reader { bytes, at: 0 };
        if r.take(MAGIC.len())? != MAGIC {
            return Err(RecordingError::BadMagic);
        }
        let format = r.u32()?;
        if format != FORMAT_VERSION && format != 1 {
            return Err(RecordingError::UnsupportedFormat { found: format });
        }
        let seed = r.u64()?;
        let tick_rate =
            Rate::hz(r.u32()?).map_err(|_| RecordingError::Invalid { field: "tick rate" })?;
        let version_len = usize::from(r.u16()?);
        let engine_version = String::from_utf8(r.take(version_len)?.to_vec()).map_err(|_| {
            RecordingError::Invalid {
                field: "engine version",
            }
        })?;
        let ticks = usize::try_from(r.u64()?).map_err(|_| RecordingError::Invalid {
            field: "tick count",
        })?;
        let needed = ticks
            .checked_mul(4)
            .and_then(|n| n.checked_add(r.at + 8))
            .ok_or(RecordingError::Invalid {
                field: "tick count",
            })?;
        if bytes.len() < needed {
            return Err(RecordingError::Truncated {
                needed,
                found: bytes.len(),
            });
        }
        let mut flags = Vec::with_capacity(ticks);
        for _ in 0..ticks {
            flags.push(ActionFlags(r.u32()?));
        }
        let mut inputs = Vec::new();
        if format >= 2 {
            let count = r.u64()?;
            // Each event takes at least 10 bytes: a count beyond the data is damage.
            if count > (bytes.len() as u64) / 10 {
                return Err(RecordingError::Invalid {
                    field: "input event count",
                });
            }
            for _ in 0..count {
                let tick = r.u64()?;
                let (event, used) =
                    crate::input::codec::decode(&bytes[r.at..]).map_err(|e| match e {
                        crate::input::codec::DecodeError::Truncated => RecordingError::Truncated {
                            needed: r.at + 1,
                            found: bytes.len(),
                        },
                        crate::input::codec::DecodeError::Invalid => RecordingError::Invalid {
                            field: "input event",
                        },
                    })?;
                r.at += used;
                if tick >= flags.len() as u64 {
                    return Err(RecordingError::Invalid {
                        field: "input event tick",
                    });
                }
                inputs.push(RecordedInput { tick, event });
            }
        }
        let content_end = r.at;
        let stored = r.u64()?;
        let mut h = StateHasher::default();
        h.write(&bytes[..content_end]);
        if h.finish() != stored {
            return Err(RecordingError::Corrupt {
                stored,
                actual: h.finish(),
            });
        }
        // The checksum ends a recording: anything after it is damage (an
        // appended or half-overwritten file), not data to ignore.
        if r.at != bytes.len() {
            return Err(RecordingError::Invalid {
                field: "bytes after the checksum",
            });
        }
        Ok(Self {
            seed,
            tick_rate,
            engine_version,
            flags,
            inputs,
        })
    }

    /// Writes the recording to `path` (via a temporary file and a rename).
    ///
    /// # Errors
    /// [`RecordingError::Io`] naming the file.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), RecordingError> {
        let path = path.as_ref();
        let io = |source| RecordingError::Io {
            path: path.to_owned(),
            source,
        };
        let mut temp = path.as_os_str().to_owned();
        temp.push(".tmp");
        std::fs::write(&temp, self.to_bytes()).map_err(io)?;
        std::fs::rename(&temp, path).map_err(io)
    }

    /// Reads a recording from `path`.
    ///
    /// # Errors
    /// [`RecordingError::Io`] naming the file, or what [`from_bytes`](Self::from_bytes) reports.
    pub fn load(path: impl AsRef<Path>) -> Result<Self, RecordingError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|source| RecordingError::Io {
            path: path.to_owned(),
            source,
        })?;
        Self::from_bytes(&bytes)
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], RecordingError> {
        let end = self.at.saturating_add(n);
        let slice = self
            .bytes
            .get(self.at..end)
            .ok_or(RecordingError::Truncated {
                needed: end,
                found: self.bytes.len(),
            })?;
        self.at = end;
        Ok(slice)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], RecordingError> {
        let mut out = [0; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    fn u16(&mut self) -> Result<u16, RecordingError> {
        self.array().map(u16::from_le_bytes)
    }

    fn u32(&mut self) -> Result<u32, RecordingError> {
        self.array().map(u32::from_le_bytes)
    }

    fn u64(&mut self) -> Result<u64, RecordingError> {
        self.array().map(u64::from_le_bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Recording {
        let mut rec = Recording::new(42, Rate::hz(30).unwrap());
        rec.flags = (0..100).map(|i| ActionFlags(i * 7919)).collect();
        rec.inputs = vec![
            RecordedInput {
                tick: 3,
                event: crate::input::InputEvent::KeyDown(crate::input::Key::Space),
            },
            RecordedInput {
                tick: 3,
                event: crate::input::InputEvent::CursorMoved(glam::Vec2::new(4.5, 6.0)),
            },
            RecordedInput {
                tick: 90,
                event: crate::input::InputEvent::KeyUp(crate::input::Key::Space),
            },
        ];
        rec
    }

    #[test]
    fn bytes_round_trip() {
        let rec = sample();
        assert_eq!(Recording::from_bytes(&rec.to_bytes()).unwrap(), rec);
    }

    #[test]
    fn damage_is_reported_not_panicked() {
        let bytes = sample().to_bytes();
        for cut in [0, 5, 20, bytes.len() - 1] {
            assert!(
                matches!(
                    Recording::from_bytes(&bytes[..cut]),
                    Err(RecordingError::Truncated { .. } | RecordingError::BadMagic)
                ),
                "cut at {cut}"
            );
        }
        let mut flipped = bytes.clone();
        flipped[60] ^= 1;
        assert!(matches!(
            Recording::from_bytes(&flipped),
            Err(RecordingError::Corrupt { .. })
        ));
        let mut magic = bytes;
        magic[0] = b'X';
        assert!(matches!(
            Recording::from_bytes(&magic),
            Err(RecordingError::BadMagic)
        ));
    }

    #[test]
    fn replay_config_is_checked() {
        let rec = sample();
        assert!(
            rec.check_compatible(&LoopConfig::fixed(30).unwrap())
                .is_ok()
        );
        assert!(matches!(
            rec.check_compatible(&LoopConfig::fixed(60).unwrap()),
            Err(RecordingError::TickRateMismatch { recorded: 30, .. })
        ));
        let mut old = rec;
        old.engine_version = "0.0.1".into();
        assert!(matches!(
            old.check_compatible(&LoopConfig::fixed(30).unwrap()),
            Err(RecordingError::VersionMismatch { .. })
        ));
    }
}
