//! Reading a mesh's triangles back from the GPU: what exact picking (the
//! editor's click) tests a ray against, fetched once per mesh when first
//! needed, so no mesh keeps a CPU copy it may never use.

use std::sync::{Arc, Mutex, PoisonError};

use glam::Vec3;

use super::mesh::GpuMesh;
use super::mesh_data::Vertex;
use crate::{GpuContext, ReadbackError};

/// The largest mesh read back, in bytes of vertices and indices (a mesh
/// over it picks by its bounds).
pub const MAX_READBACK_BYTES: u64 = 256 << 20;

impl GpuMesh {
    /// A rigid mesh's vertex positions and triangle indices, copied from
    /// the GPU. Blocks until the GPU answers (native only: in a browser
    /// this is an error, as a page cannot wait for the GPU).
    ///
    /// # Errors
    /// [`ReadbackError::Map`] for a deformed instance (its vertices change
    /// every frame), a mesh over [`MAX_READBACK_BYTES`], or a failed
    /// mapping.
    pub fn read_triangles(&self, ctx: &GpuContext) -> Result<(Vec<Vec3>, Vec<u32>), ReadbackError> {
        if self.deformed_from().is_some() {
            return Err(ReadbackError::Map(
                "a deformed mesh's vertices change every frame".to_owned(),
            ));
        }
        let (vertices, indices) = self.buffers();
        let (vertex_bytes, index_bytes) = (vertices.size(), u64::from(self.index_count()) * 4);
        let total = vertex_bytes + index_bytes;
        if total > MAX_READBACK_BYTES || index_bytes > indices.size() {
            return Err(ReadbackError::Map(format!(
                "a mesh of {total} bytes is not read back"
            )));
        }
        let staging = ctx.device().create_buffer(&wgpu::BufferDescriptor {
            label: Some("mesh read-back"),
            size: total.max(4),
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        let mut encoder = ctx
            .device()
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("mesh read-back"),
            });
        encoder.copy_buffer_to_buffer(vertices, 0, &staging, 0, vertex_bytes);
        if index_bytes > 0 {
            encoder.copy_buffer_to_buffer(indices, 0, &staging, vertex_bytes, index_bytes);
        }
        ctx.queue().submit([encoder.finish()]);
        let answer: Arc<Mutex<Option<Result<(), String>>>> = Arc::default();
        let slot = Arc::clone(&answer);
        staging.map_async(wgpu::MapMode::Read, .., move |result| {
            *slot.lock().unwrap_or_else(PoisonError::into_inner) =
                Some(result.map_err(|e| e.to_string()));
        });
        ctx.device()
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| ReadbackError::Map(e.to_string()))?;
        let outcome = answer
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
            .unwrap_or_else(|| Err("the GPU has not answered the read-back".to_owned()));
        outcome.map_err(ReadbackError::Map)?;
        let mapped = staging
            .get_mapped_range(..)
            .map_err(|e| ReadbackError::Map(e.to_string()))?;
        let stride = std::mem::size_of::<Vertex>();
        let vertex_bytes = vertex_bytes as usize;
        let positions = mapped[..vertex_bytes]
            .chunks_exact(stride)
            .map(|vertex| {
                let float = |i: usize| {
                    f32::from_le_bytes([vertex[i], vertex[i + 1], vertex[i + 2], vertex[i + 3]])
                };
                Vec3::new(float(0), float(4), float(8))
            })
            .collect();
        let indices = mapped[vertex_bytes..vertex_bytes + index_bytes as usize]
            .chunks_exact(4)
            .map(|i| u32::from_le_bytes([i[0], i[1], i[2], i[3]]))
            .collect();
        drop(mapped);
        staging.unmap();
        Ok((positions, indices))
    }
}
