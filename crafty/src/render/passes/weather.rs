//! The weather pass: rain streaks or snow flakes (`shaders/weather.wgsl`),
//! one instanced draw placed entirely in the vertex shader, each particle
//! stopping at the top of its column in the precipitation map.
//!
//! Reads the frame bind group (the uniform's weather, the precipitation
//! map) and `frame.depth` (tested, not written); blends into a new version
//! of `frame.hdr`. Nothing while the weather is clear, before the game
//! handed over a precipitation map, or under water.

use taos_engine::renderer::Frame;
use taos_engine::renderer::frame::DEPTH_NEARER;
use taos_engine::renderer::wgpu;

use crate::render::shared::{
    CraftyShader, FrameBindings, FrameInputs, PassSetup, PipelineSpec, pipeline,
};
use crate::render::weather::particle_count;

/// Draws this frame's rain or snow.
#[derive(Debug)]
pub(crate) struct WeatherPass {
    pipeline: wgpu::RenderPipeline,
    /// Particles this frame (0: no pass).
    particles: u32,
}

impl WeatherPass {
    pub(crate) fn new(setup: &PassSetup<'_>) -> Self {
        let module = setup.module(CraftyShader::Weather);
        let layout = setup.layout("crafty weather", &[setup.frame_layout]);
        let pipeline = pipeline(
            setup.device,
            &PipelineSpec {
                label: "crafty weather",
                module: &module,
                layout: &layout,
                fragment: "fs_main",
                instanced_quads: false,
                topology: wgpu::PrimitiveTopology::TriangleList,
                blend: Some(wgpu::BlendState::ALPHA_BLENDING),
                depth: Some((false, DEPTH_NEARER)),
            },
        );
        Self {
            pipeline,
            particles: 0,
        }
    }

    /// Decides this frame's particles; returns how many.
    pub(crate) fn update(&mut self, inputs: &FrameInputs) -> u32 {
        // Rain and snow stop at the water's surface.
        self.particles = if inputs.precipitation_origin.is_some() && !inputs.underwater {
            particle_count(&inputs.weather)
        } else {
            0
        };
        self.particles
    }

    /// Blends the particles into `frame.hdr`.
    pub(crate) fn add_pass<'a>(&'a self, frame: &mut Frame<'a>, bindings: &'a FrameBindings) {
        let particles = self.particles;
        let (Some(hdr), Some(depth), true) = (frame.hdr, frame.depth, particles > 0) else {
            return;
        };
        frame.hdr = Some(frame.graph.add_render_pass("crafty weather", |pass| {
            let hdr = pass.write_color(hdr, wgpu::LoadOp::Load);
            pass.read_depth(depth);
            pass.execute(move |rp, _| {
                rp.set_pipeline(&self.pipeline);
                rp.set_bind_group(0, &bindings.group, &[]);
                rp.draw(0..6, 0..particles);
            });
            hdr
        }));
    }
}
