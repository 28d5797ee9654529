//! [`WorldStore`]: saved worlds in one database of the engine's storage.
//!
//! - here: the stores, their keys, and [`WorldStore`]'s operations (list,
//!   load, save, append, rename, delete, thumbnails);
//! - `error`: [`SaveError`] and [`LoadWarning`];
//! - `decode`: a stored record decoded and upgraded;
//! - `edit_log`: appending edits as segments, and merging them;
//! - `load`: reading a world back and repairing what is damaged.

use taos_storage::{Database, StorageBackend, Transaction, TransactionMode};

use super::record::{CURRENT_VERSION, SavedWorld};
use crate::world::{BlockEdit, World};

mod decode;
mod edit_log;
mod error;
mod load;

pub use error::{LoadWarning, SaveError};

use decode::decode_record;
use edit_log::{append_to_log, read_for_write};
use load::read_world;

/// The database saved worlds live in.
pub const DATABASE: &str = "crafty";
/// Its schema version (which stores exist): 2 added [`SETTINGS_STORE`].
pub const SCHEMA_VERSION: u32 = 2;
/// Store of [`SavedWorld`] records, keyed by world id.
pub const WORLDS_STORE: &str = "worlds";
/// Store of edit-log segments, keyed by [`segment_key`].
pub const SEGMENTS_STORE: &str = "edit_segments";
/// Store of JPEG thumbnails, keyed by world id.
pub const THUMBNAILS_STORE: &str = "thumbnails";
/// Store of the player's settings and key bindings (crafty's `settings`).
pub const SETTINGS_STORE: &str = "settings";
/// A world with more segments than this has its newest ones merged on the
/// next append.
pub const MAX_SEGMENTS: usize = 64;
/// The most edits one segment holds (a 52 MiB value).
pub const MAX_SEGMENT_EDITS: usize = 1 << 22;

/// The key of segment `index` of world `id`: sorts by world, then index.
#[must_use]
pub fn segment_key(id: &str, index: u32) -> String {
    format!("{id}/{index:010}")
}

/// A world read back: its record (thumbnail included), its edit log in
/// order, and what had to be skipped.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadedWorld {
    /// The record, at [`CURRENT_VERSION`].
    pub record: SavedWorld,
    /// Every edit that survived, oldest first.
    pub edits: Vec<BlockEdit>,
    /// Damage found while loading (also logged).
    pub warnings: Vec<LoadWarning>,
}

impl LoadedWorld {
    /// The voxel world: the seed's terrain, by the world's generator, with
    /// the edits replayed.
    #[must_use]
    pub fn world(&self) -> World {
        let mut world = World::with_terrain(self.record.terrain());
        world.replay(self.edits.iter().copied());
        world
    }
}

/// A world that [`WorldStore::list`] could not read (newer or damaged).
#[derive(Debug)]
pub struct UnreadableWorld {
    /// Its key.
    pub id: String,
    /// Why it could not be read.
    pub error: SaveError,
}

/// The launcher's view of the saved worlds.
#[derive(Debug, Default)]
pub struct WorldListing {
    /// Readable worlds, most recently played first, thumbnails included,
    /// edit logs not loaded.
    pub worlds: Vec<SavedWorld>,
    /// Worlds that could not be read, in key order.
    pub unreadable: Vec<UnreadableWorld>,
}

/// What an append of edits wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AppendReport {
    /// New edits written.
    pub new_edits: usize,
    /// Bytes of segments written (new and merged).
    pub segment_bytes: usize,
    /// Older segments merged into the new one (0 without compaction).
    pub segments_merged: usize,
    /// Segments in the log afterwards.
    pub segments: usize,
}

/// The key a damaged segment of world `id` is moved to on load: beside
/// the log in [`SEGMENTS_STORE`] (deleted with the world), out of the way of
/// every later append.
#[must_use]
pub fn quarantine_key(id: &str, index: u32) -> String {
    format!("{id}/quarantine/{index:010}")
}

/// Saved worlds in a database of any [`StorageBackend`]: records in
/// [`WORLDS_STORE`], edit logs as append-only checksummed segments in
/// [`SEGMENTS_STORE`], thumbnails in [`THUMBNAILS_STORE`].
///
/// Methods are `async` like the storage traits; natively wrap them in
/// [`block_on`](taos_storage::block_on).
pub struct WorldStore<B: StorageBackend> {
    db: B::Database,
}

impl<B: StorageBackend> std::fmt::Debug for WorldStore<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WorldStore").field("db", &self.db).finish()
    }
}

impl<B: StorageBackend> WorldStore<B> {
    /// Opens (creating if needed) the [`DATABASE`] of `backend`.
    ///
    /// # Errors
    /// The storage errors of opening a database.
    pub async fn open(backend: &B) -> Result<Self, SaveError> {
        Self::open_named(backend, DATABASE).await
    }

    /// Opens (creating if needed) database `name` of `backend`.
    ///
    /// # Errors
    /// The storage errors of opening a database.
    pub async fn open_named(backend: &B, name: &str) -> Result<Self, SaveError> {
        let db = backend
            .open(name, SCHEMA_VERSION, |up| {
                up.create_store(WORLDS_STORE)?;
                up.create_store(SEGMENTS_STORE)?;
                up.create_store(THUMBNAILS_STORE)?;
                up.create_store(SETTINGS_STORE)?;
                Ok(())
            })
            .await?;
        Ok(Self { db })
    }

    /// The database underneath, for tools and tests that look at raw records.
    #[must_use]
    pub fn database(&self) -> &B::Database {
        &self.db
    }

    /// Every world, most recently played first (ties by name, then id), with
    /// thumbnails but without edit logs. Worlds that cannot be read are
    /// listed apart, not dropped.
    ///
    /// # Errors
    /// Storage errors; unreadable records go in [`WorldListing::unreadable`].
    pub async fn list(&self) -> Result<WorldListing, SaveError> {
        let mut listing = self
            .db
            .transaction(
                &[WORLDS_STORE, THUMBNAILS_STORE],
                TransactionMode::ReadOnly,
                async |tx| {
                    let mut listing = WorldListing::default();
                    for (id, bytes) in tx.get_all_raw(WORLDS_STORE).await? {
                        match decode_record(&id, &bytes) {
                            Ok(decoded) => {
                                let mut world = decoded.world;
                                world.screenshot = tx.get_raw(THUMBNAILS_STORE, &id).await?;
                                listing.worlds.push(world);
                            }
                            Err(error) => listing.unreadable.push(UnreadableWorld { id, error }),
                        }
                    }
                    Ok::<_, SaveError>(listing)
                },
            )
            .await?;
        listing.worlds.sort_by(|a, b| {
            b.last_played_at
                .cmp(&a.last_played_at)
                .then_with(|| a.name.cmp(&b.name))
                .then_with(|| a.id.cmp(&b.id))
        });
        Ok(listing)
    }

    /// Loads world `id`: its record (upgraded to [`CURRENT_VERSION`]), its
    /// thumbnail and its edit log.
    ///
    /// A damaged segment (missing, torn, truncated or failing its checksum)
    /// is moved aside to its [`quarantine_key`], out of the log, with a
    /// [`LoadWarning`], and the rest loads; nothing is deleted. An older
    /// record is migrated and written back. The repair is decided again and
    /// written inside one read-write transaction, so an append made in
    /// between (another tab) is never lost. A world written by a newer
    /// crafty (a newer record, a newer segment encoding, or a block this
    /// build does not know) is refused and left untouched.
    ///
    /// # Errors
    /// [`SaveError::NotFound`], [`SaveError::NewerVersion`],
    /// [`SaveError::NewerSegment`], [`SaveError::Corrupt`],
    /// [`SaveError::Migration`], or storage errors.
    pub async fn load(&self, id: &str) -> Result<LoadedWorld, SaveError> {
        let read = self
            .db
            .transaction(
                &[WORLDS_STORE, SEGMENTS_STORE, THUMBNAILS_STORE],
                TransactionMode::ReadOnly,
                async |tx| read_world(tx, id).await,
            )
            .await?;
        let plan = read.plan(id)?;
        if !plan.needs_writing() {
            return Ok(plan.into_loaded(read.screenshot));
        }
        // Read again where the repair is written: what it repairs is what
        // is stored when it commits.
        self.db
            .transaction(
                &[WORLDS_STORE, SEGMENTS_STORE, THUMBNAILS_STORE],
                TransactionMode::ReadWrite,
                async |tx| {
                    let read = read_world(tx, id).await?;
                    let mut plan = read.plan(id)?;
                    plan.write(tx, id).await?;
                    Ok(plan.into_loaded(read.screenshot))
                },
            )
            .await
    }

    /// Saves `world`'s metadata (and its thumbnail, when it has one),
    /// creating the world or updating it. The stored edit log is kept as it
    /// is: edits are saved with [`append_edits`](Self::append_edits).
    ///
    /// # Errors
    /// [`SaveError::NewerVersion`] (nothing is written over a newer world),
    /// or storage errors.
    pub async fn save(&self, world: &SavedWorld) -> Result<(), SaveError> {
        self.db
            .transaction(
                &[WORLDS_STORE, SEGMENTS_STORE, THUMBNAILS_STORE],
                TransactionMode::ReadWrite,
                async |tx| {
                    let log = read_for_write(tx, &world.id)
                        .await?
                        .map(|stored| stored.edit_log)
                        .unwrap_or_default();
                    let mut record = world.clone();
                    record.edit_log = log;
                    record.version = CURRENT_VERSION;
                    tx.put(WORLDS_STORE, &world.id, &record).await?;
                    if let Some(jpeg) = &world.screenshot {
                        tx.put_raw(THUMBNAILS_STORE, &world.id, jpeg).await?;
                    }
                    Ok::<_, SaveError>(())
                },
            )
            .await
    }

    /// Appends `edits` to the log of `world` as one new segment and saves
    /// its metadata, in one transaction: the cost is the new edits plus the
    /// small record, not the history. When the log has more than
    /// [`MAX_SEGMENTS`] segments, the newest small ones are merged into the
    /// new one. Returns the record as stored and what was written.
    ///
    /// # Errors
    /// As [`save`](Self::save).
    pub async fn append_edits(
        &self,
        world: &SavedWorld,
        edits: &[BlockEdit],
    ) -> Result<(SavedWorld, AppendReport), SaveError> {
        self.append(world, None, edits).await
    }

    /// As [`append_edits`](Self::append_edits), for `edits` that continue
    /// the world's history at edit number `first` (the edits saved before
    /// them). When the stored log already holds some of them (a save that
    /// reported an error after its commit reached the disk, e.g. a failed
    /// final sync), only the rest is appended: a retry never stores an
    /// edit twice.
    ///
    /// # Errors
    /// As [`save`](Self::save), and [`SaveError::HistoryMismatch`] when
    /// the stored log has fewer than `first` edits or more than
    /// `first + edits.len()`: it is not the history these edits continue.
    pub async fn append_continuing(
        &self,
        world: &SavedWorld,
        first: usize,
        edits: &[BlockEdit],
    ) -> Result<(SavedWorld, AppendReport), SaveError> {
        self.append(world, Some(first), edits).await
    }

    async fn append(
        &self,
        world: &SavedWorld,
        first: Option<usize>,
        edits: &[BlockEdit],
    ) -> Result<(SavedWorld, AppendReport), SaveError> {
        self.db
            .transaction(
                &[WORLDS_STORE, SEGMENTS_STORE],
                TransactionMode::ReadWrite,
                async |tx| {
                    let mut log = read_for_write(tx, &world.id)
                        .await?
                        .map(|stored| stored.edit_log)
                        .unwrap_or_default();
                    let edits = match first {
                        None => edits,
                        Some(first) => {
                            let stored = usize::try_from(log.edit_count()).unwrap_or(usize::MAX);
                            let already = stored.checked_sub(first).filter(|n| *n <= edits.len());
                            let Some(already) = already else {
                                return Err(SaveError::HistoryMismatch {
                                    id: world.id.clone(),
                                    saved: stored,
                                    live: first.saturating_add(edits.len()),
                                });
                            };
                            if already > 0 {
                                log::warn!(
                                    "world {:?}: {already} edits of this save were already stored \
                                     by a save that reported an error; appending the rest",
                                    world.id
                                );
                            }
                            &edits[already..]
                        }
                    };
                    let report = append_to_log(tx, &world.id, &mut log, edits).await?;
                    let mut record = world.clone();
                    record.edit_log = log;
                    record.version = CURRENT_VERSION;
                    // The thumbnail is not part of the stored record (serde skips it).
                    tx.put(WORLDS_STORE, &world.id, &record).await?;
                    Ok::<_, SaveError>((record, report))
                },
            )
            .await
    }

    /// Renames world `id`.
    ///
    /// # Errors
    /// [`SaveError::NotFound`], [`SaveError::NewerVersion`], or storage errors.
    pub async fn rename(&self, id: &str, name: &str) -> Result<(), SaveError> {
        self.db
            .transaction(
                &[WORLDS_STORE, SEGMENTS_STORE],
                TransactionMode::ReadWrite,
                async |tx| {
                    let Some(mut world) = read_for_write(tx, id).await? else {
                        return Err(SaveError::NotFound { id: id.to_owned() });
                    };
                    name.clone_into(&mut world.name);
                    tx.put(WORLDS_STORE, id, &world).await?;
                    Ok(())
                },
            )
            .await
    }

    /// Deletes world `id`: its record, every segment of its edit log and its
    /// thumbnail, in one transaction. Deleting a missing world succeeds.
    ///
    /// # Errors
    /// Storage errors.
    pub async fn delete(&self, id: &str) -> Result<(), SaveError> {
        let prefix = format!("{id}/");
        self.db
            .transaction(
                &[WORLDS_STORE, SEGMENTS_STORE, THUMBNAILS_STORE],
                TransactionMode::ReadWrite,
                async |tx| {
                    tx.delete(WORLDS_STORE, id).await?;
                    // Every key under the world, listed or not.
                    for key in tx.keys(SEGMENTS_STORE).await? {
                        if key.starts_with(&prefix) {
                            tx.delete(SEGMENTS_STORE, &key).await?;
                        }
                    }
                    tx.delete(THUMBNAILS_STORE, id).await?;
                    Ok::<_, SaveError>(())
                },
            )
            .await
    }

    /// Sets (or with `None` removes) the thumbnail of world `id`, leaving
    /// its record alone.
    ///
    /// # Errors
    /// [`SaveError::NotFound`], or storage errors.
    pub async fn set_thumbnail(&self, id: &str, jpeg: Option<&[u8]>) -> Result<(), SaveError> {
        self.db
            .transaction(
                &[WORLDS_STORE, THUMBNAILS_STORE],
                TransactionMode::ReadWrite,
                async |tx| {
                    if tx.get_raw(WORLDS_STORE, id).await?.is_none() {
                        return Err(SaveError::NotFound { id: id.to_owned() });
                    }
                    match jpeg {
                        Some(jpeg) => tx.put_raw(THUMBNAILS_STORE, id, jpeg).await?,
                        None => tx.delete(THUMBNAILS_STORE, id).await?,
                    }
                    Ok(())
                },
            )
            .await
    }
}
