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

mod culler;

use super::AmbientLight;
use super::forward_lit::msaa_samples;
use super::lit::{
    LightBinding, LitGpu, LitPipeline, MsaaResolve, PipelineKind, hdr_target, lit_pipeline,
    shader_source,
};
use crate::feature::{FeatureSetup, Frame, RenderFeature};
use crate::frame::{DEPTH_CLEAR, DEPTH_FORMAT, FrameData, HDR_FORMAT};
use crate::graph::{TextureDesc, TextureHandle};
use crate::resources::Assets;
use crate::{GpuContext, RenderStats};
pub(crate) use culler::LightCuller;

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

/// Tiled forward shading for scenes with many point and spot lights.
#[derive(Debug)]
pub struct ForwardPlusFeature {
    /// Ambient light on every surface ([`AmbientLight::default`]: a soft
    /// hemisphere).
    pub ambient: AmbientLight,
    /// Group draws of the same mesh and material into one instanced draw
    /// call (default on).
    pub instancing: bool,
    /// Most lights one tile shades (default [`DEFAULT_LIGHTS_PER_TILE`]);
    /// the tile buffer takes `4 * (1 + max)` bytes per tile.
    pub max_lights_per_tile: u32,
    /// Samples per pixel (MSAA; 1: off), as for
    /// [`ForwardLitFeature::msaa_samples`](super::ForwardLitFeature::msaa_samples):
    /// set it before the feature is added. The light culling reads the
    /// nearest sample of each pixel.
    pub msaa_samples: u32,
    /// Transparency overlay over a deferred frame: shade only the blended
    /// draws, culling lights against the depth an earlier feature wrote.
    overlay: bool,
    gpu: Option<Gpu>,
    unsupported: Option<ForwardPlusUnsupported>,
    overflowed: u32,
}

#[derive(Debug)]
struct Gpu {
    lit: LitGpu,
    depth: LitPipeline,
    /// The blended draws' depth over the resolved (single-sampled) depth,
    /// when the passes are multisampled.
    resolved_depth: Option<LitPipeline>,
    msaa: Option<MsaaResolve>,
    opaque: LitPipeline,
    blended: LitPipeline,
    culler: LightCuller,
}

impl Default for ForwardPlusFeature {
    fn default() -> Self {
        Self {
            ambient: AmbientLight::default(),
            instancing: true,
            max_lights_per_tile: DEFAULT_LIGHTS_PER_TILE,
            msaa_samples: 1,
            overlay: false,
            gpu: None,
            unsupported: None,
            overflowed: 0,
        }
    }
}

impl ForwardPlusFeature {
    /// The feature with the default ambient light and 256 lights per tile.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The transparency overlay of a deferred frame: only blended draws,
    /// depth-tested against the G-buffer depth an earlier feature put in
    /// [`Frame::depth`], with lights culled against that depth (and the
    /// blended surfaces' own). Draws nothing when no depth is there.
    #[must_use]
    pub(crate) fn overlay() -> Self {
        Self {
            overlay: true,
            ..Self::default()
        }
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

pub(crate) fn storage_entry(
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
        let culler = LightCuller::new(device, "forward-plus");
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("forward_plus shade.wgsl"),
            source: wgpu::ShaderSource::Wgsl(
                shader_source(LightBinding::Storage, &crate::wgsl!("shade.wgsl")).into(),
            ),
        });
        let layout = lit.pipeline_layout(device, Some(culler.tiles_layout()));
        let depth_layout = lit.depth_layout(device);
        let samples = if self.overlay {
            1
        } else {
            msaa_samples(setup.gpu, self.msaa_samples, "forward-plus lighting")
        };
        let depth_pipeline = |samples| {
            lit_pipeline(
                device,
                "forward+ depth",
                &depth_layout,
                (&module, "fs_depth"),
                PipelineKind::DepthOnly,
                samples,
            )
        };
        self.gpu = Some(Gpu {
            depth: depth_pipeline(samples),
            resolved_depth: (samples > 1).then(|| depth_pipeline(1)),
            msaa: (samples > 1).then(|| MsaaResolve::new(device, samples)),
            opaque: lit_pipeline(
                device,
                "forward+ opaque",
                &layout,
                (&module, "fs_opaque"),
                PipelineKind::AfterPrepass,
                samples,
            ),
            blended: lit_pipeline(
                device,
                "forward+ blended",
                &layout,
                (&module, "fs_main"),
                PipelineKind::Blended,
                samples,
            ),
            lit,
            culler,
        });
    }

    fn update(&mut self, data: &FrameData, gpu_ctx: &GpuContext, assets: &Assets) {
        let Some(gpu) = &mut self.gpu else { return };
        gpu.culler.set_grid(data.size, self.max_lights_per_tile);
        gpu.lit.set_instancing(self.instancing);
        gpu.lit
            .update(data, gpu_ctx, assets, self.ambient, gpu.culler.tiles());
        let lights = gpu.lit.lights().count() as u32;
        gpu.culler.update(gpu_ctx, &data.camera, data.size, lights);
    }

    fn add_passes<'a>(&'a self, frame: &mut Frame<'a>) {
        let Some(gpu) = &self.gpu else { return };
        let (width, height) = frame.data.size;
        if width == 0 || height == 0 {
            return;
        }
        let lit = &gpu.lit;
        // `depth` is what the shading tests against (multisampled with
        // MSAA), `resolved` one depth per pixel for the culling and later
        // passes.
        let (depth, resolved) = if self.overlay {
            match frame.depth {
                Some(depth) if !lit.batches().transparent.is_empty() => (depth, depth),
                _ => return,
            }
        } else {
            let depth = depth_prepass(frame, gpu);
            match &gpu.msaa {
                Some(msaa) => (depth, msaa.resolve_depth(frame, depth, "depth")),
                None => (depth, depth),
            }
        };
        let (hdr, load) = hdr_target(frame);
        let near_depth = near_depth(frame, gpu, resolved);
        let tiles = gpu
            .culler
            .add_passes(&mut frame.graph, lit.lights(), resolved, near_depth);
        let (target, target_load) = match &gpu.msaa {
            Some(msaa) => (
                msaa.target(frame, "lit samples", HDR_FORMAT),
                wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
            ),
            None => (hdr, load),
        };

        let assets = frame.assets;
        let overlay = self.overlay;
        let shadow_map = frame.slots.get::<super::ShadowMap>().map(|map| map.0);
        let environment = frame.slots.get::<super::ibl::Environment>().cloned();
        let name = if overlay {
            "forward+ overlay"
        } else {
            "forward+ shade"
        };
        let lit_color = frame.graph.add_render_pass(name, |pass| {
            let target = pass.write_color(target, target_load);
            pass.read_depth(depth);
            pass.read_buffer(tiles, wgpu::BufferUsages::STORAGE);
            if let Some(shadow_map) = shadow_map {
                pass.read_texture(shadow_map);
            }
            pass.execute(move |rp, res| {
                let Some(tiles_group) = gpu.culler.tiles_group(res, tiles) else {
                    return;
                };
                lit.bind_frame(rp, &lit.shadow_group(res, shadow_map, environment.as_ref()));
                rp.set_bind_group(3, &tiles_group, &[]);
                if !overlay {
                    lit.draw(rp, assets, &lit.batches().opaque, &gpu.opaque);
                }
                lit.draw(rp, assets, &lit.batches().transparent, &gpu.blended);
            });
            target
        });
        frame.hdr = Some(match &gpu.msaa {
            Some(msaa) => msaa.resolve_color(frame, lit_color, (hdr, load)),
            None => lit_color,
        });
        frame.depth = Some(resolved);
    }

    fn after_frame(&mut self, _gpu: &GpuContext, stats: &mut RenderStats) {
        let Some(gpu) = &mut self.gpu else { return };
        self.overflowed = gpu.culler.submitted();
        stats.lights += gpu.lit.lights().count() as u32;
        stats.light_tiles_overflowed += self.overflowed;
        // Each batch is drawn twice: into a depth (pre-)pass, then shaded.
        let batches = gpu.lit.batches();
        stats.draw_calls += 2 * if self.overlay {
            batches.transparent.len() as u32
        } else {
            batches.draw_calls() as u32
        };
    }
}

/// The opaque draws' depth pre-pass.
fn depth_prepass<'a>(frame: &mut Frame<'a>, gpu: &'a Gpu) -> TextureHandle {
    let (width, height) = frame.data.size;
    let usage = wgpu::TextureUsages::RENDER_ATTACHMENT
        | wgpu::TextureUsages::TEXTURE_BINDING
        | wgpu::TextureUsages::COPY_SRC;
    let depth = match &gpu.msaa {
        Some(msaa) => msaa.target(frame, "depth samples", DEPTH_FORMAT),
        None => frame.graph.create_texture(
            "depth",
            TextureDesc::new_2d(width, height, DEPTH_FORMAT, usage),
        ),
    };
    let (lit, assets) = (&gpu.lit, frame.assets);
    frame.graph.add_render_pass("forward+ depth", |pass| {
        let depth = pass.write_depth(depth, wgpu::LoadOp::Clear(DEPTH_CLEAR));
        pass.execute(move |rp, _| {
            lit.bind_frame_only(rp);
            lit.draw(rp, assets, &lit.batches().opaque, &gpu.depth);
        });
        depth
    })
}

/// The nearest depth per pixel, blended draws included: `depth` copied,
/// then the blended draws' depth over it (`depth` itself when there are none).
fn near_depth<'a>(frame: &mut Frame<'a>, gpu: &'a Gpu, depth: TextureHandle) -> TextureHandle {
    let (lit, assets) = (&gpu.lit, frame.assets);
    if lit.batches().transparent.is_empty() {
        return depth;
    }
    let (width, height) = frame.data.size;
    let usage = wgpu::TextureUsages::RENDER_ATTACHMENT
        | wgpu::TextureUsages::TEXTURE_BINDING
        | wgpu::TextureUsages::COPY_DST;
    let copy = frame.graph.create_texture(
        "near depth",
        TextureDesc::new_2d(width, height, DEPTH_FORMAT, usage),
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
            // `depth` is one sample per pixel here, multisampled or not.
            let pipeline = gpu.resolved_depth.as_ref().unwrap_or(&gpu.depth);
            pass.execute(move |rp, _| {
                lit.bind_frame_only(rp);
                lit.draw(rp, assets, &lit.batches().transparent, pipeline);
            });
            near
        })
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
