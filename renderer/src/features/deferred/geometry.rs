//! The geometry pass: opaque draws (instanced, alpha-masked texels cut out)
//! packed into the G-buffer, with the scene depth.

use super::gbuffer::{GBuffer, gbuffer_wgsl};
use crate::feature::{FeatureSetup, Frame, RenderFeature};
use crate::features::lit::{
    LightBinding, LitGpu, LitPipeline, PipelineKind, lit_pipeline, shader_source,
};
use crate::frame::{DEPTH_CLEAR, DEPTH_FORMAT, FrameData, GBUFFER_FORMAT};
use crate::graph::TextureDesc;
use crate::resources::Assets;
use crate::{GpuContext, RenderStats};

/// Writes the G-buffer ([`GBuffer`], a frame slot) and the scene depth
/// ([`Frame::depth`]) from the frame's opaque draws. Blended draws are left
/// to the [`ForwardOverlayFeature`](super::ForwardOverlayFeature).
#[derive(Debug)]
pub struct GeometryFeature {
    /// Group draws of the same mesh and material into one instanced draw
    /// call (default on).
    pub instancing: bool,
    gpu: Option<Gpu>,
}

#[derive(Debug)]
struct Gpu {
    lit: LitGpu,
    pipeline: LitPipeline,
}

impl Default for GeometryFeature {
    fn default() -> Self {
        Self {
            instancing: true,
            gpu: None,
        }
    }
}

impl GeometryFeature {
    /// The geometry pass, instanced.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }
}

impl RenderFeature for GeometryFeature {
    fn name(&self) -> &'static str {
        "Geometry"
    }

    fn setup(&mut self, setup: FeatureSetup<'_>) {
        let device = setup.gpu.device();
        let binding = LightBinding::for_device(device);
        let lit = LitGpu::new(setup.gpu, binding);
        let main = format!(
            "{GBUFFER_WGSL}{}",
            crate::wgsl!("geometry.wgsl"),
            GBUFFER_WGSL = gbuffer_wgsl()
        );
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("deferred geometry.wgsl"),
            source: wgpu::ShaderSource::Wgsl(shader_source(binding, &main).into()),
        });
        let pipeline = lit_pipeline(
            device,
            "deferred geometry",
            &lit.depth_layout(device),
            (&module, "fs_main"),
            PipelineKind::GBuffer,
            1,
        );
        self.gpu = Some(Gpu { lit, pipeline });
    }

    fn update(&mut self, data: &FrameData, gpu: &GpuContext, assets: &Assets) {
        let Some(state) = &mut self.gpu else { return };
        state.lit.set_instancing(self.instancing);
        state.lit.update(
            data,
            gpu,
            assets,
            crate::features::AmbientLight::NONE,
            Default::default(),
        );
    }

    fn add_passes<'a>(&'a self, frame: &mut Frame<'a>) {
        let Some(gpu) = &self.gpu else { return };
        let (width, height) = frame.data.size;
        if width == 0 || height == 0 {
            return;
        }
        let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING;
        let surface = frame.graph.create_texture(
            "gbuffer",
            TextureDesc::new_2d(width, height, GBUFFER_FORMAT, usage),
        );
        // Copied by a forward-plus overlay (its blended surfaces' depth
        // is drawn over a copy).
        let depth = frame.graph.create_texture(
            "depth",
            TextureDesc::new_2d(
                width,
                height,
                DEPTH_FORMAT,
                usage | wgpu::TextureUsages::COPY_SRC,
            ),
        );
        let assets = frame.assets;
        let (surface, depth) = frame.graph.add_render_pass("deferred geometry", |pass| {
            let surface = pass.write_color(surface, wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT));
            let depth = pass.write_depth(depth, wgpu::LoadOp::Clear(DEPTH_CLEAR));
            pass.execute(move |rp, _| {
                let lit = &gpu.lit;
                lit.bind_frame_only(rp);
                lit.draw(rp, assets, &lit.batches().opaque, &gpu.pipeline);
            });
            (surface, depth)
        });
        frame.slots.insert(GBuffer { surface, depth });
        frame.depth = Some(depth);
    }

    fn after_frame(&mut self, _gpu: &GpuContext, stats: &mut RenderStats) {
        if let Some(gpu) = &self.gpu {
            stats.draw_calls += gpu.lit.batches().opaque.len() as u32;
        }
    }
}
