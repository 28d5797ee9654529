//! Forward-plus: a depth pre-pass, a compute pass that bins point and spot
//! lights into 16 x 16-pixel screen tiles, and a shading pass whose
//! fragments loop over their tile's lights only.
//!
//! Lights live in a storage buffer with no total cap. Each tile keeps up to
//! [`ForwardPlusFeature::max_lights_per_tile`] lights; a tile that finds
//! more keeps the first ones, is counted in
//! [`RenderStats::light_tiles_overflowed`](crate::RenderStats::light_tiles_overflowed)
//! and the first occurrence is logged. The feature needs compute shaders
//! and storage buffers: [`ForwardPlusFeature::check_support`] says whether
//! a device has them, and the [forward-plus preset](crate::presets::forward_plus_preset)
//! falls back to the forward pass (logged) where it does not.

mod readback;

use glam::Vec3;

use super::lit::{
    LIGHT_WGSL, LightBinding, LitGpu, PipelineKind, TileParams, hdr_target, lit_pipeline,
    shader_source,
};
use crate::feature::{FeatureSetup, Frame, RenderFeature};
use crate::frame::{DEPTH_FORMAT, FrameData};
use crate::graph::{BufferDesc, ImportedBuffer, TextureDesc};
use crate::resources::Assets;
use crate::{GpuContext, RenderStats};
use readback::CounterReadback;

/// Edge of a screen tile in pixels (the cull shader's workgroup size).
pub const TILE_SIZE: u32 = 16;
/// Default most lights one tile shades.
pub const DEFAULT_LIGHTS_PER_TILE: u32 = 256;

/// Why a device cannot run the forward-plus feature.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("forward-plus needs {missing}, which this {backend} adapter lacks")]
pub struct ForwardPlusUnsupported {
    /// The adapter's backend.
    pub backend: String,
    /// What is missing.
    pub missing: &'static str,
}

#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct CullUniform {
    inv_proj: [[f32; 4]; 4],
    view: [[f32; 4]; 4],
    screen: [u32; 4],
    params: [u32; 4],
}

/// Tiled forward shading for scenes with many point and spot lights.
#[derive(Debug)]
pub struct ForwardPlusFeature {
    /// Ambient light added to every surface (linear RGB).
    pub ambient: Vec3,
    /// Group draws of the same mesh and material into one instanced draw
    /// call (default on).
    pub instancing: bool,
    /// Most lights one tile shades (default [`DEFAULT_LIGHTS_PER_TILE`]);
    /// the tile buffer takes `4 * (1 + max)` bytes per tile.
    pub max_lights_per_tile: u32,
    gpu: Option<Gpu>,
    unsupported: Option<ForwardPlusUnsupported>,
    tiles: TileParams,
    /// This frame's read-back slot for the overflow counter.
    readback_slot: Option<wgpu::Buffer>,
    overflowed: u32,
    warned_overflow: bool,
}

#[derive(Debug)]
struct Gpu {
    lit: LitGpu,
    depth: wgpu::RenderPipeline,
    opaque: wgpu::RenderPipeline,
    blended: wgpu::RenderPipeline,
    cull: wgpu::ComputePipeline,
    cull_layout: wgpu::BindGroupLayout,
    cull_buffer: wgpu::Buffer,
    tiles_layout: wgpu::BindGroupLayout,
    counters: wgpu::Buffer,
    readback: CounterReadback,
}

impl Default for ForwardPlusFeature {
    fn default() -> Self {
        Self {
            ambient: Vec3::splat(0.03),
            instancing: true,
            max_lights_per_tile: DEFAULT_LIGHTS_PER_TILE,
            gpu: None,
            unsupported: None,
            tiles: TileParams::default(),
            readback_slot: None,
            overflowed: 0,
            warned_overflow: false,
        }
    }
}

impl ForwardPlusFeature {
    /// The feature with a dim default ambient and 256 lights per tile.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether `gpu` can run forward-plus: compute shaders, three storage
    /// buffers per stage and 256-invocation workgroups.
    ///
    /// # Errors
    /// [`ForwardPlusUnsupported`] naming what is missing (WebGL2 has no
    /// compute at all).
    pub fn check_support(gpu: &GpuContext) -> Result<(), ForwardPlusUnsupported> {
        support(
            gpu.adapter_info().backend,
            gpu.adapter().get_downlevel_capabilities().flags,
            &gpu.device().limits(),
        )
    }

    /// Why this feature does nothing, when its device could not run it.
    #[must_use]
    pub fn unsupported(&self) -> Option<&ForwardPlusUnsupported> {
        self.unsupported.as_ref()
    }
}

/// What [`ForwardPlusFeature::check_support`] decides, from the adapter's
/// capabilities alone.
fn support(
    backend: wgpu::Backend,
    flags: wgpu::DownlevelFlags,
    limits: &wgpu::Limits,
) -> Result<(), ForwardPlusUnsupported> {
    let missing = if !flags.contains(wgpu::DownlevelFlags::COMPUTE_SHADERS) {
        Some("compute shaders")
    } else if limits.max_storage_buffers_per_shader_stage < 3 {
        Some("three storage buffers per shader stage")
    } else if limits.max_compute_invocations_per_workgroup < TILE_SIZE * TILE_SIZE
        || limits.max_compute_workgroup_size_x < TILE_SIZE
        || limits.max_compute_workgroup_size_y < TILE_SIZE
    {
        Some("16 x 16 compute workgroups")
    } else {
        None
    };
    match missing {
        Some(missing) => Err(ForwardPlusUnsupported {
            backend: backend.to_string(),
            missing,
        }),
        None => Ok(()),
    }
}

fn storage_entry(
    binding: u32,
    read_only: bool,
    visibility: wgpu::ShaderStages,
) -> wgpu::BindGroupLayoutEntry {
    wgpu::BindGroupLayoutEntry {
        binding,
        visibility,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Storage { read_only },
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    }
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

impl RenderFeature for ForwardPlusFeature {
    fn name(&self) -> &'static str {
        "ForwardPlus"
    }

    fn setup(&mut self, setup: FeatureSetup<'_>) {
        if let Err(error) = Self::check_support(setup.gpu) {
            log::error!("{error}: the ForwardPlus feature draws nothing (use the forward preset)");
            self.unsupported = Some(error);
            return;
        }
        let device = setup.gpu.device();
        let lit = LitGpu::new(setup.gpu, LightBinding::Storage);
        let tiles_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("forward+ tiles"),
            entries: &[storage_entry(0, true, wgpu::ShaderStages::FRAGMENT)],
        });
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("forward_plus shade.wgsl"),
            source: wgpu::ShaderSource::Wgsl(
                shader_source(LightBinding::Storage, include_str!("shade.wgsl")).into(),
            ),
        });
        let layout = lit.pipeline_layout(device, Some(&tiles_layout));
        let depth_layout = lit.depth_layout(device);
        let compute = wgpu::ShaderStages::COMPUTE;
        let cull_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("forward+ cull"),
            entries: &[
                super::gpu_util::uniform_entry(0, false, compute),
                storage_entry(1, true, compute),
                depth_entry(2),
                storage_entry(3, false, compute),
                storage_entry(4, false, compute),
                depth_entry(5),
            ],
        });
        let cull_module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("forward_plus cull.wgsl"),
            source: wgpu::ShaderSource::Wgsl(
                format!("{LIGHT_WGSL}{}", include_str!("cull.wgsl")).into(),
            ),
        });
        let cull = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("forward+ cull"),
            layout: Some(
                &device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                    label: Some("forward+ cull"),
                    bind_group_layouts: &[Some(&cull_layout)],
                    immediate_size: 0,
                }),
            ),
            module: &cull_module,
            entry_point: Some("cull_lights"),
            compilation_options: Default::default(),
            cache: None,
        });
        let counters = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("forward+ counters"),
            size: 4,
            usage: wgpu::BufferUsages::STORAGE
                | wgpu::BufferUsages::COPY_SRC
                | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        self.gpu = Some(Gpu {
            depth: lit_pipeline(
                device,
                "forward+ depth",
                &depth_layout,
                (&module, "fs_depth"),
                PipelineKind::DepthOnly,
            ),
            opaque: lit_pipeline(
                device,
                "forward+ opaque",
                &layout,
                (&module, "fs_main"),
                PipelineKind::AfterPrepass,
            ),
            blended: lit_pipeline(
                device,
                "forward+ blended",
                &layout,
                (&module, "fs_main"),
                PipelineKind::Blended,
            ),
            lit,
            cull,
            cull_layout,
            cull_buffer: super::gpu_util::uniform_buffer(
                device,
                "forward+ cull uniform",
                std::mem::size_of::<CullUniform>(),
            ),
            tiles_layout,
            counters,
            readback: CounterReadback::new(device, 3),
        });
    }

    fn update(&mut self, data: &FrameData, gpu_ctx: &GpuContext, assets: &Assets) {
        let Some(gpu) = &mut self.gpu else { return };
        let (width, height) = data.size;
        let per_tile = self.max_lights_per_tile.max(1);
        self.tiles = TileParams {
            size: TILE_SIZE,
            across: width.div_ceil(TILE_SIZE),
            per_tile,
        };
        gpu.lit.set_instancing(self.instancing);
        gpu.lit
            .update(data, gpu_ctx, assets, self.ambient, self.tiles);
        let camera = &data.camera;
        let uniform = CullUniform {
            inv_proj: camera.projection.inverse().to_cols_array_2d(),
            view: camera.view.to_cols_array_2d(),
            screen: [width, height, self.tiles.across, height.div_ceil(TILE_SIZE)],
            params: [gpu.lit.lights().count() as u32, per_tile, 0, 0],
        };
        let queue = gpu_ctx.queue();
        queue.write_buffer(&gpu.cull_buffer, 0, bytemuck::bytes_of(&uniform));
        queue.write_buffer(&gpu.counters, 0, &0u32.to_le_bytes());

        self.readback_slot = gpu.readback.begin_frame(gpu_ctx.device());
        self.overflowed = gpu.readback.latest().unwrap_or(0);
        if self.overflowed > 0 && !self.warned_overflow {
            self.warned_overflow = true;
            log::warn!(
                "forward-plus: {} screen tiles had more than {per_tile} lights and shaded only \
                 the first {per_tile} (raise ForwardPlusFeature::max_lights_per_tile)",
                self.overflowed
            );
        }
    }

    fn add_passes<'a>(&'a self, frame: &mut Frame<'a>) {
        let Some(gpu) = &self.gpu else { return };
        let (width, height) = frame.data.size;
        if width == 0 || height == 0 {
            return;
        }
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING;
        let (hdr, load) = hdr_target(frame);
        let assets = frame.assets;
        let lit = &gpu.lit;

        let depth = frame.graph.create_texture(
            "depth",
            TextureDesc::new_2d(
                width,
                height,
                DEPTH_FORMAT,
                usage | wgpu::TextureUsages::COPY_SRC,
            ),
        );
        let depth = frame.graph.add_render_pass("forward+ depth", |pass| {
            let depth = pass.write_depth(depth, wgpu::LoadOp::Clear(1.0));
            pass.execute(move |rp, _| {
                lit.bind_frame_only(rp);
                rp.set_pipeline(&gpu.depth);
                lit.draw(rp, assets, &lit.batches().opaque);
            });
            depth
        });

        // The nearest depth per pixel, blended draws included: the
        // pre-pass depth copied, then the blended draws' depth over it.
        let near_depth = if lit.batches().transparent.is_empty() {
            depth
        } else {
            let copy = frame.graph.create_texture(
                "near depth",
                TextureDesc::new_2d(
                    width,
                    height,
                    DEPTH_FORMAT,
                    usage | wgpu::TextureUsages::COPY_DST,
                ),
            );
            let copy = frame.graph.add_encoder_pass("forward+ copy depth", |pass| {
                pass.read_texture_as(depth, wgpu::TextureUsages::COPY_SRC);
                let copy = pass.write_texture(copy, wgpu::TextureUsages::COPY_DST);
                pass.execute(move |encoder, res| {
                    if let (Some(from), Some(to)) = (res.texture(depth), res.texture(copy)) {
                        encoder.copy_texture_to_texture(
                            from.as_image_copy(),
                            to.as_image_copy(),
                            from.size(),
                        );
                    }
                });
                copy
            });
            frame
                .graph
                .add_render_pass("forward+ blended depth", |pass| {
                    let near = pass.write_depth(copy, wgpu::LoadOp::Load);
                    pass.execute(move |rp, _| {
                        lit.bind_frame_only(rp);
                        rp.set_pipeline(&gpu.depth);
                        lit.draw(rp, assets, &lit.batches().transparent);
                    });
                    near
                })
        };

        let (across, down) = (self.tiles.across, height.div_ceil(TILE_SIZE));
        let tile_bytes = u64::from(across * down) * u64::from(self.tiles.per_tile + 1) * 4;
        let tiles = frame.graph.create_buffer(
            "light tiles",
            BufferDesc::new(tile_bytes, wgpu::BufferUsages::STORAGE),
        );
        let counters = frame
            .graph
            .import_buffer("light counters", ImportedBuffer::new(gpu.counters.clone()));
        let (tiles, counters) = frame.graph.add_compute_pass("forward+ light cull", |pass| {
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
                let group = res.device().create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("forward+ cull"),
                    layout: &gpu.cull_layout,
                    entries: &[
                        wgpu::BindGroupEntry {
                            binding: 0,
                            resource: gpu.cull_buffer.as_entire_binding(),
                        },
                        wgpu::BindGroupEntry {
                            binding: 1,
                            resource: lit.lights().buffer().as_entire_binding(),
                        },
                        wgpu::BindGroupEntry {
                            binding: 2,
                            resource: wgpu::BindingResource::TextureView(depth),
                        },
                        wgpu::BindGroupEntry {
                            binding: 3,
                            resource: tiles.as_entire_binding(),
                        },
                        wgpu::BindGroupEntry {
                            binding: 4,
                            resource: counters.as_entire_binding(),
                        },
                        wgpu::BindGroupEntry {
                            binding: 5,
                            resource: wgpu::BindingResource::TextureView(near_depth),
                        },
                    ],
                });
                cp.set_pipeline(&gpu.cull);
                cp.set_bind_group(0, &group, &[]);
                cp.dispatch_workgroups(across, down, 1);
            });
            (tiles, counters)
        });

        if let Some(slot) = &self.readback_slot {
            let slot = frame.graph.import_buffer(
                "light counters read-back",
                ImportedBuffer::new(slot.clone()),
            );
            frame
                .graph
                .add_encoder_pass("forward+ light stats", |pass| {
                    pass.read_buffer(counters, wgpu::BufferUsages::COPY_SRC);
                    let _ = pass.write_buffer(slot, wgpu::BufferUsages::COPY_DST);
                    pass.execute(move |encoder, res| {
                        if let (Some(from), Some(to)) = (res.buffer(counters), res.buffer(slot)) {
                            encoder.copy_buffer_to_buffer(from, 0, to, 0, 4);
                        }
                    });
                });
        }

        let shadow_map = frame.slots.get::<super::ShadowMap>().map(|map| map.0);
        let hdr = frame.graph.add_render_pass("forward+ shade", |pass| {
            let hdr = pass.write_color(hdr, load);
            pass.read_depth(depth);
            pass.read_buffer(tiles, wgpu::BufferUsages::STORAGE);
            if let Some(shadow_map) = shadow_map {
                pass.read_texture(shadow_map);
            }
            pass.execute(move |rp, res| {
                let Some(tiles) = res.buffer(tiles) else {
                    return;
                };
                let tiles_group = res.device().create_bind_group(&wgpu::BindGroupDescriptor {
                    label: Some("forward+ tiles"),
                    layout: &gpu.tiles_layout,
                    entries: &[wgpu::BindGroupEntry {
                        binding: 0,
                        resource: tiles.as_entire_binding(),
                    }],
                });
                lit.bind_frame(rp, &lit.shadow_group(res, shadow_map));
                rp.set_bind_group(3, &tiles_group, &[]);
                rp.set_pipeline(&gpu.opaque);
                lit.draw(rp, assets, &lit.batches().opaque);
                rp.set_pipeline(&gpu.blended);
                lit.draw(rp, assets, &lit.batches().transparent);
            });
            hdr
        });
        frame.hdr = Some(hdr);
        frame.depth = Some(depth);
    }

    fn after_frame(&mut self, _gpu: &GpuContext, stats: &mut RenderStats) {
        let Some(gpu) = &mut self.gpu else { return };
        gpu.readback.submitted();
        stats.lights += gpu.lit.lights().count() as u32;
        stats.light_tiles_overflowed += self.overflowed;
        // Each batch is drawn twice: into a depth pre-pass, then shaded.
        stats.draw_calls += 2 * gpu.lit.batches().draw_calls() as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn webgl2_is_refused_for_want_of_compute_and_webgpu_is_accepted() {
        let webgl2 = support(
            wgpu::Backend::Gl,
            wgpu::DownlevelFlags::empty(),
            &wgpu::Limits::downlevel_webgl2_defaults(),
        );
        let error = webgl2.unwrap_err();
        assert_eq!(error.missing, "compute shaders");
        assert!(error.to_string().contains("compute shaders"), "{error}");
        let no_storage = support(
            wgpu::Backend::Gl,
            wgpu::DownlevelFlags::COMPUTE_SHADERS,
            &wgpu::Limits::downlevel_webgl2_defaults(),
        );
        assert_eq!(
            no_storage.unwrap_err().missing,
            "three storage buffers per shader stage"
        );
        let webgpu = support(
            wgpu::Backend::BrowserWebGpu,
            wgpu::DownlevelFlags::all(),
            &wgpu::Limits::downlevel_defaults(),
        );
        assert_eq!(webgpu, Ok(()));
    }
}
