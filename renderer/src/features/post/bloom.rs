//! Bloom: bright light bleeding into its surroundings, the way a lens and
//! the eye spread it.
//!
//! A chain of 13-tap downsamples (each level half the size of the one
//! above, the first half the frame's), then 3 x 3 tent upsamples that add
//! each level into the next larger one, then a mix of that glow into the
//! frame's HDR target (after Jimenez 2014, as used in *Call of Duty:
//! Advanced Warfare*). Every filter's weights sum to one and the glow is the
//! mean of the levels, so the mix moves light around without adding any:
//! `intensity` is the share of the scene's light that becomes glow. There
//! is no threshold by default; [`BloomOptions::threshold`] adds a soft one
//! (which, by design, takes light away from the dim parts).

use crate::GpuContext;
use crate::feature::{FeatureSetup, Frame, RenderFeature};
use crate::features::gpu_util::{
    fullscreen_entry_pipeline, fullscreen_vs_wgsl, sampler_entry, texture_entry, uniform_buffer,
    uniform_entry,
};
use crate::frame::{FrameData, HDR_FORMAT, HDR_USAGE};
use crate::graph::{TextureDesc, TextureHandle};
use crate::resources::Assets;

/// Most levels a chain may have: the smallest is then 1/128 of the frame.
pub const MAX_BLOOM_LEVELS: u32 = 7;

/// Bloom settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BloomOptions {
    /// Share of the scene's light turned into glow, 0..=1 (0: off, no
    /// passes at all).
    pub intensity: f32,
    /// Brightness below which nothing glows (0: no threshold, the default,
    /// which keeps the scene's energy).
    pub threshold: f32,
    /// Half-width of the soft transition around `threshold`.
    pub knee: f32,
    /// Levels in the chain (1..=[`MAX_BLOOM_LEVELS`]; fewer when the frame
    /// is too small for them): more levels, wider glow.
    pub levels: u32,
}

impl Default for BloomOptions {
    fn default() -> Self {
        Self {
            intensity: 0.15,
            threshold: 0.0,
            knee: 0.5,
            levels: 6,
        }
    }
}

impl BloomOptions {
    /// The options with non-finite or out-of-range values replaced.
    #[must_use]
    pub fn sanitized(self) -> Self {
        let finite_or =
            |value: f32, fallback: f32| if value.is_finite() { value } else { fallback };
        Self {
            intensity: finite_or(self.intensity, 0.0).clamp(0.0, 1.0),
            threshold: finite_or(self.threshold, 0.0).max(0.0),
            knee: finite_or(self.knee, 0.5).max(0.0),
            levels: self.levels.clamp(1, MAX_BLOOM_LEVELS),
        }
    }

    /// The sizes of the chain's levels for a `width` x `height` frame:
    /// halving from half the frame, stopping before a side drops under 2
    /// texels. Empty when the frame is too small to bloom.
    #[must_use]
    pub fn level_sizes(&self, width: u32, height: u32) -> Vec<(u32, u32)> {
        let levels = self.sanitized().levels;
        let mut sizes = Vec::with_capacity(levels as usize);
        let (mut w, mut h) = (width / 2, height / 2);
        while sizes.len() < levels as usize && w >= 2 && h >= 2 {
            sizes.push((w, h));
            w /= 2;
            h /= 2;
        }
        sizes
    }
}

#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct BloomParams {
    intensity: f32,
    threshold: f32,
    knee: f32,
    inverse_levels: f32,
}

/// The bloom feature: reads [`Frame::hdr`], puts the bloomed frame back.
/// Register it after the lighting (and after TAA and depth of field) and
/// before the tonemap.
#[derive(Debug, Default)]
pub struct BloomFeature {
    /// Its settings; change them between frames with
    /// [`Renderer::feature_mut`](crate::Renderer::feature_mut).
    pub options: BloomOptions,
    gpu: Option<Gpu>,
}

#[derive(Debug)]
struct Gpu {
    chain_layout: wgpu::BindGroupLayout,
    composite_layout: wgpu::BindGroupLayout,
    first_downsample: wgpu::RenderPipeline,
    downsample: wgpu::RenderPipeline,
    upsample: wgpu::RenderPipeline,
    composite: wgpu::RenderPipeline,
    sampler: wgpu::Sampler,
    params: wgpu::Buffer,
}

impl BloomFeature {
    /// A bloom feature with these options.
    #[must_use]
    pub fn new(options: BloomOptions) -> Self {
        Self { options, gpu: None }
    }
}

const ADDITIVE: wgpu::BlendState = wgpu::BlendState {
    color: wgpu::BlendComponent {
        src_factor: wgpu::BlendFactor::One,
        dst_factor: wgpu::BlendFactor::One,
        operation: wgpu::BlendOperation::Add,
    },
    alpha: wgpu::BlendComponent::REPLACE,
};

impl RenderFeature for BloomFeature {
    fn name(&self) -> &'static str {
        "Bloom"
    }

    fn setup(&mut self, setup: FeatureSetup<'_>) {
        let device = setup.gpu.device();
        let float = wgpu::TextureSampleType::Float { filterable: true };
        let chain_entries = [
            texture_entry(0, float),
            sampler_entry(1, wgpu::SamplerBindingType::Filtering),
            uniform_entry(2, false, wgpu::ShaderStages::FRAGMENT),
        ];
        let chain_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("bloom chain"),
            entries: &chain_entries,
        });
        let mut composite_entries = chain_entries.to_vec();
        composite_entries.push(texture_entry(
            3,
            wgpu::TextureSampleType::Float { filterable: false },
        ));
        let composite_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("bloom composite"),
            entries: &composite_entries,
        });
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("bloom.wgsl"),
            source: wgpu::ShaderSource::Wgsl(
                format!(
                    "{FULLSCREEN_VS_WGSL}{}",
                    crate::wgsl!("bloom.wgsl"),
                    FULLSCREEN_VS_WGSL = fullscreen_vs_wgsl()
                )
                .into(),
            ),
        });
        let pipeline_layout = |layout: &wgpu::BindGroupLayout| {
            device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some("bloom"),
                bind_group_layouts: &[Some(layout)],
                immediate_size: 0,
            })
        };
        let chain = pipeline_layout(&chain_layout);
        let composite = pipeline_layout(&composite_layout);
        let pipeline = |label, entry, layout, blend| {
            fullscreen_entry_pipeline(device, label, &module, entry, layout, HDR_FORMAT, blend)
        };
        self.gpu = Some(Gpu {
            first_downsample: pipeline(
                "bloom first downsample",
                "fs_first_downsample",
                &chain,
                None,
            ),
            downsample: pipeline("bloom downsample", "fs_downsample", &chain, None),
            upsample: pipeline("bloom upsample", "fs_upsample", &chain, Some(ADDITIVE)),
            composite: pipeline("bloom composite", "fs_composite", &composite, None),
            sampler: device.create_sampler(&wgpu::SamplerDescriptor {
                label: Some("bloom"),
                mag_filter: wgpu::FilterMode::Linear,
                min_filter: wgpu::FilterMode::Linear,
                ..Default::default()
            }),
            params: uniform_buffer(device, "bloom params", std::mem::size_of::<BloomParams>()),
            chain_layout,
            composite_layout,
        });
    }

    fn update(&mut self, data: &FrameData, gpu: &GpuContext, _assets: &Assets) {
        let Some(state) = &self.gpu else { return };
        let options = self.options.sanitized();
        let levels = options.level_sizes(data.size.0, data.size.1).len().max(1);
        let params = BloomParams {
            intensity: options.intensity,
            threshold: options.threshold,
            knee: options.knee,
            inverse_levels: 1.0 / levels as f32,
        };
        gpu.queue()
            .write_buffer(&state.params, 0, bytemuck::bytes_of(&params));
    }

    fn add_passes<'a>(&'a self, frame: &mut Frame<'a>) {
        let (Some(gpu), Some(scene)) = (&self.gpu, frame.hdr) else {
            return;
        };
        let options = self.options.sanitized();
        let (width, height) = frame.data.size;
        let sizes = options.level_sizes(width, height);
        if options.intensity <= 0.0 || sizes.is_empty() {
            return;
        }
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING;
        // Down the chain: the frame into level 0, each level into the next.
        let mut levels: Vec<TextureHandle> = Vec::with_capacity(sizes.len());
        for (index, &(w, h)) in sizes.iter().enumerate() {
            let level = frame
                .graph
                .create_texture("bloom level", TextureDesc::new_2d(w, h, HDR_FORMAT, usage));
            let (source, pipeline, name) = match levels.last() {
                None => (scene, &gpu.first_downsample, "bloom downsample 0"),
                Some(&above) => (above, &gpu.downsample, DOWNSAMPLE_NAMES[index]),
            };
            let level = frame.graph.add_render_pass(name, |pass| {
                pass.read_texture(source);
                let level = pass.write_color(level, wgpu::LoadOp::Clear(wgpu::Color::BLACK));
                pass.execute(move |rp, res| {
                    if let Some(view) = res.texture_view(source) {
                        let group = gpu.chain_group(res.device(), view);
                        rp.set_pipeline(pipeline);
                        rp.set_bind_group(0, &group, &[]);
                        rp.draw(0..3, 0..1);
                    }
                });
                level
            });
            levels.push(level);
        }
        // Up the chain: each level's tent-filtered sum added into the one
        // above it, so level 0 ends up holding every level.
        for index in (0..levels.len() - 1).rev() {
            let below = levels[index + 1];
            let target = levels[index];
            levels[index] = frame.graph.add_render_pass(UPSAMPLE_NAMES[index], |pass| {
                pass.read_texture(below);
                let target = pass.write_color(target, wgpu::LoadOp::Load);
                pass.execute(move |rp, res| {
                    if let Some(view) = res.texture_view(below) {
                        let group = gpu.chain_group(res.device(), view);
                        rp.set_pipeline(&gpu.upsample);
                        rp.set_bind_group(0, &group, &[]);
                        rp.draw(0..3, 0..1);
                    }
                });
                target
            });
        }
        let glow = levels[0];
        let out = frame.graph.create_texture(
            "bloomed hdr",
            TextureDesc::new_2d(width, height, HDR_FORMAT, HDR_USAGE),
        );
        frame.hdr = Some(frame.graph.add_render_pass("bloom composite", |pass| {
            pass.read_texture(glow);
            pass.read_texture(scene);
            let out = pass.write_color(out, wgpu::LoadOp::Clear(wgpu::Color::BLACK));
            pass.execute(move |rp, res| {
                if let (Some(glow), Some(scene)) = (res.texture_view(glow), res.texture_view(scene))
                {
                    let group = gpu.composite_group(res.device(), glow, scene);
                    rp.set_pipeline(&gpu.composite);
                    rp.set_bind_group(0, &group, &[]);
                    rp.draw(0..3, 0..1);
                }
            });
            out
        }));
    }
}

/// Pass names per level (graph pass names are `&'static str`).
const DOWNSAMPLE_NAMES: [&str; MAX_BLOOM_LEVELS as usize] = [
    "bloom downsample 0",
    "bloom downsample 1",
    "bloom downsample 2",
    "bloom downsample 3",
    "bloom downsample 4",
    "bloom downsample 5",
    "bloom downsample 6",
];
const UPSAMPLE_NAMES: [&str; MAX_BLOOM_LEVELS as usize] = [
    "bloom upsample 0",
    "bloom upsample 1",
    "bloom upsample 2",
    "bloom upsample 3",
    "bloom upsample 4",
    "bloom upsample 5",
    "bloom upsample 6",
];

impl Gpu {
    fn chain_group(&self, device: &wgpu::Device, source: &wgpu::TextureView) -> wgpu::BindGroup {
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("bloom chain"),
            layout: &self.chain_layout,
            entries: &self.common_entries(source),
        })
    }

    fn composite_group(
        &self,
        device: &wgpu::Device,
        glow: &wgpu::TextureView,
        scene: &wgpu::TextureView,
    ) -> wgpu::BindGroup {
        let mut entries = self.common_entries(glow).to_vec();
        entries.push(wgpu::BindGroupEntry {
            binding: 3,
            resource: wgpu::BindingResource::TextureView(scene),
        });
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("bloom composite"),
            layout: &self.composite_layout,
            entries: &entries,
        })
    }

    fn common_entries<'v>(
        &'v self,
        source: &'v wgpu::TextureView,
    ) -> [wgpu::BindGroupEntry<'v>; 3] {
        [
            wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::TextureView(source),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: wgpu::BindingResource::Sampler(&self.sampler),
            },
            wgpu::BindGroupEntry {
                binding: 2,
                resource: self.params.as_entire_binding(),
            },
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_halve_from_half_the_frame_and_stop_before_two_texels() {
        let options = BloomOptions::default();
        assert_eq!(
            options.level_sizes(1280, 720),
            vec![
                (640, 360),
                (320, 180),
                (160, 90),
                (80, 45),
                (40, 22),
                (20, 11)
            ]
        );
        assert_eq!(options.level_sizes(9, 9), vec![(4, 4), (2, 2)]);
        assert!(options.level_sizes(3, 300).is_empty());
        assert!(options.level_sizes(0, 0).is_empty());
    }

    #[test]
    fn bad_options_are_tamed() {
        let options = BloomOptions {
            intensity: f32::NAN,
            threshold: -1.0,
            knee: f32::INFINITY,
            levels: 99,
        }
        .sanitized();
        assert_eq!(options.intensity, 0.0);
        assert_eq!(options.threshold, 0.0);
        assert_eq!(options.knee, 0.5);
        assert_eq!(options.levels, MAX_BLOOM_LEVELS);
        assert_eq!(
            BloomOptions {
                intensity: 3.0,
                ..BloomOptions::default()
            }
            .sanitized()
            .intensity,
            1.0
        );
    }
}
