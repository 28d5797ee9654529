//! Textures decoded with `image` (PNG, JPEG) and uploaded with a mip chain.

use crate::GpuContext;

/// How a texture's 8-bit values are to be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColorSpace {
    /// Colour (albedo, emissive, sky): sRGB-encoded, decoded to linear on sampling.
    Srgb,
    /// Data (normals, metallic-roughness, masks): used as stored.
    Linear,
}

/// A texture that cannot be loaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TextureError {
    /// The bytes are not a PNG or JPEG image, or are damaged.
    #[error("cannot decode image {label}: {source}")]
    Decode {
        /// What was being loaded (a file name or label).
        label: String,
        /// The decoder's error.
        source: image::ImageError,
    },
    /// Reading the file failed.
    #[error("cannot read image file {path}: {source}")]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// Larger than the GPU allows.
    #[error("image {label} is {width}x{height}; this GPU allows at most {max}x{max}")]
    TooLarge {
        /// What was being loaded.
        label: String,
        /// Image width.
        width: u32,
        /// Image height.
        height: u32,
        /// The device limit.
        max: u32,
    },
}

/// A sampled 2D texture with its view.
#[derive(Debug)]
pub struct Texture {
    texture: wgpu::Texture,
    view: wgpu::TextureView,
}

impl Texture {
    /// Decodes PNG or JPEG `bytes` and uploads them with a full mip chain.
    ///
    /// # Errors
    /// [`TextureError::Decode`] or [`TextureError::TooLarge`], naming `label`.
    pub fn from_image_bytes(
        ctx: &GpuContext,
        label: &str,
        bytes: &[u8],
        color_space: ColorSpace,
    ) -> Result<Self, TextureError> {
        let image = image::load_from_memory(bytes)
            .map_err(|source| TextureError::Decode {
                label: label.to_owned(),
                source,
            })?
            .to_rgba8();
        Self::from_rgba8(ctx, label, &image, color_space)
    }

    /// Loads a PNG or JPEG file.
    ///
    /// # Errors
    /// [`TextureError::Io`] naming the file, or what
    /// [`from_image_bytes`](Self::from_image_bytes) reports.
    pub fn from_file(
        ctx: &GpuContext,
        path: impl AsRef<std::path::Path>,
        color_space: ColorSpace,
    ) -> Result<Self, TextureError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|source| TextureError::Io {
            path: path.to_owned(),
            source,
        })?;
        Self::from_image_bytes(ctx, &path.display().to_string(), &bytes, color_space)
    }

    /// Uploads decoded RGBA8 pixels with a box-filtered mip chain.
    ///
    /// # Errors
    /// [`TextureError::TooLarge`] beyond the device's 2D texture limit.
    pub fn from_rgba8(
        ctx: &GpuContext,
        label: &str,
        image: &image::RgbaImage,
        color_space: ColorSpace,
    ) -> Result<Self, TextureError> {
        let (width, height) = image.dimensions();
        let max = ctx.device().limits().max_texture_dimension_2d;
        if width > max || height > max || width == 0 || height == 0 {
            return Err(TextureError::TooLarge {
                label: label.to_owned(),
                width,
                height,
                max,
            });
        }
        let format = match color_space {
            ColorSpace::Srgb => wgpu::TextureFormat::Rgba8UnormSrgb,
            ColorSpace::Linear => wgpu::TextureFormat::Rgba8Unorm,
        };
        let mip_level_count = 32 - width.max(height).leading_zeros();
        let texture = ctx.device().create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size: wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
            mip_level_count,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            view_formats: &[],
        });
        let mut level = std::borrow::Cow::Borrowed(image);
        for mip in 0..mip_level_count {
            let (w, h) = level.dimensions();
            ctx.queue().write_texture(
                wgpu::TexelCopyTextureInfo {
                    texture: &texture,
                    mip_level: mip,
                    origin: wgpu::Origin3d::ZERO,
                    aspect: wgpu::TextureAspect::All,
                },
                level.as_raw(),
                wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(4 * w),
                    rows_per_image: Some(h),
                },
                wgpu::Extent3d {
                    width: w,
                    height: h,
                    depth_or_array_layers: 1,
                },
            );
            if mip + 1 < mip_level_count {
                let next = image::imageops::resize(
                    level.as_ref(),
                    (w / 2).max(1),
                    (h / 2).max(1),
                    image::imageops::FilterType::Triangle,
                );
                level = std::borrow::Cow::Owned(next);
            }
        }
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        Ok(Self { texture, view })
    }

    /// The texture.
    #[must_use]
    pub fn texture(&self) -> &wgpu::Texture {
        &self.texture
    }

    /// A view of all mips.
    #[must_use]
    pub fn view(&self) -> &wgpu::TextureView {
        &self.view
    }
}

/// The samplers every renderer needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SamplerKind {
    /// Trilinear, repeating: materials.
    LinearRepeat,
    /// Bilinear, clamped: post-processing and render targets.
    LinearClamp,
    /// Nearest, clamped: pixel-exact lookups, voxel atlases.
    NearestClamp,
    /// Depth comparison (less-equal), clamped: shadow maps with PCF.
    ShadowCompare,
}

impl SamplerKind {
    /// Creates the sampler.
    #[must_use]
    pub fn create(self, device: &wgpu::Device) -> wgpu::Sampler {
        let (filter, address, compare) = match self {
            Self::LinearRepeat => (wgpu::FilterMode::Linear, wgpu::AddressMode::Repeat, None),
            Self::LinearClamp => (
                wgpu::FilterMode::Linear,
                wgpu::AddressMode::ClampToEdge,
                None,
            ),
            Self::NearestClamp => (
                wgpu::FilterMode::Nearest,
                wgpu::AddressMode::ClampToEdge,
                None,
            ),
            Self::ShadowCompare => (
                wgpu::FilterMode::Linear,
                wgpu::AddressMode::ClampToEdge,
                Some(wgpu::CompareFunction::LessEqual),
            ),
        };
        let mipmap_filter = match self {
            Self::LinearRepeat => wgpu::MipmapFilterMode::Linear,
            _ => wgpu::MipmapFilterMode::Nearest,
        };
        device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("taos sampler"),
            address_mode_u: address,
            address_mode_v: address,
            address_mode_w: address,
            mag_filter: filter,
            min_filter: filter,
            mipmap_filter,
            compare,
            ..Default::default()
        })
    }
}
