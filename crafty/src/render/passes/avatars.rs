//! The avatar pass: other players as blocky figures (a body and a head,
//! `shaders/avatar.wgsl`), placed by the frame uniform's `avatars`.
//!
//! Reads the frame bind group; tests and writes `frame.depth` (so terrain
//! hides a figure, and water behind it is hidden by it); draws into a new
//! version of `frame.hdr`. Nothing while no figure is given.

use taos_engine::renderer::Frame;
use taos_engine::renderer::frame::DEPTH_NEARER;
use taos_engine::renderer::wgpu;

use crate::render::shared::{
    CraftyShader, FrameBindings, FrameInputs, PassSetup, PipelineSpec, pipeline,
};

/// Vertices of one figure: two boxes of six faces of two triangles.
const FIGURE_VERTICES: u32 = 2 * 6 * 6;

/// Draws the other players.
#[derive(Debug)]
pub(crate) struct AvatarPass {
    pipeline: wgpu::RenderPipeline,
    /// Figures this frame.
    count: u32,
}

impl AvatarPass {
    pub(crate) fn new(setup: &PassSetup<'_>) -> Self {
        let module = setup.module(CraftyShader::Avatar);
        let layout = setup.layout("crafty avatars", &[setup.frame_layout]);
        let pipeline = pipeline(
            setup.device,
            &PipelineSpec {
                label: "crafty avatars",
                module: &module,
                layout: &layout,
                fragment: "fs_main",
                instanced_quads: false,
                topology: wgpu::PrimitiveTopology::TriangleList,
                blend: None,
                // Depth written: a box's near faces win over its far ones
                // whatever order they are drawn in.
                depth: Some((true, DEPTH_NEARER)),
            },
        );
        Self { pipeline, count: 0 }
    }

    pub(crate) fn update(&mut self, inputs: &FrameInputs) {
        self.count = u32::try_from(inputs.avatars.count).unwrap_or(0);
    }

    /// Draws the figures into `frame.hdr` and `frame.depth`.
    pub(crate) fn add_pass<'a>(&'a self, frame: &mut Frame<'a>, bindings: &'a FrameBindings) {
        let (Some(hdr), Some(depth)) = (frame.hdr, frame.depth) else {
            return;
        };
        if self.count == 0 {
            return;
        }
        let count = self.count;
        let (hdr, depth) = frame.graph.add_render_pass("crafty avatars", |pass| {
            let hdr = pass.write_color(hdr, wgpu::LoadOp::Load);
            let depth = pass.write_depth(depth, wgpu::LoadOp::Load);
            pass.execute(move |rp, _| {
                rp.set_pipeline(&self.pipeline);
                rp.set_bind_group(0, &bindings.group, &[]);
                rp.draw(0..FIGURE_VERTICES, 0..count);
            });
            (hdr, depth)
        });
        frame.hdr = Some(hdr);
        frame.depth = Some(depth);
    }
}
