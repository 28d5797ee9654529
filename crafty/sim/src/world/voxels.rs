//! [`World`]: generated chunks with the player's edits layered on top.

use std::collections::HashMap;

use glam::IVec3;

use super::terrain::BareTerrain;
use super::{BlockEdit, BlockType, CHUNK_SIZE, Chunk, ChunkPos, Terrain};

/// Chunks stacked in y.
pub const WORLD_CHUNKS_Y: i32 = 4;
/// Blocks in y: `0..WORLD_HEIGHT`.
pub const WORLD_HEIGHT: i32 = WORLD_CHUNKS_Y * CHUNK_SIZE as i32;

/// An edit outside `0..WORLD_HEIGHT`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("block {0} is outside the world (y must be in 0..{WORLD_HEIGHT})")]
pub struct OutsideWorld(pub IVec3);

/// A world's [`BareTerrain`], behind a lock so [`World::block`] can fill
/// its column cache through `&self`; a clone starts with an empty cache.
struct SharedBare(std::sync::Mutex<BareTerrain>);

impl SharedBare {
    fn new(terrain: Terrain) -> Self {
        Self(std::sync::Mutex::new(BareTerrain::new(terrain)))
    }
}

impl Clone for SharedBare {
    fn clone(&self) -> Self {
        let terrain = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .terrain();
        Self::new(terrain)
    }
}

impl std::fmt::Debug for SharedBare {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SharedBare")
    }
}

/// Every edited block, by position. Hashed with foldhash (randomly seeded
/// per process, several times faster than std's SipHash on three ints): a
/// server lays hundreds of thousands of them at start.
type Overrides = HashMap<IVec3, BlockType, foldhash::fast::RandomState>;

/// The voxel world of one seed: chunks generated on demand, edits applied on
/// top, and the ordered edit history that reproduces it.
#[derive(Debug, Clone)]
pub struct World {
    terrain: Terrain,
    /// The bare terrain of unloaded chunks, each column's noise computed
    /// once (a server steps every player over unloaded chunks).
    bare: SharedBare,
    chunks: HashMap<ChunkPos, Chunk>,
    overrides: Overrides,
    edits: Vec<BlockEdit>,
}

impl World {
    /// An unedited world for `seed` on the original hills generator
    /// ([`Terrain::new`]), with no chunk generated yet.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Self::with_terrain(Terrain::new(seed))
    }

    /// An unedited world of `terrain` (a seed and its generator), with no
    /// chunk generated yet.
    #[must_use]
    pub fn with_terrain(terrain: Terrain) -> Self {
        Self {
            terrain,
            bare: SharedBare::new(terrain),
            chunks: HashMap::new(),
            overrides: Overrides::default(),
            edits: Vec::new(),
        }
    }

    /// The world for `seed` with `edits` replayed in order (the load path).
    /// Edits outside the world are skipped with a warning.
    #[must_use]
    pub fn with_edits(seed: u64, edits: impl IntoIterator<Item = BlockEdit>) -> Self {
        let mut world = Self::new(seed);
        world.replay(edits);
        world
    }

    /// Replays `edits` in order on top of this world.
    pub fn replay(&mut self, edits: impl IntoIterator<Item = BlockEdit>) {
        let edits = edits.into_iter();
        self.edits.reserve(edits.size_hint().0);
        self.overrides.reserve(edits.size_hint().0);
        for edit in edits {
            if let Err(error) = self.apply(edit.pos(), edit.block) {
                log::warn!("skipping a saved edit: {error}");
            }
        }
    }

    /// The terrain generator.
    #[must_use]
    pub fn terrain(&self) -> &Terrain {
        &self.terrain
    }

    /// The seed.
    #[must_use]
    pub fn seed(&self) -> u64 {
        self.terrain.seed()
    }

    /// Every edit so far, oldest first.
    #[must_use]
    pub fn edits(&self) -> &[BlockEdit] {
        &self.edits
    }

    /// Makes room for `blocks` more edited blocks (before a
    /// [`lay`](Self::lay) of that many).
    pub fn reserve_edited(&mut self, blocks: usize) {
        self.overrides.reserve(blocks);
    }

    /// Sets each of `edits`' blocks without recording them in the history
    /// (a server laying its saved chunk snapshots over the seed's world:
    /// it keeps its history itself). Edits outside the world are skipped.
    pub fn lay(&mut self, edits: impl IntoIterator<Item = BlockEdit>) {
        let edits = edits.into_iter();
        self.overrides.reserve(edits.size_hint().0);
        for edit in edits {
            let pos = edit.pos();
            if !Self::contains(pos) {
                continue;
            }
            let (chunk_pos, local) = ChunkPos::of_block(pos);
            if let Some(chunk) = self.chunks.get_mut(&chunk_pos) {
                chunk.set(
                    local.x as usize,
                    local.y as usize,
                    local.z as usize,
                    edit.block,
                );
            }
            self.overrides.insert(pos, edit.block);
        }
    }

    /// Forgets the recorded edit history ([`edits`](Self::edits) becomes
    /// empty); every edited block stays as it is. For a server, which keeps
    /// its history as chunk snapshots of its own and must not hold every
    /// edit ever made.
    pub fn forget_history(&mut self) {
        self.edits = Vec::new();
    }

    /// True when `pos` is inside the world's height range.
    #[must_use]
    pub fn contains(pos: IVec3) -> bool {
        (0..WORLD_HEIGHT).contains(&pos.y)
    }

    /// Generates (and applies edits to) the chunk at `pos` if it is not loaded.
    pub fn ensure_chunk(&mut self, pos: ChunkPos) -> &Chunk {
        let Self {
            terrain,
            chunks,
            overrides,
            ..
        } = self;
        chunks.entry(pos).or_insert_with(|| {
            let mut chunk = terrain.generate(pos);
            apply_overrides(&mut chunk, pos, overrides);
            chunk
        })
    }

    /// Loads `chunk`, generated elsewhere (a [`ChunkGenerator`](super::ChunkGenerator)
    /// worker) from this world's terrain, laying the edits over it. Returns
    /// false, and keeps what is loaded, when `pos` is already loaded.
    pub fn insert_generated(&mut self, pos: ChunkPos, mut chunk: Chunk) -> bool {
        if self.chunks.contains_key(&pos) {
            return false;
        }
        apply_overrides(&mut chunk, pos, &self.overrides);
        self.chunks.insert(pos, chunk);
        true
    }

    /// The chunks within `radius` chunks (in x and z) of `center` that are
    /// not loaded, nearest first.
    #[must_use]
    pub fn missing_around(&self, center: IVec3, radius: i32) -> Vec<ChunkPos> {
        let (middle, _) = ChunkPos::of_block(center);
        let mut missing = Vec::new();
        for dz in -radius..=radius {
            for dx in -radius..=radius {
                for y in 0..WORLD_CHUNKS_Y {
                    let pos = ChunkPos::new(middle.0.x + dx, y, middle.0.z + dz);
                    if !self.chunks.contains_key(&pos) {
                        missing.push(pos);
                    }
                }
            }
        }
        let ring = |pos: &ChunkPos| {
            let d = pos.0 - middle.0;
            (d.x.abs().max(d.z.abs()), d.x * d.x + d.z * d.z, pos.0.y)
        };
        missing.sort_by_key(ring);
        missing
    }

    /// Loads every chunk within `radius` chunks (in x and z) of `center`, all
    /// the way up; returns the newly generated ones.
    pub fn load_around(&mut self, center: IVec3, radius: i32) -> Vec<ChunkPos> {
        let (middle, _) = ChunkPos::of_block(center);
        let mut fresh = Vec::new();
        for dz in -radius..=radius {
            for dx in -radius..=radius {
                for y in 0..WORLD_CHUNKS_Y {
                    let pos = ChunkPos::new(middle.0.x + dx, y, middle.0.z + dz);
                    if !self.chunks.contains_key(&pos) {
                        self.ensure_chunk(pos);
                        fresh.push(pos);
                    }
                }
            }
        }
        fresh
    }

    /// Drops chunks further than `radius` chunks from `center`; returns them.
    /// Edits survive: they live in the overlay, not in the chunk.
    pub fn unload_beyond(&mut self, center: IVec3, radius: i32) -> Vec<ChunkPos> {
        let (middle, _) = ChunkPos::of_block(center);
        let far = |pos: &ChunkPos| {
            (pos.0.x - middle.0.x).abs() > radius || (pos.0.z - middle.0.z).abs() > radius
        };
        let gone: Vec<ChunkPos> = self.chunks.keys().copied().filter(far).collect();
        for pos in &gone {
            self.chunks.remove(pos);
        }
        gone
    }

    /// The chunk at `pos`, if loaded.
    #[must_use]
    pub fn chunk(&self, pos: ChunkPos) -> Option<&Chunk> {
        self.chunks.get(&pos)
    }

    /// Positions of every loaded chunk (in no particular order).
    pub fn loaded_chunks(&self) -> impl Iterator<Item = ChunkPos> + '_ {
        self.chunks.keys().copied()
    }

    /// Bytes the loaded chunks' blocks take on the heap: 32 KiB for each
    /// chunk of mixed blocks, nothing for a chunk of one kind.
    #[must_use]
    pub fn block_bytes(&self) -> usize {
        self.chunks.values().map(Chunk::heap_bytes).sum()
    }

    /// What [`block`](Self::block) gives for the blocks of unloaded chunks
    /// inside the box `min..=max`, detached from the world, so that another
    /// thread can work them out (the edits inside the box are copied now;
    /// the terrain is computed when asked).
    #[must_use]
    pub(crate) fn unloaded_blocks(&self, min: IVec3, max: IVec3) -> UnloadedBlocks {
        let overrides = self
            .overrides
            .iter()
            .filter(|(p, _)| p.cmpge(min).all() && p.cmple(max).all())
            .map(|(&p, &block)| (p, block))
            .collect();
        UnloadedBlocks {
            terrain: BareTerrain::new(self.terrain),
            overrides,
        }
    }

    /// Every edited block (as it is now) with x in `min.x..=max.x` and z in
    /// `min.y..=max.y`, at any height: what level-of-detail terrain lays
    /// over the seed's (see [`crate::lod`]).
    #[must_use]
    pub fn edited_in_columns(&self, min: glam::IVec2, max: glam::IVec2) -> Vec<BlockEdit> {
        self.overrides
            .iter()
            .filter(|(p, _)| p.x >= min.x && p.x <= max.x && p.z >= min.y && p.z <= max.y)
            .map(|(&p, &block)| BlockEdit::new(p, block))
            .collect()
    }

    /// The block at `pos`: air above and below the world; for a chunk that
    /// is not loaded, the bare terrain (no trees) with edits applied.
    #[must_use]
    pub fn block(&self, pos: IVec3) -> BlockType {
        if !Self::contains(pos) {
            return BlockType::Air;
        }
        let (chunk, local) = ChunkPos::of_block(pos);
        if let Some(chunk) = self.chunks.get(&chunk) {
            return chunk.get(local.x as usize, local.y as usize, local.z as usize);
        }
        if let Some(&block) = self.overrides.get(&pos) {
            return block;
        }
        self.bare
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .block(pos)
    }

    /// The highest block that is not air in column `(x, z)` and its height
    /// (where rain stops: roofs, leaves and water included); `None` for a
    /// column of air. Columns of chunks not loaded give the bare terrain.
    #[must_use]
    pub fn column_top(&self, x: i32, z: i32) -> Option<(i32, BlockType)> {
        let size = CHUNK_SIZE as i32;
        for cy in (0..WORLD_CHUNKS_Y).rev() {
            let (pos, local) = ChunkPos::of_block(IVec3::new(x, cy * size, z));
            let Some(chunk) = self.chunks.get(&pos) else {
                let surface = self.terrain.surface_height(x, z);
                let top = surface.max(super::SEA_LEVEL);
                let block = self.terrain.ground_block(IVec3::new(x, top, z), surface);
                return Some((top, block));
            };
            if chunk.is_empty() {
                continue;
            }
            let (lx, lz) = (local.x as usize, local.z as usize);
            if let Some(ly) = (0..CHUNK_SIZE)
                .rev()
                .find(|&ly| !chunk.get(lx, ly, lz).is_air())
            {
                return Some((cy * size + ly as i32, chunk.get(lx, ly, lz)));
            }
        }
        None
    }

    /// Sets the block at `pos` and records the edit. Returns the chunks whose
    /// meshes it changes: its own, plus the neighbours it borders.
    ///
    /// # Errors
    /// [`OutsideWorld`] when `pos.y` is outside `0..WORLD_HEIGHT`.
    pub fn set_block(
        &mut self,
        pos: IVec3,
        block: BlockType,
    ) -> Result<Vec<ChunkPos>, OutsideWorld> {
        let (chunk_pos, local) = self.apply(pos, block)?;
        Ok(affected_chunks(chunk_pos, local))
    }

    /// Sets and records one edit; returns its chunk and local position.
    fn apply(&mut self, pos: IVec3, block: BlockType) -> Result<(ChunkPos, IVec3), OutsideWorld> {
        if !Self::contains(pos) {
            return Err(OutsideWorld(pos));
        }
        let (chunk_pos, local) = ChunkPos::of_block(pos);
        if let Some(chunk) = self.chunks.get_mut(&chunk_pos) {
            chunk.set(local.x as usize, local.y as usize, local.z as usize, block);
        }
        self.overrides.insert(pos, block);
        self.edits.push(BlockEdit::new(pos, block));
        Ok((chunk_pos, local))
    }
}

/// The chunk holding local block `local` of `chunk`, and each neighbour whose
/// mesh sees that block (it lies on their shared border).
fn affected_chunks(chunk: ChunkPos, local: IVec3) -> Vec<ChunkPos> {
    let last = CHUNK_SIZE as i32 - 1;
    let mut out = vec![chunk];
    for axis in 0..3 {
        let step = IVec3::AXES[axis];
        if local[axis] == 0 {
            out.push(chunk.offset(-step));
        } else if local[axis] == last {
            out.push(chunk.offset(step));
        }
    }
    out.retain(|c| (0..WORLD_CHUNKS_Y).contains(&c.0.y));
    out
}

/// The blocks of chunks that are not loaded, in a box of the world, as
/// [`World::block`] gives them (the bare terrain with the edits over it),
/// made without the world: see [`World::unloaded_blocks`].
pub(crate) struct UnloadedBlocks {
    terrain: BareTerrain,
    overrides: HashMap<IVec3, BlockType>,
}

impl UnloadedBlocks {
    /// The block at `pos` (which must lie in the box this was made for and
    /// in a chunk that was not loaded then).
    pub(crate) fn block(&mut self, pos: IVec3) -> BlockType {
        if !World::contains(pos) {
            return BlockType::Air;
        }
        match self.overrides.get(&pos) {
            Some(&block) => block,
            None => self.terrain.block(pos),
        }
    }
}

/// Lays the edits in `overrides` that fall inside chunk `pos` over `chunk`.
fn apply_overrides(chunk: &mut Chunk, pos: ChunkPos, overrides: &Overrides) {
    let origin = pos.origin();
    let size = CHUNK_SIZE as i32;
    // Few chunks are edited: scanning the overrides beats probing 32k
    // positions, until the edit history outgrows the chunk.
    if overrides.len() < CHUNK_SIZE * CHUNK_SIZE * CHUNK_SIZE {
        for (&p, &block) in overrides {
            let local = p - origin;
            if local.cmpge(IVec3::ZERO).all() && local.cmplt(IVec3::splat(size)).all() {
                chunk.set(local.x as usize, local.y as usize, local.z as usize, block);
            }
        }
    } else {
        for y in 0..size {
            for z in 0..size {
                for x in 0..size {
                    let local = IVec3::new(x, y, z);
                    if let Some(&block) = overrides.get(&(origin + local)) {
                        chunk.set(x as usize, y as usize, z as usize, block);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_change_blocks_and_report_border_neighbours() {
        let mut world = World::new(3);
        world.load_around(IVec3::ZERO, 1);
        let pos = IVec3::new(31, 70, 5);
        let affected = world.set_block(pos, BlockType::Glass).unwrap();
        assert_eq!(world.block(pos), BlockType::Glass);
        assert_eq!(
            affected,
            vec![ChunkPos::new(0, 2, 0), ChunkPos::new(1, 2, 0)]
        );
        let inner = world
            .set_block(IVec3::new(5, 70, 5), BlockType::Air)
            .unwrap();
        assert_eq!(inner, vec![ChunkPos::new(0, 2, 0)]);
        assert!(
            world
                .set_block(IVec3::new(0, WORLD_HEIGHT, 0), BlockType::Stone)
                .is_err()
        );
    }

    #[test]
    fn edits_survive_unload_and_apply_to_chunks_generated_later() {
        let mut world = World::new(9);
        let far = IVec3::new(1000, 100, -1000);
        world.set_block(far, BlockType::Planks).unwrap();
        world.load_around(far, 0);
        assert_eq!(world.block(far), BlockType::Planks);
        world.unload_beyond(IVec3::ZERO, 1);
        assert!(world.chunk(ChunkPos::of_block(far).0).is_none());
        world.load_around(far, 0);
        assert_eq!(world.block(far), BlockType::Planks);
    }
}
