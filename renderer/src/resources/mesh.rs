//! Meshes uploaded to the GPU.

use glam::Vec3;
use wgpu::util::DeviceExt as _;

use super::mesh_data::MeshData;
use crate::GpuContext;

/// Vertex and index buffers of one mesh, with its bounds.
#[derive(Debug)]
pub struct GpuMesh {
    vertices: wgpu::Buffer,
    indices: wgpu::Buffer,
    index_count: u32,
    bounds: (Vec3, Vec3),
}

impl GpuMesh {
    /// Uploads `data`.
    #[must_use]
    pub fn upload(ctx: &GpuContext, label: &str, data: &MeshData) -> Self {
        let vertices = ctx
            .device()
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: bytemuck::cast_slice(data.vertices()),
                usage: wgpu::BufferUsages::VERTEX,
            });
        let indices = ctx
            .device()
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: bytemuck::cast_slice(data.indices()),
                usage: wgpu::BufferUsages::INDEX,
            });
        Self {
            vertices,
            indices,
            index_count: data.indices().len() as u32,
            bounds: data.bounds(),
        }
    }

    /// Binds the buffers and draws `instances`.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, instances: std::ops::Range<u32>) {
        pass.set_vertex_buffer(0, self.vertices.slice(..));
        pass.set_index_buffer(self.indices.slice(..), wgpu::IndexFormat::Uint32);
        pass.draw_indexed(0..self.index_count, 0, instances);
    }

    /// Number of indices.
    #[must_use]
    pub fn index_count(&self) -> u32 {
        self.index_count
    }

    /// Object-space bounds `(min, max)`.
    #[must_use]
    pub fn bounds(&self) -> (Vec3, Vec3) {
        self.bounds
    }
}
