//! The transparent chunk pass: the translucent texels of water, glass and
//! leaves (`fs_transparent` in `shaders/chunk.wgsl`), alpha blended, chunks
//! back to front.
//!
//! Reads the frame bind group, the resident chunks, this frame's
//! [`ChunkDraws`](super::ChunkDraws), the shadow atlas and `frame.depth`
//! (tested, not written); blends into a new version of `frame.hdr`.

use taos_engine::renderer::Frame;
use taos_engine::renderer::wgpu;

use super::chunk_shading::{ChunkScene, ChunkShading};
use crate::render::chunks::Quads;

/// Blends the transparent quads over the opaque scene.
#[derive(Debug)]
pub(crate) struct TransparentChunksPass {
    pipeline: wgpu::RenderPipeline,
}

impl TransparentChunksPass {
    pub(crate) fn new(device: &wgpu::Device, shading: &ChunkShading) -> Self {
        Self {
            pipeline: shading.pipeline(
                device,
                "crafty transparent chunks",
                "fs_transparent",
                Some(wgpu::BlendState::ALPHA_BLENDING),
                false,
            ),
        }
    }

    /// Blends the visible transparent quads into `frame.hdr`; nothing when
    /// none are visible.
    pub(crate) fn add_pass<'a>(&'a self, frame: &mut Frame<'a>, scene: ChunkScene<'a>) {
        let transparent = &scene.draws.transparent;
        let (Some(hdr), Some(depth), false) = (frame.hdr, frame.depth, transparent.is_empty())
        else {
            return;
        };
        frame.hdr = Some(frame.graph.add_render_pass("crafty transparent", |pass| {
            let hdr = pass.write_color(hdr, wgpu::LoadOp::Load);
            pass.read_depth(depth);
            if let Some(atlas) = scene.shadow_atlas {
                pass.read_texture(atlas);
            }
            pass.execute(move |rp, _| {
                rp.set_pipeline(&self.pipeline);
                scene.bind(rp);
                scene
                    .chunks
                    .draw(rp, transparent.iter().copied(), Quads::Transparent);
            });
            hdr
        }));
    }
}
