//! Chunk meshing in plain Rust (no GPU): hidden faces culled, coplanar faces
//! merged into rectangles, per-corner ambient occlusion, opaque and
//! transparent geometry kept apart.
//!
//! - [`PaddedChunk`]: the input, a chunk plus a one-block border.
//! - [`Mesher`]: the binary greedy mesher, reusing its scratch space.
//! - [`MeshScheduler`]: background re-meshing with per-frame budgets.
//! - [`mesh_now`]: gather and mesh one world chunk synchronously.

mod greedy;
mod input;
mod quad;
mod scheduler;

pub use greedy::Mesher;
pub use input::{MAX_MESH_SIZE, MeshInputError, PaddedChunk};
pub use quad::{ChunkMesh, PackedQuad};
pub use scheduler::MeshScheduler;

use crate::world::{ChunkPos, World};

/// Gathers the chunk at `pos` from `world` and meshes it on this thread
/// (headless tools, tests). Unloaded neighbours read as bare terrain.
#[must_use]
pub fn mesh_now(world: &World, pos: ChunkPos) -> ChunkMesh {
    Mesher::new().mesh_new(&PaddedChunk::gather(world, pos))
}
