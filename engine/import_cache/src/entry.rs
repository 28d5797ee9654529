//! One cache entry: a decoded image as stored, with a header that is checked before anything
//! is allocated.
//!
//! ```text
//! offset  size  field
//!      0     4  magic "TIMG"
//!      4     2  format version (u16 LE), ENTRY_VERSION
//!      6     1  codec: 0 raw RGBA8, 1 LZ4 block of the RGBA8 pixels
//!      7     1  0
//!      8     4  width (u32 LE)
//!     12     4  height (u32 LE)
//!     16     4  payload length (u32 LE)
//!     20     4  CRC-32 of the payload (u32 LE)
//!     24     -  payload
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
const HEADER: usize = 24;
const RAW: u8 = 0;
const LZ4: u8 = 1;

/// How pixels are stored in an entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Compression {
    /// The RGBA8 pixels as they are: the largest entries, the cheapest to read back.
    None,
    /// LZ4 block compression (`lz4_flex`), kept only when it saves at least 1/8 of the bytes
    /// (noise-heavy textures barely compress; they are stored raw).
    #[default]
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

/// `pixels` as an entry.
pub(crate) fn encode(pixels: &RgbaImage, compression: Compression) -> Vec<u8> {
    let raw = pixels.as_raw();
    let compressed = match compression {
        Compression::Lz4 => {
            Some(lz4_flex::block::compress(raw)).filter(|c| c.len() <= raw.len() - raw.len() / 8)
        }
        Compression::None => None,
    };
    let (codec, payload) = match &compressed {
        Some(c) => (LZ4, c.as_slice()),
        None => (RAW, raw.as_slice()),
    };
    let mut out = Vec::with_capacity(HEADER + payload.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&ENTRY_VERSION.to_le_bytes());
    out.extend_from_slice(&[codec, 0]);
    out.extend_from_slice(&pixels.width().to_le_bytes());
    out.extend_from_slice(&pixels.height().to_le_bytes());
    // At most MAX_IMAGE_SIZE² * 4 = 1 GiB (the importer's limit), so it fits.
    let len = u32::try_from(payload.len()).unwrap_or(u32::MAX);
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&crc32fast::hash(payload).to_le_bytes());
    out.extend_from_slice(payload);
    out
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    let mut word = [0; 4];
    word.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(word)
}

/// The image in `entry`, which must be `key.width` x `key.height`. Allocates only once the
/// header, the length and the checksum agree.
pub(crate) fn decode(entry: &[u8], key: &ImageKey) -> Result<RgbaImage, Refusal> {
    if entry.len() < HEADER || &entry[..4] != MAGIC {
        return Err(Refusal::Header);
    }
    let version = u16::from_le_bytes([entry[4], entry[5]]);
    if version != ENTRY_VERSION {
        return Err(Refusal::Version(version));
    }
    let codec = entry[6];
    if !matches!(codec, RAW | LZ4) || entry[7] != 0 {
        return Err(Refusal::Header);
    }
    let (width, height) = (u32_at(entry, 8), u32_at(entry, 12));
    if (width, height) != (key.width, key.height) || width == 0 || height == 0 {
        return Err(Refusal::Size);
    }
    let payload = &entry[HEADER..];
    if usize::try_from(u32_at(entry, 16)).ok() != Some(payload.len()) {
        return Err(Refusal::Length);
    }
    let pixel_bytes =
        usize::try_from(u64::from(width) * u64::from(height) * 4).map_err(|_| Refusal::Size)?;
    if codec == RAW && payload.len() != pixel_bytes {
        return Err(Refusal::Length);
    }
    if crc32fast::hash(payload) != u32_at(entry, 20) {
        return Err(Refusal::Checksum);
    }
    let pixels = if codec == RAW {
        payload.to_vec()
    } else {
        let mut pixels = vec![0; pixel_bytes];
        match lz4_flex::block::decompress_into(payload, &mut pixels) {
            Ok(n) if n == pixel_bytes => pixels,
            _ => return Err(Refusal::Inflate),
        }
    };
    RgbaImage::from_raw(width, height, pixels).ok_or(Refusal::Length)
}
