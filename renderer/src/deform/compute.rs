//! The per-frame deformation step: one upload of every joint matrix, morph
//! weight and instance table; one copy per pool keeping the last frame's
//! vertices; one compute dispatch per pool (or a CPU deform and upload per
//! instance on the CPU path), all before the frame's graph runs.

use std::collections::HashMap;

use super::{DeformPath, DeformStats, MeshDeformations, deform_vertices};
use crate::GpuContext;
use crate::resources::{Assets, DeformableMeshId, Vertex};

const WORKGROUP: u32 = 64;
const MAX_GROUPS_X: u32 = 65_535;

/// One dispatch's parameters (`Params` in `deform.wgsl`).
#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Params {
    vertex_count: u32,
    table_offset: u32,
    instance_count: u32,
    skinned: u32,
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

/// One posed instance this frame.
#[derive(Debug, Clone, Copy)]
struct Posed {
    source: DeformableMeshId,
    pool: usize,
    slot: u32,
    pose: usize,
    /// Not posed the frame before: its previous vertices take this frame's
    /// (it shows no motion).
    fresh: bool,
    cpu: bool,
}

/// One pool's dispatch: which table entries it covers.
#[derive(Debug, Clone, Copy)]
struct Dispatch {
    source: DeformableMeshId,
    pool: usize,
    vertex_count: u32,
    instances: u32,
}

/// Deforms instances; owned by the renderer.
#[derive(Debug, Default)]
pub(crate) struct Deformer {
    pipeline: Option<Pipeline>,
    frame_buffers: Option<FrameBuffers>,
    /// Per pool, its bind group and the pool generation it was made for.
    pool_groups: HashMap<(DeformableMeshId, usize), (u64, wgpu::BindGroup)>,
    frame: u64,
    /// Deform every instance on the CPU (tests and benches compare the paths).
    pub(crate) force_cpu: bool,
    /// The frame-too-large warning was logged.
    warned_too_large: bool,
    /// Whether last frame's vertices were kept last frame (motion vectors
    /// read them only while TAA runs).
    kept_previous: bool,
    posed: Vec<Posed>,
    /// The pools posed last frame, and this frame's (swapped each frame):
    /// a pool posed last frame and not this one still gets its copy, so an
    /// instance that stopped moving shows no motion.
    posed_pools: [Vec<(DeformableMeshId, usize)>; 2],
    /// Morph weights (padded to fours) then instance tables, after the joints.
    tail: Vec<f32>,
    params: Vec<u8>,
    dispatches: Vec<Dispatch>,
    /// Per GPU instance, where its weights start (in vec4s) and how many.
    weight_offsets: Vec<(u64, usize)>,
    /// `params`, each at its uniform offset alignment.
    aligned_params: Vec<u8>,
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
            label: Some("deform pool"),
            entries: &[
                storage_entry(0, true),
                storage_entry(1, true),
                storage_entry(2, false),
            ],
        });
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("deform.wgsl"),
            source: wgpu::ShaderSource::Wgsl(crate::wgsl!("deform.wgsl")),
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
    /// `keep_previous`: keep the last frame's vertices for motion vectors
    /// (one buffer copy per pool); without it they go stale, and the first
    /// frame that keeps them again treats every instance as fresh.
    pub(crate) fn run(
        &mut self,
        gpu: &GpuContext,
        assets: &mut Assets,
        deformations: &MeshDeformations,
        keep_previous: bool,
    ) -> DeformStats {
        self.frame += 1;
        assets.pose_bounds(deformations);
        let mut stats = DeformStats {
            joints: u32::try_from(deformations.joint_matrices.len()).unwrap_or(u32::MAX),
            ..DeformStats::default()
        };
        let on_cpu = self.force_cpu || !self.fits(gpu, deformations);
        let all_fresh = keep_previous && !self.kept_previous;
        self.kept_previous = keep_previous;
        self.collect(assets, deformations, on_cpu, &mut stats);
        for posed in &mut self.posed {
            posed.fresh = keep_previous && (posed.fresh || all_fresh);
        }
        let [last_pools, pools] = &mut self.posed_pools;
        std::mem::swap(last_pools, pools);
        pools.clear();
        pools.extend(self.posed.iter().map(|p| (p.source, p.pool)));
        pools.dedup();
        if self.posed.is_empty() && last_pools.is_empty() {
            return stats;
        }
        if !keep_previous {
            self.deform_on_cpu(gpu, assets, deformations);
            self.dispatch(gpu, assets, deformations);
            return stats;
        }
        // Keep last frame's vertices: one copy per pool posed this frame or
        // the last (the pool's unposed instances copy their unchanged pose).
        let mut encoder = gpu
            .device()
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("deform keep"),
            });
        let stopped = last_pools.iter().filter(|pool| !pools.contains(pool));
        for &(source, pool) in pools.iter().chain(stopped) {
            if let Some(source) = assets.deform_source(source)
                && let Some(pool) = source.pools.get(pool)
            {
                let used = pool.members.len() as u64 * source.stride();
                encoder.copy_buffer_to_buffer(&pool.current, 0, &pool.previous, 0, used);
            }
        }
        gpu.queue().submit([encoder.finish()]);
        // Writes queued from here on land after that copy.
        self.deform_on_cpu(gpu, assets, deformations);
        self.dispatch(gpu, assets, deformations);
        stats
    }

    /// Whether this frame's joints and weights fit one storage binding (all
    /// skins share one); a frame that does not deforms on the CPU.
    fn fits(&mut self, gpu: &GpuContext, deformations: &MeshDeformations) -> bool {
        let limit = gpu.device().limits().max_storage_buffer_binding_size;
        let bytes = (deformations.joint_matrices.len() as u64 * 4
            + deformations.morph_weights.len() as u64
            + deformations.poses.len() as u64 * 3)
            * 16;
        let fits = bytes <= limit;
        if !fits && !self.warned_too_large {
            log::warn!(
                "{} joint matrices this frame exceed the device's storage binding \
                 ({limit} bytes): deforming on the CPU",
                deformations.joint_matrices.len(),
            );
            self.warned_too_large = true;
        }
        fits
    }

    /// Finds each pose's instance and marks it posed, sorted by pool.
    fn collect(
        &mut self,
        assets: &mut Assets,
        deformations: &MeshDeformations,
        on_cpu: bool,
        stats: &mut DeformStats,
    ) {
        self.posed.clear();
        let frame = self.frame;
        for (index, pose) in deformations.poses.iter().enumerate() {
            let Some(state) = assets
                .mesh_mut(pose.mesh)
                .and_then(|mesh| mesh.deform_state_mut())
            else {
                stats.skipped += 1;
                continue;
            };
            let fresh = state.posed_frame != Some(frame - 1);
            state.posed_frame = Some(frame);
            let cpu = on_cpu || state.path == DeformPath::Cpu;
            if cpu {
                stats.cpu += 1;
            } else {
                stats.gpu += 1;
            }
            self.posed.push(Posed {
                source: state.source,
                pool: state.pool,
                slot: state.slot,
                pose: index,
                fresh,
                cpu,
            });
        }
        self.posed
            .sort_by_key(|p| (p.source, p.pool, p.cpu, p.slot));
    }

    /// Deforms the CPU instances and uploads their vertices.
    fn deform_on_cpu(
        &mut self,
        gpu: &GpuContext,
        assets: &Assets,
        deformations: &MeshDeformations,
    ) {
        for posed in self.posed.iter().filter(|p| p.cpu) {
            let Some(source) = assets.deform_source(posed.source) else {
                continue;
            };
            let Some(pool) = source.pools.get(posed.pool) else {
                continue;
            };
            let pose = &deformations.poses[posed.pose];
            deform_vertices(
                &source.data,
                deformations.joints_of(pose),
                deformations.weights_of(pose),
                &mut self.scratch,
            );
            let bytes: &[u8] = bytemuck::cast_slice(&self.scratch);
            let at = source.range(posed.slot).start;
            gpu.queue().write_buffer(&pool.current, at, bytes);
            if posed.fresh {
                gpu.queue().write_buffer(&pool.previous, at, bytes);
            }
        }
    }

    /// One dispatch per pool of GPU instances, then the fresh ones' copies.
    fn dispatch(&mut self, gpu: &GpuContext, assets: &Assets, deformations: &MeshDeformations) {
        // Weights (padded to fours) and the tables, after the joints.
        let joint_vec4s = deformations.joint_matrices.len() as u64 * 4;
        self.tail.clear();
        self.params.clear();
        self.dispatches.clear();
        let weight_offsets = &mut self.weight_offsets;
        weight_offsets.clear();
        for posed in self.posed.iter().filter(|p| !p.cpu) {
            let pose = &deformations.poses[posed.pose];
            let targets = assets
                .deform_source(posed.source)
                .map_or(0, |s| s.data.morph_targets().len());
            let weights = deformations.weights_of(pose);
            let weights = &weights[..weights.len().min(targets)];
            weight_offsets.push((joint_vec4s + self.tail.len() as u64 / 4, weights.len()));
            self.tail.extend_from_slice(weights);
            self.tail.resize(self.tail.len().next_multiple_of(4), 0.0);
        }
        let mut gpu_posed = self
            .posed
            .iter()
            .filter(|p| !p.cpu)
            .zip(weight_offsets.iter())
            .peekable();
        while let Some((first, _)) = gpu_posed.peek().copied() {
            let Some(source) = assets.deform_source(first.source) else {
                gpu_posed.next();
                continue;
            };
            let table_offset = joint_vec4s + self.tail.len() as u64 / 4;
            let mut instances = 0_u32;
            while let Some((posed, &(weight_offset, targets))) =
                gpu_posed.next_if(|(p, _)| (p.source, p.pool) == (first.source, first.pool))
            {
                let pose = &deformations.poses[posed.pose];
                // Whole numbers, exact in f32 below 2^24 (the shader's `Instance`).
                self.tail.extend([
                    posed.slot as f32,
                    (pose.joints.start as u64 * 4) as f32,
                    weight_offset as f32,
                    targets as f32,
                    deformations.joints_of(pose).len() as f32,
                    0.0,
                    0.0,
                    0.0,
                ]);
                instances += 1;
            }
            let vertex_count = source.data.mesh().vertices().len() as u32;
            self.params.extend_from_slice(bytemuck::bytes_of(&Params {
                vertex_count,
                table_offset: u32::try_from(table_offset).unwrap_or(u32::MAX),
                instance_count: instances,
                skinned: u32::from(source.data.influences().is_some()),
            }));
            self.dispatches.push(Dispatch {
                source: first.source,
                pool: first.pool,
                vertex_count,
                instances,
            });
        }
        if self.dispatches.is_empty() {
            return;
        }
        let device = gpu.device();
        let pipeline = self.pipeline.get_or_insert_with(|| Pipeline::new(device));
        let Some(frame) = frame_buffers(
            &mut self.frame_buffers,
            device,
            pipeline,
            &self.params,
            (deformations.joint_matrices.len() * 64 + self.tail.len() * 4) as u64,
        ) else {
            return;
        };
        let queue = gpu.queue();
        let joints: &[u8] = bytemuck::cast_slice(&deformations.joint_matrices);
        if !joints.is_empty() {
            queue.write_buffer(&frame.pose, 0, joints);
        }
        queue.write_buffer(
            &frame.pose,
            joints.len() as u64,
            bytemuck::cast_slice(&self.tail),
        );
        let size = std::mem::size_of::<Params>();
        let stride = pipeline.params_stride as usize;
        let params = &mut self.aligned_params;
        params.clear();
        params.resize(self.dispatches.len() * stride, 0);
        for (i, chunk) in self.params.chunks_exact(size).enumerate() {
            params[i * stride..i * stride + size].copy_from_slice(chunk);
        }
        queue.write_buffer(&frame.params, 0, params);
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
                let Some(group) = pool_group(
                    &mut self.pool_groups,
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
                let groups = (dispatch.vertex_count * dispatch.instances).div_ceil(WORKGROUP);
                let x = groups.clamp(1, MAX_GROUPS_X);
                pass.dispatch_workgroups(x, groups.div_ceil(x), 1);
            }
        }
        for posed in self.posed.iter().filter(|p| !p.cpu && p.fresh) {
            if let Some(source) = assets.deform_source(posed.source)
                && let Some(pool) = source.pools.get(posed.pool)
            {
                let range = source.range(posed.slot);
                encoder.copy_buffer_to_buffer(
                    &pool.current,
                    range.start,
                    &pool.previous,
                    range.start,
                    range.end - range.start,
                );
            }
        }
        queue.submit([encoder.finish()]);
    }
}

/// The frame's pose and params buffers, grown (and their bind group made
/// again) when this frame needs more.
fn frame_buffers<'a>(
    slot: &'a mut Option<FrameBuffers>,
    device: &wgpu::Device,
    pipeline: &Pipeline,
    params: &[u8],
    pose_bytes: u64,
) -> Option<&'a FrameBuffers> {
    let count = (params.len() / std::mem::size_of::<Params>()) as u64;
    let params_bytes = (count * pipeline.params_stride).max(pipeline.params_stride);
    let pose_bytes = pose_bytes.max(16);
    let stale = slot
        .as_ref()
        .is_none_or(|f| f.pose.size() < pose_bytes || f.params.size() < params_bytes);
    if stale {
        let grow = |old: Option<u64>, wanted: u64| old.unwrap_or(0).max(wanted).next_power_of_two();
        let pose = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("deform pose"),
            size: grow(slot.as_ref().map(|f| f.pose.size()), pose_bytes),
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let params = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("deform params"),
            size: grow(slot.as_ref().map(|f| f.params.size()), params_bytes),
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
                        buffer: &params,
                        offset: 0,
                        size: wgpu::BufferSize::new(std::mem::size_of::<Params>() as u64),
                    }),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: pose.as_entire_binding(),
                },
            ],
        });
        *slot = Some(FrameBuffers {
            pose,
            params,
            group,
        });
    }
    slot.as_ref()
}

/// The bind group of `dispatch`'s pool (made again when the pool grew).
fn pool_group<'a>(
    cache: &'a mut HashMap<(DeformableMeshId, usize), (u64, wgpu::BindGroup)>,
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    assets: &Assets,
    dispatch: &Dispatch,
) -> Option<&'a wgpu::BindGroup> {
    let source = assets.deform_source(dispatch.source)?;
    let pool = source.pools.get(dispatch.pool)?;
    let buffers = source.gpu.as_ref()?;
    let key = (dispatch.source, dispatch.pool);
    let stale = cache
        .get(&key)
        .is_none_or(|(generation, _)| *generation != pool.generation);
    if stale {
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("deform pool"),
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
                    resource: pool.current.as_entire_binding(),
                },
            ],
        });
        cache.insert(key, (pool.generation, group));
    }
    cache.get(&key).map(|(_, group)| group)
}
