//! Tonemapping: HDR radiance to the display-ready output (SDR or HDR).

use crate::OutputColor;

use super::gpu_util::{
    fullscreen_pipeline, fullscreen_vs_wgsl, texture_entry, uniform_buffer, uniform_entry,
};
use crate::feature::{FeatureSetup, Frame, RenderFeature};

#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Params {
    exposure: f32,
    aces: f32,
    encode_srgb: f32,
    extended: f32,
}

/// The ACES fit (Narkowicz) at radiance 1.0: an HDR output divides the
/// curve by it so that paper white stays 1.0.
pub const ACES_AT_PAPER_WHITE: f32 = 2.54 / 3.16;

/// Maps the frame's HDR target to the output with an exposure and, optionally,
/// the ACES filmic curve.
///
/// What it writes depends on the output format:
/// - an sRGB format: the curve's 0..=1 result (the format encodes);
/// - another 8- or 10-bit format: the same, sRGB-encoded by the shader;
/// - a floating-point format (an HDR output, [`OutputColor::Hdr`]): linear
///   values, not clamped to 1.0. Without ACES that is the exposed radiance
///   itself. With ACES the curve is divided by its value at 1.0
///   ([`ACES_AT_PAPER_WHITE`]), so that radiance 1.0 (paper white, SDR
///   white on an HDR display) stays 1.0 and the curve's shoulder goes on up
///   to about 1.29 instead of being cut at 1.0. The curve keeps its shape;
///   the HDR image is 1.24 times as bright as the SDR one at every level
///   below the shoulder, which is the price of keeping paper white at 1.0.
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
    /// A floating-point output: linear values above 1.0 kept.
    extended: bool,
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
            &format!(
                "{FULLSCREEN_VS_WGSL}{}",
                crate::wgsl!("tonemap.wgsl"),
                FULLSCREEN_VS_WGSL = fullscreen_vs_wgsl()
            ),
            &layout,
            setup.output_format,
        );
        let params = uniform_buffer(device, "tonemap params", std::mem::size_of::<Params>());
        let extended = OutputColor::of_format(setup.output_format) == OutputColor::Hdr;
        self.gpu = Some(Gpu {
            pipeline,
            layout,
            params,
            encode_srgb: !setup.output_format.is_srgb() && !extended,
            extended,
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
            extended: if state.extended { 1.0 } else { 0.0 },
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
