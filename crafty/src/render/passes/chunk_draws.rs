//! [`ChunkDraws`]: which chunks the chunk passes draw this frame, and in
//! what order. Computed once per frame from the resident chunks and the
//! camera; read by the opaque and transparent chunk passes.

use taos_engine::renderer::frame::CameraView;

use crate::render::CraftyRenderStats;
use std::collections::HashSet;

use glam::IVec2;

use crate::render::chunks::{ChunkStore, box_visible};

/// The visible chunks: those with opaque quads front to back (early depth
/// rejects more), those with transparent quads back to front (blending
/// needs it).
#[derive(Debug, Default)]
pub(crate) struct ChunkDraws {
    /// Slots of the visible chunks with opaque quads, nearest first.
    pub(crate) opaque: Vec<u32>,
    /// Slots of the visible chunks with transparent quads, farthest first.
    pub(crate) transparent: Vec<u32>,
    sort_scratch: Vec<(f32, u32)>,
}

impl ChunkDraws {
    /// Culls and sorts the resident chunks for `camera`, leaving out the
    /// world chunks of the `hidden` columns (far terrain covers them);
    /// returns the chunk and draw counts of the stats.
    pub(crate) fn update(
        &mut self,
        chunks: &ChunkStore,
        camera: &CameraView,
        hidden: &HashSet<IVec2>,
    ) -> CraftyRenderStats {
        let view_proj = camera.projection * camera.view;
        let eye = camera.position;
        let mut stats = CraftyRenderStats {
            chunks: chunks.len(),
            ..CraftyRenderStats::default()
        };
        self.sort_scratch.clear();
        for (slot, chunk) in chunks.iter() {
            stats.opaque_quads += u64::from(chunk.opaque);
            stats.transparent_quads += u64::from(chunk.transparent);
            if chunk.key.column().is_some_and(|c| hidden.contains(&c)) {
                continue;
            }
            if box_visible(&view_proj, chunk.min, chunk.size) {
                let distance = chunk.center().distance_squared(eye);
                self.sort_scratch.push((distance, slot));
            } else {
                stats.culled_chunks += 1;
            }
        }
        self.sort_scratch
            .sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        self.opaque.clear();
        self.opaque.extend(
            self.sort_scratch
                .iter()
                .map(|&(_, slot)| slot)
                .filter(|&slot| chunks.get(slot).is_some_and(|c| c.opaque > 0)),
        );
        self.transparent.clear();
        self.transparent.extend(
            self.sort_scratch
                .iter()
                .rev()
                .map(|&(_, slot)| slot)
                .filter(|&slot| chunks.get(slot).is_some_and(|c| c.transparent > 0)),
        );
        stats.opaque_draws = self.opaque.len();
        stats.transparent_draws = self.transparent.len();
        stats
    }
}
