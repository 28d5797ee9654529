//! Tonemapping: HDR radiance to the display-ready output.

use super::gpu_util::{
    FULLSCREEN_VS_WGSL, fullscreen_pipeline, texture_entry, uniform_buffer, uniform_entry,
};
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
                texture_entry(0, wgpu::TextureSampleType::Float { filterable: false }),
                uniform_entry(1, false, wgpu::ShaderStages::FRAGMENT),
            ],
        });
        let pipeline = fullscreen_pipeline(
            device,
            "tonemap",
            &format!("{FULLSCREEN_VS_WGSL}{}", include_str!("tonemap.wgsl")),
            &layout,
            setup.output_format,
        );
        let params = uniform_buffer(device, "tonemap params", std::mem::size_of::<Params>());
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
