//! The G-buffer: what the geometry pass leaves for the lighting passes, its
//! layout, and how full-screen passes bind it.

use crate::features::gpu_util::{
    DEPTH_AS_FLOAT, fullscreen_vs_wgsl, nearest_sampler, sampler_entry, single_texel, texture_entry,
};
use crate::features::lit::{LightBinding, lighting_source};
use crate::graph::{PassResources, TextureHandle};

/// The G-buffer of a deferred frame, in the frame's
/// [slots](crate::Frame::slots) (`frame.slots.get::<GBuffer>()`): written by
/// the [`GeometryFeature`](super::GeometryFeature), read by ambient
/// occlusion and the lighting passes.
///
/// Layout, 20 bytes per pixel:
///
/// | texture | format | contents |
/// |---|---|---|
/// | `surface` | `Rgba32Uint` (16 B) | x: albedo (square-root encoded, 8 bits each) and material occlusion (8 bits); y: normal, octahedral (2 x snorm16); z: emissive red and green (2 x float16); w: emissive blue (float16), metallic (8 bits), roughness (8 bits) |
/// | `depth` | `Depth32Float` (4 B) | scene depth; world positions are rebuilt from it |
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GBuffer {
    /// The packed surface texel ([`GBUFFER_FORMAT`](crate::frame::GBUFFER_FORMAT)).
    pub surface: TextureHandle,
    /// The scene depth ([`DEPTH_FORMAT`](crate::frame::DEPTH_FORMAT)).
    pub depth: TextureHandle,
}

/// Bytes per pixel of the G-buffer, depth included.
pub const GBUFFER_BYTES_PER_PIXEL: u32 = 20;

/// Packing and unpacking the surface texel.
pub(crate) fn gbuffer_wgsl() -> std::borrow::Cow<'static, str> {
    crate::wgsl!("gbuffer.wgsl")
}
/// Full-screen reading of the G-buffer (`@group(1)`).
fn gbuffer_read_wgsl() -> std::borrow::Cow<'static, str> {
    crate::wgsl!("gbuffer_read.wgsl")
}

/// A full-screen deferred shader: the lit frame, BRDF and shadow code, the
/// G-buffer packing and reading, then `main`.
pub(crate) fn deferred_source(binding: LightBinding, main: &str) -> String {
    let mut source = lighting_source(binding, &gbuffer_wgsl());
    source.push_str(&fullscreen_vs_wgsl());
    source.push_str(&gbuffer_read_wgsl());
    source.push_str(main);
    source
}

/// The G-buffer read group's layout and the white stand-in for a frame
/// without ambient occlusion.
#[derive(Debug)]
pub(crate) struct GBufferReader {
    layout: wgpu::BindGroupLayout,
    no_occlusion: wgpu::TextureView,
    /// Reads the depth texel by texel (see [`DEPTH_AS_FLOAT`]).
    depth_sampler: wgpu::Sampler,
}

impl GBufferReader {
    pub(crate) fn new(device: &wgpu::Device, queue: &wgpu::Queue) -> Self {
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("gbuffer read"),
            entries: &[
                texture_entry(0, wgpu::TextureSampleType::Uint),
                texture_entry(1, DEPTH_AS_FLOAT),
                texture_entry(2, wgpu::TextureSampleType::Float { filterable: false }),
                sampler_entry(3, wgpu::SamplerBindingType::NonFiltering),
            ],
        });
        let white = single_texel(
            device,
            "no occlusion",
            wgpu::TextureFormat::R8Unorm,
            wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        );
        queue.write_texture(
            white.as_image_copy(),
            &[255],
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(1),
                rows_per_image: None,
            },
            crate::features::gpu_util::ONE_TEXEL,
        );
        Self {
            layout,
            no_occlusion: white.create_view(&wgpu::TextureViewDescriptor::default()),
            depth_sampler: nearest_sampler(device, "gbuffer depth"),
        }
    }

    pub(crate) fn layout(&self) -> &wgpu::BindGroupLayout {
        &self.layout
    }

    /// Declares the reads of `gbuffer` (and `occlusion`) on a pass.
    pub(crate) fn declare<K>(
        pass: &mut crate::graph::PassBuilder<'_, '_, K>,
        gbuffer: GBuffer,
        occlusion: Option<TextureHandle>,
    ) {
        pass.read_texture(gbuffer.surface);
        pass.read_texture(gbuffer.depth);
        if let Some(occlusion) = occlusion {
            pass.read_texture(occlusion);
        }
    }

    /// The read group for `gbuffer`, once its textures exist.
    pub(crate) fn group(
        &self,
        res: &PassResources<'_>,
        gbuffer: GBuffer,
        occlusion: Option<TextureHandle>,
    ) -> Option<wgpu::BindGroup> {
        let surface = res.texture_view(gbuffer.surface)?;
        let depth = res.texture_view(gbuffer.depth)?;
        let occlusion = occlusion
            .and_then(|ao| res.texture_view(ao))
            .unwrap_or(&self.no_occlusion);
        let views = [surface, depth, occlusion];
        let mut entries: Vec<_> = views
            .into_iter()
            .enumerate()
            .map(|(binding, view)| wgpu::BindGroupEntry {
                binding: binding as u32,
                resource: wgpu::BindingResource::TextureView(view),
            })
            .collect();
        entries.push(wgpu::BindGroupEntry {
            binding: 3,
            resource: wgpu::BindingResource::Sampler(&self.depth_sampler),
        });
        Some(res.device().create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("gbuffer read"),
            layout: &self.layout,
            entries: &entries,
        }))
    }
}
