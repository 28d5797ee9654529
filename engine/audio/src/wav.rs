//! A WAV header check that runs before the decoder sees the bytes: every chunk
//! must fit in the input (a size field is never trusted to allocate), and the
//! `fmt ` chunk must describe sound this engine can play (1 or 2 channels, a
//! sample rate in 1..=[`MAX_SAMPLE_RATE`], a sample width the format allows,
//! a frame size that matches). Bytes with no RIFF/WAVE marker pass untouched.

/// The highest sample rate a WAV may declare (8× 96 kHz studio audio).
pub const MAX_SAMPLE_RATE: u32 = 768_000;

/// Why a WAV's header was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WavError {
    /// A chunk's size field claims more bytes than the input holds after it.
    #[error("the {chunk:?} chunk claims {claimed} bytes but only {available} follow")]
    ChunkTooLong {
        /// The chunk's four-letter id.
        chunk: String,
        /// Its size field.
        claimed: u32,
        /// The bytes left in the input (or in the enclosing `LIST`).
        available: usize,
    },
    /// No `fmt ` chunk comes before the `data` chunk.
    #[error("no fmt chunk before the data")]
    NoFormat,
    /// The `fmt ` chunk is shorter than its 16 fixed bytes.
    #[error("the fmt chunk is {0} bytes, at least 16 are needed")]
    FormatTooShort(u32),
    /// No `data` chunk.
    #[error("no data chunk")]
    NoData,
    /// A format tag other than PCM, IEEE float, A-law, µ-law or extensible.
    #[error("format tag {0:#06x} is not PCM, float, A-law, mu-law or extensible")]
    Format(u16),
    /// The sample rate is 0.
    #[error("the sample rate is 0")]
    ZeroSampleRate,
    /// The sample rate is above [`MAX_SAMPLE_RATE`].
    #[error("the sample rate {0} Hz is above {MAX_SAMPLE_RATE} Hz")]
    SampleRateTooHigh(u32),
    /// Not 1 (mono) or 2 (stereo) channels.
    #[error("{0} channels (mono and stereo are supported)")]
    Channels(u16),
    /// A sample width the format tag does not allow.
    #[error("{bits} bits per sample for format tag {format:#06x}")]
    BitsPerSample {
        /// The format tag.
        format: u16,
        /// The bits per sample field.
        bits: u16,
    },
    /// The bytes per frame do not match channels × bytes per sample.
    #[error("{claimed} bytes per frame, {expected} expected from the channels and sample width")]
    BlockAlign {
        /// The block align field.
        claimed: u16,
        /// Channels × bits / 8.
        expected: u32,
    },
}

const PCM: u16 = 0x0001;
const FLOAT: u16 = 0x0003;
const ALAW: u16 = 0x0006;
const MULAW: u16 = 0x0007;
const EXTENSIBLE: u16 = 0xfffe;

/// Checks the RIFF/WAVE stream in `bytes`, if there is one; anything else is
/// left to the decoder.
///
/// # Errors
/// The first problem found, see [`WavError`].
pub(crate) fn check(bytes: &[u8]) -> Result<(), WavError> {
    // The decoder's probe skips junk before a stream's marker, so look where
    // it will: the first `RIFF....WAVE`, wherever it starts.
    let Some(start) = bytes
        .windows(12)
        .position(|w| &w[0..4] == b"RIFF" && &w[8..12] == b"WAVE")
    else {
        return Ok(());
    };
    let mut format_seen = false;
    for chunk in Chunks::new(&bytes[start + 12..]) {
        let (id, body) = chunk?;
        match &id {
            b"fmt " => {
                check_format(body)?;
                format_seen = true;
            }
            b"LIST" => check_list(body)?,
            // The decoder reads nothing after the samples.
            b"data" if format_seen => return Ok(()),
            b"data" => return Err(WavError::NoFormat),
            _ => {}
        }
    }
    Err(WavError::NoData)
}

/// A `LIST` chunk: a four-letter form, then sub-chunks that must fit in it.
fn check_list(body: &[u8]) -> Result<(), WavError> {
    match body.get(4..) {
        Some(entries) => Chunks::new(entries).try_for_each(|entry| entry.map(|_| ())),
        None => Ok(()),
    }
}

fn check_format(body: &[u8]) -> Result<(), WavError> {
    if body.len() < 16 {
        return Err(WavError::FormatTooShort(body.len() as u32));
    }
    let field = |at: usize| u16::from_le_bytes([body[at], body[at + 1]]);
    let format = field(0);
    let channels = field(2);
    let sample_rate = u32::from_le_bytes([body[4], body[5], body[6], body[7]]);
    let block_align = field(12);
    let bits = field(14);
    let widths: &[u16] = match format {
        PCM => &[8, 16, 24, 32],
        FLOAT => &[32, 64],
        ALAW | MULAW => &[8],
        EXTENSIBLE => &[8, 16, 24, 32, 64],
        other => return Err(WavError::Format(other)),
    };
    if !(1..=2).contains(&channels) {
        return Err(WavError::Channels(channels));
    }
    if sample_rate == 0 {
        return Err(WavError::ZeroSampleRate);
    }
    if sample_rate > MAX_SAMPLE_RATE {
        return Err(WavError::SampleRateTooHigh(sample_rate));
    }
    if !widths.contains(&bits) {
        return Err(WavError::BitsPerSample { format, bits });
    }
    let expected = u32::from(channels) * u32::from(bits / 8);
    if u32::from(block_align) != expected {
        return Err(WavError::BlockAlign {
            claimed: block_align,
            expected,
        });
    }
    Ok(())
}

/// The chunks of a RIFF body: `(id, body)` for each, or the error for the
/// first whose size runs past the end. Stops when fewer than 8 bytes are left.
struct Chunks<'a> {
    rest: &'a [u8],
}

impl<'a> Chunks<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Self { rest: bytes }
    }
}

impl<'a> Iterator for Chunks<'a> {
    type Item = Result<([u8; 4], &'a [u8]), WavError>;

    fn next(&mut self) -> Option<Self::Item> {
        let (header, after) = self.rest.split_first_chunk::<8>()?;
        let id = [header[0], header[1], header[2], header[3]];
        let claimed = u32::from_le_bytes([header[4], header[5], header[6], header[7]]);
        let size = claimed as usize;
        if size > after.len() {
            self.rest = &[];
            return Some(Err(WavError::ChunkTooLong {
                chunk: String::from_utf8_lossy(&id).into_owned(),
                claimed,
                available: after.len(),
            }));
        }
        let (body, rest) = after.split_at(size);
        // Chunks start on even offsets: an odd-sized one is followed by a pad byte.
        self.rest = rest.get(size % 2..).unwrap_or(&[]);
        Some(Ok((id, body)))
    }
}
