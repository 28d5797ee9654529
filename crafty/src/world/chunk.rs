//! A 32³ block of voxels and its position in the world.

use glam::IVec3;

use super::BlockType;

/// Blocks along each edge of a chunk.
pub const CHUNK_SIZE: usize = 32;
/// Blocks in one chunk.
pub const CHUNK_VOLUME: usize = CHUNK_SIZE * CHUNK_SIZE * CHUNK_SIZE;

const SIZE: i32 = CHUNK_SIZE as i32;

/// A chunk's position in chunk units: chunk `(1, 0, 0)` holds blocks
/// `x = 32..64`, `y = 0..32`, `z = 0..32`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ChunkPos(pub IVec3);

impl ChunkPos {
    /// The chunk at chunk coordinates `(x, y, z)`.
    #[must_use]
    pub const fn new(x: i32, y: i32, z: i32) -> Self {
        Self(IVec3::new(x, y, z))
    }

    /// The chunk holding block `block`, and the block's offset inside it.
    #[must_use]
    pub fn of_block(block: IVec3) -> (Self, IVec3) {
        let chunk = IVec3::new(
            block.x.div_euclid(SIZE),
            block.y.div_euclid(SIZE),
            block.z.div_euclid(SIZE),
        );
        (Self(chunk), block - chunk * SIZE)
    }

    /// The world position of this chunk's block `(0, 0, 0)`.
    #[must_use]
    pub fn origin(self) -> IVec3 {
        self.0 * SIZE
    }

    /// The neighbour one chunk along `offset`.
    #[must_use]
    pub fn offset(self, offset: IVec3) -> Self {
        Self(self.0 + offset)
    }
}

/// 32³ blocks, stored x fastest, then z, then y (`(y * 32 + z) * 32 + x`).
#[derive(Clone, PartialEq, Eq)]
pub struct Chunk {
    blocks: Box<[BlockType; CHUNK_VOLUME]>,
    solid_count: u32,
}

impl std::fmt::Debug for Chunk {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Chunk")
            .field("non_air_blocks", &self.solid_count)
            .finish_non_exhaustive()
    }
}

impl Default for Chunk {
    fn default() -> Self {
        Self::empty()
    }
}

impl Chunk {
    /// A chunk of air.
    #[must_use]
    pub fn empty() -> Self {
        Self {
            blocks: Box::new([BlockType::Air; CHUNK_VOLUME]),
            solid_count: 0,
        }
    }

    /// The index of local block `(x, y, z)` (each in `0..32`) in [`blocks`](Self::blocks).
    #[must_use]
    pub const fn index(x: usize, y: usize, z: usize) -> usize {
        (y * CHUNK_SIZE + z) * CHUNK_SIZE + x
    }

    /// The block at local `(x, y, z)`; each coordinate must be in `0..32`.
    #[must_use]
    pub fn get(&self, x: usize, y: usize, z: usize) -> BlockType {
        self.blocks[Self::index(x, y, z)]
    }

    /// The block at a local position, or `None` outside `0..32`.
    #[must_use]
    pub fn get_local(&self, local: IVec3) -> Option<BlockType> {
        let inside = local.cmpge(IVec3::ZERO).all() && local.cmplt(IVec3::splat(SIZE)).all();
        inside.then(|| self.get(local.x as usize, local.y as usize, local.z as usize))
    }

    /// Sets local `(x, y, z)`; returns the block that was there.
    pub fn set(&mut self, x: usize, y: usize, z: usize, block: BlockType) -> BlockType {
        let slot = &mut self.blocks[Self::index(x, y, z)];
        let old = std::mem::replace(slot, block);
        self.solid_count = self.solid_count + u32::from(!block.is_air()) - u32::from(!old.is_air());
        old
    }

    /// Every block, in index order.
    #[must_use]
    pub fn blocks(&self) -> &[BlockType; CHUNK_VOLUME] {
        &self.blocks
    }

    /// True when every block is air (nothing to mesh).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.solid_count == 0
    }

    /// A 64-bit FNV-1a hash of the blocks: the same chunk hashes the same on
    /// every platform.
    #[must_use]
    pub fn content_hash(&self) -> u64 {
        self.blocks.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
            (hash ^ u64::from(u8::from(b))).wrapping_mul(0x0100_0000_01b3)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn of_block_splits_negative_coordinates_euclidean() {
        assert_eq!(
            ChunkPos::of_block(IVec3::new(-1, 33, 0)),
            (ChunkPos::new(-1, 1, 0), IVec3::new(31, 1, 0))
        );
        let (chunk, local) = ChunkPos::of_block(IVec3::new(-33, -64, 95));
        assert_eq!(chunk.origin() + local, IVec3::new(-33, -64, 95));
    }

    #[test]
    fn set_counts_non_air_blocks() {
        let mut chunk = Chunk::empty();
        assert!(chunk.is_empty());
        chunk.set(1, 2, 3, BlockType::Stone);
        assert!(!chunk.is_empty());
        assert_eq!(chunk.get_local(IVec3::new(1, 2, 3)), Some(BlockType::Stone));
        assert_eq!(chunk.get_local(IVec3::new(32, 0, 0)), None);
        chunk.set(1, 2, 3, BlockType::Air);
        assert!(chunk.is_empty());
    }
}
