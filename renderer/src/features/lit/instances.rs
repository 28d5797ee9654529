//! Instanced drawing: the frame's sorted draws grouped into batches of one
//! mesh and one material, whose per-instance transforms sit side by side in
//! one vertex buffer (stepped per instance), so a field of identical rocks
//! is one draw call.
//!
//! Opaque draws are grouped by material then mesh, front to back within a
//! group (a full sort on a unique key: no allocation, deterministic).
//! Transparent draws keep their back-to-front order and only merge runs of
//! neighbours with the same mesh and material.

use std::ops::Range;

use glam::Mat4;

use crate::frame::{DrawBuckets, SortedDraw};
use crate::resources::{MaterialId, MeshId};

/// Per-instance data: the model matrix and the normal matrix (3 columns).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub(crate) struct InstanceData {
    model: [[f32; 4]; 4],
    normal: [[f32; 4]; 3],
}

impl InstanceData {
    fn of(draw: &SortedDraw) -> Self {
        let model = Mat4::from(draw.item.world);
        let normal = model.inverse().transpose();
        Self {
            model: model.to_cols_array_2d(),
            normal: [
                normal.x_axis.to_array(),
                normal.y_axis.to_array(),
                normal.z_axis.to_array(),
            ],
        }
    }
}

/// The instance buffer's layout: locations 3-9 (model columns, then normal
/// columns), after the mesh's position, normal and uv.
pub(crate) const INSTANCE_LAYOUT: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {
    array_stride: std::mem::size_of::<InstanceData>() as wgpu::BufferAddress,
    step_mode: wgpu::VertexStepMode::Instance,
    attributes: &wgpu::vertex_attr_array![
        3 => Float32x4, 4 => Float32x4, 5 => Float32x4, 6 => Float32x4,
        7 => Float32x4, 8 => Float32x4, 9 => Float32x4
    ],
};

/// Instances of one mesh with one material: one draw call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Batch {
    pub(crate) mesh: MeshId,
    pub(crate) material: MaterialId,
    pub(crate) instances: Range<u32>,
}

/// This frame's batches and their instance buffer.
#[derive(Debug, Default)]
pub(crate) struct Batches {
    /// Group equal mesh+material pairs into one draw (`false`: one draw per
    /// item, in bucket order; kept for comparison benches).
    pub(crate) instancing: bool,
    pub(crate) opaque: Vec<Batch>,
    pub(crate) transparent: Vec<Batch>,
    instances: Vec<InstanceData>,
    order: Vec<(u32, u32, u32)>,
    buffer: Option<wgpu::Buffer>,
}

impl Batches {
    pub(crate) fn new() -> Self {
        Self {
            instancing: true,
            ..Self::default()
        }
    }

    /// Rebuilds the batches from `buckets` and uploads the instances.
    pub(crate) fn update(
        &mut self,
        buckets: &DrawBuckets,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) {
        self.build(buckets);
        let bytes: &[u8] = bytemuck::cast_slice(&self.instances);
        if bytes.is_empty() {
            return;
        }
        if self
            .buffer
            .as_ref()
            .is_none_or(|b| b.size() < bytes.len() as u64)
        {
            let capacity = self.instances.len().next_power_of_two().max(64);
            self.buffer = Some(device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("instances"),
                size: (capacity * std::mem::size_of::<InstanceData>()) as u64,
                usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }));
        }
        if let Some(buffer) = &self.buffer {
            queue.write_buffer(buffer, 0, bytes);
        }
    }

    /// The instance buffer (none before the first instance).
    pub(crate) fn buffer(&self) -> Option<&wgpu::Buffer> {
        self.buffer.as_ref()
    }

    /// Draw calls this frame.
    pub(crate) fn draw_calls(&self) -> usize {
        self.opaque.len() + self.transparent.len()
    }

    fn build(&mut self, buckets: &DrawBuckets) {
        self.instances.clear();
        self.opaque.clear();
        self.transparent.clear();
        self.order.clear();
        if self.instancing {
            self.order.extend(
                buckets
                    .opaque
                    .iter()
                    .enumerate()
                    .map(|(i, d)| (d.item.material.0, d.item.mesh.0, i as u32)),
            );
            self.order.sort_unstable();
            let order = std::mem::take(&mut self.order);
            for &(_, _, i) in &order {
                push(
                    &mut self.instances,
                    &mut self.opaque,
                    &buckets.opaque[i as usize],
                    true,
                );
            }
            self.order = order;
        } else {
            for draw in &buckets.opaque {
                push(&mut self.instances, &mut self.opaque, draw, false);
            }
        }
        for draw in &buckets.transparent {
            push(
                &mut self.instances,
                &mut self.transparent,
                draw,
                self.instancing,
            );
        }
    }
}

/// Appends `draw`'s instance, extending the last batch when it has the same
/// mesh and material and `merge` is on.
fn push(
    instances: &mut Vec<InstanceData>,
    batches: &mut Vec<Batch>,
    draw: &SortedDraw,
    merge: bool,
) {
    let index = instances.len() as u32;
    instances.push(InstanceData::of(draw));
    if merge
        && let Some(last) = batches.last_mut()
        && last.mesh == draw.item.mesh
        && last.material == draw.item.material
    {
        last.instances.end = index + 1;
        return;
    }
    batches.push(Batch {
        mesh: draw.item.mesh,
        material: draw.item.material,
        instances: index..index + 1,
    });
}

#[cfg(test)]
mod tests {
    use glam::{Affine3A, Vec3};

    use super::*;
    use crate::frame::DrawItem;

    fn draw(mesh: u32, material: u32, depth: f32) -> SortedDraw {
        let world = Affine3A::from_translation(Vec3::Z * depth);
        SortedDraw {
            item: DrawItem {
                mesh: MeshId(mesh),
                material: MaterialId(material),
                world,
                cast_shadows: false,
            },
            depth,
            previous_world: world,
        }
    }

    fn buckets(opaque: Vec<SortedDraw>, transparent: Vec<SortedDraw>) -> DrawBuckets {
        DrawBuckets {
            opaque,
            transparent,
            ..DrawBuckets::default()
        }
    }

    #[test]
    fn equal_pairs_become_one_draw_front_to_back_within_it() {
        let mut batches = Batches::new();
        let opaque = vec![
            draw(0, 0, 1.0),
            draw(1, 0, 2.0),
            draw(0, 0, 3.0),
            draw(0, 1, 4.0),
        ];
        batches.build(&buckets(opaque, Vec::new()));
        let pairs: Vec<_> = batches
            .opaque
            .iter()
            .map(|b| (b.mesh.0, b.material.0, b.instances.clone()))
            .collect();
        assert_eq!(pairs, [(0, 0, 0..2), (1, 0, 2..3), (0, 1, 3..4)]);
        // Within the first batch, the nearer instance comes first.
        assert_eq!(batches.instances[0].model[3][2], 1.0);
        assert_eq!(batches.instances[1].model[3][2], 3.0);
    }

    #[test]
    fn transparent_order_is_kept_and_only_neighbours_merge() {
        let mut batches = Batches::new();
        let transparent = vec![
            draw(0, 0, 3.0),
            draw(0, 0, 2.0),
            draw(1, 0, 1.5),
            draw(0, 0, 1.0),
        ];
        batches.build(&buckets(Vec::new(), transparent));
        let ranges: Vec<_> = batches
            .transparent
            .iter()
            .map(|b| b.instances.clone())
            .collect();
        assert_eq!(ranges, [0..2, 2..3, 3..4]);
    }

    #[test]
    fn without_instancing_every_item_is_its_own_draw() {
        let mut batches = Batches::new();
        batches.instancing = false;
        batches.build(&buckets(vec![draw(0, 0, 1.0), draw(0, 0, 2.0)], Vec::new()));
        assert_eq!(batches.draw_calls(), 2);
    }
}
