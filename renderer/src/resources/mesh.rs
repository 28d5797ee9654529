//! Meshes uploaded to the GPU.

use glam::Vec3;
use wgpu::util::DeviceExt as _;

use super::mesh_data::MeshData;
use crate::GpuContext;
use crate::deform::{DeformPath, DeformState};
use crate::resources::DeformableMeshId;

/// Vertex and index buffers of one mesh, with its bounds.
///
/// A deformed instance ([`Assets::add_deformed_instance`](super::Assets::add_deformed_instance))
/// also keeps the vertices of the frame before (for motion vectors), and
/// its bounds follow its pose.
#[derive(Debug)]
pub struct GpuMesh {
    vertices: wgpu::Buffer,
    indices: wgpu::Buffer,
    index_count: u32,
    bounds: (Vec3, Vec3),
    deform: Option<DeformState>,
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
                // COPY_SRC: exact picking reads the triangles back.
                usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_SRC,
            });
        let indices = ctx
            .device()
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: bytemuck::cast_slice(data.indices()),
                usage: wgpu::BufferUsages::INDEX | wgpu::BufferUsages::COPY_SRC,
            });
        Self {
            vertices,
            indices,
            index_count: data.indices().len() as u32,
            bounds: data.bounds(),
            deform: None,
        }
    }

    /// A deformed instance: its part of its pool's two vertex buffers
    /// (this frame's and the last), the source's index buffer.
    pub(crate) fn deformed(
        vertices: wgpu::Buffer,
        indices: wgpu::Buffer,
        index_count: u32,
        bounds: (Vec3, Vec3),
        deform: DeformState,
    ) -> Self {
        Self {
            vertices,
            indices,
            index_count,
            bounds,
            deform: Some(deform),
        }
    }

    /// The deformable mesh this instance deforms, and how (`None`: a rigid mesh).
    #[must_use]
    pub fn deformed_from(&self) -> Option<(DeformableMeshId, DeformPath)> {
        self.deform.as_ref().map(|d| (d.source, d.path))
    }

    pub(crate) fn deform_state_mut(&mut self) -> Option<&mut DeformState> {
        self.deform.as_mut()
    }

    /// Points a deformed instance at its pool's new buffers (after the
    /// pool grew); its place in them is unchanged.
    pub(crate) fn set_pool_buffers(&mut self, current: &wgpu::Buffer, previous: &wgpu::Buffer) {
        if let Some(deform) = &mut self.deform {
            self.vertices = current.clone();
            deform.previous = previous.clone();
        }
    }

    pub(crate) fn set_bounds(&mut self, bounds: (Vec3, Vec3)) {
        self.bounds = bounds;
    }

    /// This frame's vertices (a deformed instance's part of its pool).
    pub(crate) fn vertex_slice(&self) -> wgpu::BufferSlice<'_> {
        match &self.deform {
            Some(deform) => self.vertices.slice(deform.range.clone()),
            None => self.vertices.slice(..),
        }
    }

    /// The vertices drawn the frame before: a deformed instance's previous
    /// pose, a rigid mesh's only vertices.
    pub(crate) fn previous_vertex_slice(&self) -> wgpu::BufferSlice<'_> {
        match &self.deform {
            Some(deform) => deform.previous.slice(deform.range.clone()),
            None => self.vertices.slice(..),
        }
    }

    /// Binds the buffers and draws `instances`.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, instances: std::ops::Range<u32>) {
        pass.set_vertex_buffer(0, self.vertex_slice());
        pass.set_index_buffer(self.indices.slice(..), wgpu::IndexFormat::Uint32);
        pass.draw_indexed(0..self.index_count, 0, instances);
    }

    /// The vertex and index buffers.
    pub(crate) fn buffers(&self) -> (&wgpu::Buffer, &wgpu::Buffer) {
        (&self.vertices, &self.indices)
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
