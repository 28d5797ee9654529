//! The opaque chunk pass: solid block faces, then the fully opaque texels
//! of transparent quads (leaves, glass frames, alpha tested), lit, shadowed
//! and fogged by `shaders/chunk.wgsl`.
//!
//! Reads the frame bind group, the resident chunks, this frame's
//! [`ChunkDraws`](super::ChunkDraws) and the shadow atlas; draws over
//! `frame.hdr` (the sky) and creates and writes the scene depth as
//! `frame.depth`.

use taos_engine::renderer::Frame;
use taos_engine::renderer::features::DEPTH_FORMAT;
use taos_engine::renderer::frame::DEPTH_CLEAR;
use taos_engine::renderer::graph::TextureDesc;
use taos_engine::renderer::wgpu;

use super::chunk_shading::{ChunkScene, ChunkShading};
use crate::render::chunks::Quads;
use crate::render::shared::TARGET_USAGE;

/// Draws the opaque quads, then the cutout texels, front to back with
/// depth written.
#[derive(Debug)]
pub(crate) struct OpaqueChunksPass {
    opaque: wgpu::RenderPipeline,
    cutout: wgpu::RenderPipeline,
}

impl OpaqueChunksPass {
    pub(crate) fn new(device: &wgpu::Device, shading: &ChunkShading) -> Self {
        Self {
            opaque: shading.pipeline(device, "crafty opaque chunks", "fs_opaque", None, true),
            cutout: shading.pipeline(device, "crafty cutout chunks", "fs_cutout", None, true),
        }
    }

    /// Creates the depth target and draws the chunks into it and
    /// `frame.hdr`; sets `frame.depth`.
    pub(crate) fn add_pass<'a>(&'a self, frame: &mut Frame<'a>, scene: ChunkScene<'a>) {
        let (width, height) = frame.data.size;
        let depth = frame.graph.create_texture(
            "depth",
            TextureDesc::new_2d(width, height, DEPTH_FORMAT, TARGET_USAGE),
        );
        let Some(hdr) = frame.hdr else { return };
        let (hdr, depth) = frame.graph.add_render_pass("crafty opaque", |pass| {
            let hdr = pass.write_color(hdr, wgpu::LoadOp::Load);
            let depth = pass.write_depth(depth, wgpu::LoadOp::Clear(DEPTH_CLEAR));
            if let Some(atlas) = scene.shadow_atlas {
                pass.read_texture(atlas);
            }
            pass.execute(move |rp, _| {
                rp.set_pipeline(&self.opaque);
                scene.bind(rp);
                let draws = scene.draws;
                scene
                    .chunks
                    .draw(rp, draws.opaque.iter().copied(), Quads::Opaque);
                // The opaque texels of transparent quads (leaves, glass
                // frames), depth written; front to back like the rest.
                rp.set_pipeline(&self.cutout);
                scene.chunks.draw(
                    rp,
                    draws.transparent.iter().rev().copied(),
                    Quads::Transparent,
                );
            });
            (hdr, depth)
        });
        frame.hdr = Some(hdr);
        frame.depth = Some(depth);
    }
}
