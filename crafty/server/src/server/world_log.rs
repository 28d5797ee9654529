//! [`WorldLog`]: the world's edits as the server keeps them: a snapshot of
//! every changed chunk with its version, and the tail of the edit log the
//! clients are still being sent. Log indices are absolute (counted since
//! the world was made) though only the tail is held; a chunk's version is
//! the log length after the last edit inside it.

use std::collections::HashMap;

use crafty_net::{ChunkSnapshot, REGION_CHUNKS, WorldId, region_of};
use crafty_sim::world::{BlockEdit, CHUNK_SIZE, ChunkPos, WORLD_CHUNKS_Y};
use glam::IVec3;

/// A region's version, and its changed chunks with theirs.
pub(crate) type RegionListing = (u64, Vec<([i32; 3], u64)>);

/// One changed chunk.
#[derive(Debug, Clone, Default)]
pub(crate) struct Changed {
    /// The log length after the last edit inside it.
    pub(crate) version: u64,
    pub(crate) snapshot: ChunkSnapshot,
    /// The snapshot compressed, until the next edit.
    compressed: Option<Vec<u8>>,
}

/// The world's changed chunks and the tail of its edit log.
#[derive(Debug, Clone, Default)]
pub(crate) struct WorldLog {
    /// The world's identity.
    pub(crate) id: WorldId,
    /// The absolute index of `tail[0]`.
    base: u64,
    tail: Vec<BlockEdit>,
    chunks: HashMap<ChunkPos, Changed>,
    /// Each region's version: its newest chunk's.
    regions: HashMap<[i32; 2], u64>,
}

/// A chunk's local index of a world position, and its chunk.
fn locate(pos: IVec3) -> (ChunkPos, u16) {
    let (chunk, local) = ChunkPos::of_block(pos);
    let size = CHUNK_SIZE as i32;
    let index = (local.y * size + local.z) * size + local.x;
    (chunk, index as u16)
}

impl WorldLog {
    /// A log of `id` from saved snapshots, whose edits end at `base`.
    pub(crate) fn from_snapshots(
        id: WorldId,
        base: u64,
        snapshots: impl IntoIterator<Item = (ChunkPos, u64, ChunkSnapshot)>,
    ) -> Self {
        let chunks = snapshots
            .into_iter()
            .map(|(pos, version, snapshot)| {
                let changed = Changed {
                    version,
                    snapshot,
                    compressed: None,
                };
                (pos, changed)
            })
            .collect::<HashMap<ChunkPos, Changed>>();
        let mut regions: HashMap<[i32; 2], u64> = HashMap::new();
        for (pos, changed) in &chunks {
            let region = regions.entry(region_of(pos.0.to_array())).or_default();
            *region = (*region).max(changed.version);
        }
        Self {
            id,
            base,
            tail: Vec::new(),
            chunks,
            regions,
        }
    }

    /// Appends an edit; returns its chunk's new version.
    pub(crate) fn push(&mut self, edit: BlockEdit) -> u64 {
        self.tail.push(edit);
        let version = self.len();
        let (chunk, index) = locate(edit.pos());
        let changed = self.chunks.entry(chunk).or_default();
        changed.version = version;
        changed.snapshot.set(index, u8::from(edit.block));
        changed.compressed = None;
        self.regions.insert(region_of(chunk.0.to_array()), version);
        version
    }

    /// The log's length: every edit ever made.
    pub(crate) fn len(&self) -> u64 {
        self.base + self.tail.len() as u64
    }

    /// Entries `from..to`, if still held.
    pub(crate) fn entries(&self, from: u64, to: u64) -> Option<&[BlockEdit]> {
        let start = usize::try_from(from.checked_sub(self.base)?).ok()?;
        let end = usize::try_from(to.checked_sub(self.base)?).ok()?;
        self.tail.get(start..end)
    }

    /// Forgets entries before `index` (every client has them, and they
    /// are saved: the chunk snapshots hold them).
    pub(crate) fn forget_before(&mut self, index: u64) {
        let drop = index.saturating_sub(self.base).min(self.tail.len() as u64);
        self.tail.drain(..drop as usize);
        self.base += drop;
    }

    /// The regions with changed chunks that overlap the columns within
    /// `radius` chunks of `centre` (a square), with their versions,
    /// nearest first.
    pub(crate) fn regions_near(&self, centre: ChunkPos, radius: i32) -> Vec<([i32; 2], u64)> {
        let span = |c: i32| {
            let low = c.saturating_sub(radius).div_euclid(REGION_CHUNKS);
            let high = c.saturating_add(radius).div_euclid(REGION_CHUNKS);
            low..=high
        };
        let mut found = Vec::new();
        for rx in span(centre.0.x) {
            for rz in span(centre.0.z) {
                if let Some(&version) = self.regions.get(&[rx, rz]) {
                    found.push(([rx, rz], version));
                }
            }
        }
        let home = region_of(centre.0.to_array());
        found.sort_by_key(|&(r, _)| {
            let dx = i64::from(r[0]) - i64::from(home[0]);
            let dz = i64::from(r[1]) - i64::from(home[1]);
            (dx * dx + dz * dz, r)
        });
        found
    }

    /// A region's version and its changed chunks with theirs.
    pub(crate) fn region(&self, region: [i32; 2]) -> Option<RegionListing> {
        let version = *self.regions.get(&region)?;
        let mut chunks = Vec::new();
        for dx in 0..REGION_CHUNKS {
            for dz in 0..REGION_CHUNKS {
                let (Some(x), Some(z)) = (
                    region[0]
                        .checked_mul(REGION_CHUNKS)
                        .and_then(|x| x.checked_add(dx)),
                    region[1]
                        .checked_mul(REGION_CHUNKS)
                        .and_then(|z| z.checked_add(dz)),
                ) else {
                    continue;
                };
                for y in 0..WORLD_CHUNKS_Y {
                    let pos = ChunkPos::new(x, y, z);
                    if let Some(changed) = self.chunks.get(&pos) {
                        chunks.push((pos.0.to_array(), changed.version));
                    }
                }
            }
        }
        Some((version, chunks))
    }

    /// A changed chunk's version and compressed snapshot.
    pub(crate) fn compressed(&mut self, pos: ChunkPos) -> Option<(u64, &[u8])> {
        let changed = self.chunks.get_mut(&pos)?;
        let version = changed.version;
        let bytes = changed
            .compressed
            .get_or_insert_with(|| changed.snapshot.compress());
        Some((version, bytes.as_slice()))
    }

    /// The chunks changed by entries `from..` of the log, with their
    /// versions and snapshots (what a compaction writes).
    pub(crate) fn changed_since(
        &self,
        from: u64,
    ) -> impl Iterator<Item = (ChunkPos, u64, &ChunkSnapshot)> {
        let mut touched: Vec<ChunkPos> = if from < self.base {
            // Entries no longer held: every changed chunk may be among them.
            self.chunks.keys().copied().collect()
        } else {
            let start = usize::try_from(from - self.base)
                .unwrap_or(usize::MAX)
                .min(self.tail.len());
            self.tail[start..]
                .iter()
                .map(|edit| locate(edit.pos()).0)
                .collect()
        };
        touched.sort_by_key(|pos| pos.0.to_array());
        touched.dedup();
        touched.into_iter().filter_map(|pos| {
            self.chunks
                .get(&pos)
                .map(|changed| (pos, changed.version, &changed.snapshot))
        })
    }

    /// Changed chunks in all.
    pub(crate) fn changed_chunks(&self) -> usize {
        self.chunks.len()
    }

    /// The edits a world needs to show every changed block (each chunk's
    /// snapshot as edits).
    pub(crate) fn as_edits(&self) -> impl Iterator<Item = BlockEdit> + '_ {
        let size = CHUNK_SIZE as i32;
        self.chunks.iter().flat_map(move |(pos, changed)| {
            let origin = pos.origin();
            changed.snapshot.blocks.iter().map(move |&(index, block)| {
                let index = i32::from(index);
                let local = IVec3::new(index % size, index / (size * size), (index / size) % size);
                let block = crafty_sim::world::BlockType::try_from(block)
                    .unwrap_or(crafty_sim::world::BlockType::Air);
                BlockEdit::new(origin + local, block)
            })
        })
    }

    /// Edited blocks in all (what laying the snapshots sets).
    pub(crate) fn changed_blocks(&self) -> usize {
        self.chunks.values().map(|c| c.snapshot.blocks.len()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crafty_sim::world::BlockType;

    #[test]
    fn versions_follow_the_last_edit_and_the_tail_can_be_forgotten() {
        let mut log = WorldLog::default();
        log.push(BlockEdit::new(IVec3::new(1, 40, 1), BlockType::Stone));
        log.push(BlockEdit::new(IVec3::new(40, 40, 1), BlockType::Sand));
        log.push(BlockEdit::new(IVec3::new(2, 40, 1), BlockType::Air));
        assert_eq!(log.len(), 3);
        let near = log.regions_near(ChunkPos::new(0, 0, 0), 0);
        assert_eq!(near, vec![([0, 0], 3)]);
        let (version, chunks) = log.region([0, 0]).unwrap();
        assert_eq!(version, 3);
        assert_eq!(chunks, vec![([0, 1, 0], 3), ([1, 1, 0], 2)]);
        assert!(log.region([1, 0]).is_none());
        log.forget_before(2);
        assert!(log.entries(0, 3).is_none());
        assert_eq!(log.entries(2, 3).unwrap().len(), 1);
        let edits: Vec<BlockEdit> = log.as_edits().collect();
        assert_eq!(edits.len(), 3);
        assert_eq!(log.changed_blocks(), 3);
        assert!(edits.contains(&BlockEdit::new(IVec3::new(40, 40, 1), BlockType::Sand)));
        let (_, bytes) = log.compressed(ChunkPos::new(0, 1, 0)).unwrap();
        let snapshot = ChunkSnapshot::decompress(bytes).unwrap();
        assert_eq!(snapshot.blocks.len(), 2);
    }

    #[test]
    fn a_hostile_far_chunk_does_not_overflow() {
        let mut log = WorldLog::default();
        log.push(BlockEdit::new(
            IVec3::new(i32::MAX, 1, i32::MIN),
            BlockType::Stone,
        ));
        let centre = ChunkPos::new(i32::MIN / 32, 0, i32::MAX / 32);
        let _ = log.regions_near(centre, 16);
        let _ = log.region([i32::MAX, i32::MIN]);
        let far = region_of(
            ChunkPos::of_block(IVec3::new(i32::MAX, 1, i32::MIN))
                .0
                .0
                .to_array(),
        );
        assert!(log.region(far).is_some());
    }
}
