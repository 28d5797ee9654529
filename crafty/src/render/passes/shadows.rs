//! The shadow caster pass: the sun's and moon's shadows on the terrain,
//! cascades fitted by the renderer's [`fit_cascades`], chunk quads drawn
//! into one persistent depth atlas (2 x 2 tiles) with
//! `shaders/shadow_caster.wgsl`.
//!
//! Reads the frame bind group and the resident chunks; writes the shadow
//! atlas (only when the cascades or the chunks changed) and the receivers'
//! uniform, which the lit chunk passes read back through
//! [`SunShadows::receiver_group`] (`shaders/shadows.wgsl`). Draws no HDR.

use std::sync::Mutex;
use taos_engine::renderer::wgpu;

use glam::{Mat4, Vec3};
use taos_engine::renderer::features::DEPTH_FORMAT;
use taos_engine::renderer::features::{MAX_CASCADES, ShadowCascades, fit_cascades};
use taos_engine::renderer::frame::{CameraView, CascadeSettings};
use taos_engine::renderer::graph::{ImportedTexture, RenderGraph, TextureHandle};

use crate::render::chunks::{ChunkStore, Quads, box_in_ortho_volume};
use crate::render::handle::Shadows;
use crate::render::shared::{
    CraftyShader, FrameBindings, FrameInputs, PassSetup, TARGET_USAGE, quad_instances,
};

/// Uniform stride for the casters' dynamic offsets.
const STRIDE: u64 = 256;

/// How far beyond each cascade's box, towards the light, casters still
/// count: a hill this far up-sun shades the near cascade too.
const CASTER_REACH: f32 = 128.0;

/// The light must turn by more than this (radians) before the shadows
/// follow: the atlas is redrawn only when something it shows changed, and
/// the sun crawls a little every frame.
const LIGHT_STEP: f32 = 0.002;

/// Below this height of the light (the sine of its elevation), shadows are
/// off: they would stretch to the horizon, and the light is all but gone.
const MIN_ELEVATION: f32 = 0.03;

/// What was drawn into the atlas: the same cascades over the same chunks
/// need no redraw.
#[derive(Debug, Clone, Copy, PartialEq)]
struct AtlasContents {
    view_proj: [Mat4; MAX_CASCADES],
    count: usize,
    resolution: u32,
    chunks: u64,
}

/// The receivers' uniform; mirrors `ShadowUniform` in `shaders/shadows.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct ShadowUniform {
    cascades: [[f32; 16]; MAX_CASCADES],
    texel: [f32; 4],
    params: [f32; 4],
}

/// The shadow atlas, its caster pipelines, and the bind group the lit chunk
/// pipelines read it through (group 2).
#[derive(Debug)]
pub(crate) struct SunShadows {
    atlas: wgpu::Texture,
    resolution: u32,
    opaque: wgpu::RenderPipeline,
    cutout: wgpu::RenderPipeline,
    cascade_buffer: wgpu::Buffer,
    cascade_group: wgpu::BindGroup,
    /// The layout of the lit chunk pipelines' group 2.
    pub(crate) receiver_layout: wgpu::BindGroupLayout,
    receiver_buffer: wgpu::Buffer,
    sampler: wgpu::Sampler,
    /// What the lit chunk pipelines bind as group 2.
    pub(crate) receiver_group: wgpu::BindGroup,
    /// Cascades in use this frame (0: no shadows).
    count: usize,
    /// The light direction the cascades follow (moved in steps of
    /// [`LIGHT_STEP`]).
    light: Vec3,
    /// What the atlas holds now, written when the shadow pass runs (not
    /// when it is planned: a graph may be built and never run); the atlas
    /// is redrawn when this frame's cascades differ.
    drawn: Mutex<Option<AtlasContents>>,
    /// This frame's cascades over this frame's chunks.
    planned: Option<AtlasContents>,
    /// Whether this frame redraws the atlas.
    redraw: bool,
    /// Per cascade: slots of chunks with opaque quads to draw, then of
    /// chunks with transparent quads.
    opaque_casters: [Vec<u32>; MAX_CASCADES],
    cutout_casters: [Vec<u32>; MAX_CASCADES],
}

/// The bind group layout of the receivers' group 2.
fn receiver_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    let fragment = wgpu::ShaderStages::FRAGMENT;
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("crafty shadow receiver"),
        entries: &[
            wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: fragment,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            },
            wgpu::BindGroupLayoutEntry {
                binding: 1,
                visibility: fragment,
                ty: wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Depth,
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: false,
                },
                count: None,
            },
            wgpu::BindGroupLayoutEntry {
                binding: 2,
                visibility: fragment,
                ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Comparison),
                count: None,
            },
        ],
    })
}

fn atlas_texture(device: &wgpu::Device, resolution: u32) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some("crafty shadow atlas"),
        size: wgpu::Extent3d {
            width: resolution * 2,
            height: resolution * 2,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: DEPTH_FORMAT,
        usage: TARGET_USAGE,
        view_formats: &[],
    })
}

fn receiver_group(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    buffer: &wgpu::Buffer,
    atlas: &wgpu::Texture,
    sampler: &wgpu::Sampler,
) -> wgpu::BindGroup {
    let view = atlas.create_view(&wgpu::TextureViewDescriptor::default());
    device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("crafty shadow receiver"),
        layout,
        entries: &[
            wgpu::BindGroupEntry {
                binding: 0,
                resource: buffer.as_entire_binding(),
            },
            wgpu::BindGroupEntry {
                binding: 1,
                resource: wgpu::BindingResource::TextureView(&view),
            },
            wgpu::BindGroupEntry {
                binding: 2,
                resource: wgpu::BindingResource::Sampler(sampler),
            },
        ],
    })
}

fn caster_pipeline(
    device: &wgpu::Device,
    layout: &wgpu::PipelineLayout,
    module: &wgpu::ShaderModule,
    cutout: bool,
) -> wgpu::RenderPipeline {
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(if cutout {
            "crafty shadow casters (cutout)"
        } else {
            "crafty shadow casters"
        }),
        layout: Some(layout),
        vertex: wgpu::VertexState {
            module,
            entry_point: Some("vs_main"),
            compilation_options: Default::default(),
            buffers: &[Some(quad_instances())],
        },
        fragment: cutout.then(|| wgpu::FragmentState {
            module,
            entry_point: Some("fs_cutout"),
            compilation_options: Default::default(),
            targets: &[],
        }),
        primitive: wgpu::PrimitiveState {
            // Solid blocks cast from their far side: surfaces facing the
            // light lie well in front of what is stored, so they never
            // shadow themselves. Leaves are thin at their holes: both sides.
            cull_mode: (!cutout).then_some(wgpu::Face::Front),
            ..Default::default()
        },
        depth_stencil: Some(wgpu::DepthStencilState {
            format: DEPTH_FORMAT,
            depth_write_enabled: Some(true),
            depth_compare: Some(wgpu::CompareFunction::LessEqual),
            stencil: wgpu::StencilState::default(),
            bias: wgpu::DepthBiasState {
                constant: 2,
                slope_scale: 1.5,
                clamp: 0.0,
            },
        }),
        multisample: wgpu::MultisampleState::default(),
        multiview_mask: None,
        cache: None,
    })
}

impl SunShadows {
    pub(crate) fn new(setup: &PassSetup<'_>) -> Self {
        let device = setup.device;
        let cascade_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("crafty shadow cascade"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::VERTEX,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: true,
                    min_binding_size: wgpu::BufferSize::new(64),
                },
                count: None,
            }],
        });
        let (cascade_buffer, cascade_group) = taos_engine::renderer::resources::uniform_slab(
            device,
            &cascade_layout,
            "crafty shadow cascades",
            STRIDE,
            MAX_CASCADES as u64,
            64,
        );
        let layout = setup.layout(
            "crafty shadow casters",
            &[setup.frame_layout, setup.chunk_layout, &cascade_layout],
        );
        let module = setup.module(CraftyShader::ShadowCasters);
        let receiver_layout = receiver_layout(device);
        let receiver_buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("crafty shadow receiver"),
            size: std::mem::size_of::<ShadowUniform>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("crafty shadow compare"),
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            compare: Some(wgpu::CompareFunction::LessEqual),
            ..Default::default()
        });
        let resolution = Shadows::default().resolution;
        let atlas = atlas_texture(device, resolution);
        let receiver_group =
            receiver_group(device, &receiver_layout, &receiver_buffer, &atlas, &sampler);
        Self {
            atlas,
            resolution,
            opaque: caster_pipeline(device, &layout, &module, false),
            cutout: caster_pipeline(device, &layout, &module, true),
            cascade_buffer,
            cascade_group,
            receiver_layout,
            receiver_buffer,
            sampler,
            receiver_group,
            count: 0,
            light: Vec3::Y,
            drawn: Mutex::new(None),
            planned: None,
            redraw: false,
            opaque_casters: Default::default(),
            cutout_casters: Default::default(),
        }
    }

    /// Fits this frame's cascades (none when the game's settings turn
    /// shadows off or the light is at the horizon), uploads them, and picks
    /// each cascade's casters among the resident chunks.
    pub(crate) fn update(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        camera: &CameraView,
        inputs: &FrameInputs,
        chunks: &ChunkStore,
    ) {
        let towards_light = inputs.light.light_direction;
        let settings = inputs.shadows.sanitized();
        if settings.resolution != self.resolution && settings.cascades > 0 {
            self.resolution = settings.resolution;
            self.atlas = atlas_texture(device, self.resolution);
            self.receiver_group = receiver_group(
                device,
                &self.receiver_layout,
                &self.receiver_buffer,
                &self.atlas,
                &self.sampler,
            );
        }
        let towards_light = towards_light.normalize_or_zero();
        if towards_light.angle_between(self.light) > LIGHT_STEP {
            self.light = towards_light;
        }
        self.redraw = false;
        self.count = if towards_light.y >= MIN_ELEVATION {
            settings.cascades
        } else {
            0
        };
        let mut uniform = ShadowUniform {
            cascades: [Mat4::IDENTITY.to_cols_array(); MAX_CASCADES],
            texel: [0.0; 4],
            params: [0.0; 4],
        };
        if self.count > 0 {
            let cascades = light_cascades(camera, self.light, &settings, self.resolution);
            self.count = cascades.count;
            let contents = AtlasContents {
                view_proj: cascades.view_proj,
                count: self.count,
                resolution: self.resolution,
                chunks: chunks.version(),
            };
            let drawn = *self
                .drawn
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            self.redraw = drawn != Some(contents);
            self.planned = Some(contents);
            let mut staging = vec![0u8; MAX_CASCADES * STRIDE as usize];
            for (i, view_proj) in cascades.view_proj.iter().enumerate().take(self.count) {
                uniform.cascades[i] = view_proj.to_cols_array();
                uniform.texel[i] = texel_size(view_proj, self.resolution);
                if !self.redraw {
                    continue;
                }
                let at = i * STRIDE as usize;
                staging[at..at + 64]
                    .copy_from_slice(bytemuck::bytes_of(&view_proj.to_cols_array()));
                self.opaque_casters[i].clear();
                self.cutout_casters[i].clear();
                for (slot, chunk) in chunks.iter() {
                    if !box_in_ortho_volume(view_proj, chunk.min, chunk.size) {
                        continue;
                    }
                    if chunk.opaque > 0 {
                        self.opaque_casters[i].push(slot);
                    }
                    if chunk.transparent > 0 {
                        self.cutout_casters[i].push(slot);
                    }
                }
            }
            if self.redraw {
                queue.write_buffer(&self.cascade_buffer, 0, &staging);
            }
            let end = cascades.splits[self.count - 1];
            uniform.params = [self.count as f32, end, end * 0.2, self.resolution as f32];
        }
        queue.write_buffer(&self.receiver_buffer, 0, bytemuck::bytes_of(&uniform));
    }

    /// Chunk draws into the atlas this frame, summed over the cascades (0
    /// when the atlas already held this frame's shadows).
    pub(crate) fn caster_draws(&self) -> usize {
        if !self.redraw {
            return 0;
        }
        (0..self.count)
            .map(|i| self.opaque_casters[i].len() + self.cutout_casters[i].len())
            .sum()
    }

    /// Adds the pass that draws this frame's cascades, and returns the atlas
    /// for the lit passes to read; `None` when there are no shadows or the
    /// atlas already holds them.
    pub(crate) fn add_pass<'a>(
        &'a self,
        graph: &mut RenderGraph<'a>,
        bindings: &'a FrameBindings,
        chunks: &'a ChunkStore,
    ) -> Option<TextureHandle> {
        if self.count == 0 || !self.redraw {
            return None;
        }
        let atlas = graph.import_texture(
            "crafty shadow atlas",
            ImportedTexture::new(self.atlas.clone()),
        );
        let tile = self.resolution;
        let atlas = graph.add_render_pass("crafty shadows", |pass| {
            let atlas = pass.write_depth(atlas, wgpu::LoadOp::Clear(1.0));
            pass.execute(move |rp, _| {
                *self
                    .drawn
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner) = self.planned;
                rp.set_bind_group(0, &bindings.group, &[]);
                for cascade in 0..self.count {
                    let (x, y) = ((cascade % 2) as u32 * tile, (cascade / 2) as u32 * tile);
                    rp.set_viewport(x as f32, y as f32, tile as f32, tile as f32, 0.0, 1.0);
                    rp.set_scissor_rect(x, y, tile, tile);
                    rp.set_bind_group(2, &self.cascade_group, &[(cascade as u64 * STRIDE) as u32]);
                    let lists = [
                        (&self.opaque, &self.opaque_casters[cascade], Quads::Opaque),
                        (
                            &self.cutout,
                            &self.cutout_casters[cascade],
                            Quads::Transparent,
                        ),
                    ];
                    for (pipeline, slots, quads) in lists {
                        rp.set_pipeline(pipeline);
                        chunks.draw(rp, slots.iter().copied(), quads);
                    }
                }
            });
            atlas
        });
        Some(atlas)
    }
}

/// The renderer's cascades for a light shining from `towards_light`, each
/// reaching [`CASTER_REACH`] further towards the light than
/// [`fit_cascades`] does, so tall terrain up-sun still casts.
fn light_cascades(
    camera: &CameraView,
    towards_light: Vec3,
    settings: &Shadows,
    resolution: u32,
) -> ShadowCascades {
    let fit = CascadeSettings {
        count: settings.cascades,
        split_lambda: 0.75,
        max_distance: settings.distance,
    };
    let mut cascades = fit_cascades(camera, -towards_light, &fit, resolution);
    for view_proj in cascades.view_proj.iter_mut().take(cascades.count) {
        *view_proj = extend_towards_light(*view_proj, CASTER_REACH);
    }
    cascades
}

/// `view_proj` (orthographic, depth 0..1 from the light) with its near
/// plane moved `reach` blocks further towards the light.
fn extend_towards_light(view_proj: Mat4, reach: f32) -> Mat4 {
    // Depth is linear in world space: its gradient's length is one over the
    // depth range in blocks.
    let gradient = view_proj.row(2).truncate().length();
    if gradient <= f32::EPSILON || !gradient.is_finite() {
        return view_proj;
    }
    let range = 1.0 / gradient;
    let scale = range / (range + reach);
    let remap = Mat4::from_cols_array(&[
        1.0,
        0.0,
        0.0,
        0.0,
        0.0,
        1.0,
        0.0,
        0.0,
        0.0,
        0.0,
        scale,
        0.0,
        0.0,
        0.0,
        1.0 - scale,
        1.0,
    ]);
    remap * view_proj
}

/// The world size of one texel of a cascade `resolution` texels across.
fn texel_size(view_proj: &Mat4, resolution: u32) -> f32 {
    // Clip x spans 2 over the cascade's width.
    let per_block = view_proj.row(0).truncate().length();
    if per_block <= f32::EPSILON || !per_block.is_finite() {
        return 0.0;
    }
    2.0 / (per_block * resolution.max(1) as f32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec4;

    fn camera() -> CameraView {
        let eye = Vec3::new(8.0, 80.0, 8.0);
        let forward = Vec3::new(0.0, -0.3, -1.0).normalize();
        CameraView {
            view: glam::camera::rh::view::look_at_mat4(eye, eye + forward, Vec3::Y),
            projection: glam::camera::rh::proj::directx::perspective(1.2, 1.6, 0.1, 400.0),
            position: eye,
            forward,
            near: 0.1,
            far: 400.0,
        }
    }

    #[test]
    fn cascades_reach_terrain_far_up_sun() {
        let towards_sun = Vec3::new(0.6, 0.5, 0.2).normalize();
        let settings = Shadows::default();
        let cascades = light_cascades(&camera(), towards_sun, &settings, 1024);
        assert_eq!(cascades.count, settings.cascades);
        // A point under the camera, and a caster 100 blocks up-sun of it.
        let ground = Vec3::new(8.0, 70.0, 0.0);
        let caster = ground + towards_sun * 100.0;
        let near = cascades.view_proj[0] * ground.extend(1.0);
        let far = cascades.view_proj[0] * caster.extend(1.0);
        assert!((0.0..=1.0).contains(&near.z), "{near:?}");
        assert!(
            (0.0..near.z).contains(&far.z),
            "the caster is nearer the light and still in range: {far:?}"
        );
    }

    #[test]
    fn extending_keeps_x_y_and_the_far_plane() {
        let view_proj =
            glam::camera::rh::proj::directx::orthographic(-8.0, 8.0, -8.0, 8.0, 0.0, 64.0)
                * glam::camera::rh::view::look_at_mat4(Vec3::Y * 32.0, Vec3::ZERO, Vec3::Z);
        let extended = extend_towards_light(view_proj, 64.0);
        let p = Vec4::new(3.0, -32.0, 1.0, 1.0);
        let (a, b) = (view_proj * p, extended * p);
        assert!((a.x - b.x).abs() < 1e-5 && (a.y - b.y).abs() < 1e-5);
        assert!((b.z - 1.0).abs() < 1e-5, "far plane stays: {b:?}");
        let above = extended * Vec4::new(0.0, 96.0, 0.0, 1.0);
        assert!(above.z.abs() < 1e-4, "the new near plane: {above:?}");
        assert!((texel_size(&view_proj, 1024) - 16.0 / 1024.0).abs() < 1e-6);
    }
}
