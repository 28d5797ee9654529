//! HDR in and out of a renderer for post-effect tests: [`HdrSource`] puts a
//! known float image in `Frame::hdr`, [`HdrProbe`] copies whatever
//! `Frame::hdr` holds at its place in the chain into a read-back buffer,
//! [`FarDepth`] gives effects that read depth a far-plane depth buffer.

use std::sync::mpsc;

use taos_renderer::features::HDR_FORMAT;
use taos_renderer::frame::{DEPTH_CLEAR, DEPTH_FORMAT};
use taos_renderer::graph::{ImportedBuffer, ImportedTexture, TextureDesc};
use taos_renderer::{Frame, GpuContext, RenderFeature, wgpu};

/// Rows of the read-back are padded to this many bytes.
const ROW_ALIGN: u32 = wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;

/// One linear RGBA pixel.
pub(crate) type Rgba = [f32; 4];

/// Puts `pixels` (row-major, `width` x `height`) in `Frame::hdr`.
pub(crate) struct HdrSource {
    texture: wgpu::Texture,
}

impl HdrSource {
    pub(crate) fn new(gpu: &GpuContext, width: u32, height: u32, pixels: &[Rgba]) -> Self {
        assert_eq!(pixels.len(), (width * height) as usize);
        let texture = gpu.device().create_texture(&wgpu::TextureDescriptor {
            label: Some("test hdr source"),
            size: wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: HDR_FORMAT,
            usage: wgpu::TextureUsages::TEXTURE_BINDING
                | wgpu::TextureUsages::COPY_DST
                | wgpu::TextureUsages::COPY_SRC
                | wgpu::TextureUsages::RENDER_ATTACHMENT,
            view_formats: &[],
        });
        let bytes: Vec<u8> = pixels
            .iter()
            .flatten()
            .flat_map(|&v| f32_to_f16(v).to_le_bytes())
            .collect();
        gpu.queue().write_texture(
            texture.as_image_copy(),
            &bytes,
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(width * 8),
                rows_per_image: None,
            },
            texture.size(),
        );
        Self { texture }
    }
}

impl RenderFeature for HdrSource {
    fn name(&self) -> &'static str {
        "TestHdrSource"
    }

    fn add_passes<'a>(&'a self, frame: &mut Frame<'a>) {
        let hdr = frame
            .graph
            .import_texture("test hdr", ImportedTexture::new(self.texture.clone()));
        frame.hdr = Some(hdr);
    }
}

/// Puts a depth buffer cleared to the far plane (everything at infinity)
/// in `Frame::depth`, for effects that read depth.
pub(crate) struct FarDepth;

impl RenderFeature for FarDepth {
    fn name(&self) -> &'static str {
        "TestFarDepth"
    }

    fn add_passes<'a>(&'a self, frame: &mut Frame<'a>) {
        let (width, height) = frame.data.size;
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING;
        let depth = frame.graph.create_texture(
            "test far depth",
            TextureDesc::new_2d(width, height, DEPTH_FORMAT, usage),
        );
        let depth = frame.graph.add_render_pass("test far depth", |pass| {
            let depth = pass.write_depth(depth, wgpu::LoadOp::Clear(DEPTH_CLEAR));
            pass.execute(|_, _| {});
            depth
        });
        frame.depth = Some(depth);
    }
}

/// Copies `Frame::hdr` into a buffer the test reads after the frame.
pub(crate) struct HdrProbe {
    buffer: wgpu::Buffer,
    width: u32,
    height: u32,
}

impl HdrProbe {
    pub(crate) fn new(gpu: &GpuContext, width: u32, height: u32) -> Self {
        let buffer = gpu.device().create_buffer(&wgpu::BufferDescriptor {
            label: Some("test hdr probe"),
            size: u64::from(padded_row(width) * height),
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        Self {
            buffer,
            width,
            height,
        }
    }

    /// The pixels copied by the last frame (waits for the GPU).
    pub(crate) fn read(&self, gpu: &GpuContext) -> Vec<Rgba> {
        let slice = self.buffer.slice(..);
        let (send, receive) = mpsc::channel();
        slice.map_async(wgpu::MapMode::Read, move |result| {
            send.send(result).unwrap();
        });
        gpu.device()
            .poll(wgpu::PollType::wait_indefinitely())
            .unwrap();
        receive.recv().unwrap().unwrap();
        let mut pixels = Vec::with_capacity((self.width * self.height) as usize);
        {
            let data = slice.get_mapped_range().expect("the probe buffer maps");
            for row in data.chunks(padded_row(self.width) as usize) {
                for texel in row[..(self.width * 8) as usize].chunks(8) {
                    let channel =
                        |i: usize| f16_to_f32(u16::from_le_bytes([texel[i], texel[i + 1]]));
                    pixels.push([channel(0), channel(2), channel(4), channel(6)]);
                }
            }
        }
        self.buffer.unmap();
        pixels
    }
}

impl RenderFeature for HdrProbe {
    fn name(&self) -> &'static str {
        "TestHdrProbe"
    }

    fn add_passes<'a>(&'a self, frame: &mut Frame<'a>) {
        let Some(hdr) = frame.hdr else { return };
        let buffer = frame
            .graph
            .import_buffer("hdr probe", ImportedBuffer::new(self.buffer.clone()));
        let (width, height) = (self.width, self.height);
        frame.graph.add_encoder_pass("hdr probe", |pass| {
            pass.keep();
            pass.read_texture_as(hdr, wgpu::TextureUsages::COPY_SRC);
            let buffer = pass.write_buffer(buffer, wgpu::BufferUsages::COPY_DST);
            pass.execute(move |encoder, res| {
                if let (Some(texture), Some(buffer)) = (res.texture(hdr), res.buffer(buffer)) {
                    encoder.copy_texture_to_buffer(
                        texture.as_image_copy(),
                        wgpu::TexelCopyBufferInfo {
                            buffer,
                            layout: wgpu::TexelCopyBufferLayout {
                                offset: 0,
                                bytes_per_row: Some(padded_row(width)),
                                rows_per_image: None,
                            },
                        },
                        wgpu::Extent3d {
                            width,
                            height,
                            depth_or_array_layers: 1,
                        },
                    );
                }
            });
        });
    }
}

fn padded_row(width: u32) -> u32 {
    (width * 8).div_ceil(ROW_ALIGN) * ROW_ALIGN
}

/// Sum of each colour channel over an image.
pub(crate) fn channel_sums(pixels: &[Rgba]) -> [f64; 3] {
    pixels.iter().fold([0.0; 3], |mut sum, p| {
        for c in 0..3 {
            sum[c] += f64::from(p[c]);
        }
        sum
    })
}

fn f32_to_f16(value: f32) -> u16 {
    // Only what the tests feed in: finite, non-negative, in half range.
    let bits = value.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exponent = ((bits >> 23) & 0xff) as i32 - 127 + 15;
    let mantissa = bits & 0x7f_ffff;
    if value == 0.0 || exponent <= 0 {
        return sign;
    }
    assert!(exponent < 31, "{value} is beyond half range");
    sign | ((exponent as u16) << 10) | ((mantissa >> 13) as u16)
}

fn f16_to_f32(half: u16) -> f32 {
    let sign = if half & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exponent = i32::from((half >> 10) & 0x1f);
    let mantissa = f32::from(half & 0x3ff);
    sign * match exponent {
        0 => mantissa * 2f32.powi(-24),
        31 => f32::INFINITY,
        _ => (1.0 + mantissa / 1024.0) * 2f32.powi(exponent - 15),
    }
}
