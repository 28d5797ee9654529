//! A small valid WAV written by hand, and where its header fields sit, so tests
//! can break one field at a time.

#![allow(dead_code)] // reason: each test file uses its own part of this

/// Byte offsets of the fields in [`wav`]'s output.
pub(crate) mod at {
    /// The RIFF chunk's size.
    pub(crate) const RIFF_SIZE: usize = 4;
    /// The `fmt ` chunk's size.
    pub(crate) const FMT_SIZE: usize = 16;
    /// The format tag (1: PCM).
    pub(crate) const FORMAT: usize = 20;
    /// The channel count.
    pub(crate) const CHANNELS: usize = 22;
    /// The sample rate.
    pub(crate) const SAMPLE_RATE: usize = 24;
    /// The bytes per second.
    pub(crate) const BYTE_RATE: usize = 28;
    /// The bytes per frame.
    pub(crate) const BLOCK_ALIGN: usize = 32;
    /// The bits per sample.
    pub(crate) const BITS: usize = 34;
    /// The `LIST` chunk's size.
    pub(crate) const LIST_SIZE: usize = 40;
    /// The `INAM` entry's size inside the `LIST`/`INFO` chunk.
    pub(crate) const INAM_SIZE: usize = 52;
    /// The `data` chunk's size.
    pub(crate) const DATA_SIZE: usize = 64;
    /// The first sample.
    pub(crate) const SAMPLES: usize = 68;
}

/// A 16-bit PCM WAV of `samples` at `rate` with a `LIST`/`INFO` chunk (a name)
/// between `fmt ` and `data`.
pub(crate) fn wav(rate: u32, channels: u16, samples: &[i16]) -> Vec<u8> {
    let data_len = (samples.len() * 2) as u32;
    let mut out = Vec::new();
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(60 + data_len).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&channels.to_le_bytes());
    out.extend_from_slice(&rate.to_le_bytes());
    out.extend_from_slice(&(rate * u32::from(channels) * 2).to_le_bytes());
    out.extend_from_slice(&(channels * 2).to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"LIST");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(b"INFOINAM");
    out.extend_from_slice(&4u32.to_le_bytes());
    out.extend_from_slice(b"hum\0");
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_len.to_le_bytes());
    for s in samples {
        out.extend_from_slice(&s.to_le_bytes());
    }
    debug_assert_eq!(&out[at::DATA_SIZE - 4..at::DATA_SIZE], b"data");
    out
}

/// `bytes` with the little-endian `u16` at `offset` replaced.
pub(crate) fn with_u16(mut bytes: Vec<u8>, offset: usize, value: u16) -> Vec<u8> {
    bytes[offset..offset + 2].copy_from_slice(&value.to_le_bytes());
    bytes
}

/// `bytes` with the little-endian `u32` at `offset` replaced.
pub(crate) fn with_u32(mut bytes: Vec<u8>, offset: usize, value: u32) -> Vec<u8> {
    bytes[offset..offset + 4].copy_from_slice(&value.to_le_bytes());
    bytes
}
