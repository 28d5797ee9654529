//! Uploading a [`TextureData`] or a KTX2 file: every level the data has,
//! block-compressed rows as whole blocks, and a mip chain built on the GPU
//! for a single RGBA8 level.

use super::texel_format::{TexelFormat, full_mip_count, mip_size, texture_gpu_bytes};
use super::{ColorSpace, Texture, TextureData, TextureError};
use crate::GpuContext;

/// Whether `bytes` start like a KTX2 file (its 12-byte identifier).
#[must_use]
pub fn is_ktx2(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0xAB, 0x4B, 0x54, 0x58, 0x20, 0x32, 0x30, 0xBB])
}

impl Texture {
    /// Uploads `data`: every level it holds, or, for a single RGBA8 level,
    /// that level and a full mip chain built from it on the GPU.
    ///
    /// # Errors
    /// [`TextureError::TooLarge`] beyond the device's 2D texture limit,
    /// [`TextureError::UnsupportedFormat`] for a block format the device
    /// lacks (choose with [`TexelFormat::for_basis`] from
    /// `ctx.device().features()` when making the data).
    pub fn from_data(
        ctx: &GpuContext,
        label: &str,
        data: &TextureData,
    ) -> Result<Self, TextureError> {
        Self::upload(
            ctx,
            label,
            data.format(),
            data.color_space(),
            data.size(),
            data.levels(),
        )
    }

    /// Transcodes a KTX2 Basis Universal texture (ETC1S or UASTC) to the
    /// best format this device samples (BC7, ASTC 4x4, ETC2 or RGBA8: see
    /// [`TexelFormat::for_basis`]) and uploads every level; a file with one
    /// level transcoded to RGBA8 gets its chain built on the GPU.
    /// `color_space` is how the texture is used and wins over the file's
    /// transfer function.
    ///
    /// # Errors
    /// [`TextureError::Ktx2`] naming `label` and what is wrong with the
    /// file, or [`TextureError::TooLarge`].
    pub fn from_ktx2_bytes(
        ctx: &GpuContext,
        label: &str,
        bytes: &[u8],
        color_space: ColorSpace,
    ) -> Result<Self, TextureError> {
        let features = ctx.device().features();
        let data = TextureData::from_ktx2(label, bytes, features, Some(color_space))?;
        Self::from_data(ctx, label, &data)
    }

    /// Bytes the texture occupies on the GPU: every mip level in its format
    /// (whole blocks), before the driver's own alignment.
    #[must_use]
    pub fn gpu_bytes(&self) -> u64 {
        let size = self.texture().size();
        texture_gpu_bytes(
            self.texture().format(),
            size.width,
            size.height,
            self.texture().mip_level_count(),
        )
        .unwrap_or(0)
            * u64::from(size.depth_or_array_layers)
    }

    /// Creates the texture and writes `levels` (level 0 first; sizes checked
    /// by the caller), then builds the rest of the chain on the GPU for one
    /// RGBA8 level.
    pub(super) fn upload(
        ctx: &GpuContext,
        label: &str,
        format: TexelFormat,
        color_space: ColorSpace,
        (width, height): (u32, u32),
        levels: &[impl AsRef<[u8]>],
    ) -> Result<Self, TextureError> {
        let max = ctx.device().limits().max_texture_dimension_2d;
        if width > max || height > max || width == 0 || height == 0 {
            return Err(TextureError::TooLarge {
                label: label.to_owned(),
                width,
                height,
                max,
            });
        }
        let wgpu_format = format.wgpu_format(color_space);
        if !format.is_supported_by(ctx.device().features()) {
            return Err(TextureError::UnsupportedFormat {
                label: label.to_owned(),
                format: wgpu_format,
            });
        }
        let build_mips =
            format == TexelFormat::Rgba8 && levels.len() == 1 && full_mip_count(width, height) > 1;
        let mut usage = wgpu::TextureUsages::TEXTURE_BINDING
            | wgpu::TextureUsages::COPY_DST
            | wgpu::TextureUsages::COPY_SRC;
        if build_mips {
            usage |= wgpu::TextureUsages::RENDER_ATTACHMENT;
        }
        let texture = ctx.device().create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size: wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
            mip_level_count: if build_mips {
                full_mip_count(width, height)
            } else {
                levels.len() as u32
            },
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu_format,
            usage,
            view_formats: &[],
        });
        let block = format.block_size();
        for (level, bytes) in (0u32..).zip(levels) {
            let (w, h) = mip_size(width, height, level);
            // A compressed level smaller than a block (2x2, 1x1) is still
            // copied as a whole block: wgpu wants its physical size.
            let physical = wgpu::Extent3d {
                width: w.div_ceil(block) * block,
                height: h.div_ceil(block) * block,
                depth_or_array_layers: 1,
            };
            ctx.queue().write_texture(
                wgpu::TexelCopyTextureInfo {
                    texture: &texture,
                    mip_level: level,
                    origin: wgpu::Origin3d::ZERO,
                    aspect: wgpu::TextureAspect::All,
                },
                bytes.as_ref(),
                wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    // At most 16384 / 4 blocks x 16 bytes: fits a u32.
                    bytes_per_row: Some(format.row_bytes(w) as u32),
                    rows_per_image: Some(h.div_ceil(block)),
                },
                physical,
            );
        }
        if build_mips {
            let mut encoder =
                ctx.device()
                    .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                        label: Some("mip generation"),
                    });
            ctx.mip_generator()
                .generate(ctx.device(), &mut encoder, &texture);
            ctx.queue().submit([encoder.finish()]);
        }
        Ok(Self::from_wgpu(texture))
    }
}
