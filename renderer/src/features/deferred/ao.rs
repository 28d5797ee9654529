//! Screen-space ambient occlusion over the G-buffer: a sampling pass by the
//! chosen [`AoMethod`], then a depth-aware blur, published as
//! [`AmbientOcclusion`] for the lighting.

use super::ao_method::AoMethod;
use super::gbuffer::GBuffer;
use crate::GpuContext;
use crate::feature::{FeatureSetup, Frame, RenderFeature};
use crate::features::gpu_util::{
    DEPTH_AS_FLOAT, fullscreen_pipeline, fullscreen_vs_wgsl, nearest_sampler, sampler_entry,
    texture_entry, uniform_buffer, uniform_entry,
};
use crate::frame::FrameData;
use crate::graph::{TextureDesc, TextureHandle};
use crate::resources::Assets;

/// The frame's ambient occlusion (`R8Unorm`, 1 = open), in
/// [`Frame::slots`]: the deferred lighting multiplies its ambient by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AmbientOcclusion(pub TextureHandle);

/// Format of the occlusion targets.
const AO_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::R8Unorm;
/// Most hemisphere samples per pixel.
const MAX_SAMPLES: usize = 32;

/// Settings of the [`AoFeature`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AoOptions {
    /// Radius of the sampled hemisphere, in world units (metres).
    pub radius: f32,
    /// How strongly occlusion darkens: 0 none, 1 physical, above 1 stronger.
    pub intensity: f32,
    /// Depth samples per pixel (1..=32).
    pub samples: u32,
    /// How occlusion is estimated (SSAO by default); may change between
    /// frames on the live feature.
    pub method: AoMethod,
}

impl Default for AoOptions {
    fn default() -> Self {
        Self {
            radius: 0.5,
            intensity: 1.0,
            samples: 16,
            method: AoMethod::Ssao,
        }
    }
}

impl AoOptions {
    /// The options with non-finite or out-of-range values replaced by the
    /// defaults or clamped.
    #[must_use]
    pub fn sanitized(self) -> Self {
        let default = Self::default();
        let positive = |v: f32, d: f32| if v.is_finite() && v > 0.0 { v } else { d };
        Self {
            radius: positive(self.radius, default.radius),
            intensity: if self.intensity.is_finite() {
                self.intensity.max(0.0)
            } else {
                default.intensity
            },
            samples: self.samples.clamp(1, MAX_SAMPLES as u32),
            method: self.method,
        }
    }
}

/// Screen-space ambient occlusion with a depth-aware blur. Reads
/// [`GBuffer`] slot (depth and normals); does nothing without one.
#[derive(Debug)]
pub struct AoFeature {
    /// Radius, intensity, samples, method. A method changed on the live
    /// feature is used from the next frame (its pipeline is built then).
    pub options: AoOptions,
    gpu: Option<Gpu>,
}

#[derive(Debug)]
struct Gpu {
    sample_layout: wgpu::BindGroupLayout,
    /// Each [`AoMethod`]'s sampling pipeline, by [`AoMethod::index`],
    /// built when the method is first used.
    sample_pipelines: [Option<wgpu::RenderPipeline>; AoMethod::ALL.len()],
    sample_uniform: wgpu::Buffer,
    blur_layout: wgpu::BindGroupLayout,
    blur_pipeline: wgpu::RenderPipeline,
    blur_uniform: wgpu::Buffer,
    /// Reads the depth texel by texel (see [`DEPTH_AS_FLOAT`]).
    depth_sampler: wgpu::Sampler,
}

/// `AoUniform` in `ao_sample.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct AoUniform {
    projection: [[f32; 4]; 4],
    inverse_projection: [[f32; 4]; 4],
    view: [[f32; 4]; 4],
    params: [f32; 4],
    kernel: [[f32; 4]; MAX_SAMPLES],
}

impl AoFeature {
    /// Ambient occlusion with `options`.
    #[must_use]
    pub fn new(options: AoOptions) -> Self {
        Self { options, gpu: None }
    }
}

impl Gpu {
    /// Builds `method`'s sampling pipeline unless it exists.
    fn ensure_pipeline(&mut self, device: &wgpu::Device, method: AoMethod) {
        let slot = &mut self.sample_pipelines[method.index()];
        if slot.is_none() {
            *slot = Some(fullscreen_pipeline(
                device,
                method.labels().sample,
                &method.sample_source(),
                &self.sample_layout,
                AO_FORMAT,
            ));
        }
    }
}

/// `count` points in the unit hemisphere around +z, spread on a Fibonacci
/// spiral, denser near the centre (the near surroundings matter most).
fn hemisphere_kernel(count: usize) -> [[f32; 4]; MAX_SAMPLES] {
    let mut kernel = [[0.0; 4]; MAX_SAMPLES];
    let golden = std::f32::consts::PI * (3.0 - 5f32.sqrt());
    for (i, point) in kernel.iter_mut().enumerate().take(count) {
        let t = (i as f32 + 0.5) / count as f32;
        // Elevations kept off the tangent plane, where depth noise lives.
        let z = 0.15 + 0.85 * (1.0 - t);
        let ring = (1.0 - z * z).sqrt();
        let angle = golden * i as f32;
        let scale = 0.1 + 0.9 * t * t;
        *point = [
            ring * angle.cos() * scale,
            ring * angle.sin() * scale,
            z * scale,
            0.0,
        ];
    }
    kernel
}

fn layout(
    device: &wgpu::Device,
    label: &str,
    first: wgpu::TextureSampleType,
) -> wgpu::BindGroupLayout {
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some(label),
        entries: &[
            uniform_entry(0, false, wgpu::ShaderStages::FRAGMENT),
            texture_entry(1, first),
            texture_entry(2, DEPTH_AS_FLOAT),
            sampler_entry(3, wgpu::SamplerBindingType::NonFiltering),
        ],
    })
}

fn group(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    uniform: &wgpu::Buffer,
    first: &wgpu::TextureView,
    depth: &wgpu::TextureView,
    depth_sampler: &wgpu::Sampler,
) -> wgpu::BindGroup {
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("ssao"),
        layout,
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: uniform.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: wgpu::BindingResource::TextureView(first),
            },
            wgpu::BindGroupEntry {
                binding: 2,
                resource: wgpu::BindingResource::TextureView(depth),
            },
            wgpu::BindGroupEntry {
                binding: 3,
                resource: wgpu::BindingResource::Sampler(depth_sampler),
            },
        ],
    })
}

impl RenderFeature for AoFeature {
    fn name(&self) -> &'static str {
        "AmbientOcclusion"
    }

    fn setup(&mut self, setup: FeatureSetup<'_>) {
        let device = setup.gpu.device();
        let sample_layout = layout(device, "ssao", wgpu::TextureSampleType::Uint);
        let blur_layout = layout(
            device,
            "ssao blur",
            wgpu::TextureSampleType::Float { filterable: false },
        );
        let mut gpu = Gpu {
            sample_pipelines: Default::default(),
            blur_pipeline: fullscreen_pipeline(
                device,
                "ssao blur",
                &format!(
                    "{FULLSCREEN_VS_WGSL}{}",
                    crate::wgsl!("ssao_blur.wgsl"),
                    FULLSCREEN_VS_WGSL = fullscreen_vs_wgsl()
                ),
                &blur_layout,
                AO_FORMAT,
            ),
            sample_uniform: uniform_buffer(
                device,
                "ssao uniform",
                std::mem::size_of::<AoUniform>(),
            ),
            blur_uniform: uniform_buffer(device, "ssao blur uniform", 64),
            sample_layout,
            blur_layout,
            depth_sampler: nearest_sampler(device, "ssao depth"),
        };
        gpu.ensure_pipeline(device, self.options.method);
        self.gpu = Some(gpu);
    }

    fn update(&mut self, data: &FrameData, gpu: &GpuContext, _assets: &Assets) {
        let Some(state) = &mut self.gpu else { return };
        let options = self.options.sanitized();
        state.ensure_pipeline(gpu.device(), options.method);
        let camera = &data.camera;
        let projection = camera.depth_projection();
        let inverse_projection = projection.inverse();
        let uniform = AoUniform {
            projection: projection.to_cols_array_2d(),
            inverse_projection: inverse_projection.to_cols_array_2d(),
            view: camera.view.to_cols_array_2d(),
            params: [
                options.radius,
                options.intensity,
                0.02 * options.radius,
                options.samples as f32,
            ],
            kernel: hemisphere_kernel(options.samples as usize),
        };
        let queue = gpu.queue();
        queue.write_buffer(&state.sample_uniform, 0, bytemuck::bytes_of(&uniform));
        queue.write_buffer(
            &state.blur_uniform,
            0,
            bytemuck::bytes_of(&inverse_projection.to_cols_array_2d()),
        );
    }

    fn add_passes<'a>(&'a self, frame: &mut Frame<'a>) {
        let (Some(gpu), Some(gbuffer)) = (&self.gpu, frame.slots.get::<GBuffer>().copied()) else {
            return;
        };
        let method = self.options.method;
        // Built by `update`, which runs first.
        let Some(sample_pipeline) = &gpu.sample_pipelines[method.index()] else {
            return;
        };
        let labels = method.labels();
        let (width, height) = frame.data.size;
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING;
        let desc = TextureDesc::new_2d(width, height, AO_FORMAT, usage);
        let raw = frame.graph.create_texture(labels.raw, desc);
        let raw = frame.graph.add_render_pass(labels.sample, |pass| {
            let raw = pass.write_color(raw, wgpu::LoadOp::Clear(wgpu::Color::WHITE));
            pass.read_texture(gbuffer.surface);
            pass.read_texture(gbuffer.depth);
            pass.execute(move |rp, res| {
                let (Some(surface), Some(depth)) = (
                    res.texture_view(gbuffer.surface),
                    res.texture_view(gbuffer.depth),
                ) else {
                    return;
                };
                let group = group(
                    res.device(),
                    &gpu.sample_layout,
                    &gpu.sample_uniform,
                    surface,
                    depth,
                    &gpu.depth_sampler,
                );
                rp.set_pipeline(sample_pipeline);
                rp.set_bind_group(0, &group, &[]);
                rp.draw(0..3, 0..1);
            });
            raw
        });
        let blurred = frame.graph.create_texture(labels.blurred, desc);
        let blurred = frame.graph.add_render_pass(labels.blur, |pass| {
            let blurred = pass.write_color(blurred, wgpu::LoadOp::Clear(wgpu::Color::WHITE));
            pass.read_texture(raw);
            pass.read_texture(gbuffer.depth);
            pass.execute(move |rp, res| {
                let (Some(raw), Some(depth)) =
                    (res.texture_view(raw), res.texture_view(gbuffer.depth))
                else {
                    return;
                };
                let group = group(
                    res.device(),
                    &gpu.blur_layout,
                    &gpu.blur_uniform,
                    raw,
                    depth,
                    &gpu.depth_sampler,
                );
                rp.set_pipeline(&gpu.blur_pipeline);
                rp.set_bind_group(0, &group, &[]);
                rp.draw(0..3, 0..1);
            });
            blurred
        });
        frame.slots.insert(AmbientOcclusion(blurred));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kernel_stays_in_the_upper_unit_hemisphere() {
        let kernel = hemisphere_kernel(16);
        for point in &kernel[..16] {
            let length = (point[0] * point[0] + point[1] * point[1] + point[2] * point[2]).sqrt();
            assert!(point[2] > 0.0 && length <= 1.0 + 1e-5, "{point:?}");
        }
        assert_eq!(kernel[16], [0.0; 4]);
    }

    #[test]
    fn bad_options_are_replaced_or_clamped() {
        let options = AoOptions {
            radius: f32::NAN,
            intensity: -2.0,
            samples: 500,
            method: AoMethod::Gtao,
        }
        .sanitized();
        assert_eq!(
            options,
            AoOptions {
                radius: 0.5,
                intensity: 0.0,
                samples: 32,
                method: AoMethod::Gtao,
            }
        );
    }
}
