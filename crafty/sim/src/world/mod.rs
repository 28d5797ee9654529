//! The voxel world: block types, 32³ chunks, terrain generated from a seed,
//! and player edits layered over it.
//!
//! The world is infinite in x and z and [`WORLD_HEIGHT`] blocks tall. A
//! chunk is generated on first use from the seed alone, then the edits that
//! fall inside it are applied, so replaying an edit log over a fresh world
//! gives back the edited world without storing any chunk.

mod background;
mod biomes;
mod block;
mod caves;
mod chunk;
mod edit;
mod job_failures;
pub(crate) mod noise;
mod palette;
mod terrain;
mod voxels;

pub use background::ChunkGenerator;
pub use biomes::Biome;
pub use block::{BlockType, Face, TILE_COUNT, UnknownBlock};
pub use chunk::{CHUNK_SIZE, CHUNK_VOLUME, Chunk, ChunkPos};
pub use edit::BlockEdit;
pub(crate) use job_failures::{AfterPanic, Retries};
pub use job_failures::{JOB_ATTEMPTS, JobFailures};
pub(crate) use terrain::layer_block;
pub use terrain::{
    CANOPY_REACH, ColumnSampler, SEA_LEVEL, Terrain, TerrainGenerator, UnknownGenerator,
};
pub(crate) use voxels::UnloadedBlocks;
pub use voxels::{OutsideWorld, WORLD_CHUNKS_Y, WORLD_HEIGHT, World};
