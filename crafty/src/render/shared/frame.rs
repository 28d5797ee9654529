//! [`FrameBindings`]: bind group 0 of every crafty pipeline, the frame
//! uniform with the block atlas and the precipitation map.

use super::FrameUniform;
use crate::render::atlas_texture::AtlasTexture;
use crate::render::weather::PrecipitationTexture;
use taos_engine::renderer::wgpu;

/// The frame's bind group, its layout and the uniform buffer behind it
/// (`frame` and `atlas`, `precipitation`, `atlas_sampler` in
/// `shaders/common.wgsl`).
#[derive(Debug)]
pub(crate) struct FrameBindings {
    pub(crate) layout: wgpu::BindGroupLayout,
    buffer: wgpu::Buffer,
    pub(crate) group: wgpu::BindGroup,
}

fn frame_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("crafty frame"),
        entries: &[
            wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            },
            wgpu::BindGroupLayoutEntry {
                binding: 1,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Float { filterable: true },
                    view_dimension: wgpu::TextureViewDimension::D2Array,
                    multisampled: false,
                },
                count: None,
            },
            wgpu::BindGroupLayoutEntry {
                binding: 2,
                visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
                ty: wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Uint,
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: false,
                },
                count: None,
            },
            wgpu::BindGroupLayoutEntry {
                binding: 3,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                count: None,
            },
        ],
    })
}

impl FrameBindings {
    pub(crate) fn new(
        device: &wgpu::Device,
        atlas: &AtlasTexture,
        precipitation: &PrecipitationTexture,
    ) -> Self {
        let layout = frame_layout(device);
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("crafty frame uniform"),
            size: std::mem::size_of::<FrameUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("crafty frame"),
            layout: &layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: buffer.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::TextureView(&atlas.view),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: wgpu::BindingResource::TextureView(&precipitation.view),
                },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: wgpu::BindingResource::Sampler(&atlas.sampler),
                },
            ],
        });
        Self {
            layout,
            buffer,
            group,
        }
    }

    /// Uploads this frame's uniform.
    pub(crate) fn write(&self, queue: &wgpu::Queue, uniform: &FrameUniform) {
        queue.write_buffer(&self.buffer, 0, bytemuck::bytes_of(uniform));
    }
}
