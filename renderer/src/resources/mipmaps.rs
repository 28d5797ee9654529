//! Mip chains built on the GPU: one small render pass per level, each
//! drawing a full-screen triangle into level `k + 1` that box-filters level
//! `k` (`mipmaps.wgsl`). Colour textures are read and written through sRGB
//! views, so the filter averages linear light.
//!
//! Only RGBA8 textures are filled this way (PNG, JPEG, a KTX2 transcoded to
//! RGBA8): block-compressed formats cannot be render targets, so their mips
//! come from the file. The CPU twin (`mip_cpu.rs`) serves only where there is
//! no device at all ([`TextureData::rgba8_with_cpu_mips`](super::TextureData::rgba8_with_cpu_mips)).

/// The downsampling pipelines of one device: one per RGBA8 format. A
/// [`GpuContext`](crate::GpuContext) makes it on first use and keeps it.
#[derive(Debug)]
pub(crate) struct MipGenerator {
    layout: wgpu::BindGroupLayout,
    linear: wgpu::RenderPipeline,
    srgb: wgpu::RenderPipeline,
}

impl MipGenerator {
    /// Compiles the shader and both pipelines.
    pub(crate) fn new(device: &wgpu::Device) -> Self {
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("mip generation"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Texture {
                    // textureLoad only: no sampler, so no filtering needed.
                    sample_type: wgpu::TextureSampleType::Float { filterable: false },
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: false,
                },
                count: None,
            }],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("mip generation"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("mip generation"),
            source: wgpu::ShaderSource::Wgsl(include_str!("mipmaps.wgsl").into()),
        });
        let pipeline = |format: wgpu::TextureFormat| {
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some("mip generation"),
                layout: Some(&pipeline_layout),
                vertex: wgpu::VertexState {
                    module: &module,
                    entry_point: Some("vs_main"),
                    compilation_options: Default::default(),
                    buffers: &[],
                },
                fragment: Some(wgpu::FragmentState {
                    module: &module,
                    entry_point: Some("fs_main"),
                    compilation_options: Default::default(),
                    targets: &[Some(format.into())],
                }),
                primitive: wgpu::PrimitiveState::default(),
                depth_stencil: None,
                multisample: wgpu::MultisampleState::default(),
                multiview_mask: None,
                cache: None,
            })
        };
        Self {
            linear: pipeline(wgpu::TextureFormat::Rgba8Unorm),
            srgb: pipeline(wgpu::TextureFormat::Rgba8UnormSrgb),
            layout,
        }
    }

    /// Records passes filling levels 1.. of `texture` from level 0. The
    /// texture must be `Rgba8Unorm` or `Rgba8UnormSrgb` with
    /// `TEXTURE_BINDING | RENDER_ATTACHMENT` usage; any other is left alone.
    pub(crate) fn generate(
        &self,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        texture: &wgpu::Texture,
    ) {
        let pipeline = match texture.format() {
            wgpu::TextureFormat::Rgba8Unorm => &self.linear,
            wgpu::TextureFormat::Rgba8UnormSrgb => &self.srgb,
            _ => return,
        };
        let level_view = |level| {
            texture.create_view(&wgpu::TextureViewDescriptor {
                label: Some("mip level"),
                base_mip_level: level,
                mip_level_count: Some(1),
                ..Default::default()
            })
        };
        for level in 1..texture.mip_level_count() {
            let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("mip generation"),
                layout: &self.layout,
                entries: &[wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(&level_view(level - 1)),
                }],
            });
            let target = level_view(level);
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("mip generation"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &target,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                ..Default::default()
            });
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.draw(0..3, 0..1);
        }
    }
}
