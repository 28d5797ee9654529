//! What the lit passes (forward and forward-plus) share: the frame uniform,
//! the light array, material bind groups, the shadow binding, instanced
//! batches, the common WGSL (frame, BRDF, shadow, mesh), and pipeline
//! construction. The deferred features share it too.

mod instances;
mod lights;
mod materials;
mod msaa;

use glam::{Mat4, Vec3, Vec4};

pub(crate) use instances::{Batch, Batches, INSTANCE_LAYOUT};
pub(crate) use lights::{GpuLight, LightBuffer, pack_lights};
pub use lights::{LightBinding, UNIFORM_LIGHT_CAP};
use materials::MaterialBindings;
pub(crate) use msaa::MsaaResolve;
pub use msaa::supported_msaa_samples;

use super::AmbientLight;
use super::gpu_util::{
    cube_entry, sampler_entry, single_texel, texture_entry, uniform_buffer, uniform_entry,
};
use super::ibl::{Environment, NoEnvironment};
use crate::Frame;
use crate::GpuContext;
use crate::frame::{
    DEPTH_FORMAT, DEPTH_NEARER, DEPTH_NEARER_OR_EQUAL, FrameData, GBUFFER_FORMAT, HDR_FORMAT,
};
use crate::graph::{PassResources, TextureDesc, TextureHandle};
use crate::resources::{Assets, SamplerKind, Vertex};

/// The WGSL of one point or spot light (`GpuLight`).
pub(crate) fn light_wgsl() -> std::borrow::Cow<'static, str> {
    crate::wgsl!("light.wgsl")
}
/// The frame uniform (`@group(0)`).
fn frame_wgsl() -> std::borrow::Cow<'static, str> {
    crate::wgsl!("frame.wgsl")
}
/// The BRDF and one point/spot light's contribution.
fn brdf_wgsl() -> std::borrow::Cow<'static, str> {
    crate::wgsl!("brdf.wgsl")
}
/// The sun's cascaded shadow (`@group(2)`) and light.
fn shadow_wgsl() -> std::borrow::Cow<'static, str> {
    crate::wgsl!("shadow.wgsl")
}
/// Image-based lighting (`@group(2)` too) and the ambient term.
fn environment_wgsl() -> std::borrow::Cow<'static, str> {
    crate::wgsl!("environment.wgsl")
}
/// Meshes with materials (`@group(1)`): the vertex stage and surfaces.
fn mesh_wgsl() -> std::borrow::Cow<'static, str> {
    crate::wgsl!("mesh.wgsl")
}

/// A lit mesh shader: the light struct and declaration for `binding`, the
/// frame uniform, the BRDF, the sun's shadow, the mesh and material code,
/// then `main`.
pub(crate) fn shader_source(binding: LightBinding, main: &str) -> String {
    let mut source = lighting_source(binding, "");
    source.push_str(&mesh_wgsl());
    source.push_str(main);
    source
}

/// A lit shader that draws no meshes (a full-screen lighting pass): the
/// light struct and declaration, the frame uniform, the BRDF and the sun's
/// shadow, then `main`, which declares its own `@group(1)`.
pub(crate) fn lighting_source(binding: LightBinding, main: &str) -> String {
    let mut source = String::from(light_wgsl());
    source.push_str(&binding.declaration());
    for part in [
        &*frame_wgsl(),
        &brdf_wgsl(),
        &shadow_wgsl(),
        &environment_wgsl(),
        main,
    ] {
        source.push_str(part);
    }
    source
}

/// The frame uniform of the lit shaders (`FrameUniform` in `frame.wgsl`).
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct FrameUniform {
    view_proj: [[f32; 4]; 4],
    inverse_view_proj: [[f32; 4]; 4],
    cascade_view_proj: [[[f32; 4]; 4]; 4],
    cascade_splits: [f32; 4],
    shadow_params: [f32; 4],
    camera_position: [f32; 4],
    camera_forward: [f32; 4],
    sun_direction: [f32; 4],
    sun_color: [f32; 4],
    ambient: [f32; 4],
    ambient_ground: [f32; 4],
    counts: [u32; 4],
}

/// The screen-tile layout the forward-plus shading reads (zero elsewhere).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct TileParams {
    pub(crate) size: u32,
    pub(crate) across: u32,
    pub(crate) per_tile: u32,
}

/// How a lit pipeline draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PipelineKind {
    /// Opaque, depth tested and written.
    Opaque,
    /// Alpha blended, depth tested, not written.
    Blended,
    /// Depth only (a pre-pass), alpha-masked texels cut out.
    DepthOnly,
    /// Opaque over a depth pre-pass: `LessEqual`, no depth write.
    AfterPrepass,
    /// Opaque into the G-buffer ([`GBUFFER_FORMAT`]), depth written.
    GBuffer,
}

/// GPU state shared by a lit feature's pipelines.
#[derive(Debug)]
pub(crate) struct LitGpu {
    frame_layout: wgpu::BindGroupLayout,
    frame_buffer: wgpu::Buffer,
    frame_group: wgpu::BindGroup,
    lights: LightBuffer,
    materials: MaterialBindings,
    shadow_layout: wgpu::BindGroupLayout,
    shadow_sampler: wgpu::Sampler,
    no_shadow: wgpu::TextureView,
    no_environment: NoEnvironment,
    environment_sampler: wgpu::Sampler,
    batches: Batches,
}

impl LitGpu {
    pub(crate) fn new(gpu: &GpuContext, binding: LightBinding) -> Self {
        let device = gpu.device();
        let frame_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("lit frame"),
            entries: &[
                uniform_entry(0, false, wgpu::ShaderStages::VERTEX_FRAGMENT),
                binding.layout_entry(1, wgpu::ShaderStages::FRAGMENT),
            ],
        });
        let shadow_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("lit shadow and environment"),
            entries: &[
                texture_entry(0, wgpu::TextureSampleType::Depth),
                sampler_entry(1, wgpu::SamplerBindingType::Comparison),
                cube_entry(2),
                cube_entry(3),
                texture_entry(4, wgpu::TextureSampleType::Float { filterable: true }),
                sampler_entry(5, wgpu::SamplerBindingType::Filtering),
                uniform_entry(6, false, wgpu::ShaderStages::FRAGMENT),
            ],
        });
        let frame_buffer = uniform_buffer(
            device,
            "lit frame uniform",
            std::mem::size_of::<FrameUniform>(),
        );
        let lights = LightBuffer::new(device, binding);
        let frame_group = frame_group(device, &frame_layout, &frame_buffer, &lights);
        let no_shadow = single_texel(
            device,
            "no shadow",
            DEPTH_FORMAT,
            wgpu::TextureUsages::TEXTURE_BINDING,
        );
        Self {
            frame_group,
            frame_layout,
            frame_buffer,
            lights,
            materials: MaterialBindings::new(device, gpu.queue()),
            shadow_layout,
            shadow_sampler: SamplerKind::ShadowCompare.create(device),
            no_shadow: no_shadow.create_view(&wgpu::TextureViewDescriptor::default()),
            no_environment: NoEnvironment::new(device),
            environment_sampler: SamplerKind::LinearClamp.create(device),
            batches: Batches::new(),
        }
    }

    /// The light array (count, what was dropped, the buffer).
    pub(crate) fn lights(&self) -> &LightBuffer {
        &self.lights
    }

    /// This frame's draw batches.
    pub(crate) fn batches(&self) -> &Batches {
        &self.batches
    }

    /// Turns instancing on or off (on by default).
    pub(crate) fn set_instancing(&mut self, on: bool) {
        self.batches.instancing = on;
    }

    /// Uploads the frame uniform, the lights, the materials and the batches.
    pub(crate) fn update(
        &mut self,
        data: &FrameData,
        gpu: &GpuContext,
        assets: &Assets,
        ambient: AmbientLight,
        tiles: TileParams,
    ) {
        self.update_frame(data, gpu, ambient, tiles);
        let (device, queue) = (gpu.device(), gpu.queue());
        self.materials.update(device, queue, assets);
        self.batches.update(&data.buckets, device, queue);
    }

    /// Uploads the frame uniform and the lights only (a full-screen pass
    /// that draws no meshes).
    pub(crate) fn update_frame(
        &mut self,
        data: &FrameData,
        gpu: &GpuContext,
        ambient: AmbientLight,
        tiles: TileParams,
    ) {
        let (device, queue) = (gpu.device(), gpu.queue());
        if self.lights.upload(device, queue, &data.lights) {
            self.frame_group =
                frame_group(device, &self.frame_layout, &self.frame_buffer, &self.lights);
        }
        let uniform = frame_uniform(data, ambient.sanitized(), self.lights.count() as u32, tiles);
        queue.write_buffer(&self.frame_buffer, 0, bytemuck::bytes_of(&uniform));
    }

    /// The layout of a depth-only pipeline: frame and material groups.
    pub(crate) fn depth_layout(&self, device: &wgpu::Device) -> wgpu::PipelineLayout {
        device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("lit depth"),
            bind_group_layouts: &[Some(&self.frame_layout), Some(self.materials.layout())],
            immediate_size: 0,
        })
    }

    /// The frame group (uniform and lights) alone, for a depth pre-pass.
    pub(crate) fn bind_frame_only(&self, rp: &mut wgpu::RenderPass<'_>) {
        rp.set_bind_group(0, &self.frame_group, &[]);
    }

    /// A pipeline layout: frame, material, shadow, then the `extra` group.
    pub(crate) fn pipeline_layout(
        &self,
        device: &wgpu::Device,
        extra: Option<&wgpu::BindGroupLayout>,
    ) -> wgpu::PipelineLayout {
        device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("lit"),
            bind_group_layouts: &[
                Some(&self.frame_layout),
                Some(self.materials.layout()),
                Some(&self.shadow_layout),
                extra,
            ],
            immediate_size: 0,
        })
    }

    /// The bind group of the shadow atlas (or a fully lit stand-in) and
    /// the baked environment (or stand-ins that switch it off).
    pub(crate) fn shadow_group(
        &self,
        res: &PassResources<'_>,
        shadow_map: Option<TextureHandle>,
        environment: Option<&Environment>,
    ) -> wgpu::BindGroup {
        let atlas = shadow_map
            .and_then(|map| res.texture_view(map))
            .unwrap_or(&self.no_shadow);
        let environment = environment.unwrap_or(&self.no_environment.0);
        let view = |binding, view| wgpu::BindGroupEntry {
            binding,
            resource: wgpu::BindingResource::TextureView(view),
        };
        let sampler = |binding, sampler| wgpu::BindGroupEntry {
            binding,
            resource: wgpu::BindingResource::Sampler(sampler),
        };
        res.device().create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("lit shadow and environment"),
            layout: &self.shadow_layout,
            entries: &[
                view(0, atlas),
                sampler(1, &self.shadow_sampler),
                view(2, &environment.irradiance),
                view(3, &environment.specular),
                view(4, &environment.brdf),
                sampler(5, &self.environment_sampler),
                wgpu::BindGroupEntry {
                    binding: 6,
                    resource: environment.params.as_entire_binding(),
                },
            ],
        })
    }

    /// A full-screen pipeline layout: frame, `surface` (in place of the
    /// material group), shadow and environment, then the `extra` group.
    pub(crate) fn fullscreen_layout(
        &self,
        device: &wgpu::Device,
        surface: &wgpu::BindGroupLayout,
        extra: Option<&wgpu::BindGroupLayout>,
    ) -> wgpu::PipelineLayout {
        device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("lit full-screen"),
            bind_group_layouts: &[
                Some(&self.frame_layout),
                Some(surface),
                Some(&self.shadow_layout),
                extra,
            ],
            immediate_size: 0,
        })
    }

    /// Binds the frame group (0) and the shadow group (2).
    pub(crate) fn bind_frame(&self, rp: &mut wgpu::RenderPass<'_>, shadow: &wgpu::BindGroup) {
        rp.set_bind_group(0, &self.frame_group, &[]);
        rp.set_bind_group(2, shadow, &[]);
    }

    /// Draws `batches` with `pipelines` (the back-face-culled one, or the
    /// double-sided one for materials that show both faces), setting the
    /// material group 1 per batch.
    pub(crate) fn draw(
        &self,
        rp: &mut wgpu::RenderPass<'_>,
        assets: &Assets,
        batches: &[Batch],
        pipelines: &LitPipeline,
    ) {
        let Some(instances) = self.batches.buffer() else {
            return;
        };
        rp.set_vertex_buffer(1, instances.slice(..));
        let mut bound: Option<bool> = None;
        for batch in batches {
            let (Some(mesh), Some(material)) = (
                assets.mesh(batch.mesh),
                self.materials.group(batch.material),
            ) else {
                continue;
            };
            let double_sided = self.materials.double_sided(batch.material);
            if bound != Some(double_sided) {
                rp.set_pipeline(pipelines.for_faces(double_sided));
                bound = Some(double_sided);
            }
            rp.set_bind_group(1, material, &[]);
            mesh.draw(rp, batch.instances.clone());
        }
    }
}

/// The frame's HDR target to draw into and how to load it: the one an
/// earlier feature (the sky) made, kept; or a new one, cleared to black.
pub(crate) fn hdr_target(frame: &mut Frame<'_>) -> (TextureHandle, wgpu::LoadOp<wgpu::Color>) {
    if let Some(hdr) = frame.hdr {
        return (hdr, wgpu::LoadOp::Load);
    }
    let (width, height) = frame.data.size;
    let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING;
    let desc = TextureDesc::new_2d(width, height, HDR_FORMAT, usage);
    (
        frame.graph.create_texture("hdr", desc),
        wgpu::LoadOp::Clear(wgpu::Color::BLACK),
    )
}

fn frame_group(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    frame: &wgpu::Buffer,
    lights: &LightBuffer,
) -> wgpu::BindGroup {
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("lit frame"),
        layout,
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: frame.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: lights.buffer().as_entire_binding(),
            },
        ],
    })
}

/// A lit pipeline in its two face modes: back faces culled (the usual), and
/// both faces drawn, for double-sided materials.
#[derive(Debug)]
pub(crate) struct LitPipeline {
    culled: wgpu::RenderPipeline,
    double_sided: wgpu::RenderPipeline,
}

impl LitPipeline {
    /// The pipeline for a material that shows both faces or only the front.
    pub(crate) fn for_faces(&self, double_sided: bool) -> &wgpu::RenderPipeline {
        if double_sided {
            &self.double_sided
        } else {
            &self.culled
        }
    }
}

/// A lit render pipeline of `kind` from `module`'s `vs_main` and its
/// fragment entry point `fragment`, drawing `samples` samples per pixel, in
/// both face modes.
pub(crate) fn lit_pipeline(
    device: &wgpu::Device,
    label: &str,
    layout: &wgpu::PipelineLayout,
    shader: (&wgpu::ShaderModule, &str),
    kind: PipelineKind,
    samples: u32,
) -> LitPipeline {
    let faces =
        |cull_mode| lit_pipeline_faces(device, label, layout, shader, kind, samples, cull_mode);
    LitPipeline {
        culled: faces(Some(wgpu::Face::Back)),
        double_sided: faces(None),
    }
}

fn lit_pipeline_faces(
    device: &wgpu::Device,
    label: &str,
    layout: &wgpu::PipelineLayout,
    (module, fragment): (&wgpu::ShaderModule, &str),
    kind: PipelineKind,
    samples: u32,
    cull_mode: Option<wgpu::Face>,
) -> wgpu::RenderPipeline {
    let color = [Some(wgpu::ColorTargetState {
        format: if kind == PipelineKind::GBuffer {
            GBUFFER_FORMAT
        } else {
            HDR_FORMAT
        },
        blend: (kind == PipelineKind::Blended).then_some(wgpu::BlendState::ALPHA_BLENDING),
        write_mask: wgpu::ColorWrites::ALL,
    })];
    let targets: &[Option<wgpu::ColorTargetState>] = match kind {
        PipelineKind::DepthOnly => &[],
        _ => &color,
    };
    let (depth_write, compare) = match kind {
        PipelineKind::Opaque | PipelineKind::DepthOnly | PipelineKind::GBuffer => {
            (true, DEPTH_NEARER)
        }
        PipelineKind::Blended => (false, DEPTH_NEARER),
        PipelineKind::AfterPrepass => (false, DEPTH_NEARER_OR_EQUAL),
    };
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(label),
        layout: Some(layout),
        vertex: wgpu::VertexState {
            module,
            entry_point: Some("vs_main"),
            compilation_options: Default::default(),
            buffers: &[Some(Vertex::LAYOUT), Some(INSTANCE_LAYOUT)],
        },
        fragment: Some(wgpu::FragmentState {
            module,
            entry_point: Some(fragment),
            compilation_options: Default::default(),
            targets,
        }),
        primitive: wgpu::PrimitiveState {
            cull_mode,
            ..Default::default()
        },
        depth_stencil: Some(wgpu::DepthStencilState {
            format: DEPTH_FORMAT,
            depth_write_enabled: Some(depth_write),
            depth_compare: Some(compare),
            stencil: wgpu::StencilState::default(),
            bias: wgpu::DepthBiasState::default(),
        }),
        multisample: wgpu::MultisampleState {
            count: samples,
            ..Default::default()
        },
        multiview_mask: None,
        cache: None,
    })
}

fn frame_uniform(
    data: &FrameData,
    ambient: AmbientLight,
    lights: u32,
    tiles: TileParams,
) -> FrameUniform {
    let camera = &data.camera;
    let (sun_direction, sun_color) = match data.lights.sun {
        Some(sun) => (
            sun.direction.normalize_or(Vec3::NEG_Y).extend(1.0),
            (sun.color * sun.intensity).extend(0.0),
        ),
        None => (Vec4::ZERO, Vec4::ZERO),
    };
    let (cascade_view_proj, cascade_splits, shadow_params) =
        match data.slots.get::<super::ShadowCascades>() {
            Some(c) => (
                c.view_proj.map(|m| m.to_cols_array_2d()),
                c.splits,
                [c.count as f32, 1.0 / (2.0 * c.resolution as f32), 0.0, 0.0],
            ),
            None => ([Mat4::IDENTITY.to_cols_array_2d(); 4], [0.0; 4], [0.0; 4]),
        };
    let view_proj = camera.depth_view_proj();
    FrameUniform {
        view_proj: view_proj.to_cols_array_2d(),
        inverse_view_proj: view_proj.inverse().to_cols_array_2d(),
        cascade_view_proj,
        cascade_splits,
        shadow_params,
        camera_position: camera.position.extend(1.0).to_array(),
        camera_forward: camera.forward.extend(0.0).to_array(),
        sun_direction: sun_direction.to_array(),
        sun_color: sun_color.to_array(),
        ambient: ambient.sky.extend(0.0).to_array(),
        ambient_ground: ambient.ground.extend(0.0).to_array(),
        counts: [lights, tiles.size, tiles.across, tiles.per_tile],
    }
}
