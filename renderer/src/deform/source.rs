//! A deformable mesh on the GPU (its source vertices, influences and morph
//! displacements, shared by all its instances) and the state of one instance.

use wgpu::util::DeviceExt as _;

use super::{DeformBounds, DeformPath, DeformableMeshData};
use crate::GpuContext;
use crate::resources::{DeformableMeshId, GpuMesh};

/// Storage buffers the compute path binds in one stage: the pose, the
/// source, the morph displacements and the deformed vertices.
const STORAGE_BUFFERS_NEEDED: u32 = 4;

/// The source buffers the compute path reads.
#[derive(Debug)]
pub(crate) struct SourceBuffers {
    pub(crate) source: wgpu::Buffer,
    pub(crate) morphs: wgpu::Buffer,
}

/// A deformable mesh in the asset store.
#[derive(Debug)]
pub(crate) struct DeformSource {
    pub(crate) data: DeformableMeshData,
    pub(crate) bounds: DeformBounds,
    /// `None`: this mesh deforms on the CPU.
    pub(crate) gpu: Option<SourceBuffers>,
    indices: wgpu::Buffer,
    label: String,
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
        let largest = (words.len() * 4).max(morphs.len() * 4) as u64;
        let gpu = compute_can_deform(ctx, largest).then(|| {
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
            data,
            indices,
            label: label.to_owned(),
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

    /// A new instance in the bind pose: two vertex buffers holding the
    /// undeformed vertices (texture coordinates and colours are never
    /// rewritten, so both keep them), the shared index buffer.
    pub(crate) fn instance(&self, ctx: &GpuContext, id: DeformableMeshId) -> GpuMesh {
        let mut usage = wgpu::BufferUsages::VERTEX
            | wgpu::BufferUsages::COPY_DST
            | wgpu::BufferUsages::COPY_SRC;
        if self.gpu.is_some() {
            usage |= wgpu::BufferUsages::STORAGE;
        }
        let vertices = self.data.mesh().vertices();
        let buffer = |which: &str| {
            ctx.device()
                .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some(&format!("{} {which}", self.label)),
                    contents: bytemuck::cast_slice(vertices),
                    usage,
                })
        };
        GpuMesh::deformed(
            buffer("deformed"),
            self.indices.clone(),
            self.data.mesh().indices().len() as u32,
            self.bounds.base(),
            DeformState {
                source: id,
                path: self.path(),
                previous: buffer("previous"),
                flipped: false,
                posed_frame: None,
            },
        )
    }
}

/// A deformed instance's own state.
#[derive(Debug)]
pub(crate) struct DeformState {
    pub(crate) source: DeformableMeshId,
    pub(crate) path: DeformPath,
    /// The vertices of the frame before.
    pub(crate) previous: wgpu::Buffer,
    /// Which of the two buffers is current (they swap every posed frame).
    pub(crate) flipped: bool,
    /// The deformer frame it was last posed in.
    pub(crate) posed_frame: Option<u64>,
}
