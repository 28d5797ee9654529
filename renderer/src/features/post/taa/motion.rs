//! Motion vectors for the items that moved: one pass that draws only them,
//! each with this frame's and the last frame's transform, into a velocity
//! target the resolve reads. Static surfaces need no draw: the resolve
//! reprojects them from depth and the camera's motion. A frame in which
//! nothing moved records no motion pass at all.
//!
//! Deformed instances (skinned or morphing) are drawn every frame they were
//! posed, with their previous frame's vertices as the previous positions:
//! a waving arm leaves no trail even when its object stands still. Rigid
//! meshes bind their own vertices there.

use glam::Mat4;

use crate::GpuContext;
use crate::features::gpu_util::{uniform_buffer, uniform_entry};
use crate::frame::{DEPTH_FORMAT, DEPTH_NEARER_OR_EQUAL, DrawBuckets};
use crate::resources::{Assets, MeshId, Vertex};

/// Format of the motion target: uv velocity in `rg`, `a` = 1 where a moved
/// item is now, `b` = 1 where one was the frame before.
pub(super) const MOTION_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;

/// One moved item: its transform now and the frame before.
#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct MotionInstance {
    model: [[f32; 4]; 4],
    previous: [[f32; 4]; 4],
}

const MOTION_INSTANCE_LAYOUT: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {
    array_stride: std::mem::size_of::<MotionInstance>() as wgpu::BufferAddress,
    step_mode: wgpu::VertexStepMode::Instance,
    attributes: &wgpu::vertex_attr_array![
        3 => Float32x4, 4 => Float32x4, 5 => Float32x4, 6 => Float32x4,
        7 => Float32x4, 8 => Float32x4, 9 => Float32x4, 10 => Float32x4
    ],
};

/// The previous frame's positions, read from the same 72-byte vertices at location 11.
const PREVIOUS_POSITION_LAYOUT: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {
    array_stride: std::mem::size_of::<Vertex>() as wgpu::BufferAddress,
    step_mode: wgpu::VertexStepMode::Vertex,
    attributes: &wgpu::vertex_attr_array![11 => Float32x3],
};

#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct MotionUniform {
    view_proj: [[f32; 4]; 4],
    current: [[f32; 4]; 4],
    previous: [[f32; 4]; 4],
}

/// The three matrices the motion pass projects with.
#[derive(Debug, Clone, Copy)]
pub(super) struct MotionCameras {
    /// World-to-clip as the lit passes rasterise (jittered, reversed Z).
    pub(super) rasterised: Mat4,
    /// This frame's world-to-clip without jitter.
    pub(super) current: Mat4,
    /// The last frame's world-to-clip without jitter.
    pub(super) previous: Mat4,
}

/// The motion pass's pipeline, uniform and per-frame instances.
#[derive(Debug)]
pub(super) struct MotionVectors {
    pipeline: wgpu::RenderPipeline,
    uncovered: wgpu::RenderPipeline,
    uniform: wgpu::Buffer,
    group: wgpu::BindGroup,
    instances: Option<wgpu::Buffer>,
    draws: Vec<MeshId>,
    staging: Vec<MotionInstance>,
}

impl MotionVectors {
    pub(super) fn new(device: &wgpu::Device) -> Self {
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("taa motion"),
            entries: &[uniform_entry(0, false, wgpu::ShaderStages::VERTEX)],
        });
        let uniform = uniform_buffer(device, "taa motion", std::mem::size_of::<MotionUniform>());
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("taa motion"),
            layout: &layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: uniform.as_entire_binding(),
            }],
        });
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("taa motion.wgsl"),
            source: wgpu::ShaderSource::Wgsl(crate::wgsl!("motion.wgsl")),
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("taa motion"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = motion_pipeline(device, &pipeline_layout, &module, Drawn::Now);
        let uncovered = motion_pipeline(device, &pipeline_layout, &module, Drawn::Before);
        Self {
            pipeline,
            uncovered,
            uniform,
            group,
            instances: None,
            draws: Vec::new(),
            staging: Vec::new(),
        }
    }

    /// Collects this frame's moved opaque items and uploads them with the
    /// cameras. Returns whether any moved.
    pub(super) fn update(
        &mut self,
        gpu: &GpuContext,
        buckets: &DrawBuckets,
        assets: &Assets,
        cameras: MotionCameras,
    ) -> bool {
        self.draws.clear();
        self.staging.clear();
        let deformed = |mesh: MeshId| {
            assets
                .mesh(mesh)
                .is_some_and(|m| m.deformed_from().is_some())
        };
        for draw in buckets
            .opaque
            .iter()
            .filter(|draw| draw.moved() || deformed(draw.item.mesh))
        {
            self.draws.push(draw.item.mesh);
            self.staging.push(MotionInstance {
                model: Mat4::from(draw.item.world).to_cols_array_2d(),
                previous: Mat4::from(draw.previous_world).to_cols_array_2d(),
            });
        }
        if self.staging.is_empty() {
            return false;
        }
        let bytes: &[u8] = bytemuck::cast_slice(&self.staging);
        let too_small = self
            .instances
            .as_ref()
            .is_none_or(|buffer| buffer.size() < bytes.len() as u64);
        if too_small {
            self.instances = Some(gpu.device().create_buffer(&wgpu::BufferDescriptor {
                label: Some("taa motion instances"),
                size: (bytes.len() as u64).next_power_of_two(),
                usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }));
        }
        if let Some(buffer) = &self.instances {
            gpu.queue().write_buffer(buffer, 0, bytes);
        }
        let uniform = MotionUniform {
            view_proj: cameras.rasterised.to_cols_array_2d(),
            current: cameras.current.to_cols_array_2d(),
            previous: cameras.previous.to_cols_array_2d(),
        };
        gpu.queue()
            .write_buffer(&self.uniform, 0, bytemuck::bytes_of(&uniform));
        true
    }

    /// Number of moved items drawn this frame.
    pub(super) fn count(&self) -> usize {
        self.draws.len()
    }

    /// Draws every moved item (one instance each).
    pub(super) fn draw(&self, rp: &mut wgpu::RenderPass<'_>, assets: &crate::resources::Assets) {
        let Some(instances) = &self.instances else {
            return;
        };
        rp.set_bind_group(0, &self.group, &[]);
        rp.set_vertex_buffer(1, instances.slice(..));
        for pipeline in [&self.uncovered, &self.pipeline] {
            rp.set_pipeline(pipeline);
            for (index, mesh) in (0_u32..).zip(&self.draws) {
                if let Some(mesh) = assets.mesh(*mesh) {
                    rp.set_vertex_buffer(2, mesh.previous_vertex_slice());
                    mesh.draw(rp, index..index + 1);
                }
            }
        }
    }
}

/// Which transform a motion pipeline draws the moved items at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Drawn {
    /// This frame's, depth-tested: the velocity (`rg`) and its mark (`a`).
    Now,
    /// The frame before's, untested: the uncovered mark (`b`).
    Before,
}

fn motion_pipeline(
    device: &wgpu::Device,
    layout: &wgpu::PipelineLayout,
    module: &wgpu::ShaderModule,
    drawn: Drawn,
) -> wgpu::RenderPipeline {
    let (label, vertex, fragment, writes, compare) = match drawn {
        Drawn::Now => (
            "taa motion",
            "vs_main",
            "fs_main",
            wgpu::ColorWrites::RED | wgpu::ColorWrites::GREEN | wgpu::ColorWrites::ALPHA,
            DEPTH_NEARER_OR_EQUAL,
        ),
        Drawn::Before => (
            "taa uncovered",
            "vs_previous",
            "fs_previous",
            wgpu::ColorWrites::BLUE,
            wgpu::CompareFunction::Always,
        ),
    };
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(label),
        layout: Some(layout),
        vertex: wgpu::VertexState {
            module,
            entry_point: Some(vertex),
            compilation_options: Default::default(),
            buffers: &[
                Some(Vertex::LAYOUT),
                Some(MOTION_INSTANCE_LAYOUT),
                Some(PREVIOUS_POSITION_LAYOUT),
            ],
        },
        fragment: Some(wgpu::FragmentState {
            module,
            entry_point: Some(fragment),
            compilation_options: Default::default(),
            targets: &[Some(wgpu::ColorTargetState {
                format: MOTION_FORMAT,
                blend: None,
                write_mask: writes,
            })],
        }),
        primitive: wgpu::PrimitiveState {
            // The uncovered mark takes both faces: a thin item seen edge-on
            // last frame still uncovers what it hid.
            cull_mode: (drawn == Drawn::Now).then_some(wgpu::Face::Back),
            ..Default::default()
        },
        depth_stencil: Some(wgpu::DepthStencilState {
            format: DEPTH_FORMAT,
            depth_write_enabled: Some(false),
            depth_compare: Some(compare),
            stencil: wgpu::StencilState::default(),
            bias: wgpu::DepthBiasState::default(),
        }),
        multisample: wgpu::MultisampleState::default(),
        multiview_mask: None,
        cache: None,
    })
}
