//! What the two lit chunk passes (opaque, transparent) share: the chunk
//! shader (`shaders/chunk.wgsl` with `quad.wgsl` and `shadows.wgsl`), its
//! pipeline layout, and [`ChunkScene`], what they draw from.

use taos_engine::renderer::frame::DEPTH_NEARER;
use taos_engine::renderer::graph::TextureHandle;
use taos_engine::renderer::wgpu;

use super::ChunkDraws;
use crate::render::chunks::ChunkStore;
use crate::render::shared::{CraftyShader, FrameBindings, PassSetup, PipelineSpec, pipeline};

/// The chunk shader and the layout of its pipelines: the frame (group 0),
/// the chunk origin (group 1) and the shadow receiver (group 2).
pub(crate) struct ChunkShading {
    module: wgpu::ShaderModule,
    layout: wgpu::PipelineLayout,
}

impl ChunkShading {
    pub(crate) fn new(setup: &PassSetup<'_>, receiver_layout: &wgpu::BindGroupLayout) -> Self {
        Self {
            module: setup.module(CraftyShader::Chunk),
            layout: setup.layout(
                "crafty chunks",
                &[setup.frame_layout, setup.chunk_layout, receiver_layout],
            ),
        }
    }

    /// A pipeline of instanced chunk quads through `fragment`, depth tested
    /// (nearer passes) and written when `depth_write`.
    pub(crate) fn pipeline(
        &self,
        device: &wgpu::Device,
        label: &str,
        fragment: &str,
        blend: Option<wgpu::BlendState>,
        depth_write: bool,
    ) -> wgpu::RenderPipeline {
        pipeline(
            device,
            &PipelineSpec {
                label,
                module: &self.module,
                layout: &self.layout,
                fragment,
                instanced_quads: true,
                topology: wgpu::PrimitiveTopology::TriangleList,
                blend,
                depth: Some((depth_write, DEPTH_NEARER)),
            },
        )
    }
}

/// What the lit chunk passes draw from this frame.
#[derive(Clone, Copy)]
pub(crate) struct ChunkScene<'a> {
    pub(crate) frame: &'a FrameBindings,
    pub(crate) chunks: &'a ChunkStore,
    pub(crate) draws: &'a ChunkDraws,
    /// The shadow receiver's bind group (group 2).
    pub(crate) receiver: &'a wgpu::BindGroup,
    /// The shadow atlas when the shadow pass redraws it this frame (the
    /// lit passes read it, so they run after).
    pub(crate) shadow_atlas: Option<TextureHandle>,
}

impl ChunkScene<'_> {
    /// Binds the frame and the shadow receiver for a lit chunk pass.
    pub(crate) fn bind(&self, rp: &mut wgpu::RenderPass<'_>) {
        rp.set_bind_group(0, &self.frame.group, &[]);
        rp.set_bind_group(2, self.receiver, &[]);
    }
}
