//! Deferred lighting: one full-screen pass over the G-buffer adding
//! ambient (times the occlusion), emissive and the sun with its cascaded
//! shadow to the frame's HDR target. Point and spot lights are the
//! [`PointSpotLightFeature`](super::PointSpotLightFeature)'s.

use super::AmbientOcclusion;
use super::gbuffer::{GBuffer, GBufferReader, deferred_source};
use crate::GpuContext;
use crate::feature::{FeatureSetup, Frame, RenderFeature};
use crate::features::AmbientLight;
use crate::features::gpu_util::fullscreen_pipeline_with;
use crate::features::lit::{LightBinding, LitGpu, hdr_target};
use crate::frame::{FrameData, HDR_FORMAT};
use crate::resources::Assets;

/// Lights the G-buffer ([`GBuffer`], a frame slot) into [`Frame::hdr`], over what
/// the sky drew; pixels no geometry covers keep the sky. Does nothing when
/// no [`GeometryFeature`](super::GeometryFeature) ran before it.
#[derive(Debug, Default)]
pub struct DeferredLightingFeature {
    /// Ambient light on every surface, times the ambient occlusion
    /// ([`AmbientLight::default`]: a soft hemisphere).
    pub ambient: AmbientLight,
    gpu: Option<Gpu>,
}

#[derive(Debug)]
struct Gpu {
    lit: LitGpu,
    reader: GBufferReader,
    pipeline: wgpu::RenderPipeline,
}

impl DeferredLightingFeature {
    /// Deferred lighting with the same default ambient as the forward pass.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }
}

impl RenderFeature for DeferredLightingFeature {
    fn name(&self) -> &'static str {
        "DeferredLighting"
    }

    fn setup(&mut self, setup: FeatureSetup<'_>) {
        let (device, queue) = (setup.gpu.device(), setup.gpu.queue());
        let binding = LightBinding::for_device(device);
        let lit = LitGpu::new(setup.gpu, binding);
        let reader = GBufferReader::new(device, queue);
        let source = deferred_source(binding, &crate::wgsl!("lighting.wgsl"));
        let pipeline = fullscreen_pipeline_with(
            device,
            "deferred lighting",
            &source,
            &lit.fullscreen_layout(device, reader.layout(), None),
            HDR_FORMAT,
            None,
        );
        self.gpu = Some(Gpu {
            lit,
            reader,
            pipeline,
        });
    }

    fn update(&mut self, data: &FrameData, gpu: &GpuContext, _assets: &Assets) {
        if let Some(state) = &mut self.gpu {
            state
                .lit
                .update_frame(data, gpu, self.ambient, Default::default());
        }
    }

    fn add_passes<'a>(&'a self, frame: &mut Frame<'a>) {
        let (Some(gpu), Some(gbuffer)) = (&self.gpu, frame.slots.get::<GBuffer>().copied()) else {
            return;
        };
        let (hdr, load) = hdr_target(frame);
        let occlusion = frame.slots.get::<AmbientOcclusion>().map(|ao| ao.0);
        let shadow_map = frame
            .slots
            .get::<crate::features::ShadowMap>()
            .map(|map| map.0);
        let environment = frame
            .slots
            .get::<crate::features::ibl::Environment>()
            .cloned();
        let hdr = frame.graph.add_render_pass("deferred lighting", |pass| {
            let hdr = pass.write_color(hdr, load);
            GBufferReader::declare(pass, gbuffer, occlusion);
            if let Some(shadow_map) = shadow_map {
                pass.read_texture(shadow_map);
            }
            pass.execute(move |rp, res| {
                let Some(surface) = gpu.reader.group(res, gbuffer, occlusion) else {
                    return;
                };
                gpu.lit.bind_frame(
                    rp,
                    &gpu.lit.shadow_group(res, shadow_map, environment.as_ref()),
                );
                rp.set_bind_group(1, &surface, &[]);
                rp.set_pipeline(&gpu.pipeline);
                rp.draw(0..3, 0..1);
            });
            hdr
        });
        frame.hdr = Some(hdr);
    }
}
