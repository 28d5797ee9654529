//! The forward-lit PBR pass: every opaque item (grouped into instanced
//! batches), then every transparent item back to front, lit by the sun and
//! by every point and spot light, into the frame's HDR target.
//!
//! Each fragment loops over all lights: fine for tens of lights, linear in
//! their number beyond (the forward-plus preset culls them per screen tile).
//! On a backend without storage buffers in the fragment stage the lights
//! come from a uniform array of [`UNIFORM_LIGHT_CAP`](super::UNIFORM_LIGHT_CAP)
//! entries; the rest are counted in
//! [`RenderStats::lights_dropped`](crate::RenderStats::lights_dropped) and
//! logged once.

use super::AmbientLight;
use super::lit::{
    LightBinding, LitGpu, LitPipeline, MsaaResolve, PipelineKind, TileParams, hdr_target,
    lit_pipeline, shader_source, supported_msaa_samples,
};
use crate::feature::{FeatureSetup, Frame, RenderFeature};
use crate::frame::{DEPTH_CLEAR, DEPTH_FORMAT, FrameData, HDR_FORMAT};
use crate::graph::TextureDesc;
use crate::resources::Assets;
use crate::{GpuContext, RenderStats};

/// Draws lit geometry into the HDR target (creating it, cleared to black, if
/// no earlier feature did) and writes the scene depth.
#[derive(Debug)]
pub struct ForwardLitFeature {
    /// Ambient light on every surface ([`AmbientLight::default`]: a soft
    /// hemisphere).
    pub ambient: AmbientLight,
    /// Group draws of the same mesh and material into one instanced draw
    /// call (default on).
    pub instancing: bool,
    /// How the lights reach the shader (`None`: what the device supports).
    pub light_binding: Option<LightBinding>,
    /// Samples per pixel (MSAA; 1: off). Read when the feature is added:
    /// set it before [`Renderer::add_feature`](crate::Renderer::add_feature)
    /// (or through the presets' `msaa`). A count the device cannot render
    /// falls to the largest it can, logged.
    pub msaa_samples: u32,
    /// Transparency overlay over a deferred frame: shade only the blended
    /// draws, depth-tested against the depth an earlier feature wrote.
    overlay: bool,
    gpu: Option<Gpu>,
    warned_dropped: bool,
}

#[derive(Debug)]
struct Gpu {
    lit: LitGpu,
    opaque: LitPipeline,
    blended: LitPipeline,
    msaa: Option<MsaaResolve>,
}

impl Default for ForwardLitFeature {
    fn default() -> Self {
        Self {
            ambient: AmbientLight::default(),
            instancing: true,
            light_binding: None,
            msaa_samples: 1,
            overlay: false,
            gpu: None,
            warned_dropped: false,
        }
    }
}

impl ForwardLitFeature {
    /// The feature with the default ambient light.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The transparency overlay of a deferred frame: only blended draws,
    /// depth-tested (not written) against the G-buffer depth an earlier
    /// feature put in [`Frame::depth`]. Draws nothing when no depth is there.
    #[must_use]
    pub(crate) fn overlay() -> Self {
        Self {
            overlay: true,
            ..Self::default()
        }
    }

    /// How the lights reach the shader, once set up.
    #[must_use]
    pub fn binding(&self) -> Option<LightBinding> {
        self.gpu.as_ref().map(|gpu| gpu.lit.lights().binding())
    }
}

impl ForwardLitFeature {
    /// The overlay: blended draws over the frame's depth and HDR target.
    fn add_overlay_pass<'a>(&'a self, frame: &mut Frame<'a>, gpu: &'a Gpu) {
        let Some(depth) = frame.depth else { return };
        if gpu.lit.batches().transparent.is_empty() {
            return;
        }
        let (hdr, load) = hdr_target(frame);
        let assets = frame.assets;
        let shadow_map = frame.slots.get::<super::ShadowMap>().map(|map| map.0);
        let environment = frame.slots.get::<super::ibl::Environment>().cloned();
        let hdr = frame.graph.add_render_pass("forward overlay", |pass| {
            let hdr = pass.write_color(hdr, load);
            pass.read_depth(depth);
            if let Some(shadow_map) = shadow_map {
                pass.read_texture(shadow_map);
            }
            pass.execute(move |rp, res| {
                let lit = &gpu.lit;
                lit.bind_frame(rp, &lit.shadow_group(res, shadow_map, environment.as_ref()));
                lit.draw(rp, assets, &lit.batches().transparent, &gpu.blended);
            });
            hdr
        });
        frame.hdr = Some(hdr);
    }
}

impl RenderFeature for ForwardLitFeature {
    fn name(&self) -> &'static str {
        "ForwardLit"
    }

    fn setup(&mut self, setup: FeatureSetup<'_>) {
        let device = setup.gpu.device();
        let binding = self
            .light_binding
            .unwrap_or_else(|| LightBinding::for_device(device));
        let lit = LitGpu::new(setup.gpu, binding);
        let layout = lit.pipeline_layout(device, None);
        let samples = if self.overlay {
            1
        } else {
            msaa_samples(setup.gpu, self.msaa_samples, "forward lighting")
        };
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("forward_lit.wgsl"),
            source: wgpu::ShaderSource::Wgsl(
                shader_source(binding, &crate::wgsl!("forward_lit.wgsl")).into(),
            ),
        });
        self.gpu = Some(Gpu {
            opaque: lit_pipeline(
                device,
                "forward lit opaque",
                &layout,
                (&module, "fs_opaque"),
                PipelineKind::Opaque,
                samples,
            ),
            blended: lit_pipeline(
                device,
                "forward lit blended",
                &layout,
                (&module, "fs_main"),
                PipelineKind::Blended,
                samples,
            ),
            msaa: (samples > 1).then(|| MsaaResolve::new(device, samples)),
            lit,
        });
    }

    fn update(&mut self, data: &FrameData, gpu: &GpuContext, assets: &Assets) {
        let Some(state) = &mut self.gpu else { return };
        state.lit.set_instancing(self.instancing);
        state
            .lit
            .update(data, gpu, assets, self.ambient, TileParams::default());
        let dropped = state.lit.lights().dropped();
        if dropped > 0 && !self.warned_dropped {
            self.warned_dropped = true;
            log::warn!(
                "forward lighting: this backend has no storage buffers in the fragment stage; \
                 {dropped} of {} point/spot lights dropped (uniform array of {})",
                data.lights.points.len() + data.lights.spots.len(),
                super::UNIFORM_LIGHT_CAP,
            );
        }
    }

    fn add_passes<'a>(&'a self, frame: &mut Frame<'a>) {
        let Some(gpu) = &self.gpu else { return };
        if self.overlay {
            self.add_overlay_pass(frame, gpu);
            return;
        }
        let (width, height) = frame.data.size;
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING;
        let (hdr, load) = hdr_target(frame);
        // Multisampled: draw into a cleared multisampled target, resolved
        // over the frame's HDR target below.
        let (target, target_load, depth) = match &gpu.msaa {
            Some(msaa) => (
                msaa.target(frame, "lit samples", HDR_FORMAT),
                wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                msaa.target(frame, "depth samples", DEPTH_FORMAT),
            ),
            None => (
                hdr,
                load,
                frame.graph.create_texture(
                    "depth",
                    TextureDesc::new_2d(width, height, DEPTH_FORMAT, usage),
                ),
            ),
        };
        let assets = frame.assets;
        let shadow_map = frame.slots.get::<super::ShadowMap>().map(|map| map.0);
        let environment = frame.slots.get::<super::ibl::Environment>().cloned();
        let (lit_color, depth) = frame.graph.add_render_pass("forward lit", |pass| {
            let target = pass.write_color(target, target_load);
            let depth = pass.write_depth(depth, wgpu::LoadOp::Clear(DEPTH_CLEAR));
            if let Some(shadow_map) = shadow_map {
                pass.read_texture(shadow_map);
            }
            pass.execute(move |rp, res| {
                let lit = &gpu.lit;
                lit.bind_frame(rp, &lit.shadow_group(res, shadow_map, environment.as_ref()));
                lit.draw(rp, assets, &lit.batches().opaque, &gpu.opaque);
                lit.draw(rp, assets, &lit.batches().transparent, &gpu.blended);
            });
            (target, depth)
        });
        match &gpu.msaa {
            Some(msaa) => {
                frame.hdr = Some(msaa.resolve_color(frame, lit_color, (hdr, load)));
                frame.depth = Some(msaa.resolve_depth(frame, depth, "depth"));
            }
            None => {
                frame.hdr = Some(lit_color);
                frame.depth = Some(depth);
            }
        }
    }

    fn after_frame(&mut self, _gpu: &GpuContext, stats: &mut RenderStats) {
        if let Some(gpu) = &self.gpu {
            stats.lights += gpu.lit.lights().count() as u32;
            stats.lights_dropped += gpu.lit.lights().dropped() as u32;
            let batches = gpu.lit.batches();
            stats.draw_calls += if self.overlay {
                batches.transparent.len()
            } else {
                batches.draw_calls()
            } as u32;
        }
    }
}

/// The sample count a lit feature draws with: `requested` if the device
/// can, else the largest it can (logged).
pub(crate) fn msaa_samples(gpu: &GpuContext, requested: u32, what: &str) -> u32 {
    let samples = supported_msaa_samples(gpu, requested);
    if requested > 1 && samples != requested {
        log::warn!("{what}: {requested}x MSAA is not available on this device; using {samples}x");
    }
    samples
}
