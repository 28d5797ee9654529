//! Offscreen render targets that can be read back to the CPU: headless
//! rendering, screenshots and image tests.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, Waker};

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
    /// SDR: clamped to 0..=1 and sRGB-encoded. Blocks, so not for the
    /// browser's main thread: use [`read_rgba8_later`](Self::read_rgba8_later)
    /// there.
    ///
    /// # Errors
    /// [`ReadbackError::Map`] if the staging buffer cannot be mapped.
    pub fn read_rgba8(&self, ctx: &GpuContext) -> Result<Vec<u8>, ReadbackError> {
        self.read_rgba8_later(ctx).wait()
    }

    /// Starts copying the texture to the CPU as RGBA8 (as
    /// [`read_rgba8`](Self::read_rgba8) does) and returns at once: the
    /// pixels come as a [`PendingReadback`], a future. What was rendered
    /// before this call is what it reads; the target may be dropped or
    /// drawn into again meanwhile.
    #[must_use = "the pixels come through the returned future"]
    pub fn read_rgba8_later(&self, ctx: &GpuContext) -> PendingReadback {
        let texels = match self.format {
            wgpu::TextureFormat::Rgba16Float => Texels::HalfAsSrgb8,
            wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Bgra8UnormSrgb => Texels::Bgra8,
            _ => Texels::AsStored,
        };
        self.start_read(ctx, texels)
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
        let bytes = self.start_read(ctx, Texels::AsStored).wait()?;
        Ok(bytes.chunks_exact(8).map(half_texel).collect())
    }

    /// Records and submits the copy into a mappable buffer and asks for the
    /// mapping; the returned future finishes the job.
    fn start_read(&self, ctx: &GpuContext, texels: Texels) -> PendingReadback {
        let texel_bytes = if self.format == wgpu::TextureFormat::Rgba16Float {
            8
        } else {
            4
        };
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
        let mapping = Arc::new(Mutex::new(Mapping::default()));
        let answer = Arc::clone(&mapping);
        staging.map_async(wgpu::MapMode::Read, .., move |result| {
            let mut mapping = answer.lock().unwrap_or_else(PoisonError::into_inner);
            mapping.result = Some(result.map_err(|e| e.to_string()));
            if let Some(waker) = mapping.waker.take() {
                waker.wake();
            }
        });
        PendingReadback {
            device: ctx.device().clone(),
            staging,
            mapping,
            row,
            padded,
            height: self.height,
            texels,
        }
    }
}

/// A read-back on its way from the GPU (from
/// [`OffscreenTarget::read_rgba8_later`]): a future for the pixels, tightly
/// packed rows of RGBA8.
///
/// In the browser, awaiting it never blocks: the GPU's answer arrives
/// through the page's event loop (WebGPU) or on a later submit (WebGL2, so
/// keep rendering frames while it is awaited). Natively, polling it waits
/// for the GPU, as [`wait`](Self::wait) does.
#[derive(Debug)]
#[must_use = "the pixels come only when it is awaited or waited for"]
pub struct PendingReadback {
    device: wgpu::Device,
    staging: wgpu::Buffer,
    mapping: Arc<Mutex<Mapping>>,
    row: u32,
    padded: u32,
    height: u32,
    texels: Texels,
}

/// What the mapping callback left for the future.
#[derive(Debug, Default)]
struct Mapping {
    result: Option<Result<(), String>>,
    waker: Option<Waker>,
}

/// How the copied texels become the caller's bytes.
#[derive(Debug, Clone, Copy)]
enum Texels {
    /// The bytes as the texture stores them.
    AsStored,
    /// BGRA8 swizzled to RGBA8.
    Bgra8,
    /// Rgba16Float shown as SDR sRGB RGBA8.
    HalfAsSrgb8,
}

impl PendingReadback {
    /// The pixels, blocking until the GPU has copied them (native only: a
    /// browser cannot block on the GPU, and there this gives
    /// [`ReadbackError::Map`] unless the copy already arrived).
    ///
    /// # Errors
    /// [`ReadbackError::Map`] if the staging buffer cannot be mapped.
    pub fn wait(self) -> Result<Vec<u8>, ReadbackError> {
        if self.answer().is_none() {
            self.device
                .poll(wgpu::PollType::wait_indefinitely())
                .map_err(|e| ReadbackError::Map(e.to_string()))?;
        }
        match self.answer() {
            Some(result) => result.and_then(|()| self.unpack()),
            None => Err(ReadbackError::Map(
                "the GPU has not answered the read-back (a page cannot wait for it: await it)"
                    .to_owned(),
            )),
        }
    }

    /// The mapping's outcome, once the GPU answered.
    fn answer(&self) -> Option<Result<(), ReadbackError>> {
        let mapping = self.mapping.lock().unwrap_or_else(PoisonError::into_inner);
        mapping
            .result
            .clone()
            .map(|result| result.map_err(ReadbackError::Map))
    }

    /// The mapped rows without their padding, converted as asked.
    fn unpack(&self) -> Result<Vec<u8>, ReadbackError> {
        let mapped = self
            .staging
            .get_mapped_range(..)
            .map_err(|e| ReadbackError::Map(e.to_string()))?;
        let mut texels = Vec::with_capacity((self.row * self.height) as usize);
        for y in 0..self.height as usize {
            let start = y * self.padded as usize;
            texels.extend_from_slice(&mapped[start..start + self.row as usize]);
        }
        drop(mapped);
        self.staging.unmap();
        Ok(match self.texels {
            Texels::AsStored => texels,
            Texels::Bgra8 => {
                for px in texels.chunks_exact_mut(4) {
                    px.swap(0, 2);
                }
                texels
            }
            Texels::HalfAsSrgb8 => texels
                .chunks_exact(8)
                .flat_map(|texel| {
                    let [r, g, b, a] = half_texel(texel);
                    [srgb_encode(r), srgb_encode(g), srgb_encode(b), unorm8(a)]
                })
                .collect(),
        })
    }
}

impl Future for PendingReadback {
    type Output = Result<Vec<u8>, ReadbackError>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        // The lock is never held across `device.poll`: the mapping callback
        // may run inside it and takes the same lock.
        if self.answer().is_none() {
            // Natively the GPU can be waited for; a page must not block,
            // so there this only collects what has finished.
            let wait = if cfg!(target_arch = "wasm32") {
                wgpu::PollType::Poll
            } else {
                wgpu::PollType::wait_indefinitely()
            };
            if let Err(e) = self.device.poll(wait) {
                return Poll::Ready(Err(ReadbackError::Map(e.to_string())));
            }
        }
        let answer = {
            let mut mapping = self.mapping.lock().unwrap_or_else(PoisonError::into_inner);
            if mapping.result.is_none() {
                mapping.waker = Some(cx.waker().clone());
            }
            mapping.result.clone()
        };
        match answer {
            Some(result) => Poll::Ready(
                result
                    .map_err(ReadbackError::Map)
                    .and_then(|()| self.unpack()),
            ),
            None => Poll::Pending,
        }
    }
}

/// One `Rgba16Float` texel (8 little-endian bytes) as four `f32`s.
fn half_texel(texel: &[u8]) -> [f32; 4] {
    let channel = |i: usize| f16_to_f32(u16::from_le_bytes([texel[i], texel[i + 1]]));
    [channel(0), channel(2), channel(4), channel(6)]
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
