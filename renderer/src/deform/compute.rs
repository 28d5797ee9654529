//! The per-frame deformation step: one upload of every joint matrix and
//! morph weight, then one compute dispatch per GPU instance (or a CPU
//! deform and upload per CPU instance), before the frame's graph runs.

use std::collections::HashMap;

use super::{DeformPath, DeformStats, MeshDeformations, deform_vertices};
use crate::GpuContext;
use crate::resources::{Assets, MeshId, Vertex};

const WORKGROUP: u32 = 64;
const MAX_GROUPS_X: u32 = 65_535;

/// One dispatch's parameters (`Params` in `deform.wgsl`).
#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Params {
    vertex_count: u32,
    joint_offset: u32,
    weight_offset: u32,
    target_count: u32,
    skinned: u32,
    joint_count: u32,
    pad: [u32; 2],
}

#[derive(Debug)]
struct Pipeline {
    pipeline: wgpu::ComputePipeline,
    frame_layout: wgpu::BindGroupLayout,
    instance_layout: wgpu::BindGroupLayout,
    params_stride: u64,
}

/// This frame's shared buffers and the bind group over them.
#[derive(Debug)]
struct FrameBuffers {
    pose: wgpu::Buffer,
    params: wgpu::Buffer,
    group: wgpu::BindGroup,
}

/// One GPU dispatch recorded this frame.
#[derive(Debug, Clone, Copy)]
struct Dispatch {
    mesh: MeshId,
    flipped: bool,
    vertex_count: u32,
    /// Copy this frame's vertices into the previous buffer afterwards (the
    /// instance was not posed the frame before: it shows no motion).
    fresh: bool,
}

/// Deforms instances; owned by the renderer.
#[derive(Debug, Default)]
pub(crate) struct Deformer {
    pipeline: Option<Pipeline>,
    frame_buffers: Option<FrameBuffers>,
    instance_groups: HashMap<(MeshId, bool), wgpu::BindGroup>,
    frame: u64,
    /// Deform every instance on the CPU (tests and benches compare the paths).
    pub(crate) force_cpu: bool,
    /// The frame-too-large warning was logged.
    warned_too_large: bool,
    weights: Vec<f32>,
    params: Vec<u8>,
    dispatches: Vec<Dispatch>,
    scratch: Vec<Vertex>,
}

fn storage_entry(binding: u32, read_only: bool) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
}

impl Pipeline {
    fn new(device: &wgpu::Device) -> Self {
        let frame_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("deform frame"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::COMPUTE,
                    ty: wgpu::BindingType::Buffer {
                        ty: wgpu::BufferBindingType::Uniform,
                        has_dynamic_offset: true,
                        min_binding_size: wgpu::BufferSize::new(
                            std::mem::size_of::<Params>() as u64
                        ),
                    },
                    count: None,
                },
                storage_entry(1, true),
            ],
        });
        let instance_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("deform instance"),
            entries: &[
                storage_entry(0, true),
                storage_entry(1, true),
                storage_entry(2, false),
            ],
        });
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("deform.wgsl"),
            source: wgpu::ShaderSource::Wgsl(include_str!("deform.wgsl").into()),
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("deform"),
            bind_group_layouts: &[Some(&frame_layout), Some(&instance_layout)],
            immediate_size: 0,
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("deform"),
            layout: Some(&layout),
            module: &module,
            entry_point: Some("deform"),
            compilation_options: Default::default(),
            cache: None,
        });
        let align = u64::from(device.limits().min_uniform_buffer_offset_alignment);
        let size = std::mem::size_of::<Params>() as u64;
        Self {
            pipeline,
            frame_layout,
            instance_layout,
            params_stride: size.div_ceil(align) * align,
        }
    }
}

impl Deformer {
    /// Poses every instance in `deformations`: bounds, then vertices.
    pub(crate) fn run(
        &mut self,
        gpu: &GpuContext,
        assets: &mut Assets,
        deformations: &MeshDeformations,
    ) -> DeformStats {
        self.frame += 1;
        assets.pose_bounds(deformations);
        let mut stats = DeformStats {
            joints: u32::try_from(deformations.joint_matrices.len()).unwrap_or(u32::MAX),
            ..DeformStats::default()
        };
        self.dispatches.clear();
        self.params.clear();
        self.weights.clear();
        let joint_vec4s = deformations.joint_matrices.len() as u64 * 4;
        // All skins share one storage buffer: a frame with more joints than
        // one binding may hold deforms on the CPU instead (nothing is lost).
        let pose_bytes = (joint_vec4s + deformations.morph_weights.len() as u64) * 16
            + deformations.poses.len() as u64 * 16;
        let fits = pose_bytes <= gpu.device().limits().max_storage_buffer_binding_size;
        if !fits && !self.warned_too_large {
            log::warn!(
                "{} joint matrices this frame exceed the device's storage binding \
                 ({} bytes): deforming on the CPU",
                deformations.joint_matrices.len(),
                gpu.device().limits().max_storage_buffer_binding_size
            );
            self.warned_too_large = true;
        }
        for pose in &deformations.poses {
            let Some(mesh) = assets.mesh_mut(pose.mesh) else {
                stats.skipped += 1;
                continue;
            };
            let frame = self.frame;
            let Some(state) = mesh.deform_state_mut() else {
                stats.skipped += 1;
                continue;
            };
            let fresh = state.posed_frame != Some(frame - 1);
            if state.posed_frame == Some(frame) {
                // Posed twice in one frame: the second pose wins, no swap.
            } else if !fresh {
                mesh.swap_deformed_buffers();
            }
            let Some(state) = mesh.deform_state_mut() else {
                continue;
            };
            state.posed_frame = Some(frame);
            let (source_id, path, flipped) = (state.source, state.path, state.flipped);
            let Some(source) = assets.deform_source(source_id) else {
                stats.skipped += 1;
                continue;
            };
            let Some(mesh) = assets.mesh(pose.mesh) else {
                continue;
            };
            let joints = deformations.joints_of(pose);
            let weights = deformations.weights_of(pose);
            if path == DeformPath::Cpu || self.force_cpu || !fits {
                deform_vertices(&source.data, joints, weights, &mut self.scratch);
                let bytes: &[u8] = bytemuck::cast_slice(&self.scratch);
                gpu.queue().write_buffer(mesh.vertex_buffer(), 0, bytes);
                if fresh {
                    gpu.queue()
                        .write_buffer(mesh.previous_vertex_buffer(), 0, bytes);
                }
                stats.cpu += 1;
                continue;
            }
            let weight_offset = joint_vec4s + (self.weights.len() / 4) as u64;
            let targets = weights.len().min(source.data.morph_targets().len());
            self.weights.extend_from_slice(&weights[..targets]);
            self.weights
                .resize(self.weights.len().next_multiple_of(4), 0.0);
            let vertex_count = source.data.mesh().vertices().len() as u32;
            let params = Params {
                vertex_count,
                joint_offset: pose.joints.start.saturating_mul(4),
                weight_offset: u32::try_from(weight_offset).unwrap_or(u32::MAX),
                target_count: targets as u32,
                skinned: u32::from(source.data.influences().is_some()),
                joint_count: joints.len() as u32,
                pad: [0; 2],
            };
            self.params.extend_from_slice(bytemuck::bytes_of(&params));
            self.dispatches.push(Dispatch {
                mesh: pose.mesh,
                flipped,
                vertex_count,
                fresh,
            });
            stats.gpu += 1;
        }
        if !self.dispatches.is_empty() {
            self.dispatch(gpu, assets, deformations);
        }
        stats
    }

    fn dispatch(&mut self, gpu: &GpuContext, assets: &Assets, deformations: &MeshDeformations) {
        let device = gpu.device();
        let pipeline = self.pipeline.get_or_insert_with(|| Pipeline::new(device));
        // Params at the uniform offset alignment, one entry per dispatch.
        let size = std::mem::size_of::<Params>();
        let stride = pipeline.params_stride as usize;
        let mut params = vec![0_u8; self.dispatches.len() * stride];
        for (i, chunk) in self.params.chunks_exact(size).enumerate() {
            params[i * stride..i * stride + size].copy_from_slice(chunk);
        }
        let joints: &[u8] = bytemuck::cast_slice(&deformations.joint_matrices);
        let weights: &[u8] = bytemuck::cast_slice(&self.weights);
        let pose_size = ((joints.len() + weights.len()) as u64).max(16);
        let stale = self
            .frame_buffers
            .as_ref()
            .is_none_or(|f| f.pose.size() < pose_size || f.params.size() < params.len() as u64);
        if stale {
            let grow =
                |old: Option<u64>, wanted: u64| old.unwrap_or(0).max(wanted).next_power_of_two();
            let pose = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("deform pose"),
                size: grow(
                    self.frame_buffers.as_ref().map(|f| f.pose.size()),
                    pose_size,
                ),
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            let params_buffer = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("deform params"),
                size: grow(
                    self.frame_buffers.as_ref().map(|f| f.params.size()),
                    params.len() as u64,
                ),
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("deform frame"),
                layout: &pipeline.frame_layout,
                entries: &[
                    wgpu::BindGroupEntry {
                        binding: 0,
                        resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                            buffer: &params_buffer,
                            offset: 0,
                            size: wgpu::BufferSize::new(size as u64),
                        }),
                    },
                    wgpu::BindGroupEntry {
                        binding: 1,
                        resource: pose.as_entire_binding(),
                    },
                ],
            });
            self.frame_buffers = Some(FrameBuffers {
                pose,
                params: params_buffer,
                group,
            });
        }
        let Some(frame) = &self.frame_buffers else {
            return;
        };
        let queue = gpu.queue();
        if !joints.is_empty() {
            queue.write_buffer(&frame.pose, 0, joints);
        }
        if !weights.is_empty() {
            queue.write_buffer(&frame.pose, joints.len() as u64, weights);
        }
        queue.write_buffer(&frame.params, 0, &params);
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("deform"),
        });
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("deform"),
                timestamp_writes: None,
            });
            pass.set_pipeline(&pipeline.pipeline);
            for (index, dispatch) in self.dispatches.iter().enumerate() {
                let Some(group) = instance_group(
                    &mut self.instance_groups,
                    device,
                    &pipeline.instance_layout,
                    assets,
                    dispatch,
                ) else {
                    continue;
                };
                let offset = (index as u64 * pipeline.params_stride) as u32;
                pass.set_bind_group(0, &frame.group, &[offset]);
                pass.set_bind_group(1, group, &[]);
                let groups = dispatch.vertex_count.div_ceil(WORKGROUP);
                let x = groups.clamp(1, MAX_GROUPS_X);
                pass.dispatch_workgroups(x, groups.div_ceil(x), 1);
            }
        }
        for dispatch in self.dispatches.iter().filter(|d| d.fresh) {
            if let Some(mesh) = assets.mesh(dispatch.mesh) {
                let current = mesh.vertex_buffer();
                encoder.copy_buffer_to_buffer(
                    current,
                    0,
                    mesh.previous_vertex_buffer(),
                    0,
                    current.size(),
                );
            }
        }
        queue.submit([encoder.finish()]);
    }
}

/// The bind group of `dispatch`'s instance with its current buffer as the
/// output (made once per instance and buffer).
fn instance_group<'a>(
    cache: &'a mut HashMap<(MeshId, bool), wgpu::BindGroup>,
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    assets: &Assets,
    dispatch: &Dispatch,
) -> Option<&'a wgpu::BindGroup> {
    let key = (dispatch.mesh, dispatch.flipped);
    if let std::collections::hash_map::Entry::Vacant(slot) = cache.entry(key) {
        let mesh = assets.mesh(dispatch.mesh)?;
        let (source, _) = mesh.deformed_from()?;
        let buffers = assets.deform_source(source)?.gpu.as_ref()?;
        slot.insert(device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("deform instance"),
            layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: buffers.source.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: buffers.morphs.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: mesh.vertex_buffer().as_entire_binding(),
                },
            ],
        }));
    }
    cache.get(&key)
}
