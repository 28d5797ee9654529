//! The GPU objects every emitter shares: the draw pipelines (one per blend
//! mode), the simulation pipeline (compute backends only), their layouts,
//! and the stand-ins bound where there is no texture or depth buffer.

use super::effect::ParticleBlend;
use super::gpu_sort::SortPipelines;
use super::particle::PARTICLE_SIZE;
use crate::features::gpu_util::{
    DEPTH_AS_FLOAT, nearest_sampler, sampler_entry, single_texel, uniform_entry,
};
use crate::features::storage_entry;
use crate::frame::HDR_FORMAT;

/// What the draw needs.
#[derive(Debug)]
pub(crate) struct DrawPipelines {
    pub(crate) view_layout: wgpu::BindGroupLayout,
    pub(crate) emitter_layout: wgpu::BindGroupLayout,
    additive: wgpu::RenderPipeline,
    alpha: wgpu::RenderPipeline,
    pub(crate) depth_sampler: wgpu::Sampler,
    pub(crate) sheet_sampler: wgpu::Sampler,
    /// A white texel: the sheet of untextured particles.
    pub(crate) white: wgpu::TextureView,
    /// A far-plane texel: the depth when the frame has none.
    pub(crate) far: wgpu::TextureView,
}

fn texture_entry(
    binding: u32,
    sample_type: wgpu::TextureSampleType,
    visibility: wgpu::ShaderStages,
) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility,
        ty: wgpu::BindingType::Texture {
            sample_type,
            view_dimension: wgpu::TextureViewDimension::D2,
            multisampled: false,
        },
        count: None,
    }
}

/// Three vec4s per instance: position and age, velocity and lifetime,
/// random, rotation, spin and size.
const INSTANCE_ATTRIBUTES: [wgpu::VertexAttribute; 3] =
    wgpu::vertex_attr_array![0 => Float32x4, 1 => Float32x4, 2 => Float32x4];

impl DrawPipelines {
    pub(crate) fn new(device: &wgpu::Device, queue: &wgpu::Queue) -> Self {
        let both = wgpu::ShaderStages::VERTEX_FRAGMENT;
        let view_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("particle view"),
            entries: &[
                uniform_entry(0, false, both),
                texture_entry(1, DEPTH_AS_FLOAT, wgpu::ShaderStages::FRAGMENT),
                sampler_entry(2, wgpu::SamplerBindingType::NonFiltering),
            ],
        });
        let emitter_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("particle emitter"),
            entries: &[
                uniform_entry(0, false, both),
                texture_entry(
                    1,
                    wgpu::TextureSampleType::Float { filterable: true },
                    wgpu::ShaderStages::FRAGMENT,
                ),
                sampler_entry(2, wgpu::SamplerBindingType::Filtering),
            ],
        });
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("particles draw.wgsl"),
            source: wgpu::ShaderSource::Wgsl(crate::wgsl!("draw.wgsl")),
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("particles"),
            bind_group_layouts: &[Some(&view_layout), Some(&emitter_layout)],
            immediate_size: 0,
        });
        let pipeline = |label, blend| {
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(label),
                layout: Some(&layout),
                vertex: wgpu::VertexState {
                    module: &module,
                    entry_point: Some("vs_main"),
                    compilation_options: Default::default(),
                    buffers: &[Some(wgpu::VertexBufferLayout {
                        array_stride: PARTICLE_SIZE,
                        step_mode: wgpu::VertexStepMode::Instance,
                        attributes: &INSTANCE_ATTRIBUTES,
                    })],
                },
                fragment: Some(wgpu::FragmentState {
                    module: &module,
                    entry_point: Some("fs_main"),
                    compilation_options: Default::default(),
                    targets: &[Some(wgpu::ColorTargetState {
                        format: HDR_FORMAT,
                        blend: Some(blend),
                        write_mask: wgpu::ColorWrites::ALL,
                    })],
                }),
                // Four vertices a quad: a strip.
                primitive: wgpu::PrimitiveState {
                    topology: wgpu::PrimitiveTopology::TriangleStrip,
                    ..Default::default()
                },
                depth_stencil: None,
                multisample: wgpu::MultisampleState::default(),
                multiview_mask: None,
                cache: None,
            })
        };
        let keep_alpha = wgpu::BlendComponent {
            src_factor: wgpu::BlendFactor::Zero,
            dst_factor: wgpu::BlendFactor::One,
            operation: wgpu::BlendOperation::Add,
        };
        let additive = pipeline(
            "particles additive",
            wgpu::BlendState {
                color: wgpu::BlendComponent {
                    src_factor: wgpu::BlendFactor::One,
                    dst_factor: wgpu::BlendFactor::One,
                    operation: wgpu::BlendOperation::Add,
                },
                alpha: keep_alpha,
            },
        );
        let alpha = pipeline(
            "particles alpha",
            wgpu::BlendState {
                color: wgpu::BlendComponent {
                    src_factor: wgpu::BlendFactor::One,
                    dst_factor: wgpu::BlendFactor::OneMinusSrcAlpha,
                    operation: wgpu::BlendOperation::Add,
                },
                alpha: keep_alpha,
            },
        );
        let texel = |label, format, bytes: &[u8]| {
            let texture = single_texel(
                device,
                label,
                format,
                wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
            );
            queue.write_texture(
                texture.as_image_copy(),
                bytes,
                wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(bytes.len() as u32),
                    rows_per_image: None,
                },
                crate::features::gpu_util::ONE_TEXEL,
            );
            texture.create_view(&wgpu::TextureViewDescriptor::default())
        };
        Self {
            white: texel(
                "particle white",
                wgpu::TextureFormat::Rgba8Unorm,
                &[255, 255, 255, 255],
            ),
            far: texel(
                "particle far depth",
                wgpu::TextureFormat::R32Float,
                &0f32.to_le_bytes(),
            ),
            depth_sampler: nearest_sampler(device, "particle depth"),
            sheet_sampler: device.create_sampler(&wgpu::SamplerDescriptor {
                label: Some("particle sheet"),
                mag_filter: wgpu::FilterMode::Linear,
                min_filter: wgpu::FilterMode::Linear,
                mipmap_filter: wgpu::MipmapFilterMode::Linear,
                ..Default::default()
            }),
            view_layout,
            emitter_layout,
            additive,
            alpha,
        }
    }

    /// The pipeline for `blend`.
    pub(crate) fn pipeline(&self, blend: ParticleBlend) -> &wgpu::RenderPipeline {
        match blend {
            ParticleBlend::Additive => &self.additive,
            ParticleBlend::Alpha => &self.alpha,
        }
    }
}

/// The compute side: the simulation pipeline and the live-particle counter.
#[derive(Debug)]
pub(crate) struct SimulatePipeline {
    pub(crate) layout: wgpu::BindGroupLayout,
    pub(crate) pipeline: wgpu::ComputePipeline,
    /// Living particles of every emitter, added up by the simulation.
    pub(crate) alive: wgpu::Buffer,
    /// A one-texel depth target: bound when no collision reads the scene's.
    pub(crate) no_depth: wgpu::TextureView,
    /// Back-to-front sorting of alpha-blended emitters.
    pub(crate) sort: SortPipelines,
}

/// Invocations per simulation workgroup (`simulate.wgsl`).
pub(crate) const WORKGROUP: u32 = 256;

impl SimulatePipeline {
    pub(crate) fn new(device: &wgpu::Device, queue: &wgpu::Queue) -> Self {
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("particle simulate"),
            entries: &[
                uniform_entry(0, false, wgpu::ShaderStages::COMPUTE),
                storage_entry(1, false, wgpu::ShaderStages::COMPUTE),
                texture_entry(2, DEPTH_AS_FLOAT, wgpu::ShaderStages::COMPUTE),
                storage_entry(3, false, wgpu::ShaderStages::COMPUTE),
            ],
        });
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("particles simulate.wgsl"),
            source: wgpu::ShaderSource::Wgsl(crate::wgsl!("simulate.wgsl")),
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("particle simulate"),
            layout: Some(
                &device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                    label: Some("particle simulate"),
                    bind_group_layouts: &[Some(&layout)],
                    immediate_size: 0,
                }),
            ),
            module: &module,
            entry_point: Some("simulate"),
            compilation_options: Default::default(),
            cache: None,
        });
        let no_depth = single_texel(
            device,
            "particle no depth",
            wgpu::TextureFormat::R32Float,
            wgpu::TextureUsages::TEXTURE_BINDING,
        )
        .create_view(&wgpu::TextureViewDescriptor::default());
        Self {
            alive: device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("particles alive"),
                size: 4,
                usage: wgpu::BufferUsages::STORAGE
                    | wgpu::BufferUsages::COPY_DST
                    | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            }),
            layout,
            pipeline,
            no_depth,
            sort: SortPipelines::new(device, queue),
        }
    }
}
