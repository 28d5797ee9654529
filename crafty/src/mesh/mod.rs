//! Chunk meshing in plain Rust (no GPU): hidden faces culled, coplanar faces
//! merged into rectangles, per-corner ambient occlusion, opaque and
//! transparent geometry kept apart.

mod quad;

pub use quad::{ChunkMesh, PackedQuad};
