//! The highlight pass: the targeted block's twelve edges as dark lines
//! (`shaders/outline.wgsl`), placed by the frame uniform's `highlight`.
//!
//! Reads the frame bind group and `frame.depth` (tested, nearer or equal,
//! not written); blends into a new version of `frame.hdr`. Nothing while
//! no block is targeted.

use taos_engine::renderer::Frame;
use taos_engine::renderer::frame::DEPTH_NEARER_OR_EQUAL;
use taos_engine::renderer::wgpu;

use crate::render::shared::{
    CraftyShader, FrameBindings, FrameInputs, PassSetup, PipelineSpec, pipeline,
};

/// Outlines the targeted block.
#[derive(Debug)]
pub(crate) struct HighlightPass {
    pipeline: wgpu::RenderPipeline,
    /// Whether a block is targeted this frame.
    visible: bool,
}

impl HighlightPass {
    pub(crate) fn new(setup: &PassSetup<'_>) -> Self {
        let module = setup.module(CraftyShader::Outline);
        let layout = setup.layout("crafty block outline", &[setup.frame_layout]);
        let pipeline = pipeline(
            setup.device,
            &PipelineSpec {
                label: "crafty block outline",
                module: &module,
                layout: &layout,
                fragment: "fs_main",
                instanced_quads: false,
                topology: wgpu::PrimitiveTopology::LineList,
                blend: Some(wgpu::BlendState::ALPHA_BLENDING),
                depth: Some((false, DEPTH_NEARER_OR_EQUAL)),
            },
        );
        Self {
            pipeline,
            visible: false,
        }
    }

    pub(crate) fn update(&mut self, inputs: &FrameInputs) {
        self.visible = inputs.highlight.is_some();
    }

    /// Draws the outline into `frame.hdr`.
    pub(crate) fn add_pass<'a>(&'a self, frame: &mut Frame<'a>, bindings: &'a FrameBindings) {
        let (Some(hdr), Some(depth), true) = (frame.hdr, frame.depth, self.visible) else {
            return;
        };
        frame.hdr = Some(frame.graph.add_render_pass("crafty highlight", |pass| {
            let hdr = pass.write_color(hdr, wgpu::LoadOp::Load);
            pass.read_depth(depth);
            pass.execute(move |rp, _| {
                rp.set_pipeline(&self.pipeline);
                rp.set_bind_group(0, &bindings.group, &[]);
                rp.draw(0..24, 0..1);
            });
            hdr
        }));
    }
}
