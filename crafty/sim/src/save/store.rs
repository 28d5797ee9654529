//! [`WorldStore`]: saved worlds in one database of the engine's storage.

use serde_json::Value;
use taos_storage::{Database, Record, StorageBackend, StorageError, Transaction, TransactionMode};

use super::record::{CURRENT_VERSION, EditLog, SavedWorld, SegmentInfo};
use super::segment::{SegmentError, decode_segment_into, encode_segment};
use crate::world::{BlockEdit, World};

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

/// Everything that can go wrong saving or loading a world.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SaveError {
    /// The storage layer failed.
    #[error(transparent)]
    Storage(#[from] StorageError),
    /// No world has this id.
    #[error("no saved world {id:?}")]
    NotFound {
        /// The id asked for.
        id: String,
    },
    /// The world was saved by a newer crafty; it was not modified.
    #[error(
        "world {id:?} was saved in format version {found} by a newer crafty; this build reads \
         versions up to {supported}, so it left the world untouched"
    )]
    NewerVersion {
        /// The world.
        id: String,
        /// Its stored format version.
        found: u32,
        /// [`CURRENT_VERSION`].
        supported: u32,
    },
    /// A segment of the world's edit log was written by a newer crafty (a
    /// newer encoding, or a block this build does not know); the world was
    /// not modified.
    #[error(
        "world {id:?} was saved by a newer crafty (edit-log segment {segment}: {reason}); \
         this build left the world untouched"
    )]
    NewerSegment {
        /// The world.
        id: String,
        /// The segment's index.
        segment: u32,
        /// What this build could not read.
        reason: SegmentError,
    },
    /// The world's record is not a world record.
    #[error("world {id:?} has an unreadable record: {reason}")]
    Corrupt {
        /// The world.
        id: String,
        /// What is wrong.
        reason: String,
    },
    /// An upgrade step refused an older record; it was not modified.
    #[error("world {id:?}: cannot upgrade its record from format version {from}: {reason}")]
    Migration {
        /// The world.
        id: String,
        /// The version the failing step started from.
        from: u32,
        /// What the step said.
        reason: String,
    },
    /// The live world does not continue the saved edit history.
    #[error(
        "world {id:?}: {saved} edits are saved and the live world has {live}; one does not \
         continue the other, so it is not the world this session saves"
    )]
    HistoryMismatch {
        /// The world.
        id: String,
        /// Edits already saved by the session.
        saved: usize,
        /// Edits in the live world.
        live: usize,
    },
    /// The live world has a different seed from the saved one.
    #[error("world {id:?} is saved with seed {saved}, the live world has seed {live}")]
    SeedMismatch {
        /// The world.
        id: String,
        /// The saved seed.
        saved: u64,
        /// The live world's seed.
        live: u64,
    },
    /// Encoding or decoding a thumbnail failed.
    #[error("thumbnail: {0}")]
    Image(#[from] image::ImageError),
    /// A stored thumbnail is larger than
    /// [`MAX_THUMBNAIL_SIZE`](super::thumbnail::MAX_THUMBNAIL_SIZE) (or
    /// empty); it was not decoded.
    #[error("thumbnail of {width}x{height} pixels is outside what a thumbnail may be")]
    ThumbnailTooLarge {
        /// Width in pixels, from the image's header.
        width: u32,
        /// Height in pixels.
        height: u32,
    },
    /// Thumbnail pixels whose length does not match their size.
    #[error("thumbnail: {width}x{height} RGBA needs {expected} bytes, got {found}")]
    PixelCount {
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
        /// `width * height * 4`.
        expected: usize,
        /// Bytes given.
        found: usize,
    },
}

/// Something wrong in a world that still loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LoadWarning {
    /// A segment of the edit log was damaged (a torn or corrupted write) and
    /// its edits were skipped; the segment was taken out of the world's log
    /// and its bytes kept under its [`quarantine_key`].
    #[error("world {id:?}: dropped edit-log segment {segment} ({edits} edits): {reason}")]
    SegmentDropped {
        /// The world.
        id: String,
        /// The segment's index.
        segment: u32,
        /// Edits the record listed for it.
        edits: u32,
        /// What was wrong with it.
        reason: SegmentError,
    },
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

/// A record decoded and upgraded, with edits an old version kept inline.
struct Decoded {
    world: SavedWorld,
    stored_version: u32,
    inline_edits: Vec<BlockEdit>,
}

fn decode_record(id: &str, bytes: &[u8]) -> Result<Decoded, SaveError> {
    let corrupt = |reason: String| SaveError::Corrupt {
        id: id.to_owned(),
        reason,
    };
    let value: Value = serde_json::from_slice(bytes).map_err(|e| corrupt(e.to_string()))?;
    // The engine's envelope `{"version", "data"}`, or a bare record of the
    // original game (its own optional `version`, 0 when missing).
    let (version, mut data) = match value {
        Value::Object(mut map)
            if map.len() == 2 && map.contains_key("data") && map.contains_key("version") =>
        {
            let version = map.get("version").and_then(Value::as_u64);
            let data = map.remove("data").unwrap_or_default();
            (version, data)
        }
        Value::Object(map) => {
            let version = match map.get("version") {
                None | Some(Value::Null) => Some(0),
                Some(v) => v.as_u64(),
            };
            (version, Value::Object(map))
        }
        _ => return Err(corrupt("not a JSON object".to_owned())),
    };
    let version = version
        .and_then(|v| u32::try_from(v).ok())
        .ok_or_else(|| corrupt("its format version is not a small whole number".to_owned()))?;
    if version > CURRENT_VERSION {
        return Err(SaveError::NewerVersion {
            id: id.to_owned(),
            found: version,
            supported: CURRENT_VERSION,
        });
    }
    for from in version..CURRENT_VERSION {
        data =
            <SavedWorld as Record>::upgrade(from, data).map_err(|reason| SaveError::Migration {
                id: id.to_owned(),
                from,
                reason,
            })?;
    }
    let inline = data.as_object_mut().and_then(|map| map.remove("edits"));
    let inline_edits = match inline {
        Some(Value::Null) | None => Vec::new(),
        Some(edits) => {
            serde_json::from_value(edits).map_err(|e| corrupt(format!("inline edits: {e}")))?
        }
    };
    let mut world: SavedWorld = serde_json::from_value(data).map_err(|e| corrupt(e.to_string()))?;
    // The key is the world's identity: a record copied under a new key
    // (an export imported as a copy) must not act on the original.
    if world.id != id {
        if !world.id.is_empty() {
            log::warn!(
                "world {id:?}: its record names id {:?}; the key wins",
                world.id
            );
        }
        id.clone_into(&mut world.id);
    }
    world.version = CURRENT_VERSION;
    Ok(Decoded {
        world,
        stored_version: version,
        inline_edits,
    })
}

/// The newest run of segments to merge when `sizes` (edit counts, oldest
/// first, the pending segment last) holds more than [`MAX_SEGMENTS`]: at
/// least two, then each older one no larger than the run so far, so
/// segments grow geometrically toward the oldest and each edit is rewritten
/// O(log n) times over the life of a world.
fn merge_run(sizes: &[u64]) -> usize {
    if sizes.len() <= MAX_SEGMENTS {
        return 1;
    }
    let mut run = 1;
    let mut total = sizes[sizes.len() - 1];
    while run < sizes.len() {
        let older = sizes[sizes.len() - 1 - run];
        if (run >= 2 && older > total) || total + older > MAX_SEGMENT_EDITS as u64 {
            break;
        }
        total += older;
        run += 1;
    }
    run
}

/// Appends `edits` to `log` as one new segment (merging the newest old
/// segments into it when the log is long). Writes segments only; the caller
/// writes the record.
async fn append_to_log<T: Transaction>(
    tx: &mut T,
    id: &str,
    log: &mut EditLog,
    edits: &[BlockEdit],
) -> Result<AppendReport, SaveError> {
    let mut report = AppendReport {
        new_edits: edits.len(),
        ..AppendReport::default()
    };
    for chunk in edits.chunks(MAX_SEGMENT_EDITS) {
        let mut sizes: Vec<u64> = log.segments.iter().map(|s| u64::from(s.edits)).collect();
        sizes.push(chunk.len() as u64);
        let old = merge_run(&sizes) - 1;
        let mut merged = Vec::new();
        let mut merged_ok = old > 0;
        if old > 0 {
            for info in &log.segments[log.segments.len() - old..] {
                let bytes = tx
                    .get_raw(SEGMENTS_STORE, &segment_key(id, info.index))
                    .await?;
                let result = match bytes {
                    Some(bytes) => decode_segment_into(&bytes, Some(info.edits), &mut merged),
                    None => Err(SegmentError::Missing),
                };
                if let Err(reason) = result {
                    // Leave a damaged segment for the load path to report.
                    log::warn!(
                        "world {id:?}: not compacting, segment {} is damaged: {reason}",
                        info.index
                    );
                    merged_ok = false;
                    break;
                }
            }
        }
        let bytes = if merged_ok {
            for info in log.segments.split_off(log.segments.len() - old) {
                tx.delete(SEGMENTS_STORE, &segment_key(id, info.index))
                    .await?;
            }
            report.segments_merged += old;
            merged.extend_from_slice(chunk);
            encode_segment(&merged)
        } else {
            merged.clear();
            encode_segment(chunk)
        };
        let count = if merged_ok { merged.len() } else { chunk.len() };
        // Never reuse the index of a listed segment, whatever the record
        // says its next index is.
        let index = log
            .segments
            .iter()
            .map(|s| s.index.checked_add(1))
            .try_fold(log.next_segment, |next, after| after.map(|a| next.max(a)))
            .ok_or_else(|| SaveError::Corrupt {
                id: id.to_owned(),
                reason: "its edit log has used every segment index".to_owned(),
            })?;
        tx.put_raw(SEGMENTS_STORE, &segment_key(id, index), &bytes)
            .await?;
        report.segment_bytes += bytes.len();
        log.segments.push(SegmentInfo {
            index,
            edits: u32::try_from(count).unwrap_or(u32::MAX),
        });
        log.next_segment = index.saturating_add(1);
    }
    report.segments = log.segments.len();
    Ok(report)
}

/// Reads the record of `id` for an update inside a read-write transaction,
/// moving edits an old version kept inline into a segment first.
async fn read_for_write<T: Transaction>(
    tx: &mut T,
    id: &str,
) -> Result<Option<SavedWorld>, SaveError> {
    let Some(bytes) = tx.get_raw(WORLDS_STORE, id).await? else {
        return Ok(None);
    };
    let Decoded {
        mut world,
        inline_edits,
        ..
    } = decode_record(id, &bytes)?;
    if !inline_edits.is_empty() {
        append_to_log(tx, id, &mut world.edit_log, &inline_edits).await?;
    }
    Ok(Some(world))
}

/// The key a damaged segment of world `id` is moved to on load: beside
/// the log in [`SEGMENTS_STORE`] (deleted with the world), out of the way of
/// every later append.
#[must_use]
pub fn quarantine_key(id: &str, index: u32) -> String {
    format!("{id}/quarantine/{index:010}")
}

/// A world as stored: its record, the bytes of each segment it lists, and
/// its thumbnail.
struct StoredWorld {
    decoded: Decoded,
    segments: Vec<Option<Vec<u8>>>,
    screenshot: Option<Vec<u8>>,
}

async fn read_world<T: Transaction>(tx: &mut T, id: &str) -> Result<StoredWorld, SaveError> {
    let Some(bytes) = tx.get_raw(WORLDS_STORE, id).await? else {
        return Err(SaveError::NotFound { id: id.to_owned() });
    };
    let decoded = decode_record(id, &bytes)?;
    let mut segments = Vec::with_capacity(decoded.world.edit_log.segments.len());
    for info in &decoded.world.edit_log.segments {
        segments.push(
            tx.get_raw(SEGMENTS_STORE, &segment_key(id, info.index))
                .await?,
        );
    }
    let screenshot = tx.get_raw(THUMBNAILS_STORE, id).await?;
    Ok(StoredWorld {
        decoded,
        segments,
        screenshot,
    })
}

/// What a load makes of a stored world: the edits that decode, the
/// segments to move aside, and whether the record must be written back.
struct LoadPlan {
    world: SavedWorld,
    stored_version: u32,
    inline_edits: Vec<BlockEdit>,
    edits: Vec<BlockEdit>,
    /// Damaged segments with their bytes (`None`: missing).
    damaged: Vec<(SegmentInfo, Option<Vec<u8>>)>,
    warnings: Vec<LoadWarning>,
}

impl StoredWorld {
    fn plan(&self, id: &str) -> Result<LoadPlan, SaveError> {
        let decoded = &self.decoded;
        let mut world = decoded.world.clone();
        // The capacity comes from bytes actually read, never from a count
        // in the record.
        let stored_bytes: usize = self.segments.iter().flatten().map(Vec::len).sum();
        let mut edits = Vec::with_capacity(stored_bytes / super::segment::EDIT_BYTES);
        let mut kept = Vec::with_capacity(self.segments.len());
        let mut damaged = Vec::new();
        let mut warnings = Vec::new();
        for (info, bytes) in world.edit_log.segments.iter().zip(&self.segments) {
            let result = match bytes {
                Some(bytes) => decode_segment_into(bytes, Some(info.edits), &mut edits),
                None => Err(SegmentError::Missing),
            };
            match result {
                Ok(()) => kept.push(*info),
                Err(reason) if reason.is_from_newer_build() => {
                    return Err(SaveError::NewerSegment {
                        id: id.to_owned(),
                        segment: info.index,
                        reason,
                    });
                }
                Err(reason) => {
                    let warning = LoadWarning::SegmentDropped {
                        id: id.to_owned(),
                        segment: info.index,
                        edits: info.edits,
                        reason,
                    };
                    log::warn!("{warning}");
                    warnings.push(warning);
                    damaged.push((*info, bytes.clone()));
                }
            }
        }
        world.edit_log.segments = kept;
        Ok(LoadPlan {
            world,
            stored_version: decoded.stored_version,
            inline_edits: decoded.inline_edits.clone(),
            edits,
            damaged,
            warnings,
        })
    }
}

impl LoadPlan {
    fn needs_writing(&self) -> bool {
        self.stored_version < CURRENT_VERSION
            || !self.inline_edits.is_empty()
            || !self.damaged.is_empty()
    }

    /// Moves damaged segments aside, moves inline edits into a segment and
    /// writes the record back.
    async fn write<T: Transaction>(&mut self, tx: &mut T, id: &str) -> Result<(), SaveError> {
        for (info, bytes) in &self.damaged {
            if let Some(bytes) = bytes {
                tx.put_raw(SEGMENTS_STORE, &quarantine_key(id, info.index), bytes)
                    .await?;
                tx.delete(SEGMENTS_STORE, &segment_key(id, info.index))
                    .await?;
            }
        }
        if !self.inline_edits.is_empty() {
            let mut log = self.world.edit_log.clone();
            append_to_log(tx, id, &mut log, &self.inline_edits).await?;
            self.world.edit_log = log;
        }
        tx.put(WORLDS_STORE, id, &self.world).await?;
        if self.stored_version < CURRENT_VERSION {
            log::info!(
                "world {id:?}: migrated from format version {} to {CURRENT_VERSION}",
                self.stored_version
            );
        }
        Ok(())
    }

    fn into_loaded(self, screenshot: Option<Vec<u8>>) -> LoadedWorld {
        // Old versions kept edits inline; they come before any segment.
        let mut edits = self.inline_edits;
        edits.extend(self.edits);
        let mut record = self.world;
        record.screenshot = screenshot;
        LoadedWorld {
            record,
            edits,
            warnings: self.warnings,
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_runs_grow_geometrically() {
        assert_eq!(merge_run(&[5; MAX_SEGMENTS]), 1);
        let mut sizes = vec![1_000_000];
        sizes.extend([1; MAX_SEGMENTS]);
        // All the small ones merge; the big one stays.
        assert_eq!(merge_run(&sizes), MAX_SEGMENTS);
        let mut sizes = vec![1_000_000, 64];
        sizes.extend([1; MAX_SEGMENTS - 1]);
        assert_eq!(merge_run(&sizes), MAX_SEGMENTS - 1);
    }
}
