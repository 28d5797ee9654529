//! The texel formats a [`TextureData`](super::TextureData) can hold, their
//! sizes per mip level, and which one a device gets for a Basis Universal
//! texture.

use super::{BasisCodec, ColorSpace};

/// Largest width or height of a [`TextureData`](super::TextureData): WebGPU's guaranteed 2D limit
/// is 8192 and desktop GPUs allow 16384; a file claiming more (KTX2 stores
/// 32-bit sizes) is refused before anything is allocated.
pub const MAX_TEXTURE_SIZE: u32 = 16384;

/// How the texels of a [`TextureData`](super::TextureData) are stored: plain
/// RGBA8 or one of the block-compressed formats a Basis Universal texture is
/// transcoded to (every block 4x4 texels, 16 bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TexelFormat {
    /// 4 bytes per texel; every device.
    Rgba8,
    /// BC7 (BPTC): desktop GPUs (`TEXTURE_COMPRESSION_BC`).
    Bc7,
    /// ETC2 RGBA8 (ETC2 colour + EAC alpha): mobile GPUs, WebGL2 with
    /// `WEBGL_compressed_texture_etc` (`TEXTURE_COMPRESSION_ETC2`).
    Etc2Rgba8,
    /// ASTC 4x4 LDR: recent mobile GPUs, Apple silicon
    /// (`TEXTURE_COMPRESSION_ASTC`).
    Astc4x4,
}

impl TexelFormat {
    /// The wgpu format for `color_space` (every format here has an sRGB twin).
    #[must_use]
    pub fn wgpu_format(self, color_space: ColorSpace) -> wgpu::TextureFormat {
        use wgpu::TextureFormat as F;
        let srgb = color_space == ColorSpace::Srgb;
        match (self, srgb) {
            (Self::Rgba8, false) => F::Rgba8Unorm,
            (Self::Rgba8, true) => F::Rgba8UnormSrgb,
            (Self::Bc7, false) => F::Bc7RgbaUnorm,
            (Self::Bc7, true) => F::Bc7RgbaUnormSrgb,
            (Self::Etc2Rgba8, false) => F::Etc2Rgba8Unorm,
            (Self::Etc2Rgba8, true) => F::Etc2Rgba8UnormSrgb,
            (Self::Astc4x4, srgb) => F::Astc {
                block: wgpu::AstcBlock::B4x4,
                channel: if srgb {
                    wgpu::AstcChannel::UnormSrgb
                } else {
                    wgpu::AstcChannel::Unorm
                },
            },
        }
    }

    /// The device feature this format needs (`None` for RGBA8).
    #[must_use]
    pub fn required_feature(self) -> Option<wgpu::Features> {
        match self {
            Self::Rgba8 => None,
            Self::Bc7 => Some(wgpu::Features::TEXTURE_COMPRESSION_BC),
            Self::Etc2Rgba8 => Some(wgpu::Features::TEXTURE_COMPRESSION_ETC2),
            Self::Astc4x4 => Some(wgpu::Features::TEXTURE_COMPRESSION_ASTC),
        }
    }

    /// Whether a device with `features` can sample this format.
    #[must_use]
    pub fn is_supported_by(self, features: wgpu::Features) -> bool {
        self.required_feature().is_none_or(|f| features.contains(f))
    }

    /// Block width and height in texels (1 for RGBA8, 4 for the others).
    #[must_use]
    pub fn block_size(self) -> u32 {
        match self {
            Self::Rgba8 => 1,
            Self::Bc7 | Self::Etc2Rgba8 | Self::Astc4x4 => 4,
        }
    }

    /// Bytes per block (per texel for RGBA8).
    #[must_use]
    pub fn block_bytes(self) -> u32 {
        match self {
            Self::Rgba8 => 4,
            Self::Bc7 | Self::Etc2Rgba8 | Self::Astc4x4 => 16,
        }
    }

    /// Bytes of one row of blocks of an image `width` texels wide (the
    /// `bytes_per_row` of an upload): whole blocks, so a 2-texel-wide BC7
    /// mip still takes one 16-byte block.
    #[must_use]
    pub fn row_bytes(self, width: u32) -> u64 {
        u64::from(width.div_ceil(self.block_size())) * u64::from(self.block_bytes())
    }

    /// Bytes of an image of `width` x `height` texels, in whole blocks.
    #[must_use]
    pub fn image_bytes(self, width: u32, height: u32) -> u64 {
        self.row_bytes(width) * u64::from(height.div_ceil(self.block_size()))
    }

    /// Bytes of all `levels` mip levels of a `width` x `height` texture (what
    /// it occupies in GPU memory, before the driver's own padding).
    #[must_use]
    pub fn chain_bytes(self, width: u32, height: u32, levels: u32) -> u64 {
        (0..levels)
            .map(|level| {
                let (w, h) = mip_size(width, height, level);
                self.image_bytes(w, h)
            })
            .sum()
    }

    /// The format a Basis Universal texture in `codec` is transcoded to on
    /// a device with `features`, for an image of `width` x `height` (level 0).
    ///
    /// BC7 where the device has BC (every desktop GPU); else, for UASTC,
    /// ASTC 4x4 before ETC2 (UASTC is ASTC-based: the transcode is nearly
    /// lossless, ETC2's is not), and for ETC1S, ETC2 before ASTC (ETC1S is
    /// a subset of ETC1: the transcode is exact and cheaper); else RGBA8.
    /// Block formats need a level 0 whose sizes are multiples of 4 (wgpu
    /// refuses others), so other sizes get RGBA8 too.
    #[must_use]
    pub fn for_basis(features: wgpu::Features, codec: BasisCodec, width: u32, height: u32) -> Self {
        if !width.is_multiple_of(4) || !height.is_multiple_of(4) {
            return Self::Rgba8;
        }
        let order: [Self; 3] = if codec == BasisCodec::Etc1s {
            [Self::Bc7, Self::Etc2Rgba8, Self::Astc4x4]
        } else {
            [Self::Bc7, Self::Astc4x4, Self::Etc2Rgba8]
        };
        order
            .into_iter()
            .find(|format| format.is_supported_by(features))
            .unwrap_or(Self::Rgba8)
    }

    /// The format's code in [`TextureData::to_bytes`](super::TextureData::to_bytes).
    pub(crate) fn code(self) -> u8 {
        match self {
            Self::Rgba8 => 0,
            Self::Bc7 => 1,
            Self::Etc2Rgba8 => 2,
            Self::Astc4x4 => 3,
        }
    }

    /// The format with `code`, if there is one.
    pub(crate) fn from_code(code: u8) -> Option<Self> {
        Some(match code {
            0 => Self::Rgba8,
            1 => Self::Bc7,
            2 => Self::Etc2Rgba8,
            3 => Self::Astc4x4,
            _ => return None,
        })
    }
}

/// Width and height of mip `level` of a `width` x `height` image (halved,
/// rounded down, at least 1).
#[must_use]
pub fn mip_size(width: u32, height: u32, level: u32) -> (u32, u32) {
    let shift = |size: u32| size.checked_shr(level).unwrap_or(0).max(1);
    (shift(width), shift(height))
}

/// Mip levels of a full chain down to 1x1 for a `width` x `height` image.
#[must_use]
pub fn full_mip_count(width: u32, height: u32) -> u32 {
    32 - width.max(height).max(1).leading_zeros()
}

/// GPU bytes of a texture of any wgpu `format` (all `levels` mip levels,
/// one layer), counting whole blocks; `None` for formats without a fixed
/// texel size (depth-stencil combinations, multi-planar video formats).
#[must_use]
pub fn texture_gpu_bytes(
    format: wgpu::TextureFormat,
    width: u32,
    height: u32,
    levels: u32,
) -> Option<u64> {
    let block_bytes = u64::from(format.block_copy_size(None)?);
    let (bw, bh) = format.block_dimensions();
    Some(
        (0..levels)
            .map(|level| {
                let (w, h) = mip_size(width, height, level);
                u64::from(w.div_ceil(bw)) * u64::from(h.div_ceil(bh)) * block_bytes
            })
            .sum(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use wgpu::Features as F;

    #[test]
    fn sizes_count_whole_blocks() {
        assert_eq!(TexelFormat::Bc7.image_bytes(2, 1), 16);
        assert_eq!(TexelFormat::Bc7.image_bytes(30, 20), 8 * 5 * 16);
        assert_eq!(TexelFormat::Rgba8.image_bytes(30, 20), 30 * 20 * 4);
        // 64x64 RGBA8 with 7 mips: 4/3 of the base, roughly.
        assert_eq!(TexelFormat::Rgba8.chain_bytes(64, 64, 7), 21_844);
        assert_eq!(
            texture_gpu_bytes(wgpu::TextureFormat::Bc7RgbaUnorm, 64, 64, 7),
            Some(TexelFormat::Bc7.chain_bytes(64, 64, 7))
        );
        assert_eq!(full_mip_count(30, 20), 5);
        assert_eq!(mip_size(30, 20, 4), (1, 1));
        assert_eq!(mip_size(30, 20, 40), (1, 1));
    }

    #[test]
    fn basis_targets_follow_the_device() {
        let all =
            F::TEXTURE_COMPRESSION_BC | F::TEXTURE_COMPRESSION_ETC2 | F::TEXTURE_COMPRESSION_ASTC;
        assert_eq!(
            TexelFormat::for_basis(all, BasisCodec::Etc1s, 64, 64),
            TexelFormat::Bc7
        );
        let mobile = F::TEXTURE_COMPRESSION_ETC2 | F::TEXTURE_COMPRESSION_ASTC;
        assert_eq!(
            TexelFormat::for_basis(mobile, BasisCodec::Etc1s, 64, 64),
            TexelFormat::Etc2Rgba8
        );
        assert_eq!(
            TexelFormat::for_basis(mobile, BasisCodec::Uastc, 64, 64),
            TexelFormat::Astc4x4
        );
        assert_eq!(
            TexelFormat::for_basis(F::empty(), BasisCodec::Uastc, 64, 64),
            TexelFormat::Rgba8
        );
        assert_eq!(
            TexelFormat::for_basis(all, BasisCodec::Uastc, 30, 20),
            TexelFormat::Rgba8
        );
    }

    #[test]
    fn codes_round_trip() {
        for format in [
            TexelFormat::Rgba8,
            TexelFormat::Bc7,
            TexelFormat::Etc2Rgba8,
            TexelFormat::Astc4x4,
        ] {
            assert_eq!(TexelFormat::from_code(format.code()), Some(format));
        }
        assert_eq!(TexelFormat::from_code(4), None);
    }
}
