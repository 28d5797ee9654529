//! The mesher's input: an n³ chunk plus a one-block border of neighbour
//! data, with per-row bit masks kept up to date as blocks are written.

use glam::IVec3;

use crate::world::{BlockType, CHUNK_SIZE, Chunk, ChunkPos, UnloadedBlocks, World};

/// The largest chunk edge the mesher takes: 62, so that a padded row of
/// `n + 2` blocks fits one `u64` and quad coordinates fit 6 bits.
pub const MAX_MESH_SIZE: usize = 62;

/// Input the mesher cannot take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum MeshInputError {
    /// A chunk edge outside `1..=62`.
    #[error("chunk edge {0} is outside 1..={MAX_MESH_SIZE}")]
    BadSize(usize),
    /// A padded block slice of the wrong length.
    #[error("expected {expected} padded blocks, got {got}")]
    BadLength {
        /// `(n + 2)³`.
        expected: usize,
        /// What was passed.
        got: usize,
    },
}

/// Bit flags per block type, indexed by `BlockType as usize`.
const FLAG_SOLID: u8 = 1;
const FLAG_OPAQUE: u8 = 2;
const FLAG_WATER: u8 = 4;
const FLAG_GLASS: u8 = 8;

const fn block_flags() -> [u8; 16] {
    let mut out = [0u8; 16];
    let mut i = 0;
    while i < BlockType::ALL.len() {
        let block = BlockType::ALL[i];
        let mut flags = 0;
        if !block.is_air() {
            flags |= FLAG_SOLID;
        }
        if block.is_opaque() {
            flags |= FLAG_OPAQUE;
        }
        if matches!(block, BlockType::Water) {
            flags |= FLAG_WATER;
        }
        if matches!(block, BlockType::Glass) {
            flags |= FLAG_GLASS;
        }
        out[block as usize] = flags;
        i += 1;
    }
    out
}

const FLAGS: [u8; 16] = block_flags();

/// The padded edge of a world chunk's input.
const PADDED: usize = CHUNK_SIZE + 2;

/// The offset to neighbour `slot` (0..27, x fastest, then y, then z; 13 is
/// the chunk itself).
fn neighbour_offset(slot: usize) -> IVec3 {
    IVec3::new(slot as i32 % 3, slot as i32 / 3 % 3, slot as i32 / 9) - IVec3::ONE
}

/// Every run of a world chunk's padded input that one chunk supplies: the
/// chunk's neighbour slot (see [`neighbour_offset`]), the padded `y` and
/// `z` of the row, the run's padded `x` range, and the index in that chunk
/// of the run's first block.
fn neighbour_runs() -> impl Iterator<Item = (usize, usize, usize, std::ops::Range<usize>, usize)> {
    const N: usize = CHUNK_SIZE;
    // Padded coordinate -> (neighbour offset 0..3, local coordinate there).
    let split = |p: usize| -> (usize, usize) {
        if p == 0 {
            (0, N - 1)
        } else if p == PADDED - 1 {
            (2, 0)
        } else {
            (1, p - 1)
        }
    };
    (0..PADDED).flat_map(move |py| {
        let (cy, ly) = split(py);
        (0..PADDED).flat_map(move |pz| {
            let (cz, lz) = split(pz);
            [
                (0, 0..1, N - 1),
                (1, 1..PADDED - 1, 0),
                (2, PADDED - 1..PADDED, 0),
            ]
            .into_iter()
            .map(move |(cx, xs, lx0)| {
                (
                    (cz * 3 + cy) * 3 + cx,
                    py,
                    pz,
                    xs,
                    Chunk::index(lx0, ly, lz),
                )
            })
        })
    })
}

/// The border blocks a [`PaddedChunk::gather_loaded`] left because their
/// chunks were not loaded, with what is needed to work them out.
pub(crate) struct PendingBorder {
    origin: IVec3,
    missing: [bool; 27],
    blocks: UnloadedBlocks,
}

impl std::fmt::Debug for PendingBorder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PendingBorder")
            .field("origin", &self.origin)
            .field("missing", &self.missing)
            .finish_non_exhaustive()
    }
}

/// An `n³` chunk with a one-block border: `(n + 2)³` blocks, indexed in
/// padded coordinates `(y * p + z) * p + x` with `p = n + 2` (x fastest,
/// like [`Chunk`]). Padded `(1, 1, 1)` is chunk-local `(0, 0, 0)`.
///
/// Alongside the blocks it keeps one `u64` per padded `(y, z)` row with bit
/// `x` set for non-air, opaque, water and glass blocks; [`set`](Self::set)
/// keeps them current, so the mesher starts from bits, never bytes.
#[derive(Clone, PartialEq, Eq)]
pub struct PaddedChunk {
    size: usize,
    blocks: Vec<BlockType>,
    pub(super) solid: Vec<u64>,
    pub(super) opaque: Vec<u64>,
    pub(super) water: Vec<u64>,
    pub(super) glass: Vec<u64>,
    /// The same four masks transposed: one `u64` per padded `(y, x)` row
    /// (index `y * p + x`), bit `z`.
    pub(super) solid_t: Vec<u64>,
    pub(super) opaque_t: Vec<u64>,
    pub(super) water_t: Vec<u64>,
    pub(super) glass_t: Vec<u64>,
}

impl std::fmt::Debug for PaddedChunk {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PaddedChunk")
            .field("size", &self.size)
            .finish_non_exhaustive()
    }
}

impl PaddedChunk {
    /// An all-air input for an `size³` chunk.
    ///
    /// # Errors
    /// [`MeshInputError::BadSize`] unless `1 <= size <= 62`.
    pub fn new(size: usize) -> Result<Self, MeshInputError> {
        if !(1..=MAX_MESH_SIZE).contains(&size) {
            return Err(MeshInputError::BadSize(size));
        }
        let p = size + 2;
        Ok(Self {
            size,
            blocks: vec![BlockType::Air; p * p * p],
            solid: vec![0; p * p],
            opaque: vec![0; p * p],
            water: vec![0; p * p],
            glass: vec![0; p * p],
            solid_t: vec![0; p * p],
            opaque_t: vec![0; p * p],
            water_t: vec![0; p * p],
            glass_t: vec![0; p * p],
        })
    }

    /// An input filled from `block(local)`, called for every chunk-local
    /// position in `-1..=size` on each axis (border included).
    ///
    /// # Errors
    /// [`MeshInputError::BadSize`] unless `1 <= size <= 62`.
    pub fn from_fn(
        size: usize,
        mut block: impl FnMut(IVec3) -> BlockType,
    ) -> Result<Self, MeshInputError> {
        let mut out = Self::new(size)?;
        let p = out.padded_size();
        let mut i = 0;
        for y in 0..p {
            for z in 0..p {
                for x in 0..p {
                    out.blocks[i] = block(IVec3::new(x as i32 - 1, y as i32 - 1, z as i32 - 1));
                    i += 1;
                }
            }
        }
        out.rebuild_masks();
        Ok(out)
    }

    /// The input for the world chunk at `pos` (32³): its blocks plus the
    /// border from its neighbours. Loaded neighbours are copied; where one is
    /// not loaded, [`World::block`] supplies bare terrain.
    #[must_use]
    pub fn gather(world: &World, pos: ChunkPos) -> Self {
        let mut out = Self::new(CHUNK_SIZE).unwrap_or_else(|_| unreachable!("32 is in range"));
        out.gather_into(world, pos);
        out
    }

    /// [`gather`](Self::gather) into this input, reusing its storage (it is
    /// resized to 32³ first if needed).
    pub fn gather_into(&mut self, world: &World, pos: ChunkPos) {
        let border = self.gather_loaded(world, pos);
        self.finish_gather(border);
    }

    /// The first half of [`gather_into`](Self::gather_into), the half that
    /// needs the world: copies the chunk and the borders of its loaded
    /// neighbours. The border of neighbours not loaded, and the row masks,
    /// wait for [`finish_gather`](Self::finish_gather) (a mesher thread runs
    /// it: the bare terrain there costs noise for every block).
    pub(crate) fn gather_loaded(&mut self, world: &World, pos: ChunkPos) -> Option<PendingBorder> {
        if self.size != CHUNK_SIZE {
            *self = Self::new(CHUNK_SIZE).unwrap_or_else(|_| unreachable!("32 is in range"));
        }
        let near: [Option<&Chunk>; 27] =
            std::array::from_fn(|slot| world.chunk(pos.offset(neighbour_offset(slot))));
        let missing = near.map(|chunk| chunk.is_none());
        for (slot, py, pz, xs, start) in neighbour_runs() {
            if let Some(chunk) = near[slot] {
                let row = (py * PADDED + pz) * PADDED;
                chunk.copy_blocks(start, &mut self.blocks[row + xs.start..row + xs.end]);
            }
        }
        let origin = pos.origin();
        missing.contains(&true).then(|| PendingBorder {
            origin,
            missing,
            blocks: world.unloaded_blocks(
                origin - IVec3::ONE,
                origin + IVec3::splat(CHUNK_SIZE as i32),
            ),
        })
    }

    /// The second half of [`gather_into`](Self::gather_into): fills the
    /// border that [`gather_loaded`](Self::gather_loaded) left, and rebuilds
    /// the row masks.
    pub(crate) fn finish_gather(&mut self, border: Option<PendingBorder>) {
        if let Some(mut border) = border {
            for (slot, py, pz, xs, _) in neighbour_runs() {
                if !border.missing[slot] {
                    continue;
                }
                let row = (py * PADDED + pz) * PADDED;
                for px in xs {
                    let padded = IVec3::new(px as i32, py as i32, pz as i32);
                    self.blocks[row + px] =
                        border.blocks.block(border.origin + padded - IVec3::ONE);
                }
            }
        }
        self.rebuild_masks();
    }

    /// Replaces every block with `blocks`, padded and in index order (see
    /// [`index`](Self::index)), and recomputes the row masks.
    ///
    /// # Errors
    /// [`MeshInputError::BadLength`] unless `blocks.len() == (n + 2)³`.
    pub fn load_padded(&mut self, blocks: &[BlockType]) -> Result<(), MeshInputError> {
        if blocks.len() != self.blocks.len() {
            return Err(MeshInputError::BadLength {
                expected: self.blocks.len(),
                got: blocks.len(),
            });
        }
        self.blocks.copy_from_slice(blocks);
        self.rebuild_masks();
        Ok(())
    }

    /// True when some block (border included) is water or glass.
    #[must_use]
    pub fn has_water_or_glass(&self) -> bool {
        self.water.iter().chain(&self.glass).any(|&row| row != 0)
    }

    /// The chunk edge `n`.
    #[must_use]
    pub const fn size(&self) -> usize {
        self.size
    }

    /// The padded edge `n + 2`.
    #[must_use]
    pub const fn padded_size(&self) -> usize {
        self.size + 2
    }

    /// Index of padded `(x, y, z)` (each in `0..n + 2`) in [`blocks`](Self::blocks).
    #[must_use]
    pub const fn index(&self, x: usize, y: usize, z: usize) -> usize {
        let p = self.padded_size();
        (y * p + z) * p + x
    }

    /// Every block, padded, in index order.
    #[must_use]
    pub fn blocks(&self) -> &[BlockType] {
        &self.blocks
    }

    /// The block at chunk-local `local`, each coordinate in `-1..=n`; `None`
    /// outside that.
    #[must_use]
    pub fn get(&self, local: IVec3) -> Option<BlockType> {
        let p = self.padded_size() as i32;
        let padded = local + IVec3::ONE;
        let inside = padded.cmpge(IVec3::ZERO).all() && padded.cmplt(IVec3::splat(p)).all();
        inside.then(|| {
            self.blocks[self.index(padded.x as usize, padded.y as usize, padded.z as usize)]
        })
    }

    /// Sets the block at chunk-local `local` (each coordinate in `-1..=n`),
    /// keeping the row masks current. Returns `false` (and changes nothing)
    /// outside that range.
    pub fn set(&mut self, local: IVec3, block: BlockType) -> bool {
        let p = self.padded_size() as i32;
        let padded = local + IVec3::ONE;
        if !(padded.cmpge(IVec3::ZERO).all() && padded.cmplt(IVec3::splat(p)).all()) {
            return false;
        }
        let (x, y, z) = (padded.x as usize, padded.y as usize, padded.z as usize);
        let i = self.index(x, y, z);
        self.blocks[i] = block;
        let p = self.padded_size();
        let (row, bit) = (y * p + z, 1u64 << x);
        let (row_t, bit_t) = (y * p + x, 1u64 << z);
        let flags = FLAGS[block as usize];
        for (masks, masks_t, flag) in [
            (&mut self.solid, &mut self.solid_t, FLAG_SOLID),
            (&mut self.opaque, &mut self.opaque_t, FLAG_OPAQUE),
            (&mut self.water, &mut self.water_t, FLAG_WATER),
            (&mut self.glass, &mut self.glass_t, FLAG_GLASS),
        ] {
            if flags & flag != 0 {
                masks[row] |= bit;
                masks_t[row_t] |= bit_t;
            } else {
                masks[row] &= !bit;
                masks_t[row_t] &= !bit_t;
            }
        }
        true
    }

    /// Recomputes every row mask from the blocks, eight blocks at a time.
    fn rebuild_masks(&mut self) {
        let p = self.padded_size();
        let (mut any_water, mut any_glass) = (0u64, 0u64);
        for (row, blocks) in self.blocks.chunks_exact(p).enumerate() {
            let (mut solid, mut opaque, mut water, mut glass) = (0u64, 0u64, 0u64, 0u64);
            let mut eights = blocks.chunks_exact(8);
            let mut x = 0;
            for eight in &mut eights {
                let word = u64::from_le_bytes(std::array::from_fn(|k| eight[k] as u8));
                let non_air = movemask(non_zero_bytes(word));
                let w = movemask(!non_zero_bytes(word ^ bytes_of(BlockType::Water)));
                let g = movemask(!non_zero_bytes(word ^ bytes_of(BlockType::Glass)));
                let l = movemask(!non_zero_bytes(word ^ bytes_of(BlockType::Leaves)));
                solid |= non_air << x;
                opaque |= (non_air & !(w | g | l)) << x;
                water |= w << x;
                glass |= g << x;
                x += 8;
            }
            for &block in eights.remainder() {
                let f = u64::from(FLAGS[block as usize]);
                solid |= (f & 1) << x;
                opaque |= ((f >> 1) & 1) << x;
                water |= ((f >> 2) & 1) << x;
                glass |= ((f >> 3) & 1) << x;
                x += 1;
            }
            self.solid[row] = solid;
            self.opaque[row] = opaque;
            self.water[row] = water;
            self.glass[row] = glass;
            any_water |= water;
            any_glass |= glass;
        }
        transpose_slices(&self.solid, &mut self.solid_t, p);
        transpose_slices(&self.opaque, &mut self.opaque_t, p);
        for (any, masks, masks_t) in [
            (any_water, &self.water, &mut self.water_t),
            (any_glass, &self.glass, &mut self.glass_t),
        ] {
            if any == 0 {
                masks_t.fill(0);
            } else {
                transpose_slices(masks, masks_t, p);
            }
        }
    }
}

/// `block` in every byte of a word.
const fn bytes_of(block: BlockType) -> u64 {
    0x0101_0101_0101_0101 * block as u64
}

/// The high bit of every byte of `word` that is not zero (bytes < 128).
const fn non_zero_bytes(word: u64) -> u64 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    (((word & LOW7).wrapping_add(LOW7)) | word) & 0x8080_8080_8080_8080
}

/// Bit `k` set when the high bit of byte `k` is set.
const fn movemask(high_bits: u64) -> u64 {
    ((high_bits & 0x8080_8080_8080_8080) >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// Transposes each `p × p` slice of row masks (rows `(y, z)`, bit x) into
/// rows `(y, x)`, bit z.
fn transpose_slices(masks: &[u64], masks_t: &mut [u64], p: usize) {
    let mut square = [0u64; 64];
    for (slice, slice_t) in masks.chunks_exact(p).zip(masks_t.chunks_exact_mut(p)) {
        square[..p].copy_from_slice(slice);
        square[p..].fill(0);
        transpose64(&mut square);
        slice_t.copy_from_slice(&square[..p]);
    }
}

/// Transposes a 64×64 bit matrix in place: bit `c` of row `r` becomes bit
/// `r` of row `c`.
fn transpose64(a: &mut [u64; 64]) {
    let mut j = 32;
    let mut m: u64 = 0x0000_0000_FFFF_FFFF;
    while j != 0 {
        let mut k = 0;
        while k < 64 {
            let t = ((a[k] >> j) ^ a[k + j]) & m;
            a[k + j] ^= t;
            a[k] ^= t << j;
            k = (k + j + 1) & !j;
        }
        j >>= 1;
        m ^= m << j;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transpose64_matches_the_naive_transpose() {
        let mut state = 0x1234_5678_9abc_def1u64;
        let mut a = [0u64; 64];
        for row in &mut a {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            *row = state;
        }
        let mut t = a;
        transpose64(&mut t);
        for (r, row) in a.iter().enumerate() {
            for (c, column) in t.iter().enumerate() {
                assert_eq!(row >> c & 1, column >> r & 1, "({r}, {c})");
            }
        }
    }

    #[test]
    fn masks_follow_set_and_rebuild_alike() {
        let mut state = 99u64;
        let mut built = PaddedChunk::from_fn(9, |_| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            BlockType::ALL[(state >> 60) as usize % BlockType::ALL.len()]
        })
        .unwrap();
        let mut set = PaddedChunk::new(9).unwrap();
        for y in -1..=9 {
            for z in -1..=9 {
                for x in -1..=9 {
                    let p = IVec3::new(x, y, z);
                    set.set(p, built.get(p).unwrap());
                }
            }
        }
        assert!(set == built);
        built.rebuild_masks();
        assert!(set == built);
    }

    #[test]
    fn a_gather_gives_what_the_world_gives_loaded_or_not() {
        use crate::world::{Terrain, TerrainGenerator};
        // A surface chunk of the biome terrain (caves and trees about), with
        // some neighbours loaded and others not, and an edit in each kind.
        let mut world = crate::world::World::with_terrain(Terrain::with_generator(
            42,
            TerrainGenerator::Biomes,
        ));
        let pos = ChunkPos::new(3, 2, -2);
        for offset in [
            IVec3::ZERO,
            IVec3::X,
            IVec3::new(0, -1, 1),
            IVec3::new(-1, 1, -1),
        ] {
            world.ensure_chunk(pos.offset(offset));
        }
        let origin = pos.origin();
        // In the unloaded -x neighbour's border, and in the loaded +x one's.
        world
            .set_block(origin + IVec3::new(-1, 5, 7), BlockType::Glass)
            .unwrap();
        world
            .set_block(origin + IVec3::new(32, 6, 8), BlockType::Water)
            .unwrap();
        let expected =
            PaddedChunk::from_fn(CHUNK_SIZE, |local| world.block(origin + local)).unwrap();

        let gathered = PaddedChunk::gather(&world, pos);
        assert!(gathered == expected, "one-step gather");
        let mut split = PaddedChunk::new(CHUNK_SIZE).unwrap();
        let border = split.gather_loaded(&world, pos);
        assert!(border.is_some(), "some neighbours are not loaded");
        split.finish_gather(border);
        assert!(split == expected, "gather finished elsewhere");
        assert_eq!(split.get(IVec3::new(-1, 5, 7)), Some(BlockType::Glass));
    }
}
