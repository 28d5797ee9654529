//! The game's chunk cache: the changed chunks each server sent, kept in
//! the player's own storage between runs, so that joining a server again
//! shows them at once and downloads only what changed since.
//!
//! [`ChunkCache`] is synchronous (the connection asks it while it reads
//! messages) and IndexedDB is not, so the cache is written behind:
//!
//! - [`GameChunkCache::open`] starts reading everything stored for the
//!   server being joined (one read, by the key prefix of its address) into
//!   an in-memory front; the connection is handed [`handle`](GameChunkCache::handle)
//!   and reads nothing until [`GameChunkCache::poll_loaded`] says the front
//!   is filled;
//! - every `put` and `put_region` lands in the front and marks its region
//!   dirty; [`GameChunkCache::flush`] (once a second from the game's frame,
//!   and on leaving) writes the dirty regions, whole, in one transaction:
//!   at once natively (redb), on the page's event loop in the browser;
//! - the front keeps at most [`SERVER_BUDGET_BYTES`] of snapshots per
//!   server, evicting the least recently written or used regions (in
//!   storage too);
//! - a record that does not read is skipped with a warning (and deleted),
//!   and a write that fails (a full disk, a refused IndexedDB write) is
//!   logged once: the cache then lives in memory for the rest of the game.
//!   Neither stops the game.
//!
//! The cache has its own database, [`CHUNK_CACHE_DATABASE`] (natively
//! `crafty-chunk-cache.redb` beside the saves), so dropping it costs only
//! downloads, never a saved world.

mod record;
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests;

use std::collections::{BTreeSet, HashMap};
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use crafty_client::{ChunkCache, RegionListing};
use crafty_net::{WorldId, region_of};
use taos_engine::Task;
use taos_engine::storage::{
    Database, StorageBackend, StorageError, Transaction as _, TransactionMode,
};
use web_time::Instant;

pub use record::RecordError;
use record::{StoredRegion, region_key, server_prefix};

/// The database the cache is kept in (natively `<data dir>/crafty-chunk-cache.redb`,
/// in the browser an IndexedDB database of this name).
pub const CHUNK_CACHE_DATABASE: &str = "crafty-chunk-cache";
/// Its one store: a record per server, world and region.
const REGIONS_STORE: &str = "regions";
/// The database's schema version.
const SCHEMA_VERSION: u32 = 1;
/// Snapshot bytes kept per server; beyond it the oldest regions go.
pub const SERVER_BUDGET_BYTES: usize = 64 << 20;
/// How often dirty regions are written while playing.
pub const FLUSH_EVERY: Duration = Duration::from_secs(1);

/// A future the storage hands back (not `Send`: IndexedDB's are not).
pub type LocalFuture<T> = Pin<Box<dyn Future<Output = T>>>;
/// Stored records: key and bytes.
pub type RawRecords = Vec<(String, Vec<u8>)>;

/// Where the cache is stored: reads a server's records and writes
/// changes. [`ChunkStore`] is the one for any [`StorageBackend`]; the game
/// keeps it behind this trait so that nothing else depends on the backend.
pub trait ChunkStorage {
    /// Every record whose key starts with `prefix`, in one read.
    fn load(&self, prefix: String) -> LocalFuture<Result<RawRecords, StorageError>>;
    /// Deletes `deletes`, then puts `puts`, in one transaction.
    fn write(
        &self,
        puts: RawRecords,
        deletes: Vec<String>,
    ) -> LocalFuture<Result<(), StorageError>>;
}

/// The cache's database in a storage backend; see the [module docs](self).
#[derive(Debug)]
pub struct ChunkStore<D> {
    db: Rc<D>,
}

impl<D: Database + 'static> ChunkStore<D> {
    /// Opens (creating it if needed) [`CHUNK_CACHE_DATABASE`] in `backend`;
    /// a damaged database file is deleted and made afresh (it is only a
    /// cache).
    ///
    /// # Errors
    /// The database cannot be opened (locked by another run, unreadable,
    /// IndexedDB refused): the game then joins without a stored cache.
    pub async fn open<B: StorageBackend<Database = D>>(backend: &B) -> Result<Self, StorageError> {
        match Self::open_once(backend).await {
            #[cfg(not(target_arch = "wasm32"))]
            Err(error @ StorageError::Corrupt { .. }) => {
                log::warn!("the chunk cache is damaged, starting it afresh: {error}");
                backend.delete_database(CHUNK_CACHE_DATABASE).await?;
                Self::open_once(backend).await
            }
            opened => opened,
        }
    }

    async fn open_once<B: StorageBackend<Database = D>>(backend: &B) -> Result<Self, StorageError> {
        let db = backend
            .open(CHUNK_CACHE_DATABASE, SCHEMA_VERSION, |upgrade| {
                if upgrade.old_version() < 1 {
                    upgrade.create_store(REGIONS_STORE)?;
                }
                Ok(())
            })
            .await?;
        Ok(Self { db: Rc::new(db) })
    }

    /// The database, for tests that damage it.
    #[cfg(test)]
    pub(crate) fn database(&self) -> &D {
        &self.db
    }
}

impl<D: Database + 'static> ChunkStorage for ChunkStore<D> {
    fn load(&self, prefix: String) -> LocalFuture<Result<RawRecords, StorageError>> {
        let db = Rc::clone(&self.db);
        Box::pin(async move {
            db.transaction(&[REGIONS_STORE], TransactionMode::ReadOnly, async |tx| {
                let mut found = Vec::new();
                for key in tx.keys(REGIONS_STORE).await? {
                    if key.starts_with(&prefix)
                        && let Some(bytes) = tx.get_raw(REGIONS_STORE, &key).await?
                    {
                        found.push((key, bytes));
                    }
                }
                Ok::<_, StorageError>(found)
            })
            .await
        })
    }

    fn write(
        &self,
        puts: RawRecords,
        deletes: Vec<String>,
    ) -> LocalFuture<Result<(), StorageError>> {
        let db = Rc::clone(&self.db);
        Box::pin(async move {
            db.transaction(&[REGIONS_STORE], TransactionMode::ReadWrite, async |tx| {
                for key in &deletes {
                    tx.delete(REGIONS_STORE, key).await?;
                }
                for (key, bytes) in &puts {
                    tx.put_raw(REGIONS_STORE, key, bytes).await?;
                }
                Ok::<_, StorageError>(())
            })
            .await
        })
    }
}

/// What was read from storage on joining.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Loaded {
    /// Regions read.
    pub regions: usize,
    /// Chunk snapshots in them.
    pub chunks: usize,
    /// Their snapshot bytes.
    pub bytes: usize,
    /// Records skipped because they do not read.
    pub skipped: usize,
}

/// The in-memory front: one server's regions, what is dirty, what was
/// evicted. Shared with the connection's [`CacheHandle`].
#[derive(Debug)]
struct Front {
    regions: HashMap<(WorldId, [i32; 2]), StoredRegion>,
    /// Snapshot bytes held.
    bytes: usize,
    /// Snapshot bytes kept at most.
    budget: usize,
    /// The cache's clock: each write or use of a region takes the next.
    next_stamp: u64,
    /// Regions changed since the last flush.
    dirty: BTreeSet<(WorldId, [i32; 2])>,
    /// Regions evicted since the last flush (to delete in storage).
    evicted: BTreeSet<(WorldId, [i32; 2])>,
}

impl Front {
    fn new(budget: usize) -> Self {
        Self {
            regions: HashMap::new(),
            bytes: 0,
            budget,
            next_stamp: 1,
            dirty: BTreeSet::new(),
            evicted: BTreeSet::new(),
        }
    }

    fn stamp(&mut self) -> u64 {
        let stamp = self.next_stamp;
        self.next_stamp += 1;
        stamp
    }

    /// Region `key`, made if new, stamped as just used.
    fn region(&mut self, key: (WorldId, [i32; 2])) -> &mut StoredRegion {
        let stamp = self.stamp();
        self.evicted.remove(&key);
        let region = self.regions.entry(key).or_default();
        region.stamp = stamp;
        region
    }

    /// Evicts the least recently stamped regions, other than `keep`, until
    /// the snapshots fit the budget.
    fn evict(&mut self, keep: (WorldId, [i32; 2])) {
        while self.bytes > self.budget {
            let oldest = self
                .regions
                .iter()
                .filter(|(key, _)| **key != keep)
                .min_by_key(|(_, region)| region.stamp)
                .map(|(key, _)| *key);
            let Some(oldest) = oldest else {
                return;
            };
            if let Some(region) = self.regions.remove(&oldest) {
                self.bytes -= region.bytes();
            }
            self.dirty.remove(&oldest);
            self.evicted.insert(oldest);
        }
    }
}

impl ChunkCache for Front {
    fn get(&mut self, world: WorldId, at: [i32; 3]) -> Option<(u64, Vec<u8>)> {
        let key = (world, region_of(at));
        self.regions.get(&key)?.chunks.get(&at).cloned()
    }

    fn put(&mut self, world: WorldId, at: [i32; 3], version: u64, data: &[u8]) {
        let key = (world, region_of(at));
        let region = self.region(key);
        let old = match region.chunks.get(&at) {
            Some((held, _)) if *held > version => return,
            Some((_, old)) => old.len(),
            None => 0,
        };
        region.chunks.insert(at, (version, data.to_vec()));
        self.bytes = self.bytes - old + data.len();
        self.dirty.insert(key);
        self.evict(key);
    }

    fn get_region(&mut self, world: WorldId, region: [i32; 2]) -> Option<RegionListing> {
        let key = (world, region);
        let listing = self.regions.get(&key)?.listing.clone()?;
        // Used: the last to be evicted.
        let stamp = self.stamp();
        if let Some(region) = self.regions.get_mut(&key) {
            region.stamp = stamp;
        }
        Some(listing)
    }

    fn put_region(&mut self, world: WorldId, region: [i32; 2], listing: RegionListing) {
        let key = (world, region);
        let stored = self.region(key);
        if stored
            .listing
            .as_ref()
            .is_some_and(|held| held.0 > listing.0)
        {
            return;
        }
        stored.listing = Some(listing);
        self.dirty.insert(key);
        self.evict(key);
    }
}

/// The connection's side of a [`GameChunkCache`]: the front, shared.
#[derive(Debug, Clone)]
pub struct CacheHandle(Arc<Mutex<Front>>);

impl CacheHandle {
    fn lock(&self) -> MutexGuard<'_, Front> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl ChunkCache for CacheHandle {
    fn get(&mut self, world: WorldId, at: [i32; 3]) -> Option<(u64, Vec<u8>)> {
        self.lock().get(world, at)
    }

    fn put(&mut self, world: WorldId, at: [i32; 3], version: u64, data: &[u8]) {
        self.lock().put(world, at, version, data);
    }

    fn get_region(&mut self, world: WorldId, region: [i32; 2]) -> Option<RegionListing> {
        self.lock().get_region(world, region)
    }

    fn put_region(&mut self, world: WorldId, region: [i32; 2], listing: RegionListing) {
        self.lock().put_region(world, region, listing);
    }
}

/// One server's chunk cache for a game: the front the connection uses,
/// filled from storage before joining and written behind; see the
/// [module docs](self).
pub struct GameChunkCache {
    /// The server's address, as typed: the records' key prefix.
    address: String,
    /// Where it is stored; `None`: memory only (no storage, or a write
    /// failed).
    storage: Option<Rc<dyn ChunkStorage>>,
    front: CacheHandle,
    /// The read of the server's records, until taken into the front.
    loading: Option<Task<Result<RawRecords, StorageError>>>,
    /// The write in flight.
    writing: Option<Task<Result<(), StorageError>>>,
    /// Records that do not read, to delete with the next write.
    stale: Vec<String>,
    last_flush: Option<Instant>,
    loaded: Loaded,
    writes: u64,
    warnings: Vec<String>,
}

impl std::fmt::Debug for GameChunkCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameChunkCache")
            .field("address", &self.address)
            .field("stored", &self.storage.is_some())
            .field("loaded", &self.loaded)
            .field("writes", &self.writes)
            .finish_non_exhaustive()
    }
}

impl GameChunkCache {
    /// The cache for the server at `address`, kept in `storage` (`None`:
    /// in memory only), with the [`SERVER_BUDGET_BYTES`] budget. Starts
    /// reading what is stored for that server (natively it is read when
    /// this returns).
    #[must_use]
    pub fn open(address: &str, storage: Option<Rc<dyn ChunkStorage>>) -> Self {
        let loading = storage
            .as_ref()
            .map(|storage| Task::spawn(storage.load(server_prefix(address))));
        Self {
            address: address.to_owned(),
            storage,
            front: CacheHandle(Arc::new(Mutex::new(Front::new(SERVER_BUDGET_BYTES)))),
            loading,
            writing: None,
            stale: Vec::new(),
            last_flush: None,
            loaded: Loaded::default(),
            writes: 0,
            warnings: Vec::new(),
        }
    }

    /// The same with a budget of `bytes` of snapshots (for tests).
    #[must_use]
    pub fn with_budget(self, bytes: usize) -> Self {
        self.front.lock().budget = bytes;
        self
    }

    /// The front, for the connection ([`Connection::caching`](crafty_client::Connection::caching)).
    #[must_use]
    pub fn handle(&self) -> CacheHandle {
        self.front.clone()
    }

    /// Whether the front holds what was stored (or nothing could be
    /// read): the connection may use it. Takes the read in when it came.
    pub fn poll_loaded(&mut self) -> bool {
        let Some(loading) = &mut self.loading else {
            return true;
        };
        let Some(result) = loading.take() else {
            return false;
        };
        self.loading = None;
        match result {
            Ok(records) => self.fill(records),
            Err(error) => self.warn(format!(
                "the chunk cache for {} could not be read, joining without it: {error}",
                self.address
            )),
        }
        true
    }

    /// Takes the stored records into the front; those that do not read
    /// are skipped (and deleted with the next write).
    fn fill(&mut self, records: RawRecords) {
        let front = self.front.clone();
        let mut front = front.lock();
        let mut newest = 0;
        for (key, bytes) in records {
            match record::decode(&bytes) {
                Ok((world, region, stored)) => {
                    self.loaded.regions += 1;
                    self.loaded.chunks += stored.chunks.len();
                    self.loaded.bytes += stored.bytes();
                    front.bytes += stored.bytes();
                    newest = newest.max(stored.stamp);
                    front.regions.insert((world, region), stored);
                }
                Err(error) => {
                    self.warn(format!("a cached region ({key:?}) is skipped: {error}"));
                    self.loaded.skipped += 1;
                    self.stale.push(key);
                }
            }
        }
        front.next_stamp = front.next_stamp.max(newest + 1);
        // A smaller budget than when it was stored: the oldest go.
        let keep = front
            .regions
            .iter()
            .max_by_key(|(_, region)| region.stamp)
            .map(|(key, _)| *key);
        if let Some(keep) = keep {
            front.evict(keep);
        }
    }

    /// What was read from storage.
    #[must_use]
    pub fn loaded(&self) -> Loaded {
        self.loaded
    }

    /// Snapshot bytes held now.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.front.lock().bytes
    }

    /// Whether what it is sent is still being stored (it has storage, and
    /// no write failed).
    #[must_use]
    pub fn is_persistent(&self) -> bool {
        self.storage.is_some()
    }

    /// Writes finished.
    #[must_use]
    pub fn writes(&self) -> u64 {
        self.writes
    }

    /// The warnings it logged (a record skipped, a write that failed).
    #[must_use]
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    fn warn(&mut self, line: String) {
        log::warn!("{line}");
        self.warnings.push(line);
    }

    /// Writes the dirty regions and deletes the evicted ones, if
    /// [`FLUSH_EVERY`] passed since the last write (or `now` is set: on
    /// leaving) and no write is in flight. A failed write is logged once;
    /// the cache is memory only from then on.
    pub fn flush(&mut self, now: bool) {
        self.take_written();
        // On leaving, a write in flight does not hold back the last one
        // (IndexedDB runs them in order; natively none is ever in flight).
        if (self.writing.is_some() && !now) || self.loading.is_some() {
            return;
        }
        let Some(storage) = &self.storage else {
            return;
        };
        if !now && self.last_flush.is_some_and(|at| at.elapsed() < FLUSH_EVERY) {
            return;
        }
        let (puts, mut deletes) = {
            let mut front = self.front.lock();
            let dirty = std::mem::take(&mut front.dirty);
            let evicted = std::mem::take(&mut front.evicted);
            let puts: RawRecords = dirty
                .into_iter()
                .filter_map(|key| {
                    let region = front.regions.get(&key)?;
                    let bytes = record::encode(key.0, key.1, region);
                    Some((region_key(&self.address, key.0, key.1), bytes))
                })
                .collect();
            let deletes: Vec<String> = evicted
                .into_iter()
                .map(|(world, region)| region_key(&self.address, world, region))
                .collect();
            (puts, deletes)
        };
        deletes.append(&mut self.stale);
        if puts.is_empty() && deletes.is_empty() {
            return;
        }
        self.last_flush = Some(Instant::now());
        self.writing = Some(Task::spawn(storage.write(puts, deletes)));
        self.take_written();
    }

    /// Takes the answer of the write in flight, if it came.
    fn take_written(&mut self) {
        let Some(result) = self.writing.as_mut().and_then(Task::take) else {
            return;
        };
        self.writing = None;
        match result {
            Ok(()) => self.writes += 1,
            Err(error) => {
                let why = if error.is_full() {
                    "storage is full"
                } else {
                    "storage refused it"
                };
                self.warn(format!(
                    "the chunk cache for {} is kept in memory only from now on ({why}: {error}); \
                     the game goes on, the next join downloads what was not stored",
                    self.address
                ));
                self.storage = None;
            }
        }
    }
}
