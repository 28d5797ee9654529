//! Point and spot lights in the deferred path, two ways (see
//! [`PointSpotMethod`]): per screen tile, with the forward-plus light
//! culler run against the G-buffer depth, or per light volume, a box drawn
//! around each light's range. Both add to the frame's HDR target with no
//! cap on the light count.

use super::AmbientOcclusion;
use super::gbuffer::{GBuffer, GBufferReader, deferred_source};
use crate::feature::{FeatureSetup, Frame, RenderFeature};
use crate::features::forward_plus::LightCuller;
use crate::features::gpu_util::fullscreen_pipeline_with;
use crate::features::lit::{GpuLight, LightBinding, LitGpu, hdr_target, pack_lights};
use crate::features::{DEFAULT_LIGHTS_PER_TILE, ForwardPlusFeature};
use crate::frame::{FrameData, HDR_FORMAT, Lights};
use crate::graph::TextureHandle;
use crate::resources::Assets;
use crate::{GpuContext, RenderStats};

/// How the deferred path shades point and spot lights.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PointSpotMethod {
    /// A compute pass bins the lights into 16 x 16-pixel tiles against the
    /// G-buffer depth; one full-screen pass loops over each pixel's tile.
    /// Needs compute shaders and storage buffers.
    Tiled,
    /// Each light draws the inside of a box around its range; the covered
    /// pixels add that one light. Needs neither compute nor storage
    /// buffers (the lights are instance attributes), so it runs on WebGL2.
    Volumes,
}

/// Adds point and spot lights to the G-buffer's lit image.
#[derive(Debug)]
pub struct PointSpotLightFeature {
    /// The method (`None`: light volumes, which measured faster on the
    /// `many_lights` bench; see the deferred chapter of the book).
    pub method: Option<PointSpotMethod>,
    /// Most lights one tile shades (tiled method; default
    /// [`DEFAULT_LIGHTS_PER_TILE`]).
    pub max_lights_per_tile: u32,
    gpu: Option<Gpu>,
    overflowed: u32,
}

#[derive(Debug)]
struct Gpu {
    lit: LitGpu,
    reader: GBufferReader,
    shading: Shading,
}

#[derive(Debug)]
enum Shading {
    Tiled {
        culler: LightCuller,
        pipeline: wgpu::RenderPipeline,
    },
    Volumes {
        pipeline: wgpu::RenderPipeline,
        instances: LightInstances,
    },
}

impl Default for PointSpotLightFeature {
    fn default() -> Self {
        Self {
            method: None,
            max_lights_per_tile: DEFAULT_LIGHTS_PER_TILE,
            gpu: None,
            overflowed: 0,
        }
    }
}

impl PointSpotLightFeature {
    /// Point and spot lights drawn as light volumes (the default method).
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Point and spot lights by `method` (tiled falls back to volumes,
    /// logged, on a device without compute).
    #[must_use]
    pub fn with_method(method: PointSpotMethod) -> Self {
        Self {
            method: Some(method),
            ..Self::default()
        }
    }

    /// The method in use, once set up.
    #[must_use]
    pub fn active_method(&self) -> Option<PointSpotMethod> {
        self.gpu.as_ref().map(|gpu| match gpu.shading {
            Shading::Tiled { .. } => PointSpotMethod::Tiled,
            Shading::Volumes { .. } => PointSpotMethod::Volumes,
        })
    }
}

/// Light volumes blend additively: each light adds its contribution.
const ADD: wgpu::BlendState = wgpu::BlendState {
    color: wgpu::BlendComponent {
        src_factor: wgpu::BlendFactor::One,
        dst_factor: wgpu::BlendFactor::One,
        operation: wgpu::BlendOperation::Add,
    },
    alpha: wgpu::BlendComponent {
        src_factor: wgpu::BlendFactor::Zero,
        dst_factor: wgpu::BlendFactor::One,
        operation: wgpu::BlendOperation::Add,
    },
};

impl RenderFeature for PointSpotLightFeature {
    fn name(&self) -> &'static str {
        "PointSpotLight"
    }

    fn setup(&mut self, setup: FeatureSetup<'_>) {
        let (device, queue) = (setup.gpu.device(), setup.gpu.queue());
        let supported = ForwardPlusFeature::check_support(setup.gpu);
        let method = match (self.method, supported) {
            (Some(PointSpotMethod::Tiled), Ok(())) => PointSpotMethod::Tiled,
            (Some(PointSpotMethod::Tiled), Err(error)) => {
                log::warn!("{error}: deferred point/spot lights use light volumes instead");
                PointSpotMethod::Volumes
            }
            (Some(PointSpotMethod::Volumes) | None, _) => PointSpotMethod::Volumes,
        };
        let binding = match method {
            PointSpotMethod::Tiled => LightBinding::Storage,
            PointSpotMethod::Volumes => LightBinding::for_device(device),
        };
        let lit = LitGpu::new(setup.gpu, binding);
        let reader = GBufferReader::new(device, queue);
        let shading = match method {
            PointSpotMethod::Tiled => {
                let culler = LightCuller::new(device, "deferred point/spot lights");
                let layout =
                    lit.fullscreen_layout(device, reader.layout(), Some(culler.tiles_layout()));
                let source = deferred_source(binding, &crate::wgsl!("point_spot_tiled.wgsl"));
                let pipeline = fullscreen_pipeline_with(
                    device,
                    "deferred tiled lights",
                    &source,
                    &layout,
                    HDR_FORMAT,
                    Some(ADD),
                );
                Shading::Tiled { culler, pipeline }
            }
            PointSpotMethod::Volumes => {
                let layout = lit.fullscreen_layout(device, reader.layout(), None);
                let source = deferred_source(binding, &crate::wgsl!("light_volume.wgsl"));
                Shading::Volumes {
                    pipeline: volume_pipeline(device, &layout, &source),
                    instances: LightInstances::default(),
                }
            }
        };
        self.gpu = Some(Gpu {
            lit,
            reader,
            shading,
        });
    }

    fn update(&mut self, data: &FrameData, gpu_ctx: &GpuContext, _assets: &Assets) {
        let Some(gpu) = &mut self.gpu else { return };
        match &mut gpu.shading {
            Shading::Tiled { culler, .. } => {
                culler.set_grid(data.size, self.max_lights_per_tile);
                gpu.lit.update_frame(
                    data,
                    gpu_ctx,
                    crate::features::AmbientLight::NONE,
                    culler.tiles(),
                );
                let lights = gpu.lit.lights().count() as u32;
                culler.update(gpu_ctx, &data.camera, data.size, lights);
            }
            Shading::Volumes { instances, .. } => {
                gpu.lit.update_frame(
                    data,
                    gpu_ctx,
                    crate::features::AmbientLight::NONE,
                    Default::default(),
                );
                instances.upload(gpu_ctx, &data.lights);
            }
        }
    }

    fn add_passes<'a>(&'a self, frame: &mut Frame<'a>) {
        let (Some(gpu), Some(gbuffer)) = (&self.gpu, frame.slots.get::<GBuffer>().copied()) else {
            return;
        };
        let lights = frame.data.lights.points.len() + frame.data.lights.spots.len();
        if lights == 0 {
            return;
        }
        let (hdr, load) = hdr_target(frame);
        let occlusion: Option<TextureHandle> = frame.slots.get::<AmbientOcclusion>().map(|ao| ao.0);
        let (lit, reader) = (&gpu.lit, &gpu.reader);
        let hdr = match &gpu.shading {
            Shading::Tiled { culler, pipeline } => {
                let tiles =
                    culler.add_passes(&mut frame.graph, lit.lights(), gbuffer.depth, gbuffer.depth);
                frame
                    .graph
                    .add_render_pass("deferred tiled lights", |pass| {
                        let hdr = pass.write_color(hdr, load);
                        GBufferReader::declare(pass, gbuffer, occlusion);
                        pass.read_buffer(tiles, wgpu::BufferUsages::STORAGE);
                        pass.execute(move |rp, res| {
                            let (Some(surface), Some(tiles)) = (
                                reader.group(res, gbuffer, occlusion),
                                culler.tiles_group(res, tiles),
                            ) else {
                                return;
                            };
                            lit.bind_frame(rp, &lit.shadow_group(res, None, None));
                            rp.set_bind_group(1, &surface, &[]);
                            rp.set_bind_group(3, &tiles, &[]);
                            rp.set_pipeline(pipeline);
                            rp.draw(0..3, 0..1);
                        });
                        hdr
                    })
            }
            Shading::Volumes {
                pipeline,
                instances,
            } => frame
                .graph
                .add_render_pass("deferred light volumes", |pass| {
                    let hdr = pass.write_color(hdr, load);
                    GBufferReader::declare(pass, gbuffer, occlusion);
                    pass.execute(move |rp, res| {
                        let (Some(surface), Some(buffer)) =
                            (reader.group(res, gbuffer, occlusion), &instances.buffer)
                        else {
                            return;
                        };
                        lit.bind_frame(rp, &lit.shadow_group(res, None, None));
                        rp.set_bind_group(1, &surface, &[]);
                        rp.set_pipeline(pipeline);
                        rp.set_vertex_buffer(0, buffer.slice(..));
                        rp.draw(0..36, 0..instances.count);
                    });
                    hdr
                }),
        };
        frame.hdr = Some(hdr);
    }

    fn after_frame(&mut self, _gpu: &GpuContext, stats: &mut RenderStats) {
        let Some(gpu) = &mut self.gpu else { return };
        match &mut gpu.shading {
            Shading::Tiled { culler, .. } => {
                self.overflowed = culler.submitted();
                stats.lights += gpu.lit.lights().count() as u32;
                stats.light_tiles_overflowed += self.overflowed;
                stats.draw_calls += 1;
            }
            Shading::Volumes { instances, .. } => {
                stats.lights += instances.count;
                stats.draw_calls += 1;
            }
        }
    }
}

/// The light volumes' instance buffer: every light, packed, grown as needed.
#[derive(Debug, Default)]
struct LightInstances {
    packed: Vec<GpuLight>,
    buffer: Option<wgpu::Buffer>,
    count: u32,
}

impl LightInstances {
    fn upload(&mut self, gpu: &GpuContext, lights: &Lights) {
        pack_lights(lights, &mut self.packed);
        self.count = self.packed.len() as u32;
        if self.packed.is_empty() {
            return;
        }
        let bytes: &[u8] = bytemuck::cast_slice(&self.packed);
        let fits = self
            .buffer
            .as_ref()
            .is_some_and(|buffer| buffer.size() >= bytes.len() as u64);
        if !fits {
            let capacity = self.packed.len().next_power_of_two() * std::mem::size_of::<GpuLight>();
            self.buffer = Some(gpu.device().create_buffer(&wgpu::BufferDescriptor {
                label: Some("light volumes"),
                size: capacity as u64,
                usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }));
        }
        if let Some(buffer) = &self.buffer {
            gpu.queue().write_buffer(buffer, 0, bytes);
        }
    }
}

/// The light-volume pipeline: inner box faces, additive, no depth test.
fn volume_pipeline(
    device: &wgpu::Device,
    layout: &wgpu::PipelineLayout,
    source: &str,
) -> wgpu::RenderPipeline {
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("deferred light_volume.wgsl"),
        source: wgpu::ShaderSource::Wgsl(source.into()),
    });
    let attributes = wgpu::vertex_attr_array![
        0 => Float32x4, 1 => Float32x4, 2 => Float32x4, 3 => Float32x4
    ];
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("deferred light volumes"),
        layout: Some(layout),
        vertex: wgpu::VertexState {
            module: &module,
            entry_point: Some("vs_volume"),
            compilation_options: Default::default(),
            buffers: &[Some(wgpu::VertexBufferLayout {
                array_stride: std::mem::size_of::<GpuLight>() as u64,
                step_mode: wgpu::VertexStepMode::Instance,
                attributes: &attributes,
            })],
        },
        fragment: Some(wgpu::FragmentState {
            module: &module,
            entry_point: Some("fs_volume"),
            compilation_options: Default::default(),
            targets: &[Some(wgpu::ColorTargetState {
                format: HDR_FORMAT,
                blend: Some(ADD),
                write_mask: wgpu::ColorWrites::ALL,
            })],
        }),
        primitive: wgpu::PrimitiveState {
            cull_mode: Some(wgpu::Face::Front),
            ..Default::default()
        },
        depth_stencil: None,
        multisample: wgpu::MultisampleState::default(),
        multiview_mask: None,
        cache: None,
    })
}
