//! [`CraftyPipelineFeature`]: crafty's whole frame as one render feature.

use std::collections::HashMap;

use glam::{Mat4, Vec3};
use taos_renderer::features::{DEPTH_FORMAT, HDR_FORMAT, TonemapFeature};
use taos_renderer::frame::{DEPTH_CLEAR, DEPTH_NEARER, DEPTH_NEARER_OR_EQUAL};
use taos_renderer::graph::TextureDesc;
use taos_renderer::resources::Assets;
use taos_renderer::{FeatureSetup, Frame, FrameData, GpuContext, RenderFeature};

use super::atlas_texture::AtlasTexture;
use super::chunks::{ChunkStore, Quads, chunk_center, chunk_visible};
use super::godrays::GodrayPasses;
use super::handle::{Clouds, CraftyRenderHandle, CraftyRenderStats, Fog, Godrays, Shadows};
use super::shadows::{CasterSetup, SunShadows};
use super::shared::CraftyShader;
use super::weather::{PrecipitationTexture, SNOW_ALTITUDE, particle_count};
use crate::mesh::{ChunkMesh, PackedQuad};
use crate::time_of_day::SkyLighting;
use crate::weather::WeatherView;
use crate::world::ChunkPos;

/// Where an extra stage's passes go in crafty's frame.
///
/// The built-in passes run in this order, each chaining the frame's `hdr`
/// handle (the shadow cascades come first, but draw no HDR): sky,
/// **`AfterSky`**, opaque chunks (which create `frame.depth`),
/// **`AfterOpaque`**, transparent chunks, weather particles,
/// **`AfterTransparent`**, block highlight, godrays, **`BeforeTonemap`**,
/// tonemap into `frame.output`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StagePoint {
    /// Behind all geometry, no depth yet (distant sky layers: aurora, far
    /// clouds).
    AfterSky,
    /// After opaque blocks, with `frame.depth` holding the scene depth
    /// (volumetric clouds, which blocks hide).
    AfterOpaque,
    /// After water, glass and the falling rain or snow.
    AfterTransparent,
    /// The last HDR work before tonemapping, after the built-in godrays
    /// (bloom, screen-space effects).
    BeforeTonemap,
}

/// The per-frame uniform; mirrors `FrameUniform` in `shaders/common.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct FrameUniform {
    view_proj: [[f32; 4]; 4],
    inverse_view_proj: [[f32; 4]; 4],
    camera: [f32; 4],
    light_dir: [f32; 4],
    light_color: [f32; 4],
    ambient: [f32; 4],
    zenith: [f32; 4],
    horizon: [f32; 4],
    glow: [f32; 4],
    sun_dir: [f32; 4],
    sun_disc: [f32; 4],
    moon_disc: [f32; 4],
    fog: [f32; 4],
    highlight: [f32; 4],
    weather: [f32; 4],
    weather_map: [f32; 4],
    water: [f32; 4],
    clouds: [f32; 4],
}

#[derive(Debug)]
struct Gpu {
    frame_buffer: wgpu::Buffer,
    frame_group: wgpu::BindGroup,
    sky: wgpu::RenderPipeline,
    opaque: wgpu::RenderPipeline,
    cutout: wgpu::RenderPipeline,
    transparent: wgpu::RenderPipeline,
    outline: wgpu::RenderPipeline,
    weather: wgpu::RenderPipeline,
    precipitation: PrecipitationTexture,
    chunks: ChunkStore,
    shadows: SunShadows,
    godrays: GodrayPasses,
    _atlas: AtlasTexture,
}

/// Crafty's pipeline in one [`RenderFeature`]: a gradient sky with sun, moon
/// and stars; chunk quads instanced from [`PackedQuad`]s, textured from the
/// procedural [atlas](super::block_atlas), lit by the sun or moon with
/// per-corner ambient occlusion and distance fog; water, glass and leaves
/// blended back to front by chunk; rain or snow
/// ([`set_weather`](CraftyRenderHandle::set_weather)); the targeted block
/// outlined; and the renderer's [`TonemapFeature`] into the output.
///
/// Add it alone to a [`Renderer`](taos_renderer::Renderer) (no preset), and
/// drive it through the [`CraftyRenderHandle`] that
/// [`new`](Self::new) returns. The sky and its light are the game's
/// ([`set_sky`](CraftyRenderHandle::set_sky)); stages see the direct light as
/// `FrameData::lights.sun`, which the game fills from the same moment.
///
/// # Extending
/// A game's own effects slot in as extra stages
/// ([`with_stage`](Self::with_stage)): ordinary [`RenderFeature`]s run at a
/// [`StagePoint`], whose `setup`, `early_update`, `update` and `destroy` the
/// pipeline forwards, and whose `add_passes` see the same [`Frame`]: read
/// `frame.hdr` (and `frame.depth` from `AfterOpaque` on), declare a pass,
/// put the new `hdr` version back.
pub struct CraftyPipelineFeature {
    handle: CraftyRenderHandle,
    tonemap: TonemapFeature,
    stages: Vec<(StagePoint, Box<dyn RenderFeature>)>,
    gpu: Option<Gpu>,
    opaque_draws: Vec<u32>,
    transparent_draws: Vec<u32>,
    sort_scratch: Vec<(f32, u32)>,
    /// Swapped with the handle's pending map each frame, so neither side
    /// reallocates.
    incoming: HashMap<ChunkPos, Option<ChunkMesh>>,
    highlight: bool,
    weather_particles: u32,
}

impl std::fmt::Debug for CraftyPipelineFeature {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let stages: Vec<_> = self
            .stages
            .iter()
            .map(|(at, stage)| (*at, stage.name()))
            .collect();
        f.debug_struct("CraftyPipelineFeature")
            .field("stages", &stages)
            .field("tonemap", &self.tonemap)
            .field("ready", &self.gpu.is_some())
            .finish_non_exhaustive()
    }
}

impl CraftyPipelineFeature {
    /// The pipeline (ACES tonemapping at exposure 1) and the handle the game
    /// keeps to feed it.
    #[must_use]
    pub fn new() -> (Self, CraftyRenderHandle) {
        let handle = CraftyRenderHandle::new();
        let feature = Self {
            handle: handle.clone(),
            tonemap: TonemapFeature::new(1.0, true),
            stages: Vec::new(),
            gpu: None,
            opaque_draws: Vec::new(),
            transparent_draws: Vec::new(),
            sort_scratch: Vec::new(),
            incoming: HashMap::new(),
            highlight: false,
            weather_particles: 0,
        };
        (feature, handle)
    }

    /// Adds an extra stage at `at`, after any stage already there. Add
    /// stages before the feature goes into the renderer (that is when their
    /// `setup` runs).
    #[must_use]
    pub fn with_stage(mut self, at: StagePoint, stage: impl RenderFeature + 'static) -> Self {
        self.stages.push((at, Box::new(stage)));
        self
    }

    /// Another handle to this pipeline.
    #[must_use]
    pub fn handle(&self) -> CraftyRenderHandle {
        self.handle.clone()
    }

    /// The inner tonemapper (exposure, curve).
    pub fn tonemap_mut(&mut self) -> &mut TonemapFeature {
        &mut self.tonemap
    }

    fn add_stage_passes<'a>(&'a self, at: StagePoint, frame: &mut Frame<'a>) {
        for (_, stage) in self
            .stages
            .iter()
            .filter(|(point, stage)| *point == at && stage.enabled())
        {
            stage.add_passes(frame);
        }
    }
}

impl Default for CraftyPipelineFeature {
    fn default() -> Self {
        Self::new().0
    }
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

/// How one of crafty's pipelines (all into the HDR target) differs from the
/// others.
pub(super) struct PipelineSpec<'a> {
    pub(super) label: &'a str,
    pub(super) module: &'a wgpu::ShaderModule,
    pub(super) layout: &'a wgpu::PipelineLayout,
    pub(super) fragment: &'a str,
    pub(super) instanced_quads: bool,
    pub(super) topology: wgpu::PrimitiveTopology,
    pub(super) blend: Option<wgpu::BlendState>,
    /// Depth write and compare; `None` for no depth at all.
    pub(super) depth: Option<(bool, wgpu::CompareFunction)>,
}

pub(super) fn pipeline(device: &wgpu::Device, spec: &PipelineSpec<'_>) -> wgpu::RenderPipeline {
    const QUAD_ATTRIBUTES: [wgpu::VertexAttribute; 1] = wgpu::vertex_attr_array![0 => Uint32x2];
    let quads = wgpu::VertexBufferLayout {
        array_stride: std::mem::size_of::<PackedQuad>() as u64,
        step_mode: wgpu::VertexStepMode::Instance,
        attributes: &QUAD_ATTRIBUTES,
    };
    let buffers = if spec.instanced_quads {
        vec![Some(quads)]
    } else {
        Vec::new()
    };
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(spec.label),
        layout: Some(spec.layout),
        vertex: wgpu::VertexState {
            module: spec.module,
            entry_point: Some("vs_main"),
            compilation_options: Default::default(),
            buffers: &buffers,
        },
        fragment: Some(wgpu::FragmentState {
            module: spec.module,
            entry_point: Some(spec.fragment),
            compilation_options: Default::default(),
            targets: &[Some(wgpu::ColorTargetState {
                format: HDR_FORMAT,
                blend: spec.blend,
                write_mask: wgpu::ColorWrites::ALL,
            })],
        }),
        primitive: wgpu::PrimitiveState {
            topology: spec.topology,
            front_face: wgpu::FrontFace::Ccw,
            cull_mode: spec.instanced_quads.then_some(wgpu::Face::Back),
            ..Default::default()
        },
        depth_stencil: spec.depth.map(|(write, compare)| wgpu::DepthStencilState {
            format: DEPTH_FORMAT,
            depth_write_enabled: Some(write),
            depth_compare: Some(compare),
            stencil: wgpu::StencilState::default(),
            bias: wgpu::DepthBiasState::default(),
        }),
        multisample: wgpu::MultisampleState::default(),
        multiview_mask: None,
        cache: None,
    })
}

/// How far one sees under water, in blocks.
const UNDERWATER_FOG_END: f32 = 20.0;

fn v4(v: Vec3, w: f32) -> [f32; 4] {
    v.extend(w).to_array()
}

/// What the frame uniform is made from, besides the engine's frame data.
/// Copied out of the handle once per frame.
struct FrameInputs {
    light: SkyLighting,
    fog: Fog,
    highlight: Option<glam::IVec3>,
    weather: WeatherView,
    precipitation_origin: Option<glam::IVec2>,
    underwater: bool,
    clouds: Clouds,
    shadows: Shadows,
    godrays: Godrays,
}

fn frame_uniform(data: &FrameData, inputs: &FrameInputs) -> FrameUniform {
    let FrameInputs {
        ref light,
        fog,
        highlight,
        weather,
        precipitation_origin,
        underwater,
        clouds,
        shadows: _,
        godrays: _,
    } = *inputs;
    let camera = &data.camera;
    let view_proj = camera.depth_view_proj();
    let inverse = view_proj.inverse();
    let inverse = if inverse.is_finite() {
        inverse
    } else {
        Mat4::IDENTITY
    };
    let fog_start = if fog.start.is_finite() {
        fog.start
    } else {
        1e6
    };
    let fog_end = if fog.end.is_finite() && fog.end > fog_start {
        fog.end
    } else {
        fog_start + 1.0
    };
    // Rain and snow hide the distance: fog closes in with the overcast.
    let overcast = if weather.overcast.is_finite() {
        weather.overcast.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (fog_start, fog_end) = if underwater {
        (0.0, UNDERWATER_FOG_END.min(fog_end))
    } else {
        (
            fog_start * (1.0 - 0.7 * overcast),
            fog_end * (1.0 - 0.45 * overcast),
        )
    };
    let finite = |v: f32| {
        if v.is_finite() {
            v.clamp(0.0, 1.0)
        } else {
            0.0
        }
    };
    let map = match precipitation_origin {
        Some(origin) => [
            origin.x as f32,
            origin.y as f32,
            crate::weather::PRECIPITATION_MAP_SIZE as f32,
            SNOW_ALTITUDE,
        ],
        None => [0.0; 4],
    };
    FrameUniform {
        view_proj: view_proj.to_cols_array_2d(),
        inverse_view_proj: inverse.to_cols_array_2d(),
        camera: v4(camera.position, 1.0),
        light_dir: v4(light.light_direction, 0.0),
        light_color: v4(light.light_color, 0.0),
        ambient: v4(light.ambient, 0.0),
        zenith: v4(light.zenith, 0.0),
        horizon: v4(light.horizon, 0.0),
        glow: v4(light.glow, 0.0),
        sun_dir: v4(light.sun_direction, 0.0),
        sun_disc: v4(light.sun_disc, 0.0),
        moon_disc: v4(light.moon_disc, light.moon_phase),
        fog: [
            fog_start,
            fog_end,
            light.daylight,
            (data.time.elapsed % 3600.0) as f32,
        ],
        highlight: match highlight {
            Some(block) => v4(block.as_vec3(), 1.0),
            None => [0.0; 4],
        },
        weather: [
            finite(weather.intensity),
            finite(weather.wetness),
            finite(weather.lightning),
            f32::from(weather.kind as u8),
        ],
        weather_map: map,
        water: [f32::from(u8::from(underwater)), 0.0, 0.0, 0.0],
        clouds: cloud_uniform(clouds, overcast, data.time.elapsed),
    }
}

/// Where light shafts come from: the sun while any of its disc is above
/// the horizon (the sky's light may already be the moon's), else the moon,
/// opposite it.
fn shaft_light(light: &SkyLighting) -> Vec3 {
    // The sun disc's radius in the sky shader, as a sine.
    const SUN_RADIUS: f32 = 0.06;
    if light.sun_direction.y > -SUN_RADIUS {
        light.sun_direction
    } else {
        -light.sun_direction
    }
}

/// The clouds' uniform: cover (the game's, thickened by the weather's
/// overcast) and how far the wind has carried them after `elapsed` seconds
/// (wrapped, so the numbers stay small enough for f32).
fn cloud_uniform(clouds: Clouds, overcast: f32, elapsed: f64) -> [f32; 4] {
    let cover = if clouds.cover.is_finite() {
        clouds.cover.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let cover = cover + (1.0 - cover) * overcast * 0.8;
    let wind = if clouds.wind.is_finite() {
        clouds.wind
    } else {
        glam::Vec2::ZERO
    };
    let elapsed = if elapsed.is_finite() { elapsed } else { 0.0 };
    let drift = |speed: f32| ((elapsed * f64::from(speed)) % CLOUD_WRAP) as f32;
    [cover, drift(wind.x), drift(wind.y), 0.0]
}

/// The wind's drift wraps after this many blocks: far apart enough that the
/// jump is a rare change of scenery, near enough for f32 precision.
const CLOUD_WRAP: f64 = 65_536.0;

impl RenderFeature for CraftyPipelineFeature {
    fn name(&self) -> &'static str {
        "CraftyPipeline"
    }

    fn setup(&mut self, setup: FeatureSetup<'_>) {
        let gpu = setup.gpu;
        let device = gpu.device();
        let atlas = AtlasTexture::new(device, gpu.queue());
        let frame_layout = frame_layout(device);
        let precipitation = PrecipitationTexture::new(device);
        let chunks = ChunkStore::new(device);
        let frame_buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("crafty frame uniform"),
            size: std::mem::size_of::<FrameUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let frame_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("crafty frame"),
            layout: &frame_layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: frame_buffer.as_entire_binding(),
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
        let frame_only = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("crafty frame only"),
            bind_group_layouts: &[Some(&frame_layout)],
            immediate_size: 0,
        });
        let atlas_constants = atlas.shader_constants();
        let module = |shader: CraftyShader| shader.module(device, &atlas_constants);
        let caster_module = module(CraftyShader::ShadowCasters);
        let sky_module = module(CraftyShader::Sky);
        let chunk_module = module(CraftyShader::Chunk);
        let weather_module = module(CraftyShader::Weather);
        let godray_module = module(CraftyShader::Godrays);
        let outline_module = module(CraftyShader::Outline);
        let shadows = SunShadows::new(
            device,
            &CasterSetup {
                frame_layout: &frame_layout,
                chunk_layout: chunks.layout(),
                module: &caster_module,
            },
        );
        let with_chunk = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("crafty chunks"),
            bind_group_layouts: &[
                Some(&frame_layout),
                Some(chunks.layout()),
                Some(&shadows.receiver_layout),
            ],
            immediate_size: 0,
        });
        let godrays = GodrayPasses::new(device, &frame_layout, &godray_module);
        let chunk_spec = |label, fragment, blend, write| PipelineSpec {
            label,
            module: &chunk_module,
            layout: &with_chunk,
            fragment,
            instanced_quads: true,
            topology: wgpu::PrimitiveTopology::TriangleList,
            blend,
            depth: Some((write, DEPTH_NEARER)),
        };
        let opaque = pipeline(
            device,
            &chunk_spec("crafty opaque chunks", "fs_opaque", None, true),
        );
        let cutout = pipeline(
            device,
            &chunk_spec("crafty cutout chunks", "fs_cutout", None, true),
        );
        let transparent = pipeline(
            device,
            &chunk_spec(
                "crafty transparent chunks",
                "fs_transparent",
                Some(wgpu::BlendState::ALPHA_BLENDING),
                false,
            ),
        );
        let sky = pipeline(
            device,
            &PipelineSpec {
                label: "crafty sky",
                module: &sky_module,
                layout: &frame_only,
                fragment: "fs_main",
                instanced_quads: false,
                topology: wgpu::PrimitiveTopology::TriangleList,
                blend: None,
                depth: None,
            },
        );
        let outline = pipeline(
            device,
            &PipelineSpec {
                label: "crafty block outline",
                module: &outline_module,
                layout: &frame_only,
                fragment: "fs_main",
                instanced_quads: false,
                topology: wgpu::PrimitiveTopology::LineList,
                blend: Some(wgpu::BlendState::ALPHA_BLENDING),
                depth: Some((false, DEPTH_NEARER_OR_EQUAL)),
            },
        );
        let weather = pipeline(
            device,
            &PipelineSpec {
                label: "crafty weather",
                module: &weather_module,
                layout: &frame_only,
                fragment: "fs_main",
                instanced_quads: false,
                topology: wgpu::PrimitiveTopology::TriangleList,
                blend: Some(wgpu::BlendState::ALPHA_BLENDING),
                depth: Some((false, DEPTH_NEARER)),
            },
        );
        self.gpu = Some(Gpu {
            frame_buffer,
            frame_group,
            sky,
            opaque,
            cutout,
            transparent,
            outline,
            weather,
            precipitation,
            chunks,
            shadows,
            godrays,
            _atlas: atlas,
        });
        self.tonemap.setup(setup);
        for (_, stage) in &mut self.stages {
            stage.setup(setup);
        }
    }

    fn early_update(&mut self, data: &mut FrameData) {
        for (_, stage) in self.stages.iter_mut().filter(|(_, s)| s.enabled()) {
            stage.early_update(data);
        }
    }

    fn update(&mut self, data: &FrameData, gpu_ctx: &GpuContext, assets: &Assets) {
        let Some(gpu) = &mut self.gpu else { return };
        let (inputs, precipitation) = {
            let mut shared = self.handle.lock();
            std::mem::swap(&mut shared.pending, &mut self.incoming);
            let inputs = FrameInputs {
                light: shared.sky,
                fog: shared.fog,
                highlight: shared.highlight,
                weather: shared.weather,
                precipitation_origin: None,
                underwater: shared.underwater,
                clouds: shared.clouds,
                shadows: shared.shadows,
                godrays: shared.godrays,
            };
            (inputs, shared.precipitation.take())
        };
        let (device, queue) = (gpu_ctx.device(), gpu_ctx.queue());
        if let Some((origin, texels)) = precipitation {
            gpu.precipitation.upload(queue, origin, &texels);
        }
        for (pos, mesh) in self.incoming.drain() {
            match mesh {
                Some(mesh) => gpu.chunks.set(device, queue, pos, &mesh),
                None => gpu.chunks.remove(pos),
            }
        }

        let inputs = FrameInputs {
            precipitation_origin: gpu.precipitation.origin,
            ..inputs
        };
        gpu.shadows.update(
            device,
            queue,
            &data.camera,
            inputs.light.light_direction,
            inputs.shadows,
            &gpu.chunks,
        );
        let godrays = if inputs.underwater {
            Godrays::OFF
        } else {
            inputs.godrays
        };
        gpu.godrays.update(
            queue,
            data.camera.depth_view_proj(),
            shaft_light(&inputs.light),
            godrays,
            inputs.weather.overcast,
            data.size,
        );
        let uniform = frame_uniform(data, &inputs);
        queue.write_buffer(&gpu.frame_buffer, 0, bytemuck::bytes_of(&uniform));
        self.highlight = inputs.highlight.is_some();
        // Rain and snow stop at the water's surface.
        self.weather_particles = if gpu.precipitation.origin.is_some() && !inputs.underwater {
            particle_count(&inputs.weather)
        } else {
            0
        };

        // Visible chunks: opaque front to back (early depth rejects more),
        // transparent back to front (blending needs it).
        let view_proj = data.camera.projection * data.camera.view;
        let eye = data.camera.position;
        let mut stats = CraftyRenderStats {
            chunks: gpu.chunks.len(),
            ..CraftyRenderStats::default()
        };
        self.sort_scratch.clear();
        for (slot, chunk) in gpu.chunks.iter() {
            stats.opaque_quads += u64::from(chunk.opaque);
            stats.transparent_quads += u64::from(chunk.transparent);
            if chunk_visible(&view_proj, chunk.pos) {
                let distance = chunk_center(chunk.pos).distance_squared(eye);
                self.sort_scratch.push((distance, slot));
            } else {
                stats.culled_chunks += 1;
            }
        }
        self.sort_scratch
            .sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let chunks = &gpu.chunks;
        self.opaque_draws.clear();
        self.opaque_draws.extend(
            self.sort_scratch
                .iter()
                .map(|&(_, slot)| slot)
                .filter(|&slot| chunks.get(slot).is_some_and(|c| c.opaque > 0)),
        );
        self.transparent_draws.clear();
        self.transparent_draws.extend(
            self.sort_scratch
                .iter()
                .rev()
                .map(|&(_, slot)| slot)
                .filter(|&slot| chunks.get(slot).is_some_and(|c| c.transparent > 0)),
        );
        stats.opaque_draws = self.opaque_draws.len();
        stats.transparent_draws = self.transparent_draws.len();
        stats.weather_particles = self.weather_particles;
        stats.shadow_draws = gpu.shadows.caster_draws();
        stats.godrays = gpu.godrays.active();
        self.handle.lock().stats = stats;

        self.tonemap.update(data, gpu_ctx, assets);
        for (_, stage) in self.stages.iter_mut().filter(|(_, s)| s.enabled()) {
            stage.update(data, gpu_ctx, assets);
        }
    }

    fn add_passes<'a>(&'a self, frame: &mut Frame<'a>) {
        let Some(gpu) = &self.gpu else { return };
        let (width, height) = frame.data.size;
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING;
        let shadow_atlas = gpu
            .shadows
            .add_pass(&mut frame.graph, &gpu.frame_group, &gpu.chunks);
        let receiver = &gpu.shadows.receiver_group;
        let hdr = frame
            .graph
            .create_texture("hdr", TextureDesc::new_2d(width, height, HDR_FORMAT, usage));
        frame.hdr = Some(frame.graph.add_render_pass("crafty sky", |pass| {
            let hdr = pass.write_color(hdr, wgpu::LoadOp::Clear(wgpu::Color::BLACK));
            pass.execute(move |rp, _| {
                rp.set_pipeline(&gpu.sky);
                rp.set_bind_group(0, &gpu.frame_group, &[]);
                rp.draw(0..3, 0..1);
            });
            hdr
        }));
        self.add_stage_passes(StagePoint::AfterSky, frame);

        let depth = frame.graph.create_texture(
            "depth",
            TextureDesc::new_2d(width, height, DEPTH_FORMAT, usage),
        );
        let Some(hdr) = frame.hdr else { return };
        let opaque = &self.opaque_draws;
        let cutout = &self.transparent_draws;
        let (hdr, depth) = frame.graph.add_render_pass("crafty opaque", |pass| {
            let hdr = pass.write_color(hdr, wgpu::LoadOp::Load);
            let depth = pass.write_depth(depth, wgpu::LoadOp::Clear(DEPTH_CLEAR));
            if let Some(atlas) = shadow_atlas {
                pass.read_texture(atlas);
            }
            pass.execute(move |rp, _| {
                rp.set_pipeline(&gpu.opaque);
                rp.set_bind_group(0, &gpu.frame_group, &[]);
                rp.set_bind_group(2, receiver, &[]);
                gpu.chunks.draw(rp, opaque.iter().copied(), Quads::Opaque);
                // The opaque texels of transparent quads (leaves, glass
                // frames), depth written; front to back like the rest.
                rp.set_pipeline(&gpu.cutout);
                gpu.chunks
                    .draw(rp, cutout.iter().rev().copied(), Quads::Transparent);
            });
            (hdr, depth)
        });
        frame.hdr = Some(hdr);
        frame.depth = Some(depth);
        self.add_stage_passes(StagePoint::AfterOpaque, frame);

        let transparent = &self.transparent_draws;
        if let (Some(hdr), Some(depth), false) = (frame.hdr, frame.depth, transparent.is_empty()) {
            frame.hdr = Some(frame.graph.add_render_pass("crafty transparent", |pass| {
                let hdr = pass.write_color(hdr, wgpu::LoadOp::Load);
                pass.read_depth(depth);
                if let Some(atlas) = shadow_atlas {
                    pass.read_texture(atlas);
                }
                pass.execute(move |rp, _| {
                    rp.set_pipeline(&gpu.transparent);
                    rp.set_bind_group(0, &gpu.frame_group, &[]);
                    rp.set_bind_group(2, receiver, &[]);
                    gpu.chunks
                        .draw(rp, transparent.iter().copied(), Quads::Transparent);
                });
                hdr
            }));
        }
        let particles = self.weather_particles;
        if let (Some(hdr), Some(depth), true) = (frame.hdr, frame.depth, particles > 0) {
            frame.hdr = Some(frame.graph.add_render_pass("crafty weather", |pass| {
                let hdr = pass.write_color(hdr, wgpu::LoadOp::Load);
                pass.read_depth(depth);
                pass.execute(move |rp, _| {
                    rp.set_pipeline(&gpu.weather);
                    rp.set_bind_group(0, &gpu.frame_group, &[]);
                    rp.draw(0..6, 0..particles);
                });
                hdr
            }));
        }
        self.add_stage_passes(StagePoint::AfterTransparent, frame);

        if let (Some(hdr), Some(depth), true) = (frame.hdr, frame.depth, self.highlight) {
            frame.hdr = Some(frame.graph.add_render_pass("crafty highlight", |pass| {
                let hdr = pass.write_color(hdr, wgpu::LoadOp::Load);
                pass.read_depth(depth);
                pass.execute(move |rp, _| {
                    rp.set_pipeline(&gpu.outline);
                    rp.set_bind_group(0, &gpu.frame_group, &[]);
                    rp.draw(0..24, 0..1);
                });
                hdr
            }));
        }
        gpu.godrays.add_passes(frame, &gpu.frame_group);
        self.add_stage_passes(StagePoint::BeforeTonemap, frame);
        self.tonemap.add_passes(frame);
    }

    fn destroy(&mut self) {
        self.tonemap.destroy();
        for (_, stage) in &mut self.stages {
            stage.destroy();
        }
        self.gpu = None;
    }
}
