//! [`ServerStore`]: the server's world and players in a database behind
//! the engine's storage trait (redb natively, or PostgreSQL that several
//! servers share): the world's meta record (seed, tick, identity, how far
//! the log is folded), one snapshot per changed chunk with its version,
//! the edit log's tail since the last fold in batches (one record per
//! save, keyed by its first index), one record per player (read when they
//! join), and the hosting lease ([`lease`](crate::lease)).
//!
//! Each save is one transaction: after a crash the database holds every
//! batch whose save returned, whole. A fold writes the changed chunks'
//! snapshots and drops the folded batches in the same transaction, so
//! nothing acknowledged is ever only in memory. A start reads the
//! snapshots and at most [`FOLD_EDITS`](crate::FOLD_EDITS) edits: it
//! costs the chunks that changed, not every edit ever made.

use std::sync::Mutex;

use crafty_net::{ChunkSnapshot, SnapshotError, WorldId};
use crafty_sim::world::{BlockEdit, ChunkPos};
use glam::IVec3;
use serde::{Deserialize, Serialize};
use taos_storage::{Database, Record, StorageBackend, StorageError, Transaction, TransactionMode};

use crate::lease::{HostId, Lease};
use crate::{PlayerRecord, SaveBatch};

pub(crate) const META: &str = "meta";
const EDITS: &str = "edits";
const PLAYERS: &str = "players";
const CHUNKS: &str = "chunks";
const SCHEMA: u32 = 2;

/// The world's meta record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
struct Meta {
    seed: u64,
    /// The server's tick at the last save (time of day and weather follow
    /// it).
    #[serde(default)]
    tick: u64,
    /// The world's identity (`None` in a database saved before it had one).
    #[serde(default)]
    world: Option<WorldId>,
    /// Edits of the log the chunk snapshots hold; the saved batches start
    /// here.
    #[serde(default)]
    folded: u64,
}

impl Record for Meta {}

/// Edits of the log from index `first`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct EditBatch {
    first: u64,
    edits: Vec<BlockEdit>,
}

impl Record for EditBatch {}

/// The layout of a saved chunk record (a binary record, not JSON: a start
/// reads thousands of them).
const CHUNK_RECORD: u8 = 1;

/// A changed chunk as saved: a layout byte, its position (3 × i32) and
/// version (u64), little-endian, then its snapshot uncompressed
/// ([`ChunkSnapshot::to_plain`]).
fn chunk_record(at: [i32; 3], version: u64, snapshot: &ChunkSnapshot) -> Vec<u8> {
    let plain = snapshot.to_plain();
    let mut bytes = Vec::with_capacity(21 + plain.len());
    bytes.push(CHUNK_RECORD);
    for axis in at {
        bytes.extend_from_slice(&axis.to_le_bytes());
    }
    bytes.extend_from_slice(&version.to_le_bytes());
    bytes.extend_from_slice(&plain);
    bytes
}

/// Reads [`chunk_record`]'s layout.
fn read_chunk_record(
    key: &str,
    bytes: &[u8],
) -> Result<(ChunkPos, u64, ChunkSnapshot), StoreError> {
    let damaged = |why: String| StoreError::Chunk {
        key: key.to_owned(),
        source: SnapshotError::Malformed(why),
    };
    let (header, plain) = bytes.split_at_checked(21).ok_or_else(|| {
        damaged(format!(
            "{} bytes, shorter than a chunk record",
            bytes.len()
        ))
    })?;
    if header[0] != CHUNK_RECORD {
        return Err(damaged(format!(
            "layout {} (this build reads {CHUNK_RECORD})",
            header[0]
        )));
    }
    let word = |at: usize| {
        i32::from_le_bytes([header[at], header[at + 1], header[at + 2], header[at + 3]])
    };
    let mut version = [0u8; 8];
    version.copy_from_slice(&header[13..21]);
    let snapshot = ChunkSnapshot::from_plain(plain).map_err(|source| StoreError::Chunk {
        key: key.to_owned(),
        source,
    })?;
    Ok((
        ChunkPos(IVec3::new(word(1), word(5), word(9))),
        u64::from_le_bytes(version),
        snapshot,
    ))
}

impl Record for PlayerRecord {}

/// A saved server, as loaded: see [`Server::from_saved`](crate::Server::from_saved).
#[derive(Debug)]
pub struct SavedServer {
    /// The world's identity.
    pub world: WorldId,
    /// Every changed chunk: position, version, snapshot.
    pub snapshots: Vec<(ChunkPos, u64, ChunkSnapshot)>,
    /// Edits of the log the snapshots hold.
    pub folded: u64,
    /// The saved edits after them, in order.
    pub tail: Vec<BlockEdit>,
    /// The server's tick at the last save.
    pub tick: u64,
}

/// Why the saved server could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused.
    #[error(transparent)]
    Storage(#[from] StorageError),
    /// The edit log has a hole or an overlap: a batch does not start where
    /// the one before ended.
    #[error("the saved edit log jumps from {expected} to {found}")]
    Gap {
        /// Where the next batch should start.
        expected: u64,
        /// Where it starts.
        found: u64,
    },
    /// A saved chunk snapshot does not read.
    #[error("the saved chunk {key}: {source}")]
    Chunk {
        /// The chunk's key.
        key: String,
        /// Why.
        source: SnapshotError,
    },
    /// The server's sockets or threads failed.
    #[error("the network: {0}")]
    Io(String),
    /// The database holds a world of another seed.
    #[error("the database holds the world of seed {saved}, not {asked}")]
    OtherSeed {
        /// The saved seed.
        saved: u64,
        /// The one asked for.
        asked: u64,
    },
    /// Another server hosts this world now: this one must stop writing.
    #[error("another server ({holder}) hosts this world now")]
    LeaseLost {
        /// Who holds it.
        holder: String,
    },
}

/// The server's database.
#[derive(Debug)]
pub struct ServerStore<D> {
    pub(crate) db: D,
    /// The lease this server writes under, once it hosts the world: every
    /// save checks it in its transaction.
    pub(crate) hosting: Mutex<Option<HostId>>,
}

fn chunk_key(at: [i32; 3]) -> String {
    format!("{},{},{}", at[0], at[1], at[2])
}

impl<D: Database> ServerStore<D> {
    /// Opens (or creates) database `name` on `backend`.
    ///
    /// # Errors
    /// What the backend says.
    pub async fn open<B: StorageBackend<Database = D>>(
        backend: &B,
        name: &str,
    ) -> Result<Self, StoreError> {
        let db = backend
            .open(name, SCHEMA, |upgrade| {
                if upgrade.old_version() < 1 {
                    upgrade.create_store(META)?;
                    upgrade.create_store(EDITS)?;
                    upgrade.create_store(PLAYERS)?;
                }
                if upgrade.old_version() < 2 {
                    upgrade.create_store(CHUNKS)?;
                }
                Ok(())
            })
            .await?;
        Ok(Self {
            db,
            hosting: Mutex::new(None),
        })
    }

    /// The saved world of `seed`: its changed chunks and the log's tail
    /// (a fresh world, with a new identity, when nothing is saved yet).
    /// Players are read when they join ([`load_record`](Self::load_record)).
    ///
    /// # Errors
    /// [`StoreError::OtherSeed`] for a database of another world,
    /// [`StoreError::Gap`] or [`StoreError::Chunk`] for a damaged save, or
    /// the backend's error.
    pub async fn load(&self, seed: u64) -> Result<SavedServer, StoreError> {
        let meta: Option<Meta> = self.db.get(META, "world").await?;
        let meta = match meta {
            Some(meta) if meta.seed != seed => {
                return Err(StoreError::OtherSeed {
                    saved: meta.seed,
                    asked: seed,
                });
            }
            Some(meta) if meta.world.is_some() => meta,
            found => {
                let meta = Meta {
                    seed,
                    tick: found.map_or(0, |m| m.tick),
                    world: Some(crate::server::new_world_id()),
                    folded: found.map_or(0, |m| m.folded),
                };
                self.db.put(META, "world", &meta).await?;
                meta
            }
        };
        let stored = self
            .db
            .transaction(&[CHUNKS], TransactionMode::ReadOnly, async |tx| {
                tx.get_all_raw(CHUNKS).await
            })
            .await?;
        let snapshots = stored
            .iter()
            .map(|(key, bytes)| read_chunk_record(key, bytes))
            .collect::<Result<Vec<_>, _>>()?;
        let batches: Vec<(String, EditBatch)> = self.db.get_all(EDITS).await?;
        let mut tail = Vec::new();
        for (_, batch) in batches {
            let expected = meta.folded + tail.len() as u64;
            if batch.first != expected {
                return Err(StoreError::Gap {
                    expected,
                    found: batch.first,
                });
            }
            tail.extend(batch.edits);
        }
        Ok(SavedServer {
            world: meta.world.unwrap_or_default(),
            snapshots,
            folded: meta.folded,
            tail,
            tick: meta.tick,
        })
    }

    /// The record saved under `key` (a [`record_key`](crate::record_key)).
    ///
    /// # Errors
    /// What the backend says.
    pub async fn load_record(&self, key: &str) -> Result<Option<PlayerRecord>, StoreError> {
        Ok(self.db.get(PLAYERS, key).await?)
    }

    /// Forgets every record last used before server tick `before`; returns
    /// how many.
    ///
    /// # Errors
    /// What the backend says; nothing is forgotten then.
    pub async fn forget_records(&self, before: u64) -> Result<usize, StoreError> {
        let forgotten = self
            .db
            .transaction(&[PLAYERS], TransactionMode::ReadWrite, async |tx| {
                let all: Vec<(String, PlayerRecord)> = tx.get_all(PLAYERS).await?;
                let mut forgotten = 0;
                for (key, record) in all {
                    if record.last_seen < before {
                        tx.delete(PLAYERS, &key).await?;
                        forgotten += 1;
                    }
                }
                Ok::<usize, StorageError>(forgotten)
            })
            .await?;
        Ok(forgotten)
    }

    /// Saves a tick's batch in one transaction (checking, when this server
    /// hosts under a lease, that it still holds it).
    ///
    /// # Errors
    /// What the backend says (a full disk), or [`StoreError::LeaseLost`];
    /// nothing of the batch is saved then.
    pub async fn save(&self, batch: &SaveBatch<'_>) -> Result<(), StoreError> {
        if batch.edits.is_empty() && batch.records.is_empty() && batch.fold.is_empty() {
            return Ok(());
        }
        let end = batch.first + batch.edits.len() as u64;
        let chunks: Vec<(String, Vec<u8>)> = batch
            .fold
            .iter()
            .map(|folded| {
                let at = folded.at.0.to_array();
                (
                    chunk_key(at),
                    chunk_record(at, folded.version, folded.snapshot),
                )
            })
            .collect();
        let edits = EditBatch {
            first: batch.first,
            edits: batch.edits.to_vec(),
        };
        // Zero-padded, so batches sort by their first index.
        let key = format!("{:020}", batch.first);
        let host = *self
            .hosting
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let result = self
            .db
            .transaction(
                &[META, EDITS, PLAYERS, CHUNKS],
                TransactionMode::ReadWrite,
                async |tx| {
                    if let Some(me) = host {
                        let lease: Option<Lease> = tx.get(META, crate::lease::LEASE_KEY).await?;
                        if let Some(lease) = lease.filter(|l| l.holder != me) {
                            return Ok(Err(lease.holder_name()));
                        }
                    }
                    let old: Option<Meta> = tx.get(META, "world").await?;
                    let folded = if chunks.is_empty() {
                        old.map_or(0, |m| m.folded)
                    } else {
                        end
                    };
                    let meta = Meta {
                        seed: batch.seed,
                        tick: batch.tick,
                        world: Some(batch.world),
                        folded,
                    };
                    tx.put(META, "world", &meta).await?;
                    if chunks.is_empty() {
                        if !edits.edits.is_empty() {
                            tx.put(EDITS, &key, &edits).await?;
                        }
                    } else {
                        for (key, chunk) in &chunks {
                            tx.put_raw(CHUNKS, key, chunk).await?;
                        }
                        tx.clear(EDITS).await?;
                    }
                    for (name, record) in &batch.records {
                        tx.put(PLAYERS, name, record).await?;
                    }
                    Ok::<Result<(), String>, StorageError>(Ok(()))
                },
            )
            .await?;
        result.map_err(|holder| StoreError::LeaseLost { holder })
    }
}

impl<L: crafty_net::Link> crate::Server<L> {
    /// The world saved in `store` (its chunks and log tail), reading each
    /// player's record from `store` when they join: how a server starts.
    ///
    /// # Errors
    /// As [`ServerStore::load`].
    pub fn load<D: Database + Send + Sync + 'static>(
        config: crate::ServerConfig,
        store: &std::sync::Arc<ServerStore<D>>,
    ) -> Result<Self, StoreError> {
        let saved = taos_storage::block_on(store.load(config.seed))?;
        let source = std::sync::Arc::clone(store);
        Ok(Self::from_saved(
            config,
            saved,
            Box::new(move |key| {
                taos_storage::block_on(source.load_record(key)).map_err(|e| e.to_string())
            }),
        ))
    }
}
