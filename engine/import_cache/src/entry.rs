//! One cache entry: a decoded image as stored, followed by a trailer that is checked before
//! anything is allocated. The trailer comes last so that a raw entry read into memory
//! becomes the image's pixels by dropping its last 24 bytes: no copy.
//!
//! ```text
//! offset from the end  size  field
//!                 -24     4  payload length (u32 LE)
//!                 -20     4  CRC-32 of the payload (u32 LE)
//!                 -16     4  width (u32 LE)
//!                 -12     4  height (u32 LE)
//!                  -8     1  codec: 0 raw RGBA8, 1 LZ4 block of the RGBA8 pixels
//!                  -7     1  0
//!                  -6     2  format version (u16 LE), ENTRY_VERSION
//!                  -4     4  magic "TIMG"
//! (before the trailer: the payload)
//! ```
//!
//! Reading refuses (as a miss) a wrong magic or version, an unknown codec, a size other than
//! the one the encoded image declares, a length that does not match, a bad checksum, and an
//! LZ4 payload that does not inflate to exactly `width * height * 4` bytes.

use image::RgbaImage;
use taos_gltf::ImageKey;

/// The entry format's version: an entry of another version is a miss (and is replaced).
pub const ENTRY_VERSION: u16 = 1;

const MAGIC: &[u8; 4] = b"TIMG";
/// The trailer's length.
pub(crate) const TRAILER: usize = 24;
const RAW: u8 = 0;
const LZ4: u8 = 1;

/// How pixels are stored in an entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Compression {
    /// The RGBA8 pixels as they are (the default): the largest entries, the cheapest to read
    /// back (natively a read of the file is the only copy). On the FlightHelmet-sized bench
    /// warm loads were faster with these (0.31 s against 0.39 s with [`Compression::Lz4`] in
    /// one run, whose entries were only 13% smaller).
    #[default]
    None,
    /// LZ4 block compression (`lz4_flex`), kept only when it saves at least 1/8 of the bytes
    /// (grainy textures barely compress; they are stored raw): smaller entries, slower loads.
    Lz4,
}

/// Why an entry was not used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refusal {
    Header,
    Version(u16),
    Size,
    Length,
    Checksum,
    Inflate,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Header => f.write_str("not an image entry (bad magic or codec)"),
            Self::Version(v) => write!(f, "entry format {v}, expected {ENTRY_VERSION}"),
            Self::Size => f.write_str("size differs from the encoded image's"),
            Self::Length => f.write_str("truncated or overlong"),
            Self::Checksum => f.write_str("checksum mismatch"),
            Self::Inflate => f.write_str("LZ4 payload does not inflate to the image"),
        }
    }
}

/// An entry in two parts, to be stored one after the other: the payload (the pixels or
/// their LZ4 block) and the trailer.
pub(crate) struct Encoded<'p> {
    /// The pixels, or their LZ4 block.
    pub(crate) payload: std::borrow::Cow<'p, [u8]>,
    /// What describes them.
    pub(crate) trailer: [u8; TRAILER],
}

impl Encoded<'_> {
    /// The entry as one buffer.
    #[cfg(feature = "database")]
    pub(crate) fn to_vec(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len());
        out.extend_from_slice(&self.payload);
        out.extend_from_slice(&self.trailer);
        out
    }

    /// The entry's length in bytes.
    pub(crate) fn len(&self) -> usize {
        self.payload.len() + TRAILER
    }
}

/// `pixels` as an entry.
pub(crate) fn encode(pixels: &RgbaImage, compression: Compression) -> Encoded<'_> {
    let raw = pixels.as_raw().as_slice();
    let compressed = match compression {
        Compression::Lz4 => {
            Some(lz4_flex::block::compress(raw)).filter(|c| c.len() <= raw.len() - raw.len() / 8)
        }
        Compression::None => None,
    };
    let codec = if compressed.is_some() { LZ4 } else { RAW };
    let payload = compressed.map_or(std::borrow::Cow::Borrowed(raw), std::borrow::Cow::Owned);
    let mut trailer = [0; TRAILER];
    // At most MAX_IMAGE_SIZE² * 4 = 1 GiB (the importer's limit), so it fits.
    let len = u32::try_from(payload.len()).unwrap_or(u32::MAX);
    trailer[0..4].copy_from_slice(&len.to_le_bytes());
    trailer[4..8].copy_from_slice(&crc32fast::hash(&payload).to_le_bytes());
    trailer[8..12].copy_from_slice(&pixels.width().to_le_bytes());
    trailer[12..16].copy_from_slice(&pixels.height().to_le_bytes());
    trailer[16] = codec;
    trailer[18..20].copy_from_slice(&ENTRY_VERSION.to_le_bytes());
    trailer[20..24].copy_from_slice(MAGIC);
    Encoded { payload, trailer }
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    let mut word = [0; 4];
    word.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(word)
}

/// The image in `entry`, which must be `key.width` x `key.height`. A raw entry becomes the
/// image in place; an LZ4 one allocates only once the trailer, the length and the checksum
/// agree.
pub(crate) fn decode(mut entry: Vec<u8>, key: &ImageKey) -> Result<RgbaImage, Refusal> {
    let Some(payload_len) = entry.len().checked_sub(TRAILER) else {
        return Err(Refusal::Header);
    };
    let trailer = &entry[payload_len..];
    if &trailer[20..24] != MAGIC {
        return Err(Refusal::Header);
    }
    let version = u16::from_le_bytes([trailer[18], trailer[19]]);
    if version != ENTRY_VERSION {
        return Err(Refusal::Version(version));
    }
    let codec = trailer[16];
    if !matches!(codec, RAW | LZ4) || trailer[17] != 0 {
        return Err(Refusal::Header);
    }
    let (width, height) = (u32_at(trailer, 8), u32_at(trailer, 12));
    if (width, height) != (key.width, key.height) || width == 0 || height == 0 {
        return Err(Refusal::Size);
    }
    if usize::try_from(u32_at(trailer, 0)).ok() != Some(payload_len) {
        return Err(Refusal::Length);
    }
    let pixel_bytes =
        usize::try_from(u64::from(width) * u64::from(height) * 4).map_err(|_| Refusal::Size)?;
    if codec == RAW && payload_len != pixel_bytes {
        return Err(Refusal::Length);
    }
    let crc = u32_at(trailer, 4);
    if crc32fast::hash(&entry[..payload_len]) != crc {
        return Err(Refusal::Checksum);
    }
    let pixels = if codec == RAW {
        entry.truncate(payload_len);
        entry
    } else {
        let mut pixels = vec![0; pixel_bytes];
        match lz4_flex::block::decompress_into(&entry[..payload_len], &mut pixels) {
            Ok(n) if n == pixel_bytes => pixels,
            _ => return Err(Refusal::Inflate),
        }
    };
    RgbaImage::from_raw(width, height, pixels).ok_or(Refusal::Length)
}
