//! How one cached region is stored: a record per server, world and
//! region, keyed `ADDRESS␟WORLD␟X␟Z` (␟ is U+001F, the unit separator),
//! so that everything cached for a server is found by its key prefix.
//!
//! The value is binary, not a JSON record: it is mostly compressed chunk
//! snapshots, which JSON would store at three to four times their size.
//! Its layout (integers little-endian):
//!
//! ```text
//! "CCR" format(u8 = 1)
//! world([u8; 16]) region(i32, i32) stamp(u64)
//! listed(u8) [version(u64) count(u32) count × (x, y, z: i32, version: u64)]
//! count(u32) count × (x, y, z: i32, version: u64, length: u32, bytes)
//! ```

use std::collections::HashMap;

use crafty_client::RegionListing;
use crafty_net::WorldId;

/// The first bytes of every stored region.
const MAGIC: &[u8; 3] = b"CCR";
/// The format this build writes and reads.
const FORMAT: u8 = 1;
/// What separates the parts of a key.
pub(super) const SEPARATOR: char = '\u{1f}';

/// A stored region that does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RecordError {
    /// Not a cached region at all.
    #[error("not a cached region (its first bytes are wrong)")]
    NotARegion,
    /// Written by a newer build.
    #[error("a cached region in format {0}, newer than this build's {FORMAT}")]
    NewerFormat(u8),
    /// Cut short, or a length past its end.
    #[error("a cached region cut short at byte {0}")]
    Truncated(usize),
    /// Bytes left over after the region.
    #[error("{0} bytes after the end of a cached region")]
    TrailingBytes(usize),
}

/// One region as cached: its listing (if the server sent it) and the
/// snapshots of its chunks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct StoredRegion {
    /// The region's version and its chunks' versions.
    pub listing: Option<RegionListing>,
    /// Each chunk's version and compressed snapshot.
    pub chunks: HashMap<[i32; 3], (u64, Vec<u8>)>,
    /// When it was last written or used, on the cache's own clock (the
    /// oldest are evicted first).
    pub stamp: u64,
}

impl StoredRegion {
    /// Bytes of snapshots it holds (what the budget counts).
    pub(super) fn bytes(&self) -> usize {
        self.chunks.values().map(|(_, data)| data.len()).sum()
    }
}

/// The key prefix of everything cached for the server at `address`.
pub(super) fn server_prefix(address: &str) -> String {
    format!("{address}{SEPARATOR}")
}

/// The key of `region` of `world` on the server at `address`.
pub(super) fn region_key(address: &str, world: WorldId, region: [i32; 2]) -> String {
    format!(
        "{address}{SEPARATOR}{world}{SEPARATOR}{}{SEPARATOR}{}",
        region[0], region[1]
    )
}

/// Encodes `stored`, region `region` of `world`.
pub(super) fn encode(world: WorldId, region: [i32; 2], stored: &StoredRegion) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 + stored.bytes() + stored.chunks.len() * 24);
    out.extend_from_slice(MAGIC);
    out.push(FORMAT);
    out.extend_from_slice(&world.0);
    put_i32(&mut out, region[0]);
    put_i32(&mut out, region[1]);
    out.extend_from_slice(&stored.stamp.to_le_bytes());
    match &stored.listing {
        Some((version, chunks)) => {
            out.push(1);
            out.extend_from_slice(&version.to_le_bytes());
            put_len(&mut out, chunks.len());
            for (at, version) in chunks {
                at.iter().for_each(|&c| put_i32(&mut out, c));
                out.extend_from_slice(&version.to_le_bytes());
            }
        }
        None => out.push(0),
    }
    // In key order, so that the same region always encodes the same way.
    let mut chunks: Vec<_> = stored.chunks.iter().collect();
    chunks.sort_by_key(|(at, _)| **at);
    put_len(&mut out, chunks.len());
    for (at, (version, data)) in chunks {
        at.iter().for_each(|&c| put_i32(&mut out, c));
        out.extend_from_slice(&version.to_le_bytes());
        put_len(&mut out, data.len());
        out.extend_from_slice(data);
    }
    out
}

/// Decodes a stored region: its world, its coordinates and what it holds.
///
/// # Errors
/// The bytes are not a region in this build's format.
pub(super) fn decode(bytes: &[u8]) -> Result<(WorldId, [i32; 2], StoredRegion), RecordError> {
    let mut reader = Reader { bytes, at: 0 };
    if reader
        .take(MAGIC.len())
        .map_err(|_| RecordError::NotARegion)?
        != MAGIC
    {
        return Err(RecordError::NotARegion);
    }
    let format = reader.u8()?;
    if format != FORMAT {
        return Err(RecordError::NewerFormat(format));
    }
    let mut world = [0u8; 16];
    world.copy_from_slice(reader.take(16)?);
    let region = [reader.i32()?, reader.i32()?];
    let stamp = reader.u64()?;
    let listing = match reader.u8()? {
        0 => None,
        _ => {
            let version = reader.u64()?;
            let count = reader.len(20)?;
            let mut chunks = Vec::with_capacity(count);
            for _ in 0..count {
                chunks.push((reader.at()?, reader.u64()?));
            }
            Some((version, chunks))
        }
    };
    let count = reader.len(24)?;
    let mut chunks = HashMap::with_capacity(count);
    for _ in 0..count {
        let at = reader.at()?;
        let version = reader.u64()?;
        let length = reader.len(1)?;
        chunks.insert(at, (version, reader.take(length)?.to_vec()));
    }
    if reader.at < bytes.len() {
        return Err(RecordError::TrailingBytes(bytes.len() - reader.at));
    }
    Ok((
        WorldId(world),
        region,
        StoredRegion {
            listing,
            chunks,
            stamp,
        },
    ))
}

fn put_i32(out: &mut Vec<u8>, value: i32) {
    out.extend_from_slice(&value.to_le_bytes());
}

fn put_len(out: &mut Vec<u8>, len: usize) {
    // A region holds 64 columns of chunks of at most a chunk's worth of
    // blocks each: far below 4 GiB.
    out.extend_from_slice(&u32::try_from(len).unwrap_or(u32::MAX).to_le_bytes());
}

/// Reads a stored region front to back, every read bounds-checked.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], RecordError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&end| end <= self.bytes.len())
            .ok_or(RecordError::Truncated(self.at))?;
        let slice = &self.bytes[self.at..end];
        self.at = end;
        Ok(slice)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], RecordError> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(N)?);
        Ok(out)
    }

    fn u8(&mut self) -> Result<u8, RecordError> {
        Ok(self.array::<1>()?[0])
    }

    fn i32(&mut self) -> Result<i32, RecordError> {
        self.array().map(i32::from_le_bytes)
    }

    fn u64(&mut self) -> Result<u64, RecordError> {
        self.array().map(u64::from_le_bytes)
    }

    fn at(&mut self) -> Result<[i32; 3], RecordError> {
        Ok([self.i32()?, self.i32()?, self.i32()?])
    }

    /// A count of items at least `item_bytes` each: refused if the rest of
    /// the record could not hold them (before anything is allocated).
    fn len(&mut self, item_bytes: usize) -> Result<usize, RecordError> {
        let start = self.at;
        let count = usize::try_from(u32::from_le_bytes(self.array()?))
            .map_err(|_| RecordError::Truncated(start))?;
        if count.saturating_mul(item_bytes) > self.bytes.len() - self.at {
            return Err(RecordError::Truncated(start));
        }
        Ok(count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_region_round_trips_and_damage_is_refused() {
        let mut stored = StoredRegion {
            listing: Some((9, vec![([1, 2, 3], 9), ([-4, 0, 5], 2)])),
            chunks: HashMap::new(),
            stamp: 77,
        };
        stored.chunks.insert([1, 2, 3], (9, vec![1, 2, 3, 4]));
        stored.chunks.insert([-4, 0, 5], (2, Vec::new()));
        let world = WorldId([7; 16]);
        let bytes = encode(world, [0, -1], &stored);
        assert_eq!(decode(&bytes), Ok((world, [0, -1], stored.clone())));
        let bare = StoredRegion::default();
        assert_eq!(
            decode(&encode(world, [3, 3], &bare)),
            Ok((world, [3, 3], bare))
        );

        assert_eq!(decode(b"not a region"), Err(RecordError::NotARegion));
        assert_eq!(decode(b""), Err(RecordError::NotARegion));
        let mut newer = bytes.clone();
        newer[3] = 2;
        assert_eq!(decode(&newer), Err(RecordError::NewerFormat(2)));
        for cut in 4..bytes.len() {
            assert!(
                matches!(decode(&bytes[..cut]), Err(RecordError::Truncated(_))),
                "cut at {cut}"
            );
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert_eq!(decode(&longer), Err(RecordError::TrailingBytes(1)));
        // A huge count is refused before anything is allocated.
        let mut huge = encode(world, [0, 0], &StoredRegion::default());
        let count_at = huge.len() - 4;
        huge[count_at..].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(decode(&huge), Err(RecordError::Truncated(_))));
    }

    #[test]
    fn keys_of_a_server_share_its_prefix() {
        let key = region_key("10.0.0.2:30000", WorldId([0xab; 16]), [-3, 4]);
        assert!(key.starts_with(&server_prefix("10.0.0.2:30000")));
        assert!(!key.starts_with(&server_prefix("10.0.0.2:3000")));
        assert!(key.ends_with("\u{1f}-3\u{1f}4"));
    }
}
