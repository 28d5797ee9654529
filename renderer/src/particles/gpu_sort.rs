//! Back-to-front order of an alpha-blended emitter's particles on the GPU
//! (`sort.wgsl`): keys, a bitonic sort, a gather into the buffer drawn.

use glam::{Mat4, Vec3};

use super::effect::MAX_GPU_PARTICLES;
use super::particle::PARTICLE_SIZE;
use super::pipelines::WORKGROUP;
use crate::features::gpu_util::uniform_entry;
use crate::features::storage_entry;

/// The compare distance and block size of one bitonic stage.
#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Stage {
    span: [u32; 4],
}

/// `sort.wgsl`'s `Sort`.
#[repr(C)]
#[derive(Debug, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
pub(crate) struct SortUniform {
    world: [[f32; 4]; 4],
    eye: [f32; 4],
    forward: [f32; 4],
    counts: [u32; 4],
}

impl SortUniform {
    pub(crate) fn new(world: Mat4, eye: Vec3, forward: Vec3, slots: u32) -> Self {
        Self {
            world: world.to_cols_array_2d(),
            eye: eye.extend(1.0).to_array(),
            forward: forward.extend(0.0).to_array(),
            counts: [slots, sorted_count(slots), 0, 0],
        }
    }
}

/// Pairs sorted for `slots` particles: the next power of two.
fn sorted_count(slots: u32) -> u32 {
    slots.max(2).next_power_of_two()
}

/// The stages `(j, k)` of a bitonic sort of `n` (a power of two) items, in
/// order: a sort of fewer items runs a prefix of a larger one's.
fn stages(n: u32) -> impl Iterator<Item = (u32, u32)> {
    let blocks =
        std::iter::successors(Some(2u32), |k| k.checked_mul(2)).take_while(move |k| *k <= n);
    blocks.flat_map(|k| {
        std::iter::successors(Some(k / 2), |j| (*j > 1).then_some(j / 2)).map(move |j| (j, k))
    })
}

/// The pipelines and the table of stages every sorted emitter shares.
#[derive(Debug)]
pub(crate) struct SortPipelines {
    layout: wgpu::BindGroupLayout,
    keys: wgpu::ComputePipeline,
    step: wgpu::ComputePipeline,
    gather: wgpu::ComputePipeline,
    stage_group: wgpu::BindGroup,
    stage_stride: u32,
}

/// One emitter's sort buffers.
#[derive(Debug)]
pub(crate) struct SortBuffers {
    pub(crate) uniform: wgpu::Buffer,
    pairs: wgpu::Buffer,
    /// The living particles, farthest first: what the draw reads.
    pub(crate) drawn: wgpu::Buffer,
    slots: u32,
}

impl SortBuffers {
    pub(crate) fn new(device: &wgpu::Device, slots: u32) -> Self {
        let storage = |label, size| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size,
                usage: wgpu::BufferUsages::STORAGE
                    | wgpu::BufferUsages::VERTEX
                    | wgpu::BufferUsages::COPY_SRC,
                mapped_at_creation: false,
            })
        };
        Self {
            uniform: crate::features::gpu_util::uniform_buffer(
                device,
                "particle sort",
                std::mem::size_of::<SortUniform>(),
            ),
            pairs: storage("particle sort pairs", u64::from(sorted_count(slots)) * 8),
            drawn: storage("particles sorted", u64::from(slots) * PARTICLE_SIZE),
            slots,
        }
    }
}

impl SortPipelines {
    pub(crate) fn new(device: &wgpu::Device, queue: &wgpu::Queue) -> Self {
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("particle sort"),
            entries: &[
                uniform_entry(0, false, wgpu::ShaderStages::COMPUTE),
                storage_entry(1, true, wgpu::ShaderStages::COMPUTE),
                storage_entry(2, false, wgpu::ShaderStages::COMPUTE),
                storage_entry(3, false, wgpu::ShaderStages::COMPUTE),
            ],
        });
        let stage_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("particle sort stage"),
            entries: &[uniform_entry(0, true, wgpu::ShaderStages::COMPUTE)],
        });
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("particles sort.wgsl"),
            source: wgpu::ShaderSource::Wgsl(crate::wgsl!("sort.wgsl")),
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("particle sort"),
            bind_group_layouts: &[Some(&layout), Some(&stage_layout)],
            immediate_size: 0,
        });
        let pipeline = |entry| {
            device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(entry),
                layout: Some(&pipeline_layout),
                module: &module,
                entry_point: Some(entry),
                compilation_options: Default::default(),
                cache: None,
            })
        };
        let stride = device
            .limits()
            .min_uniform_buffer_offset_alignment
            .max(std::mem::size_of::<Stage>() as u32);
        let all: Vec<(u32, u32)> = stages(MAX_GPU_PARTICLES.next_power_of_two()).collect();
        let mut table = vec![0u8; all.len() * stride as usize];
        for (i, (j, k)) in all.iter().enumerate() {
            let stage = Stage {
                span: [*j, *k, 0, 0],
            };
            let at = i * stride as usize;
            table[at..at + std::mem::size_of::<Stage>()]
                .copy_from_slice(bytemuck::bytes_of(&stage));
        }
        let stages_buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("particle sort stages"),
            size: table.len() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        queue.write_buffer(&stages_buffer, 0, &table);
        let stage_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("particle sort stage"),
            layout: &stage_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                    buffer: &stages_buffer,
                    offset: 0,
                    size: wgpu::BufferSize::new(std::mem::size_of::<Stage>() as u64),
                }),
            }],
        });
        Self {
            keys: pipeline("keys"),
            step: pipeline("sort_step"),
            gather: pipeline("gather"),
            layout,
            stage_group,
            stage_stride: stride,
        }
    }

    /// Records the sort of `ring` into `sort.drawn`.
    pub(crate) fn record(
        &self,
        pass: &mut wgpu::ComputePass<'_>,
        device: &wgpu::Device,
        ring: &wgpu::Buffer,
        sort: &SortBuffers,
    ) {
        let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("particle sort"),
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: sort.uniform.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: ring.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: sort.pairs.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 3,
                    resource: sort.drawn.as_entire_binding(),
                },
            ],
        });
        let count = sorted_count(sort.slots);
        let groups = count.div_ceil(WORKGROUP);
        pass.set_bind_group(0, &group, &[]);
        pass.set_bind_group(1, &self.stage_group, &[0]);
        pass.set_pipeline(&self.keys);
        pass.dispatch_workgroups(groups, 1, 1);
        pass.set_pipeline(&self.step);
        for (i, _) in stages(count).enumerate() {
            pass.set_bind_group(1, &self.stage_group, &[i as u32 * self.stage_stride]);
            pass.dispatch_workgroups(groups, 1, 1);
        }
        pass.set_pipeline(&self.gather);
        pass.dispatch_workgroups(sort.slots.div_ceil(WORKGROUP), 1, 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stages sort on the CPU as the shader does.
    #[test]
    fn the_stages_sort_any_power_of_two() {
        for n in [2u32, 8, 64, 1024] {
            let mut keys: Vec<u32> = (0..n).map(|i| (i * 7919 + 13) % 101).collect();
            for (j, k) in stages(n) {
                for i in 0..n {
                    let partner = i ^ j;
                    if partner > i {
                        let ascending = i & k == 0;
                        let (a, b) = (keys[i as usize], keys[partner as usize]);
                        if (a > b) == ascending {
                            keys.swap(i as usize, partner as usize);
                        }
                    }
                }
            }
            assert!(keys.windows(2).all(|w| w[0] <= w[1]), "{n}: {keys:?}");
        }
        assert_eq!(stages(1 << 21).count(), 21 * 22 / 2);
    }
}
