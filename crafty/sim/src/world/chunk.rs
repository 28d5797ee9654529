//! A 32³ block of voxels and its position in the world.

use glam::IVec3;

use super::BlockType;
use super::palette::PackedBlocks;

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
/// Stored as compactly as its blocks allow:
/// - a chunk of one kind of block (the air above the land, the rock deep
///   under it) is that one value;
/// - a chunk of up to 16 kinds (every natural chunk) is a palette of its
///   kinds and 1, 2 or 4 bits per block: 4 to 16 KiB;
/// - otherwise one byte per block, 32 KiB.
///
/// Generation writes an array and [`compact`](Self::compact)s it; edits
/// keep a packed chunk packed (widening its indices as kinds are added),
/// and digging a chunk out to air makes it one value again.
#[derive(Clone)]
pub struct Chunk {
    blocks: Blocks,
    solid_count: u32,
}

#[derive(Clone)]
enum Blocks {
    /// Every block the same.
    Uniform(BlockType),
    /// A palette of at most 16 kinds and a few bits per block.
    Packed(PackedBlocks),
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
            (Blocks::Dense(a), Blocks::Dense(b)) => a == b,
            _ => (0..CHUNK_VOLUME).all(|i| self.at(i) == other.at(i)),
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

    /// A chunk of air stored as an array: what generation writes into
    /// before [`compact`](Self::compact)ing (byte writes are the fastest).
    #[must_use]
    pub(super) fn unpacked() -> Self {
        Self {
            blocks: Blocks::Dense(Box::new([BlockType::Air; CHUNK_VOLUME])),
            solid_count: 0,
        }
    }

    /// The block at `index` (see [`index`](Self::index)).
    fn at(&self, index: usize) -> BlockType {
        match &self.blocks {
            Blocks::Uniform(block) => *block,
            Blocks::Packed(packed) => packed.get(index),
            Blocks::Dense(blocks) => blocks[index],
        }
    }

    /// Copies the blocks from index `start` on (see [`index`](Self::index))
    /// into `out`, e.g. one row: what the mesher reads, without unpacking
    /// the whole chunk.
    ///
    /// # Panics
    /// When `start + out.len()` passes [`CHUNK_VOLUME`].
    pub fn copy_blocks(&self, start: usize, out: &mut [BlockType]) {
        assert!(
            start + out.len() <= CHUNK_VOLUME,
            "blocks {start}..{} are outside the chunk",
            start + out.len()
        );
        match &self.blocks {
            Blocks::Uniform(block) => out.fill(*block),
            Blocks::Packed(packed) => packed.copy_to(start, out),
            Blocks::Dense(blocks) => out.copy_from_slice(&blocks[start..start + out.len()]),
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
        let index = Self::index(x, y, z);
        assert!(index < CHUNK_VOLUME, "({x}, {y}, {z}) is outside the chunk");
        self.at(index)
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
        assert!(index < CHUNK_VOLUME, "({x}, {y}, {z}) is outside the chunk");
        if let Blocks::Uniform(fill) = self.blocks {
            if fill == block {
                return block;
            }
            self.blocks = Blocks::Packed(PackedBlocks::filled(fill));
        }
        let old = match &mut self.blocks {
            Blocks::Uniform(_) => unreachable!("a uniform chunk was just packed"),
            Blocks::Packed(packed) => match packed.set(index, block) {
                Some(old) => old,
                None => {
                    // A kind too many for 4 bits: one byte per block.
                    let mut blocks = packed.unpack();
                    let old = std::mem::replace(&mut blocks[index], block);
                    self.blocks = Blocks::Dense(blocks);
                    old
                }
            },
            Blocks::Dense(blocks) => std::mem::replace(&mut blocks[index], block),
        };
        self.solid_count = self.solid_count + u32::from(!block.is_air()) - u32::from(!old.is_air());
        if self.solid_count == 0 {
            // Dug out to nothing: back to one value.
            self.blocks = Blocks::Uniform(BlockType::Air);
        }
        old
    }

    /// Every block, in index order. A packed chunk unpacks itself for
    /// this and keeps the 32 KiB copy until its next edit: to read a few
    /// blocks, prefer [`get`](Self::get) or [`copy_blocks`](Self::copy_blocks).
    #[must_use]
    pub fn blocks(&self) -> &[BlockType; CHUNK_VOLUME] {
        match &self.blocks {
            Blocks::Uniform(block) => uniform_blocks(*block),
            Blocks::Packed(packed) => packed.as_array(),
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
            Blocks::Packed(_) | Blocks::Dense(_) => None,
        }
    }

    /// Stores the chunk as compactly as its blocks allow: one value if
    /// every block is the same, else packed in the fewest bits its kinds
    /// need; returns whether it is now one value.
    pub fn compact(&mut self) -> bool {
        let compacted = match &self.blocks {
            Blocks::Uniform(_) => None,
            Blocks::Packed(packed) => PackedBlocks::pack(&packed.unpack()),
            Blocks::Dense(blocks) => PackedBlocks::pack(blocks),
        };
        if let Some(packed) = compacted {
            self.blocks = match packed.single_kind() {
                Some(block) => Blocks::Uniform(block),
                None => Blocks::Packed(packed),
            };
        }
        self.uniform().is_some()
    }

    /// Bytes this chunk's blocks take on the heap: 0 when uniform, 4 to
    /// 16 KiB packed (plus 32 KiB while an unpacked copy from
    /// [`blocks`](Self::blocks) is kept), 32 KiB as an array.
    #[must_use]
    pub fn heap_bytes(&self) -> usize {
        match &self.blocks {
            Blocks::Uniform(_) => 0,
            Blocks::Packed(packed) => packed.heap_bytes(),
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
        (0..CHUNK_VOLUME).fold(0xcbf2_9ce4_8422_2325, |hash, i| {
            (hash ^ u64::from(u8::from(self.at(i)))).wrapping_mul(0x0100_0000_01b3)
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
    fn uniform_chunks_take_no_memory_until_an_edit_breaks_them() {
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
        assert!(
            dug.heap_bytes() <= CHUNK_VOLUME / 8 + 16,
            "two kinds take a bit a block: {}",
            dug.heap_bytes()
        );
        assert_eq!(dug.get(4, 5, 6), BlockType::Air);
        assert_eq!(dug.get(4, 5, 7), BlockType::Stone);
        assert_ne!(dug, rock);
        assert!(!dug.compact(), "mixed chunks stay mixed");

        dug.set(4, 5, 6, BlockType::Stone);
        assert_eq!(dug, rock, "the same blocks compare equal however stored");
        assert_eq!(dug.content_hash(), hash);
        assert!(dug.compact());
        assert_eq!(dug.heap_bytes(), 0);
        assert_eq!(Chunk::empty().uniform(), Some(BlockType::Air));
    }

    #[test]
    fn every_storage_reads_and_compares_alike() {
        let mut array = Chunk::unpacked();
        let mut packed = Chunk::empty();
        for (k, &block) in BlockType::ALL.iter().enumerate().skip(1) {
            let (x, y, z) = (k, 2 * k, 31 - k);
            array.set(x, y, z, block);
            packed.set(x, y, z, block);
        }
        assert_eq!(array.heap_bytes(), CHUNK_VOLUME);
        assert!(array == packed);
        assert_eq!(array.content_hash(), packed.content_hash());
        let mut row = [BlockType::Air; 34];
        let mut expected = [BlockType::Air; 34];
        packed.copy_blocks(Chunk::index(0, 6, 28), &mut row);
        array.copy_blocks(Chunk::index(0, 6, 28), &mut expected);
        assert_eq!(row, expected);
        assert_eq!(row[3], BlockType::ALL[3], "block (3, 6, 28)");
        assert_eq!(packed.blocks(), array.blocks());

        // Generation leaves arrays packed: 12 kinds take 4 bits a block.
        assert!(!array.compact());
        assert!(array.heap_bytes() <= CHUNK_VOLUME / 2 + 16);
        assert!(array == packed);
    }
}
