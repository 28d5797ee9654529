//! Chunk geometry on the GPU: one instance buffer per chunk (opaque quads,
//! then transparent quads) and one slot per chunk in a uniform buffer of
//! chunk origins, bound with a dynamic offset.

use std::collections::HashMap;
use taos_engine::renderer::wgpu;

use glam::{Mat4, Vec3, Vec4};
use taos_engine::renderer::resources::uniform_slab;

use crate::mesh::{ChunkMesh, PackedQuad};
use crate::world::{CHUNK_SIZE, ChunkPos};

/// Stride between chunk origins: the dynamic-offset alignment every device
/// accepts.
pub(crate) const ORIGIN_STRIDE: u64 = 256;
const QUAD_BYTES: u64 = std::mem::size_of::<PackedQuad>() as u64;

/// One resident chunk.
#[derive(Debug)]
pub(crate) struct GpuChunk {
    pub(crate) pos: ChunkPos,
    pub(crate) buffer: wgpu::Buffer,
    /// Quads the buffer holds room for.
    capacity: u64,
    pub(crate) opaque: u32,
    pub(crate) transparent: u32,
}

impl GpuChunk {
    /// The opaque quads.
    pub(crate) fn opaque_slice(&self) -> wgpu::BufferSlice<'_> {
        self.buffer.slice(..u64::from(self.opaque) * QUAD_BYTES)
    }

    /// The transparent quads.
    pub(crate) fn transparent_slice(&self) -> wgpu::BufferSlice<'_> {
        let start = u64::from(self.opaque) * QUAD_BYTES;
        self.buffer
            .slice(start..start + u64::from(self.transparent) * QUAD_BYTES)
    }
}

/// Every resident chunk, by slot.
#[derive(Debug)]
pub(crate) struct ChunkStore {
    slots: Vec<Option<GpuChunk>>,
    index: HashMap<ChunkPos, u32>,
    free: Vec<u32>,
    layout: wgpu::BindGroupLayout,
    origins: wgpu::Buffer,
    origin_capacity: u32,
    group: wgpu::BindGroup,
    staging: Vec<PackedQuad>,
    /// Bumped by every change to the resident geometry.
    version: u64,
}

fn origin_storage(
    device: &wgpu::Device,
    layout: &wgpu::BindGroupLayout,
    capacity: u32,
) -> (wgpu::Buffer, wgpu::BindGroup) {
    uniform_slab(
        device,
        layout,
        "crafty chunk origins",
        ORIGIN_STRIDE,
        u64::from(capacity),
        16,
    )
}

/// The layout of the chunk origin's bind group (group 1 of every pipeline
/// that draws chunk quads: `chunk` in `shaders/quad.wgsl`).
fn chunk_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("crafty chunk"),
        entries: &[wgpu::BindGroupLayoutEntry {
            binding: 0,
            visibility: wgpu::ShaderStages::VERTEX,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: true,
                min_binding_size: wgpu::BufferSize::new(16),
            },
            count: None,
        }],
    })
}

/// Which of a chunk's quads a draw takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Quads {
    Opaque,
    Transparent,
}

impl ChunkStore {
    pub(crate) fn new(device: &wgpu::Device) -> Self {
        let layout = chunk_layout(device);
        let origin_capacity = 64;
        let (origins, group) = origin_storage(device, &layout, origin_capacity);
        Self {
            slots: Vec::new(),
            index: HashMap::new(),
            free: Vec::new(),
            layout,
            origins,
            origin_capacity,
            group,
            staging: Vec::new(),
            version: 0,
        }
    }

    /// Uploads `mesh` as chunk `pos`, reusing its buffer when it is big
    /// enough; an empty mesh removes the chunk.
    pub(crate) fn set(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        pos: ChunkPos,
        mesh: &ChunkMesh,
    ) {
        if mesh.is_empty() {
            self.remove(pos);
            return;
        }
        self.version += 1;
        self.staging.clear();
        self.staging.extend_from_slice(&mesh.opaque);
        self.staging.extend_from_slice(&mesh.transparent);
        let quads = self.staging.len() as u64;
        let slot = match self.index.get(&pos) {
            Some(&slot) => slot,
            None => self.allocate(device, queue, pos),
        };
        let entry = &mut self.slots[slot as usize];
        let reuse = entry.as_ref().is_some_and(|c| c.capacity >= quads);
        if !reuse {
            let capacity = quads.next_power_of_two().max(64);
            let buffer = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("crafty chunk quads"),
                size: capacity * QUAD_BYTES,
                usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            *entry = Some(GpuChunk {
                pos,
                buffer,
                capacity,
                opaque: 0,
                transparent: 0,
            });
        }
        if let Some(chunk) = entry {
            queue.write_buffer(&chunk.buffer, 0, bytemuck::cast_slice(&self.staging));
            chunk.opaque = mesh.opaque.len() as u32;
            chunk.transparent = mesh.transparent.len() as u32;
        }
    }

    /// Frees chunk `pos`'s slot and buffer.
    pub(crate) fn remove(&mut self, pos: ChunkPos) {
        if let Some(slot) = self.index.remove(&pos) {
            self.version += 1;
            self.slots[slot as usize] = None;
            self.free.push(slot);
        }
    }

    fn allocate(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, pos: ChunkPos) -> u32 {
        let slot = self.free.pop().unwrap_or_else(|| {
            self.slots.push(None);
            (self.slots.len() - 1) as u32
        });
        self.index.insert(pos, slot);
        if slot >= self.origin_capacity {
            self.origin_capacity = (slot + 1).next_power_of_two();
            (self.origins, self.group) = origin_storage(device, &self.layout, self.origin_capacity);
            for (i, chunk) in self.slots.iter().enumerate() {
                if let Some(chunk) = chunk {
                    self.write_origin(queue, i as u32, chunk.pos);
                }
            }
        }
        self.write_origin(queue, slot, pos);
        slot
    }

    fn write_origin(&self, queue: &wgpu::Queue, slot: u32, pos: ChunkPos) {
        let origin = pos.origin().as_vec3().extend(0.0);
        queue.write_buffer(
            &self.origins,
            u64::from(slot) * ORIGIN_STRIDE,
            bytemuck::bytes_of(&origin.to_array()),
        );
    }

    /// The chunk in `slot`.
    pub(crate) fn get(&self, slot: u32) -> Option<&GpuChunk> {
        self.slots.get(slot as usize).and_then(Option::as_ref)
    }

    /// The dynamic offset of `slot`'s origin.
    fn origin_offset(slot: u32) -> u32 {
        (u64::from(slot) * ORIGIN_STRIDE) as u32
    }

    /// The layout of [`group`](Self::group), the chunk origin: group 1 of
    /// the pipelines that draw chunk quads.
    pub(crate) fn layout(&self) -> &wgpu::BindGroupLayout {
        &self.layout
    }

    /// Draws `quads` of the chunks in `slots`, in that order (the pipeline
    /// bound, its chunk origin as group 1); missing slots are skipped.
    pub(crate) fn draw(
        &self,
        rp: &mut wgpu::RenderPass<'_>,
        slots: impl IntoIterator<Item = u32>,
        quads: Quads,
    ) {
        for slot in slots {
            let Some(chunk) = self.get(slot) else {
                continue;
            };
            rp.set_bind_group(1, &self.group, &[Self::origin_offset(slot)]);
            match quads {
                Quads::Opaque => {
                    rp.set_vertex_buffer(0, chunk.opaque_slice());
                    rp.draw(0..6, 0..chunk.opaque);
                }
                Quads::Transparent => {
                    rp.set_vertex_buffer(0, chunk.transparent_slice());
                    rp.draw(0..6, 0..chunk.transparent);
                }
            }
        }
    }

    /// Resident chunks with their slots.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (u32, &GpuChunk)> {
        self.slots
            .iter()
            .enumerate()
            .filter_map(|(slot, chunk)| chunk.as_ref().map(|c| (slot as u32, c)))
    }

    /// A number that changes whenever a chunk is set or removed.
    pub(crate) fn version(&self) -> u64 {
        self.version
    }

    /// Number of resident chunks.
    pub(crate) fn len(&self) -> usize {
        self.index.len()
    }
}

/// Whether the chunk at `pos` may be visible through `view_proj` (false only
/// when all eight corners of its box lie outside one clip plane).
pub(crate) fn chunk_visible(view_proj: &Mat4, pos: ChunkPos) -> bool {
    let min = pos.origin().as_vec3();
    let size = CHUNK_SIZE as f32;
    let corners: [Vec4; 8] = std::array::from_fn(|i| {
        let corner = min + Vec3::new((i & 1) as f32, ((i >> 1) & 1) as f32, (i >> 2) as f32) * size;
        *view_proj * corner.extend(1.0)
    });
    let outside = |test: &dyn Fn(&Vec4) -> bool| corners.iter().all(test);
    !(outside(&|c| c.x < -c.w)
        || outside(&|c| c.x > c.w)
        || outside(&|c| c.y < -c.w)
        || outside(&|c| c.y > c.w)
        || outside(&|c| c.z < 0.0)
        || outside(&|c| c.z > c.w))
}

/// Whether the box of chunk `pos` overlaps the clip volume of an affine
/// (orthographic) `view_proj`: x and y in -1..1, depth in 0..1. Exact for
/// such a matrix, and one transform instead of eight.
pub(crate) fn chunk_in_ortho_volume(view_proj: &Mat4, pos: ChunkPos) -> bool {
    let half = CHUNK_SIZE as f32 * 0.5;
    let center = *view_proj * chunk_center(pos).extend(1.0);
    // The box's half-extent along each clip axis: the absolute row sums.
    let extent = |row: Vec4| (row.x.abs() + row.y.abs() + row.z.abs()) * half;
    let (ex, ey, ez) = (
        extent(view_proj.row(0)),
        extent(view_proj.row(1)),
        extent(view_proj.row(2)),
    );
    center.x - ex <= 1.0
        && center.x + ex >= -1.0
        && center.y - ey <= 1.0
        && center.y + ey >= -1.0
        && center.z - ez <= 1.0
        && center.z + ez >= 0.0
}

/// The centre of chunk `pos` in world space.
pub(crate) fn chunk_center(pos: ChunkPos) -> Vec3 {
    pos.origin().as_vec3() + Vec3::splat(CHUNK_SIZE as f32 * 0.5)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn culling_keeps_chunks_in_front_and_drops_those_behind() {
        let eye = Vec3::new(16.0, 40.0, 16.0);
        let view = glam::camera::rh::view::look_at_mat4(eye, eye + Vec3::NEG_Z, Vec3::Y);
        let proj = glam::camera::rh::proj::directx::perspective(1.0, 1.0, 0.1, 200.0);
        let vp = proj * view;
        assert!(
            chunk_visible(&vp, ChunkPos::new(0, 1, 0)),
            "the camera's own chunk"
        );
        assert!(chunk_visible(&vp, ChunkPos::new(0, 1, -2)), "ahead");
        assert!(!chunk_visible(&vp, ChunkPos::new(0, 1, 3)), "behind");
        assert!(
            !chunk_visible(&vp, ChunkPos::new(0, 1, -10)),
            "beyond the far plane"
        );
    }

    #[test]
    fn the_ortho_test_agrees_with_the_corner_test() {
        let towards_light = Vec3::new(0.5, 0.8, 0.3).normalize();
        let center = Vec3::new(20.0, 60.0, -10.0);
        let view =
            glam::camera::rh::view::look_at_mat4(center + towards_light * 80.0, center, Vec3::Y);
        let proj =
            glam::camera::rh::proj::directx::orthographic(-40.0, 40.0, -40.0, 40.0, 0.0, 160.0);
        let vp = proj * view;
        let mut inside = 0;
        for x in -6..6 {
            for y in -2..6 {
                for z in -6..6 {
                    let pos = ChunkPos::new(x, y, z);
                    assert_eq!(
                        chunk_in_ortho_volume(&vp, pos),
                        chunk_visible(&vp, pos),
                        "{pos:?}"
                    );
                    inside += usize::from(chunk_visible(&vp, pos));
                }
            }
        }
        assert!(inside > 10 && inside < 12 * 8 * 12, "{inside}");
    }
}
