//! Tonemapping: HDR radiance to the display-ready output.

use crate::feature::{FeatureSetup, Frame, RenderFeature};

#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Params {
    exposure: f32,
    aces: f32,
    encode_srgb: f32,
    _pad: f32,
}

/// Maps the frame's HDR target to the output with an exposure and, optionally,
/// the ACES filmic curve.
#[derive(Debug)]
pub struct TonemapFeature {
    /// Multiplier applied before the curve.
    pub exposure: f32,
    /// ACES filmic curve (`true`) or a plain clamp.
    pub aces: bool,
    gpu: Option<Gpu>,
}

#[derive(Debug)]
struct Gpu {
    pipeline: wgpu::RenderPipeline,
    layout: wgpu::BindGroupLayout,
    params: wgpu::Buffer,
    encode_srgb: bool,
}

impl TonemapFeature {
    /// A tonemapper with this exposure and curve.
    #[must_use]
    pub fn new(exposure: f32, aces: bool) -> Self {
        Self {
            exposure,
            aces,
            gpu: None,
        }
    }
}

impl RenderFeature for TonemapFeature {
    fn name(&self) -> &'static str {
        "Tonemap"
    }

    fn setup(&mut self, setup: FeatureSetup<'_>) {
        let device = setup.gpu.device();
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("tonemap"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Float { filterable: false },
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: false,
                        min_binding_size: None,
                    },
                    count: None,
                },
            ],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("tonemap"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("tonemap.wgsl"),
            source: wgpu::ShaderSource::Wgsl(include_str!("tonemap.wgsl").into()),
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("tonemap"),
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
                targets: &[Some(setup.output_format.into())],
            }),
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            multiview_mask: None,
            cache: None,
        });
        let params = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("tonemap params"),
            size: std::mem::size_of::<Params>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        self.gpu = Some(Gpu {
            pipeline,
            layout,
            params,
            encode_srgb: !setup.output_format.is_srgb(),
        });
    }

    fn update(
        &mut self,
        _data: &crate::FrameData,
        gpu: &crate::GpuContext,
        _assets: &crate::resources::Assets,
    ) {
        let Some(state) = &self.gpu else { return };
        let params = Params {
            exposure: if self.exposure.is_finite() {
                self.exposure.max(0.0)
            } else {
                1.0
            },
            aces: if self.aces { 1.0 } else { 0.0 },
            encode_srgb: if state.encode_srgb { 1.0 } else { 0.0 },
            _pad: 0.0,
        };
        gpu.queue()
            .write_buffer(&state.params, 0, bytemuck::bytes_of(&params));
    }

    fn add_passes<'a>(&'a self, frame: &mut Frame<'a>) {
        let (Some(gpu), Some(hdr)) = (&self.gpu, frame.hdr) else {
            return;
        };
        let output = frame.output;
        frame.output = frame.graph.add_render_pass("tonemap", |pass| {
            pass.read_texture(hdr);
            let output = pass.write_color(output, wgpu::LoadOp::Clear(wgpu::Color::BLACK));
            pass.execute(move |rp, res| {
                let Some(view) = res.texture_view(hdr) else {
                    return;
                };
                let group = res.device().create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("tonemap"),
                    layout: &gpu.layout,
                    entries: &[
                        wgpu::BindGroupEntry {
                            binding: 0,
                            resource: wgpu::BindingResource::TextureView(view),
                        },
                        wgpu::BindGroupEntry {
                            binding: 1,
                            resource: gpu.params.as_entire_binding(),
                        },
                    ],
                });
                rp.set_pipeline(&gpu.pipeline);
                rp.set_bind_group(0, &group, &[]);
                rp.draw(0..3, 0..1);
            });
            output
        });
    }
}
