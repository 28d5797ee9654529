//! Offscreen render targets that can be read back to the CPU: headless
//! rendering, screenshots and image tests.

use super::GpuContext;
use super::error::ReadbackError;

/// A 2D colour texture to render into and read back.
#[derive(Debug)]
pub struct OffscreenTarget {
    texture: wgpu::Texture,
    view: wgpu::TextureView,
    width: u32,
    height: u32,
    format: wgpu::TextureFormat,
}

impl OffscreenTarget {
    /// A `width` x `height` target in `format`: 8-bit RGBA or BGRA (sRGB or
    /// linear), or `Rgba16Float` (an HDR output).
    ///
    /// # Errors
    /// [`ReadbackError::ZeroSize`] for an empty size,
    /// [`ReadbackError::UnsupportedFormat`] for any other format.
    pub fn new(
        ctx: &GpuContext,
        width: u32,
        height: u32,
        format: wgpu::TextureFormat,
    ) -> Result<Self, ReadbackError> {
        if width == 0 || height == 0 {
            return Err(ReadbackError::ZeroSize { width, height });
        }
        if !is_rgba8(format) && format != wgpu::TextureFormat::Rgba16Float {
            return Err(ReadbackError::UnsupportedFormat { format });
        }
        let texture = ctx.device().create_texture(&wgpu::TextureDescriptor {
            label: Some("offscreen target"),
            size: wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT
                | wgpu::TextureUsages::COPY_SRC
                | wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        });
        let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
        Ok(Self {
            texture,
            view,
            width,
            height,
            format,
        })
    }

    /// The texture.
    #[must_use]
    pub fn texture(&self) -> &wgpu::Texture {
        &self.texture
    }

    /// A view of the whole texture, for a colour attachment.
    #[must_use]
    pub fn view(&self) -> &wgpu::TextureView {
        &self.view
    }

    /// Width and height in pixels.
    #[must_use]
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// The texture format.
    #[must_use]
    pub fn format(&self) -> wgpu::TextureFormat {
        self.format
    }

    /// Copies the texture to the CPU as tightly packed RGBA8 rows (BGRA is
    /// swizzled), waiting for the GPU. An `Rgba16Float` target is shown as
    /// SDR: clamped to 0..=1 and sRGB-encoded.
    ///
    /// # Errors
    /// [`ReadbackError::Map`] if the staging buffer cannot be mapped.
    pub fn read_rgba8(&self, ctx: &GpuContext) -> Result<Vec<u8>, ReadbackError> {
        if self.format == wgpu::TextureFormat::Rgba16Float {
            let linear = self.read_rgba_f32(ctx)?;
            return Ok(linear
                .iter()
                .flat_map(|&[r, g, b, a]| {
                    [srgb_encode(r), srgb_encode(g), srgb_encode(b), unorm8(a)]
                })
                .collect());
        }
        let mut pixels = self.read_texels(ctx, 4)?;
        if matches!(
            self.format,
            wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Bgra8UnormSrgb
        ) {
            for px in pixels.chunks_exact_mut(4) {
                px.swap(0, 2);
            }
        }
        Ok(pixels)
    }

    /// Copies an `Rgba16Float` target to the CPU as linear RGBA values, row
    /// by row, waiting for the GPU (values above 1.0 kept).
    ///
    /// # Errors
    /// [`ReadbackError::UnsupportedFormat`] for a target of another format,
    /// [`ReadbackError::Map`] if the staging buffer cannot be mapped.
    pub fn read_rgba_f32(&self, ctx: &GpuContext) -> Result<Vec<[f32; 4]>, ReadbackError> {
        if self.format != wgpu::TextureFormat::Rgba16Float {
            return Err(ReadbackError::UnsupportedFormat {
                format: self.format,
            });
        }
        let bytes = self.read_texels(ctx, 8)?;
        Ok(bytes
            .chunks_exact(8)
            .map(|texel| {
                let channel = |i: usize| f16_to_f32(u16::from_le_bytes([texel[i], texel[i + 1]]));
                [channel(0), channel(2), channel(4), channel(6)]
            })
            .collect())
    }

    /// The texture's texels, `texel_bytes` each, tightly packed row by row.
    fn read_texels(&self, ctx: &GpuContext, texel_bytes: u32) -> Result<Vec<u8>, ReadbackError> {
        let row = self.width * texel_bytes;
        let padded =
            row.div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT) * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
        let staging = ctx.device().create_buffer(&wgpu::BufferDescriptor {
            label: Some("read-back staging"),
            size: u64::from(padded) * u64::from(self.height),
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        let mut encoder = ctx
            .device()
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("read-back"),
            });
        encoder.copy_texture_to_buffer(
            self.texture.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &staging,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(padded),
                    rows_per_image: Some(self.height),
                },
            },
            self.texture.size(),
        );
        ctx.queue().submit([encoder.finish()]);
        let (sender, receiver) = std::sync::mpsc::channel();
        staging.map_async(wgpu::MapMode::Read, .., move |result| {
            let _ = sender.send(result);
        });
        ctx.device()
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| ReadbackError::Map(e.to_string()))?;
        receiver
            .recv()
            .map_err(|e| ReadbackError::Map(e.to_string()))?
            .map_err(|e| ReadbackError::Map(e.to_string()))?;
        let mapped = staging
            .get_mapped_range(..)
            .map_err(|e| ReadbackError::Map(e.to_string()))?;
        let mut texels = Vec::with_capacity((row * self.height) as usize);
        for y in 0..self.height as usize {
            let start = y * padded as usize;
            texels.extend_from_slice(&mapped[start..start + row as usize]);
        }
        drop(mapped);
        staging.unmap();
        Ok(texels)
    }
}

/// A linear value as an 8-bit sRGB-encoded one (clamped to 0..=1).
fn srgb_encode(linear: f32) -> u8 {
    let c = if linear.is_nan() {
        0.0
    } else {
        linear.clamp(0.0, 1.0)
    };
    let encoded = if c <= 0.003_130_8 {
        c * 12.92
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    };
    unorm8(encoded)
}

/// A 0..=1 value as an 8-bit one (clamped, rounded).
fn unorm8(value: f32) -> u8 {
    (value.clamp(0.0, 1.0) * 255.0).round() as u8
}

/// An IEEE 754 half (binary16) as an `f32`, subnormals and infinities included.
fn f16_to_f32(half: u16) -> f32 {
    let sign = if half & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exponent = i32::from((half >> 10) & 0x1f);
    let mantissa = f32::from(half & 0x3ff);
    sign * match exponent {
        0 => mantissa * 2f32.powi(-24),
        31 if mantissa == 0.0 => f32::INFINITY,
        31 => f32::NAN,
        _ => (1.0 + mantissa / 1024.0) * 2f32.powi(exponent - 15),
    }
}

fn is_rgba8(format: wgpu::TextureFormat) -> bool {
    matches!(
        format,
        wgpu::TextureFormat::Rgba8Unorm
            | wgpu::TextureFormat::Rgba8UnormSrgb
            | wgpu::TextureFormat::Bgra8Unorm
            | wgpu::TextureFormat::Bgra8UnormSrgb
    )
}

#[cfg(test)]
mod tests {
    use super::{f16_to_f32, srgb_encode};

    #[test]
    fn halves_decode_exactly() {
        assert_eq!(f16_to_f32(0x3c00), 1.0);
        assert_eq!(f16_to_f32(0x4000), 2.0);
        assert_eq!(f16_to_f32(0xc000), -2.0);
        assert_eq!(f16_to_f32(0x7bff), 65504.0);
        assert_eq!(f16_to_f32(0x0001), 2f32.powi(-24));
        assert_eq!(f16_to_f32(0x7c00), f32::INFINITY);
        assert!(f16_to_f32(0x7e00).is_nan());
    }

    #[test]
    fn srgb_encoding_clamps_and_matches_the_format() {
        assert_eq!(srgb_encode(0.0), 0);
        assert_eq!(srgb_encode(1.0), 255);
        assert_eq!(srgb_encode(7.5), 255);
        assert_eq!(srgb_encode(-1.0), 0);
        // Linear 0.5 is sRGB 0.7354 (188 of 255).
        assert_eq!(srgb_encode(0.5), 188);
    }
}
