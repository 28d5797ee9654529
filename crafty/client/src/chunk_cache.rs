//! [`ChunkCache`]: the changed chunks a client was sent, kept by world,
//! chunk and version, so that joining the same world again costs only the
//! list of versions ([`ServerMessage::ChunkVersions`](crafty_net::ServerMessage::ChunkVersions))
//! and the chunks that changed since. [`MemoryChunkCache`] keeps them for
//! the life of the process; a game keeps them in its own storage by
//! implementing the trait (crafty keeps them in its save database).

use std::collections::HashMap;

use crafty_net::WorldId;

/// Where a client keeps the chunk snapshots it was sent.
pub trait ChunkCache: std::fmt::Debug + Send {
    /// The cached version and compressed snapshot of chunk `at` of `world`.
    fn get(&mut self, world: WorldId, at: [i32; 3]) -> Option<(u64, Vec<u8>)>;
    /// Keeps chunk `at`'s snapshot at `version` (replacing an older one).
    fn put(&mut self, world: WorldId, at: [i32; 3], version: u64, data: &[u8]);
    /// The cached listing of region `region`: its version and its changed
    /// chunks with theirs.
    fn get_region(&mut self, world: WorldId, region: [i32; 2]) -> Option<RegionListing>;
    /// Keeps region `region`'s listing (replacing an older one).
    fn put_region(&mut self, world: WorldId, region: [i32; 2], listing: RegionListing);
}

/// A region's version and its changed chunks with their versions.
pub type RegionListing = (u64, Vec<([i32; 3], u64)>);

/// A [`ChunkCache`] in memory.
#[derive(Debug, Default, Clone)]
pub struct MemoryChunkCache {
    chunks: HashMap<(WorldId, [i32; 3]), (u64, Vec<u8>)>,
    regions: HashMap<(WorldId, [i32; 2]), RegionListing>,
}

impl MemoryChunkCache {
    /// An empty cache.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Chunks held.
    #[must_use]
    pub fn len(&self) -> usize {
        self.chunks.len()
    }

    /// Whether it holds nothing.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.chunks.is_empty()
    }
}

impl ChunkCache for MemoryChunkCache {
    fn get(&mut self, world: WorldId, at: [i32; 3]) -> Option<(u64, Vec<u8>)> {
        self.chunks.get(&(world, at)).cloned()
    }

    fn put(&mut self, world: WorldId, at: [i32; 3], version: u64, data: &[u8]) {
        let entry = self.chunks.entry((world, at)).or_insert((0, Vec::new()));
        if version >= entry.0 {
            *entry = (version, data.to_vec());
        }
    }

    fn get_region(&mut self, world: WorldId, region: [i32; 2]) -> Option<RegionListing> {
        self.regions.get(&(world, region)).cloned()
    }

    fn put_region(&mut self, world: WorldId, region: [i32; 2], listing: RegionListing) {
        let entry = self.regions.entry((world, region)).or_default();
        if listing.0 >= entry.0 {
            *entry = listing;
        }
    }
}

/// A [`MemoryChunkCache`] shared between connections (a bot that joins
/// again keeps what it was sent).
#[derive(Debug, Default, Clone)]
pub struct SharedChunkCache(pub std::sync::Arc<std::sync::Mutex<MemoryChunkCache>>);

impl ChunkCache for SharedChunkCache {
    fn get(&mut self, world: WorldId, at: [i32; 3]) -> Option<(u64, Vec<u8>)> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(world, at)
    }

    fn put(&mut self, world: WorldId, at: [i32; 3], version: u64, data: &[u8]) {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .put(world, at, version, data);
    }

    fn get_region(&mut self, world: WorldId, region: [i32; 2]) -> Option<RegionListing> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get_region(world, region)
    }

    fn put_region(&mut self, world: WorldId, region: [i32; 2], listing: RegionListing) {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .put_region(world, region, listing);
    }
}
