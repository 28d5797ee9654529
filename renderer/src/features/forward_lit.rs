//! The forward-lit PBR pass: every opaque item front to back, then every
//! transparent item back to front, lit by the sun and up to eight point and
//! eight spot lights, into the frame's HDR target.

use glam::{Mat4, Vec4};

use super::gpu_util::{
    ONE_TEXEL, sampler_entry, single_texel, texture_entry, uniform_buffer, uniform_entry,
};
use crate::GpuContext;
use crate::feature::{FeatureSetup, Frame, RenderFeature};
use crate::frame::{DEPTH_FORMAT, FrameData, HDR_FORMAT, SortedDraw};
use crate::graph::TextureDesc;
use crate::resources::{Assets, MaterialId, SamplerKind, Vertex};

const MAX_POINTS: usize = 8;
const MAX_SPOTS: usize = 8;
/// Per-draw uniform stride: the dynamic-offset alignment every device accepts.
const DRAW_STRIDE: u64 = 256;

#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct PointUniform {
    position_range: [f32; 4],
    color_intensity: [f32; 4],
}

#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct SpotUniform {
    position_range: [f32; 4],
    direction_inner: [f32; 4],
    color_intensity: [f32; 4],
    outer: [f32; 4],
}

#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct FrameUniform {
    view_proj: [[f32; 4]; 4],
    cascade_view_proj: [[[f32; 4]; 4]; 4],
    cascade_splits: [f32; 4],
    shadow_params: [f32; 4],
    camera_position: [f32; 4],
    camera_forward: [f32; 4],
    sun_direction: [f32; 4],
    sun_color: [f32; 4],
    ambient: [f32; 4],
    counts: [u32; 4],
    points: [PointUniform; MAX_POINTS],
    spots: [SpotUniform; MAX_SPOTS],
}

#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct DrawUniform {
    model: [[f32; 4]; 4],
    normal: [[f32; 4]; 4],
}

/// Draws lit geometry into the HDR target (creating it, cleared to black, if
/// no earlier feature did) and writes the scene depth.
#[derive(Debug)]
pub struct ForwardLitFeature {
    /// Ambient light added to every surface (linear RGB).
    pub ambient: glam::Vec3,
    gpu: Option<Gpu>,
    staging: Vec<u8>,
}

#[derive(Debug)]
struct Gpu {
    opaque: wgpu::RenderPipeline,
    blended: wgpu::RenderPipeline,
    frame_buffer: wgpu::Buffer,
    frame_group: wgpu::BindGroup,
    draw_layout: wgpu::BindGroupLayout,
    draw_buffer: wgpu::Buffer,
    draw_group: wgpu::BindGroup,
    material_layout: wgpu::BindGroupLayout,
    materials: Vec<MaterialBinding>,
    shadow_layout: wgpu::BindGroupLayout,
    shadow_sampler: wgpu::Sampler,
    no_shadow: wgpu::TextureView,
    white: wgpu::TextureView,
    sampler: wgpu::Sampler,
}

#[derive(Debug)]
struct MaterialBinding {
    buffer: wgpu::Buffer,
    group: wgpu::BindGroup,
    texture: Option<crate::resources::TextureId>,
}

impl Default for ForwardLitFeature {
    fn default() -> Self {
        Self {
            ambient: glam::Vec3::splat(0.03),
            gpu: None,
            staging: Vec::new(),
        }
    }
}

impl ForwardLitFeature {
    /// The feature with a dim default ambient.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }
}

impl RenderFeature for ForwardLitFeature {
    fn name(&self) -> &'static str {
        "ForwardLit"
    }

    fn setup(&mut self, setup: FeatureSetup<'_>) {
        let device = setup.gpu.device();
        let both = wgpu::ShaderStages::VERTEX_FRAGMENT;
        let frame_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("forward frame"),
            entries: &[uniform_entry(0, false, both)],
        });
        let draw_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("forward draw"),
            entries: &[uniform_entry(0, true, wgpu::ShaderStages::VERTEX)],
        });
        let material_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("forward material"),
            entries: &[
                uniform_entry(0, false, wgpu::ShaderStages::FRAGMENT),
                texture_entry(1, wgpu::TextureSampleType::Float { filterable: true }),
                sampler_entry(2, wgpu::SamplerBindingType::Filtering),
            ],
        });
        let shadow_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("forward shadow"),
            entries: &[
                texture_entry(0, wgpu::TextureSampleType::Depth),
                sampler_entry(1, wgpu::SamplerBindingType::Comparison),
            ],
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("forward lit"),
            bind_group_layouts: &[
                Some(&frame_layout),
                Some(&draw_layout),
                Some(&material_layout),
                Some(&shadow_layout),
            ],
            immediate_size: 0,
        });
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("forward_lit.wgsl"),
            source: wgpu::ShaderSource::Wgsl(include_str!("forward_lit.wgsl").into()),
        });
        let pipeline = |label, blend, depth_write| {
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(label),
                layout: Some(&layout),
                vertex: wgpu::VertexState {
                    module: &module,
                    entry_point: Some("vs_main"),
                    compilation_options: Default::default(),
                    buffers: &[Some(Vertex::LAYOUT)],
                },
                fragment: Some(wgpu::FragmentState {
                    module: &module,
                    entry_point: Some("fs_main"),
                    compilation_options: Default::default(),
                    targets: &[Some(wgpu::ColorTargetState {
                        format: HDR_FORMAT,
                        blend,
                        write_mask: wgpu::ColorWrites::ALL,
                    })],
                }),
                primitive: wgpu::PrimitiveState {
                    cull_mode: Some(wgpu::Face::Back),
                    ..Default::default()
                },
                depth_stencil: Some(wgpu::DepthStencilState {
                    format: DEPTH_FORMAT,
                    depth_write_enabled: Some(depth_write),
                    depth_compare: Some(wgpu::CompareFunction::Less),
                    stencil: wgpu::StencilState::default(),
                    bias: wgpu::DepthBiasState::default(),
                }),
                multisample: wgpu::MultisampleState::default(),
                multiview_mask: None,
                cache: None,
            })
        };
        let opaque = pipeline("forward lit opaque", None, true);
        let blended = pipeline(
            "forward lit blended",
            Some(wgpu::BlendState::ALPHA_BLENDING),
            false,
        );
        let frame_buffer = uniform_buffer(
            device,
            "forward frame uniform",
            std::mem::size_of::<FrameUniform>(),
        );
        let frame_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("forward frame"),
            layout: &frame_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: frame_buffer.as_entire_binding(),
            }],
        });
        let (draw_buffer, draw_group) = draw_storage(device, &draw_layout, 64);
        let white = single_texel(
            device,
            "white",
            wgpu::TextureFormat::Rgba8UnormSrgb,
            wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
        );
        setup.gpu.queue().write_texture(
            white.as_image_copy(),
            &[255; 4],
            wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(4),
                rows_per_image: Some(1),
            },
            ONE_TEXEL,
        );
        let no_shadow = single_texel(
            device,
            "no shadow",
            DEPTH_FORMAT,
            wgpu::TextureUsages::TEXTURE_BINDING,
        );
        self.gpu = Some(Gpu {
            shadow_layout,
            shadow_sampler: SamplerKind::ShadowCompare.create(device),
            no_shadow: no_shadow.create_view(&wgpu::TextureViewDescriptor::default()),
            opaque,
            blended,
            frame_buffer,
            frame_group,
            draw_layout,
            draw_buffer,
            draw_group,
            material_layout,
            materials: Vec::new(),
            white: white.create_view(&wgpu::TextureViewDescriptor::default()),
            sampler: SamplerKind::LinearRepeat.create(device),
        });
    }

    fn update(&mut self, data: &FrameData, gpu_ctx: &GpuContext, assets: &Assets) {
        let Some(gpu) = &mut self.gpu else { return };
        let device = gpu_ctx.device();
        let queue = gpu_ctx.queue();
        queue.write_buffer(
            &gpu.frame_buffer,
            0,
            bytemuck::bytes_of(&frame_uniform(data, self.ambient)),
        );

        let draws = data.buckets.opaque.len() + data.buckets.transparent.len();
        if draws as u64 * DRAW_STRIDE > gpu.draw_buffer.size() {
            let capacity = draws.next_power_of_two().max(64);
            (gpu.draw_buffer, gpu.draw_group) = draw_storage(device, &gpu.draw_layout, capacity);
        }
        self.staging.clear();
        self.staging.resize(draws * DRAW_STRIDE as usize, 0);
        let sorted = data.buckets.opaque.iter().chain(&data.buckets.transparent);
        for (i, draw) in sorted.enumerate() {
            let model = Mat4::from(draw.item.world);
            let normal = model.inverse().transpose();
            let uniform = DrawUniform {
                model: model.to_cols_array_2d(),
                normal: normal.to_cols_array_2d(),
            };
            let at = i * DRAW_STRIDE as usize;
            self.staging[at..at + std::mem::size_of::<DrawUniform>()]
                .copy_from_slice(bytemuck::bytes_of(&uniform));
        }
        if !self.staging.is_empty() {
            queue.write_buffer(&gpu.draw_buffer, 0, &self.staging);
        }

        for index in 0..assets.material_count() {
            let id = MaterialId(index as u32);
            let Some(material) = assets.material(id) else {
                continue;
            };
            let texture = material
                .base_color_texture
                .filter(|t| assets.texture(*t).is_some());
            if gpu
                .materials
                .get(index)
                .is_none_or(|m| m.texture != texture)
            {
                let binding = material_binding(gpu, device, assets, texture);
                if index < gpu.materials.len() {
                    gpu.materials[index] = binding;
                } else {
                    gpu.materials.push(binding);
                }
            }
            queue.write_buffer(
                &gpu.materials[index].buffer,
                0,
                bytemuck::bytes_of(&material.uniform()),
            );
        }
    }

    fn add_passes<'a>(&'a self, frame: &mut Frame<'a>) {
        let Some(gpu) = &self.gpu else { return };
        let (width, height) = frame.data.size;
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING;
        let (hdr, load) = match frame.hdr {
            Some(hdr) => (hdr, wgpu::LoadOp::Load),
            None => (
                frame
                    .graph
                    .create_texture("hdr", TextureDesc::new_2d(width, height, HDR_FORMAT, usage)),
                wgpu::LoadOp::Clear(wgpu::Color::BLACK),
            ),
        };
        let depth = frame.graph.create_texture(
            "depth",
            TextureDesc::new_2d(width, height, DEPTH_FORMAT, usage),
        );
        let buckets = &frame.data.buckets;
        let assets = frame.assets;
        let shadow_map = frame.slots.get::<super::ShadowMap>().map(|map| map.0);
        let (hdr, depth) = frame.graph.add_render_pass("forward lit", |pass| {
            let hdr = pass.write_color(hdr, load);
            let depth = pass.write_depth(depth, wgpu::LoadOp::Clear(1.0));
            if let Some(shadow_map) = shadow_map {
                pass.read_texture(shadow_map);
            }
            pass.execute(move |rp, res| {
                let atlas = shadow_map
                    .and_then(|map| res.texture_view(map))
                    .unwrap_or(&gpu.no_shadow);
                let shadow_group = res.device().create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("forward shadow"),
                    layout: &gpu.shadow_layout,
                    entries: &[
                        wgpu::BindGroupEntry {
                            binding: 0,
                            resource: wgpu::BindingResource::TextureView(atlas),
                        },
                        wgpu::BindGroupEntry {
                            binding: 1,
                            resource: wgpu::BindingResource::Sampler(&gpu.shadow_sampler),
                        },
                    ],
                });
                rp.set_bind_group(0, &gpu.frame_group, &[]);
                rp.set_bind_group(3, &shadow_group, &[]);
                let opaque = buckets.opaque.len();
                rp.set_pipeline(&gpu.opaque);
                draw_all(rp, gpu, assets, &buckets.opaque, 0);
                rp.set_pipeline(&gpu.blended);
                draw_all(rp, gpu, assets, &buckets.transparent, opaque);
            });
            (hdr, depth)
        });
        frame.hdr = Some(hdr);
        frame.depth = Some(depth);
    }
}

fn draw_all(
    rp: &mut wgpu::RenderPass<'_>,
    gpu: &Gpu,
    assets: &Assets,
    draws: &[SortedDraw],
    first: usize,
) {
    for (i, draw) in draws.iter().enumerate() {
        let (Some(mesh), Some(material)) = (
            assets.mesh(draw.item.mesh),
            gpu.materials.get(draw.item.material.0 as usize),
        ) else {
            continue;
        };
        let offset = ((first + i) as u64 * DRAW_STRIDE) as u32;
        rp.set_bind_group(1, &gpu.draw_group, &[offset]);
        rp.set_bind_group(2, &material.group, &[]);
        mesh.draw(rp, 0..1);
    }
}

fn draw_storage(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    capacity: usize,
) -> (wgpu::Buffer, wgpu::BindGroup) {
    let window = std::mem::size_of::<DrawUniform>() as u64;
    crate::resources::uniform_slab(
        device,
        layout,
        "forward draw uniforms",
        DRAW_STRIDE,
        capacity as u64,
        window,
    )
}

fn material_binding(
    gpu: &Gpu,
    device: &wgpu::Device,
    assets: &Assets,
    texture: Option<crate::resources::TextureId>,
) -> MaterialBinding {
    let buffer = uniform_buffer(
        device,
        "material uniform",
        std::mem::size_of::<crate::resources::MaterialUniform>(),
    );
    let view = texture
        .and_then(|t| assets.texture(t))
        .map_or(&gpu.white, |t| t.view());
    let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("material"),
        layout: &gpu.material_layout,
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: buffer.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: wgpu::BindingResource::TextureView(view),
            },
            wgpu::BindGroupEntry {
                binding: 2,
                resource: wgpu::BindingResource::Sampler(&gpu.sampler),
            },
        ],
    });
    MaterialBinding {
        buffer,
        group,
        texture,
    }
}

fn frame_uniform(data: &FrameData, ambient: glam::Vec3) -> FrameUniform {
    let camera = &data.camera;
    let lights = &data.lights;
    let mut points = [PointUniform::zeroed(); MAX_POINTS];
    for (slot, light) in points.iter_mut().zip(&lights.points) {
        *slot = PointUniform {
            position_range: light.position.extend(light.range).to_array(),
            color_intensity: light.color.extend(light.intensity).to_array(),
        };
    }
    let mut spots = [SpotUniform::zeroed(); MAX_SPOTS];
    for (slot, light) in spots.iter_mut().zip(&lights.spots) {
        *slot = SpotUniform {
            position_range: light.position.extend(light.range).to_array(),
            direction_inner: light
                .direction
                .normalize_or_zero()
                .extend(light.inner_cos)
                .to_array(),
            color_intensity: light.color.extend(light.intensity).to_array(),
            outer: [light.outer_cos, 0.0, 0.0, 0.0],
        };
    }
    let (sun_direction, sun_color) = match lights.sun {
        Some(sun) => (
            sun.direction.normalize_or(glam::Vec3::NEG_Y).extend(1.0),
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
    FrameUniform {
        view_proj: (camera.projection * camera.view).to_cols_array_2d(),
        cascade_view_proj,
        cascade_splits,
        shadow_params,
        camera_position: camera.position.extend(1.0).to_array(),
        camera_forward: camera.forward.extend(0.0).to_array(),
        sun_direction: sun_direction.to_array(),
        sun_color: sun_color.to_array(),
        ambient: ambient.extend(0.0).to_array(),
        counts: [
            lights.points.len().min(MAX_POINTS) as u32,
            lights.spots.len().min(MAX_SPOTS) as u32,
            0,
            0,
        ],
        points,
        spots,
    }
}

use bytemuck::Zeroable as _;
