//! Chunks as the server keeps and sends them: a world is its seed plus,
//! for each chunk a player changed, a [`ChunkSnapshot`] of every block
//! edited in it, with a version (the length of the world's edit log when
//! it was taken). A client caches snapshots by [`WorldId`], chunk and
//! version, so coming back costs only the list of versions.
//!
//! Changed chunks are listed by region ([`REGION_CHUNKS`] columns square):
//! a region's version is its newest chunk's, so a client that cached a
//! region at that version is sent nothing more of it.
//!
//! On the wire a snapshot is [`ChunkSnapshot::compress`]ed: the edited
//! positions delta-coded, then deflated. [`ChunkSnapshot::decompress`]
//! refuses anything that would grow past one chunk's worth of blocks
//! before it allocates it.

use serde::{Deserialize, Serialize};

/// Blocks in one 32³ chunk: a snapshot's local indices are below this.
pub const CHUNK_BLOCKS: usize = 32 * 32 * 32;

/// The most bytes a decompressed snapshot may take: a full chunk of
/// positions and blocks, and the length.
const MAX_SNAPSHOT_BYTES: usize = CHUNK_BLOCKS * 4 + 8;

/// The most chunks one [`ClientMessage::WantChunks`](crate::ClientMessage::WantChunks)
/// (or regions one [`ClientMessage::WantRegions`](crate::ClientMessage::WantRegions)) asks for.
pub const MAX_WANTED_CHUNKS: usize = 32;

/// A region's side, in chunk columns: the server lists changed chunks by
/// region, each with a version (its newest chunk's), so a client whose
/// cache holds a region at that version needs nothing more of it.
pub const REGION_CHUNKS: i32 = 8;

/// The region (x, z, in regions) of chunk `at`.
#[must_use]
pub fn region_of(at: [i32; 3]) -> [i32; 2] {
    [
        at[0].div_euclid(REGION_CHUNKS),
        at[2].div_euclid(REGION_CHUNKS),
    ]
}

/// A world's identity, made when it is created: a client's cache keys its
/// chunks by it, so two servers running the same seed never share one.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct WorldId(pub [u8; 16]);

impl std::fmt::Display for WorldId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.iter().try_for_each(|byte| write!(f, "{byte:02x}"))
    }
}

/// The edited blocks of one chunk: `(local index, block number)` sorted by
/// index, the index being `(y * 32 + z) * 32 + x`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChunkSnapshot {
    /// Every edited block of the chunk, sorted by local index, each once.
    pub blocks: Vec<(u16, u8)>,
}

/// A snapshot that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SnapshotError {
    /// Not deflate data, or it grows past one chunk.
    #[error("a chunk snapshot does not decompress: {0}")]
    Compression(String),
    /// Decompressed, but not a list of blocks.
    #[error("a chunk snapshot is malformed: {0}")]
    Malformed(String),
    /// A local index past the chunk, or out of order.
    #[error("a chunk snapshot's block {0} is outside the chunk or out of order")]
    BadIndex(u32),
}

impl ChunkSnapshot {
    /// Sets `block` at local index `index`.
    pub fn set(&mut self, index: u16, block: u8) {
        match self.blocks.binary_search_by_key(&index, |&(i, _)| i) {
            Ok(at) => self.blocks[at].1 = block,
            Err(at) => self.blocks.insert(at, (index, block)),
        }
    }

    /// The snapshot's wire form: [`to_plain`](Self::to_plain), deflated.
    #[must_use]
    pub fn compress(&self) -> Vec<u8> {
        miniz_oxide::deflate::compress_to_vec(&self.to_plain(), 6)
    }

    /// Reads a snapshot's wire form.
    ///
    /// # Errors
    /// [`SnapshotError`]: not deflate data, bigger than a chunk, malformed,
    /// or an index outside the chunk.
    pub fn decompress(bytes: &[u8]) -> Result<Self, SnapshotError> {
        let plain = miniz_oxide::inflate::decompress_to_vec_with_limit(bytes, MAX_SNAPSHOT_BYTES)
            .map_err(|e| SnapshotError::Compression(format!("{:?}", e.status)))?;
        Self::from_plain(&plain)
    }

    /// The snapshot uncompressed (what a server stores: reading it back is
    /// a loop, no inflate): the count, then each block's index delta (a
    /// varint) and block number.
    #[must_use]
    pub fn to_plain(&self) -> Vec<u8> {
        let mut plain = Vec::with_capacity(self.blocks.len() * 3 + 4);
        push_varint(&mut plain, self.blocks.len() as u32);
        let mut previous = 0u32;
        for &(index, block) in &self.blocks {
            push_varint(&mut plain, u32::from(index) - previous);
            plain.push(block);
            previous = u32::from(index);
        }
        plain
    }

    /// Reads [`to_plain`](Self::to_plain)'s form.
    ///
    /// # Errors
    /// [`SnapshotError`]: malformed, more blocks than a chunk, or an index
    /// outside the chunk or out of order.
    pub fn from_plain(plain: &[u8]) -> Result<Self, SnapshotError> {
        let mut rest = plain;
        let count = take_varint(&mut rest)? as usize;
        if count > CHUNK_BLOCKS {
            return Err(SnapshotError::Malformed(format!(
                "{count} blocks in a chunk of {CHUNK_BLOCKS}"
            )));
        }
        let mut blocks = Vec::with_capacity(count);
        let mut index = 0u32;
        for n in 0..count {
            let delta = take_varint(&mut rest)?;
            let (&block, tail) = rest
                .split_first()
                .ok_or_else(|| SnapshotError::Malformed("it ends inside a block".into()))?;
            rest = tail;
            index = index.saturating_add(delta);
            if index as usize >= CHUNK_BLOCKS || (n > 0 && delta == 0) {
                return Err(SnapshotError::BadIndex(index));
            }
            blocks.push((index as u16, block));
        }
        if !rest.is_empty() {
            return Err(SnapshotError::Malformed(format!(
                "{} bytes after the blocks",
                rest.len()
            )));
        }
        Ok(Self { blocks })
    }
}

fn push_varint(out: &mut Vec<u8>, mut value: u32) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

fn take_varint(bytes: &mut &[u8]) -> Result<u32, SnapshotError> {
    let mut value = 0u32;
    for shift in (0..35).step_by(7) {
        let (&byte, rest) = bytes
            .split_first()
            .ok_or_else(|| SnapshotError::Malformed("it ends inside a number".into()))?;
        *bytes = rest;
        let part = u32::from(byte & 0x7f)
            .checked_shl(shift)
            .filter(|p| p >> shift == u32::from(byte & 0x7f))
            .ok_or_else(|| SnapshotError::Malformed("a number too large".into()))?;
        value |= part;
        if byte & 0x80 == 0 {
            return Ok(value);
        }
    }
    Err(SnapshotError::Malformed("a number too long".into()))
}

/// One chunk's snapshot as sent: where, which version, the compressed
/// blocks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChunkData {
    /// The chunk's position, in chunks.
    pub at: [i32; 3],
    /// The world's edit-log length when the snapshot was taken.
    pub version: u64,
    /// [`ChunkSnapshot::compress`]ed blocks.
    pub data: Vec<u8>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snapshot_round_trips_and_compresses() {
        let mut snapshot = ChunkSnapshot::default();
        for i in (0..4000u16).rev() {
            snapshot.set(i * 8, (i % 7) as u8);
        }
        snapshot.set(8, 99);
        assert_eq!(snapshot.blocks.len(), 4000);
        let bytes = snapshot.compress();
        assert!(bytes.len() < 4000, "{} bytes", bytes.len());
        assert_eq!(ChunkSnapshot::decompress(&bytes).unwrap(), snapshot);
    }

    #[test]
    fn hostile_snapshots_are_errors() {
        assert!(ChunkSnapshot::decompress(b"not deflate").is_err());
        // A bomb: a million zero bytes deflate to a few hundred.
        let bomb = miniz_oxide::deflate::compress_to_vec(&vec![0u8; 1 << 20], 9);
        assert!(matches!(
            ChunkSnapshot::decompress(&bomb),
            Err(SnapshotError::Compression(_))
        ));
        // A count of four billion.
        let mut plain = Vec::new();
        push_varint(&mut plain, u32::MAX);
        let huge = miniz_oxide::deflate::compress_to_vec(&plain, 6);
        assert!(ChunkSnapshot::decompress(&huge).is_err());
        // An index past the chunk.
        let mut plain = Vec::new();
        push_varint(&mut plain, 1);
        push_varint(&mut plain, CHUNK_BLOCKS as u32);
        plain.push(1);
        let outside = miniz_oxide::deflate::compress_to_vec(&plain, 6);
        assert_eq!(
            ChunkSnapshot::decompress(&outside),
            Err(SnapshotError::BadIndex(CHUNK_BLOCKS as u32))
        );
        for len in 0..64 {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 37 + 11) as u8).collect();
            let _ = ChunkSnapshot::decompress(&bytes);
        }
    }
}
