//! Chunk geometry on the GPU: one instance buffer per chunk (opaque quads,
//! then transparent quads) and one slot per chunk in a uniform buffer of
//! chunk placements (corner, cell scale, fade), bound with a dynamic
//! offset. Far terrain sections ([`crate::lod`]) are chunks of cells
//! wider than a block, placed the same way. Freed buffers are pooled for
//! the next chunks.

use std::collections::HashMap;
use taos_engine::renderer::wgpu;

use glam::{IVec2, Mat4, Vec3, Vec4};
use taos_engine::renderer::resources::uniform_slab;

use crate::lod::LodTile;
use crate::mesh::{ChunkMesh, PackedQuad};
use crate::world::{CHUNK_SIZE, ChunkPos};

/// Stride between chunk placements: the dynamic-offset alignment every
/// device accepts.
pub(crate) const ORIGIN_STRIDE: u64 = 256;
const QUAD_BYTES: u64 = std::mem::size_of::<PackedQuad>() as u64;
/// Frames a far section takes to fade in (dithered) after it arrives.
pub(crate) const FADE_FRAMES: u64 = 20;
/// Quad capacity kept in the pool of freed buffers at most (8 MiB).
const POOL_QUADS: u64 = 1 << 20;

/// What a resident chunk is: a world chunk, or a section of a far tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum ChunkKey {
    /// A world chunk, one cell a block.
    Chunk(ChunkPos),
    /// Section `1` (from the bottom) of far tile `0`.
    Far(LodTile, i32),
}

impl ChunkKey {
    /// Where its cell `(0, 0, 0)` is, and a cell's size in blocks.
    pub(crate) fn placement(self) -> (Vec3, Vec3) {
        match self {
            Self::Chunk(pos) => (pos.origin().as_vec3(), Vec3::ONE),
            Self::Far(tile, section) => tile.section_transform(section),
        }
    }

    /// The chunk column of a world chunk.
    pub(crate) fn column(self) -> Option<IVec2> {
        match self {
            Self::Chunk(pos) => Some(IVec2::new(pos.0.x, pos.0.z)),
            Self::Far(..) => None,
        }
    }
}

/// One resident chunk.
#[derive(Debug)]
pub(crate) struct GpuChunk {
    pub(crate) key: ChunkKey,
    /// Its box's lowest corner, and the box's size (blocks).
    pub(crate) min: Vec3,
    pub(crate) size: Vec3,
    pub(crate) buffer: wgpu::Buffer,
    /// Quads the buffer holds room for.
    capacity: u64,
    pub(crate) opaque: u32,
    pub(crate) transparent: u32,
    /// The frame its fade-in started, while it fades in.
    fade_from: Option<u64>,
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

    /// Its box's centre.
    pub(crate) fn center(&self) -> Vec3 {
        self.min + self.size * 0.5
    }
}

/// Every resident chunk, by slot.
#[derive(Debug)]
pub(crate) struct ChunkStore {
    slots: Vec<Option<GpuChunk>>,
    index: HashMap<ChunkKey, u32>,
    free: Vec<u32>,
    /// Freed buffers and their capacities in quads, for new chunks.
    pool: Vec<(u64, wgpu::Buffer)>,
    layout: wgpu::BindGroupLayout,
    origins: wgpu::Buffer,
    origin_capacity: u32,
    group: wgpu::BindGroup,
    staging: Vec<PackedQuad>,
    /// Bumped by every change to the resident geometry.
    version: u64,
    /// Frames drawn, for fades.
    frame: u64,
}

/// A chunk's placement in its uniform slot: corner (w: fade, 0 to 1) and
/// cell scale.
const PLACEMENT_BYTES: u64 = 32;

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
        PLACEMENT_BYTES,
    )
}

/// The layout of the chunk placement's bind group (group 1 of every
/// pipeline that draws chunk quads: `chunk` in `shaders/quad.wgsl`).
fn chunk_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("crafty chunk"),
        entries: &[wgpu::BindGroupLayoutEntry {
            binding: 0,
            visibility: wgpu::ShaderStages::VERTEX,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Uniform,
                has_dynamic_offset: true,
                min_binding_size: wgpu::BufferSize::new(PLACEMENT_BYTES),
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
            pool: Vec::new(),
            layout,
            origins,
            origin_capacity,
            group,
            staging: Vec::new(),
            version: 0,
            frame: 0,
        }
    }

    /// Uploads `mesh` as chunk `key`, reusing its buffer (or a pooled one)
    /// when it is big enough; an empty mesh removes the chunk. With `fade`,
    /// a chunk new to its slot fades in over [`FADE_FRAMES`].
    pub(crate) fn set(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        key: ChunkKey,
        mesh: &ChunkMesh,
        fade: bool,
    ) {
        if mesh.is_empty() {
            self.remove(key);
            return;
        }
        self.version += 1;
        self.staging.clear();
        self.staging.extend_from_slice(&mesh.opaque);
        self.staging.extend_from_slice(&mesh.transparent);
        let quads = self.staging.len() as u64;
        let (slot, fresh) = match self.index.get(&key) {
            Some(&slot) => (slot, false),
            None => (self.allocate(device, queue, key), true),
        };
        let entry = &mut self.slots[slot as usize];
        let reuse = entry.as_ref().is_some_and(|c| c.capacity >= quads);
        if !reuse {
            if let Some(old) = entry.take() {
                give_back(&mut self.pool, old.capacity, old.buffer);
            }
            let (capacity, buffer) = take_buffer(&mut self.pool, device, quads);
            let (corner, scale) = key.placement();
            *entry = Some(GpuChunk {
                key,
                min: corner,
                size: scale * CHUNK_SIZE as f32,
                buffer,
                capacity,
                opaque: 0,
                transparent: 0,
                fade_from: None,
            });
        }
        if let Some(chunk) = entry {
            queue.write_buffer(&chunk.buffer, 0, bytemuck::cast_slice(&self.staging));
            chunk.opaque = mesh.opaque.len() as u32;
            chunk.transparent = mesh.transparent.len() as u32;
            if fresh && fade {
                chunk.fade_from = Some(self.frame);
            }
        }
        self.write_origin(queue, slot);
    }

    /// Frees chunk `key`'s slot, pooling its buffer.
    pub(crate) fn remove(&mut self, key: ChunkKey) {
        if let Some(slot) = self.index.remove(&key) {
            self.version += 1;
            if let Some(old) = self.slots[slot as usize].take() {
                give_back(&mut self.pool, old.capacity, old.buffer);
            }
            self.free.push(slot);
        }
    }

    /// Starts a new frame: moves every fade on by one frame.
    pub(crate) fn advance_fades(&mut self, queue: &wgpu::Queue) {
        self.frame += 1;
        let fading: Vec<u32> = self
            .iter()
            .filter(|(_, c)| c.fade_from.is_some())
            .map(|(slot, _)| slot)
            .collect();
        for slot in fading {
            self.write_origin(queue, slot);
            let frame = self.frame;
            if let Some(chunk) = self.slots[slot as usize].as_mut()
                && chunk
                    .fade_from
                    .is_some_and(|from| frame >= from + FADE_FRAMES)
            {
                chunk.fade_from = None;
            }
        }
    }

    fn allocate(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, key: ChunkKey) -> u32 {
        let slot = self.free.pop().unwrap_or_else(|| {
            self.slots.push(None);
            (self.slots.len() - 1) as u32
        });
        self.index.insert(key, slot);
        if slot >= self.origin_capacity {
            self.origin_capacity = (slot + 1).next_power_of_two();
            (self.origins, self.group) = origin_storage(device, &self.layout, self.origin_capacity);
            for i in 0..self.slots.len() as u32 {
                self.write_origin(queue, i);
            }
        }
        slot
    }

    /// Writes `slot`'s placement: its corner, its fade and its cell scale.
    fn write_origin(&self, queue: &wgpu::Queue, slot: u32) {
        let Some(chunk) = self.get(slot) else { return };
        let (corner, scale) = chunk.key.placement();
        let fade = chunk.fade_from.map_or(1.0, |from| {
            ((self.frame - from) as f32 / FADE_FRAMES as f32).clamp(0.0, 1.0)
        });
        let placement = [corner.extend(fade).to_array(), scale.extend(0.0).to_array()];
        queue.write_buffer(
            &self.origins,
            u64::from(slot) * ORIGIN_STRIDE,
            bytemuck::cast_slice(&placement),
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

    /// The layout of [`group`](Self::group), the chunk placement: group 1
    /// of the pipelines that draw chunk quads.
    pub(crate) fn layout(&self) -> &wgpu::BindGroupLayout {
        &self.layout
    }

    /// Draws `quads` of the chunks in `slots`, in that order (the pipeline
    /// bound, its chunk placement as group 1); missing slots are skipped.
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

    /// Number of resident chunks (far sections included).
    pub(crate) fn len(&self) -> usize {
        self.index.len()
    }

    /// Bytes of quad buffers: resident, and pooled for reuse.
    pub(crate) fn buffer_bytes(&self) -> (u64, u64) {
        let resident = self.iter().map(|(_, c)| c.capacity).sum::<u64>();
        let pooled = self.pool.iter().map(|(c, _)| c).sum::<u64>();
        (resident * QUAD_BYTES, pooled * QUAD_BYTES)
    }
}

/// A buffer of at least `quads` quads: the smallest pooled one that fits
/// (and is at most four times too big), or a new one.
fn take_buffer(
    pool: &mut Vec<(u64, wgpu::Buffer)>,
    device: &wgpu::Device,
    quads: u64,
) -> (u64, wgpu::Buffer) {
    let capacity = quads.next_power_of_two().max(64);
    let best = pool
        .iter()
        .enumerate()
        .filter(|(_, (c, _))| *c >= capacity && *c <= capacity * 4)
        .min_by_key(|(_, (c, _))| *c)
        .map(|(i, _)| i);
    if let Some(i) = best {
        return pool.swap_remove(i);
    }
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("crafty chunk quads"),
        size: capacity * QUAD_BYTES,
        usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    (capacity, buffer)
}

/// Keeps a freed buffer for reuse while the pool holds less than
/// [`POOL_QUADS`]; otherwise it is dropped.
fn give_back(pool: &mut Vec<(u64, wgpu::Buffer)>, capacity: u64, buffer: wgpu::Buffer) {
    let pooled: u64 = pool.iter().map(|(c, _)| c).sum();
    if pooled + capacity <= POOL_QUADS {
        pool.push((capacity, buffer));
    }
}

/// Whether the chunk at `pos` may be visible through `view_proj` (false only
/// when all eight corners of its box lie outside one clip plane).
#[cfg(test)]
pub(crate) fn chunk_visible(view_proj: &Mat4, pos: ChunkPos) -> bool {
    box_visible(
        view_proj,
        pos.origin().as_vec3(),
        Vec3::splat(CHUNK_SIZE as f32),
    )
}

/// Whether the box `min..min + size` may be visible through `view_proj`
/// (false only when all eight corners lie outside one clip plane).
pub(crate) fn box_visible(view_proj: &Mat4, min: Vec3, size: Vec3) -> bool {
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
#[cfg(test)]
pub(crate) fn chunk_in_ortho_volume(view_proj: &Mat4, pos: ChunkPos) -> bool {
    let size = Vec3::splat(CHUNK_SIZE as f32);
    box_in_ortho_volume(view_proj, pos.origin().as_vec3(), size)
}

/// [`chunk_in_ortho_volume`] for the box `min..min + size`.
pub(crate) fn box_in_ortho_volume(view_proj: &Mat4, min: Vec3, size: Vec3) -> bool {
    let half = size * 0.5;
    let center = *view_proj * (min + half).extend(1.0);
    // The box's half-extent along each clip axis.
    let extent = |row: Vec4| row.x.abs() * half.x + row.y.abs() * half.y + row.z.abs() * half.z;
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
