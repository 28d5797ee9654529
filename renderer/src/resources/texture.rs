//! Textures decoded with `image` (PNG, JPEG) and uploaded with a mip chain
//! built on the GPU; KTX2 and [`TextureData`](super::TextureData) uploads are
//! in `texture_upload.rs`.

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
    /// A KTX2 file that cannot be read: damaged, or not a 2D Basis
    /// Universal (ETC1S or UASTC) texture.
    #[error("cannot load KTX2 texture {label}: {problem}")]
    Ktx2 {
        /// What was being loaded (a file name or label).
        label: String,
        /// What is wrong.
        problem: super::Ktx2Problem,
    },
    /// A [`TextureData`](super::TextureData) in a format this device cannot
    /// sample (a BC7 texture cached on a desktop, loaded on a phone).
    #[error("texture {label} is {format:?}, which this GPU cannot sample")]
    UnsupportedFormat {
        /// What was being loaded.
        label: String,
        /// The texture's format.
        format: wgpu::TextureFormat,
    },
}

/// A sampled 2D texture with its view.
#[derive(Debug)]
pub struct Texture {
    texture: wgpu::Texture,
    view: wgpu::TextureView,
}

impl Texture {
    /// Decodes PNG or JPEG `bytes` and uploads them with a full mip chain;
    /// KTX2 bytes go to [`from_ktx2_bytes`](Self::from_ktx2_bytes).
    ///
    /// # Errors
    /// [`TextureError::Decode`] or [`TextureError::TooLarge`] (or a KTX2's
    /// errors), naming `label`.
    pub fn from_image_bytes(
        ctx: &GpuContext,
        label: &str,
        bytes: &[u8],
        color_space: ColorSpace,
    ) -> Result<Self, TextureError> {
        if super::is_ktx2(bytes) {
            return Self::from_ktx2_bytes(ctx, label, bytes, color_space);
        }
        let image = image::load_from_memory(bytes)
            .map_err(|source| TextureError::Decode {
                label: label.to_owned(),
                source,
            })?
            .to_rgba8();
        Self::from_rgba8(ctx, label, &image, color_space)
    }

    /// Loads a PNG, JPEG or KTX2 file.
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

    /// Uploads decoded RGBA8 pixels; the GPU builds the box-filtered mip
    /// chain (linear light for sRGB; see [`Texture::from_data`]).
    ///
    /// # Errors
    /// [`TextureError::TooLarge`] beyond the device's 2D texture limit.
    pub fn from_rgba8(
        ctx: &GpuContext,
        label: &str,
        image: &image::RgbaImage,
        color_space: ColorSpace,
    ) -> Result<Self, TextureError> {
        // The upload checks the size against the device.
        let size = image.dimensions();
        let format = super::TexelFormat::Rgba8;
        Self::upload(ctx, label, format, color_space, size, &[image.as_raw()])
    }

    /// A texture around `texture`, viewing all its mips.
    pub(super) fn from_wgpu(texture: wgpu::Texture) -> Self {
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        Self { texture, view }
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
