//! KTX2 files holding Basis Universal textures (ETC1S or UASTC), checked and
//! transcoded with the pure-Rust `basisu` crate to the format the device
//! samples best ([`TexelFormat::for_basis`]).
//!
//! Everything the file says about sizes is checked here, against the file's
//! length and the texture limits, before `basisu` sees it or anything is
//! allocated: the header, the level index (every level inside the file, no
//! more levels than a full chain, each UASTC level exactly its block count x
//! 16 bytes, inflated or not), the data format descriptor and the
//! supercompression data. Only 2D textures are read (no arrays, cubemaps,
//! 3D, video) and only the LDR Basis codecs.

use super::texel_format::{MAX_TEXTURE_SIZE, TexelFormat, full_mip_count, mip_size};
use super::{ColorSpace, TextureData, TextureError};

/// The 12 bytes every KTX2 file starts with.
const MAGIC: [u8; 12] = [
    0xAB, 0x4B, 0x54, 0x58, 0x20, 0x32, 0x30, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A,
];
/// Header and index up to the level index.
const LEVEL_INDEX_AT: usize = 80;
/// Bytes of one level index entry (offset, length, uncompressed length).
const LEVEL_ENTRY: usize = 24;
/// DFD colour models of Basis Universal's LDR codecs.
const MODEL_ETC1S: u8 = 163;
const MODEL_UASTC: u8 = 166;
/// The DFD's sRGB transfer function (1 is linear).
const TRANSFER_SRGB: u8 = 2;

/// What is wrong with a KTX2 file (in [`TextureError::Ktx2`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Ktx2Problem {
    /// It does not start with the KTX2 identifier, or is shorter than a header.
    #[error("not a KTX2 file")]
    NotKtx2,
    /// A `vkFormat` other than 0: raw GPU formats, not Basis Universal.
    #[error("vkFormat {0} is not a Basis Universal texture (only vkFormat 0 is read)")]
    NotBasis(u32),
    /// A codec other than ETC1S or UASTC LDR (DFD colour model).
    #[error("Basis codec with DFD colour model {0} is not supported (ETC1S 163, UASTC 166)")]
    Codec(u8),
    /// Width or height 0 or above [`MAX_TEXTURE_SIZE`].
    #[error("size {width}x{height}: sizes must be 1 to {MAX_TEXTURE_SIZE}")]
    Size {
        /// The width.
        width: u32,
        /// The height.
        height: u32,
    },
    /// A 3D texture, an array or a cubemap.
    #[error("only 2D textures are read (depth {depth}, {layers} layers, {faces} faces)")]
    NotTwoD {
        /// `pixelDepth`.
        depth: u32,
        /// `layerCount`.
        layers: u32,
        /// `faceCount`.
        faces: u32,
    },
    /// More levels than a full chain of this size.
    #[error("{levels} mip levels; a {width}x{height} texture has at most {max}")]
    LevelCount {
        /// `levelCount`.
        levels: u32,
        /// The width.
        width: u32,
        /// The height.
        height: u32,
        /// The full chain's levels.
        max: u32,
    },
    /// A supercompression scheme other than none, BasisLZ or Zstandard.
    #[error("supercompression scheme {0} is not supported (0, 1 BasisLZ, 2 Zstandard)")]
    Supercompression(u32),
    /// A region (a level, the DFD, the supercompression data) outside the file.
    #[error("{what} at byte {offset}, {length} long, lies outside the {file_len}-byte file")]
    OutOfFile {
        /// Which region.
        what: &'static str,
        /// Its offset.
        offset: u64,
        /// Its length.
        length: u64,
        /// The file's length.
        file_len: u64,
    },
    /// A UASTC level whose (inflated) size is not its block count x 16.
    #[error("mip level {level} is {found} bytes; a {width}x{height} UASTC level is {expected}")]
    LevelBytes {
        /// The level.
        level: u32,
        /// Its width.
        width: u32,
        /// Its height.
        height: u32,
        /// Bytes it must have.
        expected: u64,
        /// Bytes the file says.
        found: u64,
    },
    /// `basisu` refused the data (damaged codebooks or blocks).
    #[error("Basis transcoding failed at mip level {level}: {reason}")]
    Transcode {
        /// The level, or 0 when the file as a whole was refused.
        level: u32,
        /// `basisu`'s error (it has no `Display`: its `Debug` text).
        reason: String,
    },
}

/// The Basis codec inside a KTX2 file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum BasisCodec {
    /// ETC1S: small (BasisLZ), medium quality.
    Etc1s,
    /// UASTC LDR 4x4: 8 bits per texel (less with Zstandard), high quality.
    Uastc,
}

/// What a checked KTX2 file holds (from [`Ktx2Info::parse`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Ktx2Info {
    /// Level-0 width.
    pub width: u32,
    /// Level-0 height.
    pub height: u32,
    /// Mip levels stored (at least 1).
    pub levels: u32,
    /// The codec.
    pub codec: BasisCodec,
    /// The DFD's transfer function: sRGB, or linear (anything else is read
    /// as linear).
    pub color_space: ColorSpace,
}

impl Ktx2Info {
    /// Reads and checks a KTX2 file's header, level index and DFD (see the
    /// module docs), without decoding anything.
    ///
    /// # Errors
    /// The [`Ktx2Problem`] found first.
    pub fn parse(bytes: &[u8]) -> Result<Self, Ktx2Problem> {
        if bytes.len() < LEVEL_INDEX_AT || bytes[..12] != MAGIC {
            return Err(Ktx2Problem::NotKtx2);
        }
        let file_len = bytes.len() as u64;
        let word = |at: usize| {
            u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
        };
        let long = |at: usize| u64::from(word(at)) | u64::from(word(at + 4)) << 32;
        let region = |what, offset: u64, length: u64| {
            if offset
                .checked_add(length)
                .is_some_and(|end| end <= file_len)
            {
                Ok(())
            } else {
                Err(Ktx2Problem::OutOfFile {
                    what,
                    offset,
                    length,
                    file_len,
                })
            }
        };
        let vk_format = word(12);
        if vk_format != 0 {
            return Err(Ktx2Problem::NotBasis(vk_format));
        }
        let (width, height, depth) = (word(20), word(24), word(28));
        let (layers, faces, stored_levels, scheme) = (word(32), word(36), word(40), word(44));
        if !(1..=MAX_TEXTURE_SIZE).contains(&width) || !(1..=MAX_TEXTURE_SIZE).contains(&height) {
            return Err(Ktx2Problem::Size { width, height });
        }
        if depth != 0 || layers > 1 || faces != 1 {
            return Err(Ktx2Problem::NotTwoD {
                depth,
                layers,
                faces,
            });
        }
        // 0 means "one level; make the rest at load" in KTX2.
        let levels = stored_levels.max(1);
        let max = full_mip_count(width, height);
        if levels > max {
            return Err(Ktx2Problem::LevelCount {
                levels,
                width,
                height,
                max,
            });
        }
        if scheme > 2 {
            return Err(Ktx2Problem::Supercompression(scheme));
        }
        let (dfd_at, dfd_len) = (u64::from(word(48)), u64::from(word(52)));
        region("the data format descriptor", dfd_at, dfd_len)?;
        // dfdTotalSize, then the basic block: two header words, then colour
        // model, primaries, transfer function, flags.
        if dfd_len < 16 {
            return Err(Ktx2Problem::OutOfFile {
                what: "the data format descriptor's basic block",
                offset: dfd_at,
                length: dfd_len,
                file_len,
            });
        }
        let dfd = dfd_at as usize;
        let codec = match bytes[dfd + 12] {
            MODEL_ETC1S => BasisCodec::Etc1s,
            MODEL_UASTC => BasisCodec::Uastc,
            other => return Err(Ktx2Problem::Codec(other)),
        };
        let color_space = match bytes[dfd + 14] {
            TRANSFER_SRGB => ColorSpace::Srgb,
            _ => ColorSpace::Linear,
        };
        region("the supercompression data", long(64), long(72))?;
        let index_len = LEVEL_ENTRY as u64 * u64::from(levels);
        region("the level index", LEVEL_INDEX_AT as u64, index_len)?;
        for level in 0..levels {
            let at = LEVEL_INDEX_AT + LEVEL_ENTRY * level as usize;
            let (offset, length, inflated) = (long(at), long(at + 8), long(at + 16));
            region("a mip level", offset, length)?;
            if codec == BasisCodec::Uastc {
                let (w, h) = mip_size(width, height, level);
                let expected = TexelFormat::Astc4x4.image_bytes(w, h);
                let found = if scheme == 2 { inflated } else { length };
                if found != expected {
                    return Err(Ktx2Problem::LevelBytes {
                        level,
                        width: w,
                        height: h,
                        expected,
                        found,
                    });
                }
            }
        }
        Ok(Self {
            width,
            height,
            levels,
            codec,
            color_space,
        })
    }
}

impl TextureData {
    /// Transcodes a KTX2 Basis Universal file for a device with `features`
    /// ([`TexelFormat::for_basis`] picks the format), every level it has.
    /// `color_space` is how the texture is used (base colour and emissive:
    /// sRGB; normals, masks: linear) and wins over the file's transfer
    /// function; `None` takes the file's.
    ///
    /// # Errors
    /// [`TextureError::Ktx2`] naming `label` and what is wrong.
    pub fn from_ktx2(
        label: &str,
        bytes: &[u8],
        features: wgpu::Features,
        color_space: Option<ColorSpace>,
    ) -> Result<Self, TextureError> {
        let problem = |problem| TextureError::Ktx2 {
            label: label.to_owned(),
            problem,
        };
        let info = Ktx2Info::parse(bytes).map_err(problem)?;
        let color_space = match color_space {
            Some(wanted) if wanted != info.color_space => {
                log::debug!(
                    "{label}: the KTX2 file says {:?}; used as {wanted:?}",
                    info.color_space
                );
                wanted
            }
            Some(wanted) => wanted,
            None => info.color_space,
        };
        let format = TexelFormat::for_basis(features, info.codec, info.width, info.height);
        let transcode_error = |level, e: basisu::Error| {
            problem(Ktx2Problem::Transcode {
                level,
                reason: format!("{e:?}"),
            })
        };
        let transcoder = basisu::Transcoder::new(bytes).map_err(|e| transcode_error(0, e))?;
        if transcoder.base_dimensions() != (info.width, info.height)
            || transcoder.level_count() != info.levels
            || transcoder.is_video()
        {
            return Err(problem(Ktx2Problem::Transcode {
                level: 0,
                reason: "the transcoder reads another size, level count or a video".to_owned(),
            }));
        }
        let target = match format {
            TexelFormat::Rgba8 => basisu::TargetFormat::Rgba32,
            TexelFormat::Bc7 => basisu::TargetFormat::Bc7Rgba,
            TexelFormat::Etc2Rgba8 => basisu::TargetFormat::Etc2Rgba,
            TexelFormat::Astc4x4 => basisu::TargetFormat::Astc4x4Rgba,
        };
        let levels = (0..info.levels)
            .map(|level| {
                transcoder
                    .transcode(level, target, basisu::DecodeFlags::NONE)
                    .map_err(|e| transcode_error(level, e))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Self::new(format, color_space, info.width, info.height, levels).map_err(|e| {
            problem(Ktx2Problem::Transcode {
                level: 0,
                reason: e.to_string(),
            })
        })
    }
}
