//! The tiled light culler: a compute pass that bins point and spot lights
//! into 16 x 16-pixel screen tiles against a depth buffer, and the tile
//! lists' bind group for the shading passes that read them. Shared by the
//! forward-plus feature, the deferred point/spot lights and the
//! forward-plus transparency overlay.

use super::{TILE_SIZE, storage_entry};
use crate::GpuContext;
use crate::features::counter_readback::CounterReadback;
use crate::features::gpu_util::{uniform_buffer, uniform_entry};
use crate::features::lit::{LightBuffer, TileParams, light_wgsl};
use crate::frame::CameraView;
use crate::graph::{
    BufferDesc, BufferHandle, ImportedBuffer, PassResources, RenderGraph, TextureHandle,
};

#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct CullUniform {
    inv_proj: [[f32; 4]; 4],
    view: [[f32; 4]; 4],
    screen: [u32; 4],
    params: [u32; 4],
}

/// The cull pipeline, its uniform, the overflow counter and its read-back.
#[derive(Debug)]
pub(crate) struct LightCuller {
    label: &'static str,
    pipeline: wgpu::ComputePipeline,
    layout: wgpu::BindGroupLayout,
    uniform: wgpu::Buffer,
    tiles_layout: wgpu::BindGroupLayout,
    counters: wgpu::Buffer,
    readback: CounterReadback,
    tiles: TileParams,
    down: u32,
    /// This frame's read-back slot for the overflow counter.
    readback_slot: Option<wgpu::Buffer>,
    overflowed: u32,
    warned_overflow: bool,
}

fn depth_entry(binding: u32) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Texture {
            sample_type: wgpu::TextureSampleType::Depth,
            view_dimension: wgpu::TextureViewDimension::D2,
            multisampled: false,
        },
        count: None,
    }
}

impl LightCuller {
    /// A culler whose passes, buffers and warnings are named after `label`.
    pub(crate) fn new(device: &wgpu::Device, label: &'static str) -> Self {
        let compute = wgpu::ShaderStages::COMPUTE;
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("light cull"),
            entries: &[
                uniform_entry(0, false, compute),
                storage_entry(1, true, compute),
                depth_entry(2),
                storage_entry(3, false, compute),
                storage_entry(4, false, compute),
                depth_entry(5),
            ],
        });
        let tiles_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("light tiles"),
            entries: &[storage_entry(0, true, wgpu::ShaderStages::FRAGMENT)],
        });
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("forward_plus cull.wgsl"),
            source: wgpu::ShaderSource::Wgsl(
                format!(
                    "{LIGHT_WGSL}{}",
                    crate::wgsl!("cull.wgsl"),
                    LIGHT_WGSL = light_wgsl()
                )
                .into(),
            ),
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("light cull"),
            layout: Some(
                &device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                    label: Some("light cull"),
                    bind_group_layouts: &[Some(&layout)],
                    immediate_size: 0,
                }),
            ),
            module: &module,
            entry_point: Some("cull_lights"),
            compilation_options: Default::default(),
            cache: None,
        });
        let counters = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("light cull counters"),
            size: 4,
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_SRC
                | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        Self {
            label,
            pipeline,
            layout,
            uniform: uniform_buffer(
                device,
                "light cull uniform",
                std::mem::size_of::<CullUniform>(),
            ),
            tiles_layout,
            counters,
            readback: CounterReadback::new(device, 3),
            tiles: TileParams::default(),
            down: 0,
            readback_slot: None,
            overflowed: 0,
            warned_overflow: false,
        }
    }

    /// The tile layout of the current frame (for the frame uniform).
    pub(crate) fn tiles(&self) -> TileParams {
        self.tiles
    }

    /// The layout of the tile lists' bind group (one read-only storage
    /// buffer for the fragment stage).
    pub(crate) fn tiles_layout(&self) -> &wgpu::BindGroupLayout {
        &self.tiles_layout
    }

    /// Sets this frame's tile grid for `size` with up to `per_tile` lights a
    /// tile, before the lit uniform is written (it carries the grid).
    pub(crate) fn set_grid(&mut self, size: (u32, u32), per_tile: u32) {
        let (width, height) = size;
        self.tiles = TileParams {
            size: TILE_SIZE,
            across: width.div_ceil(TILE_SIZE),
            per_tile: per_tile.max(1),
        };
        self.down = height.div_ceil(TILE_SIZE);
    }

    /// Uploads this frame's cull uniform for `lights` lights seen from
    /// `camera`, resets the overflow counter and picks up the last count
    /// that came back (logged the first time it is non-zero).
    pub(crate) fn update(
        &mut self,
        gpu: &GpuContext,
        camera: &CameraView,
        size: (u32, u32),
        lights: u32,
    ) {
        let per_tile = self.tiles.per_tile;
        let uniform = CullUniform {
            inv_proj: camera.depth_projection().inverse().to_cols_array_2d(),
            view: camera.view.to_cols_array_2d(),
            screen: [size.0, size.1, self.tiles.across, self.down],
            params: [lights, per_tile, 0, 0],
        };
        let queue = gpu.queue();
        queue.write_buffer(&self.uniform, 0, bytemuck::bytes_of(&uniform));
        queue.write_buffer(&self.counters, 0, &0u32.to_le_bytes());
        self.readback_slot = self.readback.begin_frame(gpu.device());
        self.overflowed = self.readback.latest().unwrap_or(0);
        if self.overflowed > 0 && !self.warned_overflow {
            self.warned_overflow = true;
            log::warn!(
                "{}: {} screen tiles had more than {per_tile} lights and shaded only the \
                 first {per_tile} (raise max_lights_per_tile)",
                self.label,
                self.overflowed
            );
        }
    }

    /// Declares the cull pass over `depth` (farthest surfaces) and
    /// `near_depth` (nearest, blended surfaces included; `depth` again when
    /// there are none), and the copy of its overflow counter. Returns the
    /// tile lists.
    pub(crate) fn add_passes<'a>(
        &'a self,
        graph: &mut RenderGraph<'a>,
        lights: &'a LightBuffer,
        depth: TextureHandle,
        near_depth: TextureHandle,
    ) -> BufferHandle {
        let (across, down) = (self.tiles.across, self.down);
        let tile_bytes = u64::from(across * down) * u64::from(self.tiles.per_tile + 1) * 4;
        let tiles = graph.create_buffer(
            "light tiles",
            BufferDesc::new(tile_bytes.max(4), wgpu::BufferUsages::STORAGE),
        );
        let counters =
            graph.import_buffer("light counters", ImportedBuffer::new(self.counters.clone()));
        let (tiles, counters) = graph.add_compute_pass("light cull", |pass| {
            pass.read_texture(depth);
            if near_depth != depth {
                pass.read_texture(near_depth);
            }
            let tiles = pass.write_buffer(tiles, wgpu::BufferUsages::STORAGE);
            let counters = pass.write_buffer(counters, wgpu::BufferUsages::STORAGE);
            pass.execute(move |cp, res| {
                let (Some(depth), Some(near_depth), Some(tiles), Some(counters)) = (
                    res.texture_view(depth),
                    res.texture_view(near_depth),
                    res.buffer(tiles),
                    res.buffer(counters),
                ) else {
                    return;
                };
                let entries = [
                    self.uniform.as_entire_binding(),
                    lights.buffer().as_entire_binding(),
                    wgpu::BindingResource::TextureView(depth),
                    tiles.as_entire_binding(),
                    counters.as_entire_binding(),
                    wgpu::BindingResource::TextureView(near_depth),
                ];
                let entries: Vec<_> = entries
                    .into_iter()
                    .enumerate()
                    .map(|(binding, resource)| wgpu::BindGroupEntry {
                        binding: binding as u32,
                        resource,
                    })
                    .collect();
                let group = res.device().create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("light cull"),
                    layout: &self.layout,
                    entries: &entries,
                });
                cp.set_pipeline(&self.pipeline);
                cp.set_bind_group(0, &group, &[]);
                cp.dispatch_workgroups(across, down, 1);
            });
            (tiles, counters)
        });

        if let Some(slot) = &self.readback_slot {
            let slot = graph.import_buffer(
                "light counters read-back",
                ImportedBuffer::new(slot.clone()),
            );
            graph.add_encoder_pass("light cull stats", |pass| {
                pass.read_buffer(counters, wgpu::BufferUsages::COPY_SRC);
                let _ = pass.write_buffer(slot, wgpu::BufferUsages::COPY_DST);
                pass.execute(move |encoder, res| {
                    if let (Some(from), Some(to)) = (res.buffer(counters), res.buffer(slot)) {
                        encoder.copy_buffer_to_buffer(from, 0, to, 0, 4);
                    }
                });
            });
        }
        tiles
    }

    /// The tile lists' bind group for a shading pass, once they exist.
    pub(crate) fn tiles_group(
        &self,
        res: &PassResources<'_>,
        tiles: BufferHandle,
    ) -> Option<wgpu::BindGroup> {
        let tiles = res.buffer(tiles)?;
        Some(res.device().create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("light tiles"),
            layout: &self.tiles_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: tiles.as_entire_binding(),
            }],
        }))
    }

    /// After the submit: the read-back slot is in flight. Returns the
    /// overflowing tiles counted (one or two frames old).
    pub(crate) fn submitted(&mut self) -> u32 {
        self.readback.submitted();
        self.overflowed
    }
}
