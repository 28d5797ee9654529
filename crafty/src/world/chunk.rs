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
///
/// A chunk of one kind of block (the air above the land, the rock deep
/// under it) is stored as that one value; the first edit that breaks the
/// pattern gives it its own 32 KiB array, and [`compact`](Self::compact)
/// (run after generation) turns a uniform array back into one value.
#[derive(Clone)]
pub struct Chunk {
    blocks: Blocks,
    solid_count: u32,
}

#[derive(Clone)]
enum Blocks {
    /// Every block the same.
    Uniform(BlockType),
    /// One byte per block.
    Dense(Box<[BlockType; CHUNK_VOLUME]>),
}

/// A shared, read-only chunk's worth of `block`, for
/// [`Chunk::blocks`] on uniform chunks (made once per kind of block).
fn uniform_blocks(block: BlockType) -> &'static [BlockType; CHUNK_VOLUME] {
    static ARRAYS: [std::sync::OnceLock<Box<[BlockType; CHUNK_VOLUME]>>; 256] =
        [const { std::sync::OnceLock::new() }; 256];
    ARRAYS[usize::from(u8::from(block))].get_or_init(|| Box::new([block; CHUNK_VOLUME]))
}

impl PartialEq for Chunk {
    fn eq(&self, other: &Self) -> bool {
        match (&self.blocks, &other.blocks) {
            (Blocks::Uniform(a), Blocks::Uniform(b)) => a == b,
            _ => self.blocks() == other.blocks(),
        }
    }
}

impl Eq for Chunk {}

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
        Self::filled(BlockType::Air)
    }

    /// A chunk where every block is `block` (stored as one value).
    #[must_use]
    pub fn filled(block: BlockType) -> Self {
        Self {
            blocks: Blocks::Uniform(block),
            solid_count: if block.is_air() {
                0
            } else {
                CHUNK_VOLUME as u32
            },
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
        match &self.blocks {
            Blocks::Uniform(block) => {
                debug_assert!(Self::index(x, y, z) < CHUNK_VOLUME);
                *block
            }
            Blocks::Dense(blocks) => blocks[Self::index(x, y, z)],
        }
    }

    /// The block at a local position, or `None` outside `0..32`.
    #[must_use]
    pub fn get_local(&self, local: IVec3) -> Option<BlockType> {
        let inside = local.cmpge(IVec3::ZERO).all() && local.cmplt(IVec3::splat(SIZE)).all();
        inside.then(|| self.get(local.x as usize, local.y as usize, local.z as usize))
    }

    /// Sets local `(x, y, z)`; returns the block that was there.
    pub fn set(&mut self, x: usize, y: usize, z: usize, block: BlockType) -> BlockType {
        let index = Self::index(x, y, z);
        if let Blocks::Uniform(fill) = self.blocks {
            assert!(index < CHUNK_VOLUME, "({x}, {y}, {z}) is outside the chunk");
            if fill == block {
                return block;
            }
            self.blocks = Blocks::Dense(Box::new([fill; CHUNK_VOLUME]));
        }
        let Blocks::Dense(blocks) = &mut self.blocks else {
            unreachable!("a uniform chunk was just made an array")
        };
        let old = std::mem::replace(&mut blocks[index], block);
        self.solid_count = self.solid_count + u32::from(!block.is_air()) - u32::from(!old.is_air());
        if self.solid_count == 0 {
            // Dug out to nothing: back to one value.
            self.blocks = Blocks::Uniform(BlockType::Air);
        }
        old
    }

    /// Every block, in index order.
    #[must_use]
    pub fn blocks(&self) -> &[BlockType; CHUNK_VOLUME] {
        match &self.blocks {
            Blocks::Uniform(block) => uniform_blocks(*block),
            Blocks::Dense(blocks) => blocks,
        }
    }

    /// The block every position holds, when the chunk is stored as one
    /// value (a chunk of one kind that is stored as an array says `None`
    /// until [`compact`](Self::compact)).
    #[must_use]
    pub fn uniform(&self) -> Option<BlockType> {
        match self.blocks {
            Blocks::Uniform(block) => Some(block),
            Blocks::Dense(_) => None,
        }
    }

    /// Stores the chunk as one value if every block is the same; returns
    /// whether it now is.
    pub fn compact(&mut self) -> bool {
        if let Blocks::Dense(blocks) = &self.blocks {
            let first = blocks[0];
            if blocks.iter().all(|&b| b == first) {
                self.blocks = Blocks::Uniform(first);
            }
        }
        self.uniform().is_some()
    }

    /// Bytes this chunk's blocks take on the heap (0 when uniform).
    #[must_use]
    pub fn heap_bytes(&self) -> usize {
        match self.blocks {
            Blocks::Uniform(_) => 0,
            Blocks::Dense(_) => CHUNK_VOLUME * std::mem::size_of::<BlockType>(),
        }
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
        self.blocks()
            .iter()
            .fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
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

    #[test]
    fn uniform_chunks_take_no_array_until_an_edit_breaks_them() {
        let mut rock = Chunk::filled(BlockType::Stone);
        assert_eq!(
            (rock.uniform(), rock.heap_bytes()),
            (Some(BlockType::Stone), 0)
        );
        assert!(!rock.is_empty());
        assert_eq!(rock.get(31, 31, 31), BlockType::Stone);
        assert!(rock.blocks().iter().all(|&b| b == BlockType::Stone));
        let hash = rock.content_hash();
        // Setting what is already there keeps it one value.
        assert_eq!(rock.set(4, 5, 6, BlockType::Stone), BlockType::Stone);
        assert_eq!(rock.heap_bytes(), 0);

        let mut dug = rock.clone();
        assert_eq!(dug.set(4, 5, 6, BlockType::Air), BlockType::Stone);
        assert_eq!(dug.heap_bytes(), CHUNK_VOLUME);
        assert_eq!(dug.get(4, 5, 6), BlockType::Air);
        assert_eq!(dug.get(4, 5, 7), BlockType::Stone);
        assert_ne!(dug, rock);
        assert!(!dug.compact(), "mixed chunks stay arrays");

        dug.set(4, 5, 6, BlockType::Stone);
        assert_eq!(dug, rock, "the same blocks compare equal however stored");
        assert_eq!(dug.content_hash(), hash);
        assert!(dug.compact());
        assert_eq!(dug.heap_bytes(), 0);
        assert_eq!(Chunk::empty().uniform(), Some(BlockType::Air));
    }
}
