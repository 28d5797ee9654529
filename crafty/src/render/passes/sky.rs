//! The sky pass: the gradient sky with the sun, moon, stars and clouds
//! (`shaders/sky.wgsl`, `shaders/clouds.wgsl`), one fullscreen triangle.
//!
//! Reads the frame bind group; creates the frame's HDR target, clears it
//! and writes it as the first `frame.hdr`.

use taos_engine::renderer::Frame;
use taos_engine::renderer::features::{HDR_FORMAT, HDR_USAGE};
use taos_engine::renderer::graph::TextureDesc;
use taos_engine::renderer::wgpu;

use crate::render::shared::{CraftyShader, FrameBindings, PassSetup, PipelineSpec, pipeline};

/// Draws the sky behind everything into a new HDR target.
#[derive(Debug)]
pub(crate) struct SkyPass {
    pipeline: wgpu::RenderPipeline,
}

impl SkyPass {
    pub(crate) fn new(setup: &PassSetup<'_>) -> Self {
        let module = setup.module(CraftyShader::Sky);
        let layout = setup.layout("crafty sky", &[setup.frame_layout]);
        let pipeline = pipeline(
            setup.device,
            &PipelineSpec {
                label: "crafty sky",
                module: &module,
                layout: &layout,
                fragment: "fs_main",
                instanced_quads: false,
                topology: wgpu::PrimitiveTopology::TriangleList,
                blend: None,
                depth: None,
            },
        );
        Self { pipeline }
    }

    /// Creates the HDR target and puts the sky into it as `frame.hdr`.
    pub(crate) fn add_pass<'a>(&'a self, frame: &mut Frame<'a>, bindings: &'a FrameBindings) {
        let (width, height) = frame.data.size;
        // The renderer's HDR usage: the engine's stages (the particles)
        // copy the target as well as draw into it and sample it.
        let hdr = frame.graph.create_texture(
            "hdr",
            TextureDesc::new_2d(width, height, HDR_FORMAT, HDR_USAGE),
        );
        frame.hdr = Some(frame.graph.add_render_pass("crafty sky", |pass| {
            let hdr = pass.write_color(hdr, wgpu::LoadOp::Clear(wgpu::Color::BLACK));
            pass.execute(move |rp, _| {
                rp.set_pipeline(&self.pipeline);
                rp.set_bind_group(0, &bindings.group, &[]);
                rp.draw(0..3, 0..1);
            });
            hdr
        }));
    }
}
