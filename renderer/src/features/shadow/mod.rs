//! Cascaded shadow maps for the sun.
//!
//! Up to four cascades share one depth atlas (2 x 2 tiles of `resolution`
//! texels): one graph pass, one texture, a viewport per cascade. Each cascade
//! draws only the casters that can shadow its box (see `culling`). The
//! forward pass reads the atlas with 3 x 3 PCF.

mod cascades;
mod culling;

use glam::Mat4;

pub use cascades::{MAX_CASCADES, ShadowCascades, fit_cascades};

use crate::GpuContext;
use crate::feature::{FeatureSetup, Frame, RenderFeature};
use crate::frame::DEPTH_FORMAT;
use crate::frame::FrameData;
use crate::graph::{TextureDesc, TextureHandle};
use crate::resources::{Assets, GpuMesh, Vertex};
use culling::CascadeCasters;

/// Uniform stride for dynamic offsets (the alignment every device accepts).
const STRIDE: u64 = 256;

/// The sun's shadow atlas in this frame's graph: the [`ShadowFeature`] puts
/// it in [`Frame::slots`] from `add_passes`; a lit pass reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShadowMap(pub TextureHandle);

/// Renders the sun's shadow cascades into a depth atlas and publishes it as a
/// [`ShadowMap`] in [`Frame::slots`], with the cascade matrices as
/// [`ShadowCascades`] in [`FrameData::slots`].
/// The cascade count, split lambda and distance come from the sun
/// ([`SunLight::cascades`](crate::frame::SunLight::cascades)).
///
/// Casters are the frame's [`shadow`](crate::frame::DrawBuckets::shadow)
/// list (not culled by the camera); each cascade draws those whose bounds
/// overlap its light-space box extended toward the sun.
#[derive(Debug)]
pub struct ShadowFeature {
    /// Texels per cascade tile edge.
    pub resolution: u32,
    gpu: Option<Gpu>,
    staging: Vec<u8>,
    casters: CascadeCasters,
}

#[derive(Debug)]
struct Gpu {
    pipeline: wgpu::RenderPipeline,
    light_buffer: wgpu::Buffer,
    light_group: wgpu::BindGroup,
    draw_layout: wgpu::BindGroupLayout,
    draw_buffer: wgpu::Buffer,
    draw_group: wgpu::BindGroup,
}

impl Default for ShadowFeature {
    fn default() -> Self {
        Self {
            resolution: 1024,
            gpu: None,
            staging: Vec::new(),
            casters: CascadeCasters::default(),
        }
    }
}

impl ShadowFeature {
    /// Caster instances the last frame drew, summed over its cascades (a
    /// caster over two cascades counts twice).
    #[must_use]
    pub fn drawn_casters(&self) -> usize {
        self.casters.drawn()
    }
}

fn dynamic_uniform_layout(device: &wgpu::Device, label: &str) -> wgpu::BindGroupLayout {
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some(label),
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
    })
}

fn matrices(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    count: usize,
    label: &str,
) -> (wgpu::Buffer, wgpu::BindGroup) {
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: count.max(1) as u64 * STRIDE,
        usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some(label),
        layout,
        entries: &[wgpu::BindGroupEntry {
            binding: 0,
            resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                buffer: &buffer,
                offset: 0,
                size: wgpu::BufferSize::new(64),
            }),
        }],
    });
    (buffer, group)
}

/// Writes `matrices` into `staging` at the uniform stride.
fn pack(staging: &mut Vec<u8>, matrices: impl ExactSizeIterator<Item = Mat4>) {
    staging.clear();
    staging.resize(matrices.len() * STRIDE as usize, 0);
    for (i, m) in matrices.enumerate() {
        let at = i * STRIDE as usize;
        staging[at..at + 64].copy_from_slice(bytemuck::bytes_of(&m.to_cols_array()));
    }
}

impl RenderFeature for ShadowFeature {
    fn name(&self) -> &'static str {
        "Shadow"
    }

    fn setup(&mut self, setup: FeatureSetup<'_>) {
        let device = setup.gpu.device();
        let light_layout = dynamic_uniform_layout(device, "shadow light");
        let draw_layout = dynamic_uniform_layout(device, "shadow draw");
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("shadow"),
            bind_group_layouts: &[Some(&light_layout), Some(&draw_layout)],
            immediate_size: 0,
        });
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("shadow.wgsl"),
            source: wgpu::ShaderSource::Wgsl(crate::wgsl!("shadow.wgsl")),
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("shadow"),
            layout: Some(&layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs_main"),
                compilation_options: Default::default(),
                buffers: &[Some(Vertex::LAYOUT)],
            },
            fragment: None,
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: Some(wgpu::DepthStencilState {
                format: DEPTH_FORMAT,
                depth_write_enabled: Some(true),
                depth_compare: Some(wgpu::CompareFunction::LessEqual),
                stencil: wgpu::StencilState::default(),
                bias: wgpu::DepthBiasState {
                    constant: 2,
                    slope_scale: 2.0,
                    clamp: 0.0,
                },
            }),
            multisample: wgpu::MultisampleState::default(),
            multiview_mask: None,
            cache: None,
        });
        let (light_buffer, light_group) =
            matrices(device, &light_layout, MAX_CASCADES, "shadow light");
        let (draw_buffer, draw_group) = matrices(device, &draw_layout, 64, "shadow draws");
        self.gpu = Some(Gpu {
            pipeline,
            light_buffer,
            light_group,
            draw_layout,
            draw_buffer,
            draw_group,
        });
    }

    fn early_update(&mut self, data: &mut FrameData) {
        if let Some(sun) = data.lights.sun.filter(|sun| sun.cast_shadows) {
            let cascades = fit_cascades(
                &data.camera,
                sun.direction,
                &sun.cascades,
                self.resolution.max(1),
            );
            data.slots.insert(cascades);
        }
    }

    fn update(&mut self, data: &FrameData, gpu_ctx: &GpuContext, assets: &Assets) {
        let (Some(gpu), Some(cascades)) = (&mut self.gpu, data.slots.get::<ShadowCascades>())
        else {
            self.casters.clear();
            return;
        };
        let device = gpu_ctx.device();
        pack(&mut self.staging, cascades.view_proj.iter().copied());
        gpu_ctx
            .queue()
            .write_buffer(&gpu.light_buffer, 0, &self.staging);
        let casters = &data.buckets.shadow;
        self.casters.fill(cascades, casters, |mesh| {
            assets.mesh(mesh).map(GpuMesh::bounds)
        });
        if casters.len() as u64 * STRIDE > gpu.draw_buffer.size() {
            let capacity = casters.len().next_power_of_two();
            (gpu.draw_buffer, gpu.draw_group) =
                matrices(device, &gpu.draw_layout, capacity, "shadow draws");
        }
        pack(
            &mut self.staging,
            casters.iter().map(|item| Mat4::from(item.world)),
        );
        if !self.staging.is_empty() {
            gpu_ctx
                .queue()
                .write_buffer(&gpu.draw_buffer, 0, &self.staging);
        }
    }

    fn add_passes<'a>(&'a self, frame: &mut Frame<'a>) {
        let (Some(gpu), Some(cascades)) = (&self.gpu, frame.data.slots.get::<ShadowCascades>())
        else {
            return;
        };
        let tile = cascades.resolution;
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING;
        let atlas = frame.graph.create_texture(
            "shadow atlas",
            TextureDesc::new_2d(tile * 2, tile * 2, DEPTH_FORMAT, usage),
        );
        let casters = &frame.data.buckets.shadow;
        let lists = &self.casters;
        let assets = frame.assets;
        let count = cascades.count;
        let atlas = frame.graph.add_render_pass("shadow cascades", |pass| {
            let atlas = pass.write_depth(atlas, wgpu::LoadOp::Clear(1.0));
            pass.execute(move |rp, _| {
                rp.set_pipeline(&gpu.pipeline);
                for cascade in 0..count {
                    let (x, y) = ((cascade % 2) as u32 * tile, (cascade / 2) as u32 * tile);
                    rp.set_viewport(x as f32, y as f32, tile as f32, tile as f32, 0.0, 1.0);
                    rp.set_scissor_rect(x, y, tile, tile);
                    rp.set_bind_group(0, &gpu.light_group, &[(cascade as u64 * STRIDE) as u32]);
                    for &i in lists.cascade(cascade) {
                        let Some(mesh) = casters
                            .get(i as usize)
                            .and_then(|item| assets.mesh(item.mesh))
                        else {
                            continue;
                        };
                        rp.set_bind_group(1, &gpu.draw_group, &[(i as u64 * STRIDE) as u32]);
                        mesh.draw(rp, 0..1);
                    }
                }
            });
            atlas
        });
        frame.slots.insert(ShadowMap(atlas));
    }
}
