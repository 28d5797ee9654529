//! [`ServerStore`]: the server's world and players in a database behind
//! the engine's storage trait (redb natively): the seed, the edit log in
//! batches (one record per save, keyed by its first index, so a save
//! writes only what is new), and one record per player. Each save is one
//! transaction: after a crash, the database holds every batch whose save
//! returned, whole.

use std::collections::BTreeMap;

use crafty_sim::world::{BlockEdit, World};
use serde::{Deserialize, Serialize};
use taos_storage::{Database, Record, StorageBackend, StorageError, Transaction, TransactionMode};

use crate::{PlayerRecord, SaveBatch};

const META: &str = "meta";
const EDITS: &str = "edits";
const PLAYERS: &str = "players";
const SCHEMA: u32 = 1;

/// The world's seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
struct Meta {
    seed: u64,
    /// The server's tick at the last save (time of day and weather follow
    /// it).
    #[serde(default)]
    tick: u64,
}

impl Record for Meta {}

/// Edits of the log from index `first`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct EditBatch {
    first: u64,
    edits: Vec<BlockEdit>,
}

impl Record for EditBatch {}

impl Record for PlayerRecord {}

/// A saved server, as loaded.
#[derive(Debug)]
pub struct SavedServer {
    /// The world: terrain from the seed with every saved edit.
    pub world: World,
    /// Every player's record.
    pub records: BTreeMap<String, PlayerRecord>,
    /// The server's tick at the last save ([`Server::resume_at`](crate::Server::resume_at)).
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
}

/// The server's database.
#[derive(Debug)]
pub struct ServerStore<D> {
    db: D,
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
                upgrade.create_store(META)?;
                upgrade.create_store(EDITS)?;
                upgrade.create_store(PLAYERS)?;
                Ok(())
            })
            .await?;
        Ok(Self { db })
    }

    /// The saved world of `seed` and its players: a fresh world when
    /// nothing is saved yet (the seed is written then).
    ///
    /// # Errors
    /// [`StoreError::OtherSeed`] for a database of another world,
    /// [`StoreError::Gap`] for a damaged log, or the backend's error.
    pub async fn load(&self, seed: u64) -> Result<SavedServer, StoreError> {
        let meta: Option<Meta> = self.db.get(META, "world").await?;
        let tick = match meta {
            Some(meta) if meta.seed != seed => {
                return Err(StoreError::OtherSeed {
                    saved: meta.seed,
                    asked: seed,
                });
            }
            Some(meta) => meta.tick,
            None => {
                self.db.put(META, "world", &Meta { seed, tick: 0 }).await?;
                0
            }
        };
        let batches: Vec<(String, EditBatch)> = self.db.get_all(EDITS).await?;
        let mut edits = Vec::new();
        for (_, batch) in batches {
            let expected = edits.len() as u64;
            if batch.first != expected {
                return Err(StoreError::Gap {
                    expected,
                    found: batch.first,
                });
            }
            edits.extend(batch.edits);
        }
        let records = self.db.get_all(PLAYERS).await?.into_iter().collect();
        Ok(SavedServer {
            world: World::with_edits(seed, edits),
            records,
            tick,
        })
    }

    /// Saves a tick's batch in one transaction.
    ///
    /// # Errors
    /// What the backend says (a full disk); nothing of the batch is saved
    /// then.
    pub async fn save(&self, batch: &SaveBatch<'_>) -> Result<(), StoreError> {
        if batch.edits.is_empty() && batch.records.is_empty() {
            return Ok(());
        }
        let meta = Meta {
            seed: batch.seed,
            tick: batch.tick,
        };
        let edits = EditBatch {
            first: batch.first,
            edits: batch.edits.to_vec(),
        };
        // Zero-padded, so batches sort by their first index.
        let key = format!("{:020}", batch.first);
        self.db
            .transaction(
                &[META, EDITS, PLAYERS],
                TransactionMode::ReadWrite,
                async |tx| {
                    tx.put(META, "world", &meta).await?;
                    if !edits.edits.is_empty() {
                        tx.put(EDITS, &key, &edits).await?;
                    }
                    for (name, record) in &batch.records {
                        tx.put(PLAYERS, name, record).await?;
                    }
                    Ok::<(), StorageError>(())
                },
            )
            .await?;
        Ok(())
    }
}
