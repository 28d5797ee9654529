//! [`TextureData`]: a processed texture on the CPU (format, size, the bytes
//! of each mip level), ready to upload and cheap to store on disk.

use super::ColorSpace;
use super::texel_format::{MAX_TEXTURE_SIZE, TexelFormat, full_mip_count, mip_size};

/// A texture ready for the GPU: its format, colour space, size and the bytes
/// of each mip level (level 0 first), as [`Texture::from_data`] uploads them.
///
/// Made by transcoding a KTX2 file ([`TextureData::from_ktx2`]) or from
/// decoded pixels ([`TextureData::rgba8`]); stored with
/// [`to_bytes`](Self::to_bytes) and read back with
/// [`from_bytes`](Self::from_bytes) (an import cache). The constructor checks
/// every size, so a value always uploads: level `k` holds exactly the bytes
/// of a `max(width >> k, 1)` x `max(height >> k, 1)` image in whole blocks
/// ([`TexelFormat::image_bytes`]), and block formats have a level 0 whose
/// sizes are multiples of 4.
///
/// [`Texture::from_data`]: super::Texture::from_data
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextureData {
    format: TexelFormat,
    color_space: ColorSpace,
    width: u32,
    height: u32,
    levels: Vec<Vec<u8>>,
}

/// A [`TextureData`] whose sizes do not fit together, or bytes that are not
/// one written by [`TextureData::to_bytes`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TextureDataError {
    /// Width or height is 0 or above [`MAX_TEXTURE_SIZE`].
    #[error("a texture of {width}x{height}: sizes must be 1 to {MAX_TEXTURE_SIZE}")]
    Size {
        /// The width.
        width: u32,
        /// The height.
        height: u32,
    },
    /// A block format with a level 0 whose sizes are not multiples of 4.
    #[error("a {format:?} texture of {width}x{height}: block formats need multiples of 4")]
    NotBlockAligned {
        /// The format.
        format: TexelFormat,
        /// The width.
        width: u32,
        /// The height.
        height: u32,
    },
    /// No levels, or more than a full chain down to 1x1.
    #[error("{levels} mip levels; a {width}x{height} texture has 1 to {max}")]
    LevelCount {
        /// Levels given.
        levels: usize,
        /// The width.
        width: u32,
        /// The height.
        height: u32,
        /// Levels of the full chain.
        max: u32,
    },
    /// A level's byte count is not its size's.
    #[error("mip level {level} holds {found} bytes; its size needs {expected}")]
    LevelBytes {
        /// The level.
        level: u32,
        /// Bytes it needs.
        expected: u64,
        /// Bytes it has.
        found: u64,
    },
    /// The serialized header is missing, from another program or version,
    /// or names an unknown format or colour space.
    #[error("not a Taos texture (bad header: {0})")]
    Header(&'static str),
    /// The serialized bytes are shorter or longer than the header says.
    #[error("the texture bytes are {found} long; the header says {expected}")]
    Length {
        /// Bytes the header accounts for.
        expected: u64,
        /// Bytes there are.
        found: u64,
    },
}

/// The start of [`TextureData::to_bytes`]: a name and a version byte.
const MAGIC: &[u8; 8] = b"TAOSTEX\x01";
/// Magic, format, colour space, two reserved bytes, width, height, level
/// count.
const HEADER_BYTES: usize = 8 + 4 + 4 * 3;

impl TextureData {
    /// A texture of `levels` (level 0 first), checked.
    ///
    /// # Errors
    /// [`TextureDataError`] when the size, the level count or a level's
    /// byte count does not fit the others.
    pub fn new(
        format: TexelFormat,
        color_space: ColorSpace,
        width: u32,
        height: u32,
        levels: Vec<Vec<u8>>,
    ) -> Result<Self, TextureDataError> {
        let lengths: Vec<u64> = levels.iter().map(|l| l.len() as u64).collect();
        check(format, width, height, &lengths)?;
        Ok(Self {
            format,
            color_space,
            width,
            height,
            levels,
        })
    }

    /// One level of RGBA8 `image`: [`Texture::from_data`](super::Texture::from_data)
    /// builds its mip chain on the GPU.
    ///
    /// # Errors
    /// [`TextureDataError::Size`] for an empty or oversized image.
    pub fn rgba8(
        image: &image::RgbaImage,
        color_space: ColorSpace,
    ) -> Result<Self, TextureDataError> {
        let (width, height) = image.dimensions();
        Self::new(
            TexelFormat::Rgba8,
            color_space,
            width,
            height,
            vec![image.as_raw().clone()],
        )
    }

    /// RGBA8 `image` with its full mip chain built on the CPU (a box filter,
    /// in linear light for sRGB), for where no GPU is at hand: an offline
    /// import or a cache filled by a tool. With a device,
    /// [`rgba8`](Self::rgba8) lets the GPU do it, much faster.
    ///
    /// # Errors
    /// [`TextureDataError::Size`] for an empty or oversized image.
    pub fn rgba8_with_cpu_mips(
        image: &image::RgbaImage,
        color_space: ColorSpace,
    ) -> Result<Self, TextureDataError> {
        let (width, height) = image.dimensions();
        check(
            TexelFormat::Rgba8,
            width,
            height,
            &[u64::from(width) * u64::from(height) * 4],
        )?;
        let levels = super::mip_cpu::mip_chain(image, color_space);
        Self::new(TexelFormat::Rgba8, color_space, width, height, levels)
    }

    /// The texel format.
    #[must_use]
    pub fn format(&self) -> TexelFormat {
        self.format
    }

    /// sRGB (colour) or linear (data).
    #[must_use]
    pub fn color_space(&self) -> ColorSpace {
        self.color_space
    }

    /// The same texels read as `color_space` (the bytes do not change: only
    /// how the GPU decodes them).
    #[must_use]
    pub fn with_color_space(mut self, color_space: ColorSpace) -> Self {
        self.color_space = color_space;
        self
    }

    /// The wgpu format it uploads as.
    #[must_use]
    pub fn wgpu_format(&self) -> wgpu::TextureFormat {
        self.format.wgpu_format(self.color_space)
    }

    /// Width and height of level 0, in texels.
    #[must_use]
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// The mip levels' bytes, level 0 first.
    #[must_use]
    pub fn levels(&self) -> &[Vec<u8>] {
        &self.levels
    }

    /// Bytes it occupies on the GPU once uploaded: its levels, or for one
    /// RGBA8 level the full chain the GPU builds from it.
    #[must_use]
    pub fn gpu_bytes(&self) -> u64 {
        let levels = if self.builds_mips_on_gpu() {
            full_mip_count(self.width, self.height)
        } else {
            self.levels.len() as u32
        };
        self.format.chain_bytes(self.width, self.height, levels)
    }

    /// Whether an upload builds the mip chain on the GPU: a single RGBA8
    /// level larger than 1x1.
    pub(crate) fn builds_mips_on_gpu(&self) -> bool {
        self.format == TexelFormat::Rgba8
            && self.levels.len() == 1
            && full_mip_count(self.width, self.height) > 1
    }

    /// The texture as bytes: a 24-byte header (`TAOSTEX` and version 1, the
    /// format and colour space codes, two zero bytes, width, height and level
    /// count as little-endian `u32`s), each level's length as a
    /// little-endian `u32`, then the levels' bytes.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let data: usize = self.levels.iter().map(Vec::len).sum();
        let mut out = Vec::with_capacity(HEADER_BYTES + 4 * self.levels.len() + data);
        out.extend_from_slice(MAGIC);
        out.push(self.format.code());
        out.push(match self.color_space {
            ColorSpace::Linear => 0,
            ColorSpace::Srgb => 1,
        });
        out.extend_from_slice(&[0, 0]);
        for value in [self.width, self.height, self.levels.len() as u32] {
            out.extend_from_slice(&value.to_le_bytes());
        }
        for level in &self.levels {
            // A level is at most 16384² texels x 4 bytes (1 GiB): it fits.
            out.extend_from_slice(&(level.len() as u32).to_le_bytes());
        }
        for level in &self.levels {
            out.extend_from_slice(level);
        }
        out
    }

    /// Reads what [`to_bytes`](Self::to_bytes) wrote. Every size in the
    /// header is checked against the others and against the input's length
    /// before a level is allocated.
    ///
    /// # Errors
    /// [`TextureDataError::Header`], [`TextureDataError::Length`], or the
    /// size errors of [`new`](Self::new).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, TextureDataError> {
        let header = bytes
            .get(..HEADER_BYTES)
            .ok_or(TextureDataError::Header("shorter than a header"))?;
        if &header[..8] != MAGIC {
            return Err(TextureDataError::Header("no TAOSTEX version 1 magic"));
        }
        let format = TexelFormat::from_code(header[8])
            .ok_or(TextureDataError::Header("unknown format code"))?;
        let color_space = match header[9] {
            0 => ColorSpace::Linear,
            1 => ColorSpace::Srgb,
            _ => return Err(TextureDataError::Header("unknown colour space code")),
        };
        let word = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        let (width, height, count) = (word(12), word(16), word(20));
        // The count is checked against the size before the length table is read.
        let max = full_mip_count(width, height);
        if count == 0 || count > max {
            check(format, width, height, &[])?;
            return Err(TextureDataError::LevelCount {
                levels: count as usize,
                width,
                height,
                max,
            });
        }
        let table_end = HEADER_BYTES + 4 * count as usize;
        if bytes.len() < table_end {
            return Err(TextureDataError::Length {
                expected: table_end as u64,
                found: bytes.len() as u64,
            });
        }
        let lengths: Vec<u64> = (0..count as usize)
            .map(|i| u64::from(word(HEADER_BYTES + 4 * i)))
            .collect();
        check(format, width, height, &lengths)?;
        let expected = table_end as u64 + lengths.iter().sum::<u64>();
        if bytes.len() as u64 != expected {
            return Err(TextureDataError::Length {
                expected,
                found: bytes.len() as u64,
            });
        }
        let mut at = table_end;
        let levels = lengths
            .iter()
            .map(|&len| {
                let level = bytes[at..at + len as usize].to_vec();
                at += len as usize;
                level
            })
            .collect();
        Ok(Self {
            format,
            color_space,
            width,
            height,
            levels,
        })
    }
}

/// Checks a size, a level count and each level's byte count (`lengths`,
/// level 0 first); an empty `lengths` checks the size only.
fn check(
    format: TexelFormat,
    width: u32,
    height: u32,
    lengths: &[u64],
) -> Result<(), TextureDataError> {
    if !(1..=MAX_TEXTURE_SIZE).contains(&width) || !(1..=MAX_TEXTURE_SIZE).contains(&height) {
        return Err(TextureDataError::Size { width, height });
    }
    let block = format.block_size();
    if !width.is_multiple_of(block) || !height.is_multiple_of(block) {
        return Err(TextureDataError::NotBlockAligned {
            format,
            width,
            height,
        });
    }
    if lengths.is_empty() {
        return Ok(());
    }
    let max = full_mip_count(width, height);
    if lengths.len() > max as usize {
        return Err(TextureDataError::LevelCount {
            levels: lengths.len(),
            width,
            height,
            max,
        });
    }
    for (level, &found) in (0u32..).zip(lengths) {
        let (w, h) = mip_size(width, height, level);
        let expected = format.image_bytes(w, h);
        if found != expected {
            return Err(TextureDataError::LevelBytes {
                level,
                expected,
                found,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> TextureData {
        let levels = vec![vec![7; 4 * 4 * 4], vec![8; 2 * 2 * 4], vec![9; 4]];
        TextureData::new(TexelFormat::Rgba8, ColorSpace::Srgb, 4, 4, levels).expect("valid")
    }

    #[test]
    fn bytes_round_trip() {
        let data = sample();
        let bytes = data.to_bytes();
        assert_eq!(bytes.len(), HEADER_BYTES + 12 + 64 + 16 + 4);
        assert_eq!(TextureData::from_bytes(&bytes), Ok(data));
    }

    #[test]
    fn damaged_bytes_are_refused_before_allocating() {
        let bytes = sample().to_bytes();
        for cut in 0..bytes.len() {
            assert!(
                TextureData::from_bytes(&bytes[..cut]).is_err(),
                "cut at {cut}"
            );
        }
        let mut huge = bytes.clone();
        huge[12..16].copy_from_slice(&65_000u32.to_le_bytes());
        assert!(matches!(
            TextureData::from_bytes(&huge),
            Err(TextureDataError::Size { width: 65_000, .. })
        ));
        let mut long_level = bytes.clone();
        long_level[HEADER_BYTES..HEADER_BYTES + 4].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(
            TextureData::from_bytes(&long_level),
            Err(TextureDataError::LevelBytes { level: 0, .. })
        ));
        let mut many = bytes;
        many[20..24].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(
            TextureData::from_bytes(&many),
            Err(TextureDataError::LevelCount { .. })
        ));
    }

    #[test]
    fn block_formats_need_aligned_sizes() {
        let bc7 = TextureData::new(
            TexelFormat::Bc7,
            ColorSpace::Linear,
            30,
            20,
            vec![vec![0; 640]],
        );
        assert!(matches!(bc7, Err(TextureDataError::NotBlockAligned { .. })));
        // A 4x4 BC7 texture's 2x2 and 1x1 mips still take a whole block.
        let ok = TextureData::new(
            TexelFormat::Bc7,
            ColorSpace::Linear,
            4,
            4,
            vec![vec![0; 16], vec![0; 16], vec![0; 16]],
        );
        assert!(ok.is_ok());
    }
}
