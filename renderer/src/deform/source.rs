//! A deformable mesh on the GPU: its source vertices, influences and morph
//! displacements (shared by all its instances), and the pools its
//! instances' deformed vertices live in.
//!
//! Instances of one source sit side by side in a pool: two vertex buffers
//! (this frame's and the last frame's) holding one copy of the mesh per
//! instance. A frame deforms a whole pool with one compute dispatch and
//! keeps the last frame with one buffer copy, whatever the number of
//! instances: a thousand characters cost two commands, not two thousand.

use std::ops::Range;

use wgpu::util::DeviceExt as _;

use super::{DeformBounds, DeformPath, DeformableMeshData};
use crate::GpuContext;
use crate::resources::{DeformableMeshId, GpuMesh, MeshId};

/// Storage buffers the compute path binds in one stage: the pose, the
/// source, the morph displacements and the deformed vertices.
const STORAGE_BUFFERS_NEEDED: u32 = 4;

/// The source buffers the compute path reads.
#[derive(Debug)]
pub(crate) struct SourceBuffers {
    pub(crate) source: wgpu::Buffer,
    pub(crate) morphs: wgpu::Buffer,
}

/// Instances sharing two buffers: `capacity` copies of the mesh each.
#[derive(Debug)]
pub(crate) struct InstancePool {
    pub(crate) current: wgpu::Buffer,
    pub(crate) previous: wgpu::Buffer,
    pub(crate) capacity: u32,
    /// The instances, by slot.
    pub(crate) members: Vec<MeshId>,
    /// Counts the buffers' replacements (bind groups over them go stale).
    pub(crate) generation: u64,
}

/// A deformable mesh in the asset store.
#[derive(Debug)]
pub(crate) struct DeformSource {
    pub(crate) data: DeformableMeshData,
    pub(crate) bounds: DeformBounds,
    /// `None`: this mesh deforms on the CPU.
    pub(crate) gpu: Option<SourceBuffers>,
    pub(crate) pools: Vec<InstancePool>,
    indices: wgpu::Buffer,
    label: String,
    /// Bytes of one instance's vertices.
    stride: u64,
    /// The most instances one pool may hold.
    pool_limit: u32,
}

/// Whether the device runs the compute path for buffers of `largest` bytes.
pub(crate) fn compute_can_deform(ctx: &GpuContext, largest: u64) -> bool {
    let flags = ctx.adapter().get_downlevel_capabilities().flags;
    let limits = ctx.device().limits();
    flags.contains(wgpu::DownlevelFlags::COMPUTE_SHADERS)
        && limits.max_storage_buffers_per_shader_stage >= STORAGE_BUFFERS_NEEDED
        && largest <= limits.max_storage_buffer_binding_size
}

impl DeformSource {
    pub(crate) fn upload(ctx: &GpuContext, label: &str, data: DeformableMeshData) -> Self {
        let words = data.source_words();
        let morphs = data.morph_floats();
        let stride = std::mem::size_of_val(data.mesh().vertices()) as u64;
        let largest = (words.len() * 4).max(morphs.len() * 4) as u64;
        let gpu = compute_can_deform(ctx, largest.max(stride)).then(|| {
            let device = ctx.device();
            let source = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: bytemuck::cast_slice(&words),
                usage: wgpu::BufferUsages::STORAGE,
            });
            // A binding must not be empty: a mesh without targets binds one zero.
            let morphs = if morphs.is_empty() {
                vec![0.0_f32; 4]
            } else {
                morphs
            };
            let morphs = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: bytemuck::cast_slice(&morphs),
                usage: wgpu::BufferUsages::STORAGE,
            });
            SourceBuffers { source, morphs }
        });
        let limits = ctx.device().limits();
        let pool_bytes = if gpu.is_some() {
            limits
                .max_storage_buffer_binding_size
                .min(limits.max_buffer_size)
        } else {
            limits.max_buffer_size
        };
        let indices = ctx
            .device()
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: bytemuck::cast_slice(data.mesh().indices()),
                usage: wgpu::BufferUsages::INDEX,
            });
        Self {
            bounds: DeformBounds::new(&data),
            gpu,
            pools: Vec::new(),
            data,
            indices,
            label: label.to_owned(),
            stride,
            pool_limit: u32::try_from((pool_bytes / stride.max(1)).max(1)).unwrap_or(u32::MAX),
        }
    }

    /// How this source's instances are deformed.
    pub(crate) fn path(&self) -> DeformPath {
        if self.gpu.is_some() {
            DeformPath::Gpu
        } else {
            DeformPath::Cpu
        }
    }

    /// Bytes of one instance's vertices.
    pub(crate) fn stride(&self) -> u64 {
        self.stride
    }

    /// Where instance `slot`'s vertices sit in its pool's buffers.
    pub(crate) fn range(&self, slot: u32) -> Range<u64> {
        u64::from(slot) * self.stride..(u64::from(slot) + 1) * self.stride
    }

    /// Adds instance `mesh` in the bind pose: a slot in a pool (growing the
    /// last pool, or starting one). Returns its mesh and, when the pool's
    /// buffers were replaced, the pool's index (its other members must be
    /// pointed at the new buffers).
    pub(crate) fn add_instance(
        &mut self,
        ctx: &GpuContext,
        id: DeformableMeshId,
        mesh: MeshId,
    ) -> (GpuMesh, Option<usize>) {
        let full = self
            .pools
            .last()
            .is_none_or(|pool| pool.members.len() as u32 >= self.pool_limit);
        if full {
            let pool = self.new_pool(ctx, 4.min(self.pool_limit), None);
            self.pools.push(pool);
        }
        let index = self.pools.len() - 1;
        let mut regrown = None;
        let slot = self.pools[index].members.len() as u32;
        if slot >= self.pools[index].capacity {
            let capacity = (slot * 2).min(self.pool_limit).max(slot + 1);
            let old = &self.pools[index];
            let pool = self.new_pool(ctx, capacity, Some(old));
            self.pools[index] = pool;
            regrown = Some(index);
        }
        let range = self.range(slot);
        let path = self.path();
        let pool = &mut self.pools[index];
        pool.members.push(mesh);
        let vertices: &[u8] = bytemuck::cast_slice(self.data.mesh().vertices());
        ctx.queue()
            .write_buffer(&pool.current, range.start, vertices);
        ctx.queue()
            .write_buffer(&pool.previous, range.start, vertices);
        let mesh = GpuMesh::deformed(
            pool.current.clone(),
            self.indices.clone(),
            self.data.mesh().indices().len() as u32,
            self.bounds.base(),
            DeformState {
                source: id,
                path,
                pool: index,
                slot,
                previous: pool.previous.clone(),
                range,
                posed_frame: None,
            },
        );
        (mesh, regrown)
    }

    /// A pool of `capacity` slots, holding `old`'s instances when given.
    fn new_pool(
        &self,
        ctx: &GpuContext,
        capacity: u32,
        old: Option<&InstancePool>,
    ) -> InstancePool {
        let mut usage = wgpu::BufferUsages::VERTEX
            | wgpu::BufferUsages::COPY_DST
            | wgpu::BufferUsages::COPY_SRC;
        if self.gpu.is_some() {
            usage |= wgpu::BufferUsages::STORAGE;
        }
        let buffer = |which: &str| {
            ctx.device().create_buffer(&wgpu::BufferDescriptor {
                label: Some(&format!("{} {which}", self.label)),
                size: u64::from(capacity) * self.stride,
                usage,
                mapped_at_creation: false,
            })
        };
        let pool = InstancePool {
            current: buffer("deformed"),
            previous: buffer("previous"),
            capacity,
            members: old.map(|o| o.members.clone()).unwrap_or_default(),
            generation: old.map_or(0, |o| o.generation + 1),
        };
        if let Some(old) = old {
            let mut encoder =
                ctx.device()
                    .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                        label: Some("deform pool growth"),
                    });
            let used = old.members.len() as u64 * self.stride;
            encoder.copy_buffer_to_buffer(&old.current, 0, &pool.current, 0, used);
            encoder.copy_buffer_to_buffer(&old.previous, 0, &pool.previous, 0, used);
            ctx.queue().submit([encoder.finish()]);
        }
        pool
    }
}

/// A deformed instance's own state.
#[derive(Debug)]
pub(crate) struct DeformState {
    pub(crate) source: DeformableMeshId,
    pub(crate) path: DeformPath,
    /// Its pool in the source, and its slot there.
    pub(crate) pool: usize,
    pub(crate) slot: u32,
    /// The pool's buffer of the frame before.
    pub(crate) previous: wgpu::Buffer,
    /// Its bytes in both pool buffers.
    pub(crate) range: Range<u64>,
    /// The deformer frame it was last posed in.
    pub(crate) posed_frame: Option<u64>,
}
