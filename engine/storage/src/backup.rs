//! Whole-database backups: every object store and every record, byte for
//! byte, with the schema version, as one serde document (the `taos-db`
//! tool writes it as JSON), restored into any backend under any name.
//!
//! A store-by-store export of typed records misses what a game keeps as raw
//! bytes (crafty's edit logs and thumbnails) and cannot recreate the schema
//! version a game expects. A backup keeps both: records that are UTF-8 (the
//! JSON envelopes) stay readable text, others are base64.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde::{Deserialize, Serialize};

use crate::{Database, StorageBackend, StorageError, Transaction, TransactionMode};

/// The `format` field every backup carries.
pub const BACKUP_FORMAT: &str = "taos-database-backup";

/// A database's schema version, stores and records.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DatabaseBackup {
    /// Always [`BACKUP_FORMAT`].
    pub format: String,
    /// The database's name when it was backed up.
    pub database: String,
    /// Its schema version (restored as is, so the game opens it without an upgrade).
    pub version: u32,
    /// Every store, sorted by name, each with every record in key order.
    pub stores: Vec<StoreBackup>,
}

/// One object store's records.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoreBackup {
    /// The store's name.
    pub name: String,
    /// Its records, in key order.
    pub records: Vec<BackedUpRecord>,
}

/// One record: its key and its exact bytes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BackedUpRecord {
    /// The record's key.
    pub key: String,
    /// The stored bytes.
    #[serde(flatten)]
    pub value: RecordBytes,
}

/// A record's bytes: as text when they are UTF-8, else base64.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RecordBytes {
    /// The bytes were UTF-8 (JSON record envelopes are).
    Text(String),
    /// Standard base64 of binary bytes.
    Base64(String),
}

impl RecordBytes {
    /// Keeps `bytes` as text if they are UTF-8, else as base64.
    #[must_use]
    pub fn of(bytes: Vec<u8>) -> Self {
        match String::from_utf8(bytes) {
            Ok(text) => Self::Text(text),
            Err(binary) => Self::Base64(STANDARD.encode(binary.as_bytes())),
        }
    }

    /// The exact bytes.
    ///
    /// # Errors
    /// [`DamagedBase64`] when the base64 is damaged.
    pub fn to_bytes(&self) -> Result<Vec<u8>, DamagedBase64> {
        match self {
            Self::Text(text) => Ok(text.as_bytes().to_vec()),
            Self::Base64(encoded) => STANDARD
                .decode(encoded)
                .map_err(|e| DamagedBase64 { why: e.to_string() }),
        }
    }
}

/// A record's base64 in a backup does not decode.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the record's base64 is damaged: {why}")]
pub struct DamagedBase64 {
    /// The decoder's reason.
    pub why: String,
}

impl DatabaseBackup {
    /// Number of records over all stores.
    #[must_use]
    pub fn record_count(&self) -> usize {
        self.stores.iter().map(|s| s.records.len()).sum()
    }
}

/// Why a backup could not be restored. Nothing was written.
#[derive(Debug, thiserror::Error)]
pub enum RestoreError {
    /// The document is not a database backup.
    #[error("not a taos database backup (format {0:?}, expected {BACKUP_FORMAT:?})")]
    Format(String),
    /// A record's bytes cannot be recovered.
    #[error("the backup's record {key:?} in store {store:?} is damaged: {reason}")]
    DamagedRecord {
        /// The store.
        store: String,
        /// The record's key.
        key: String,
        /// What is wrong.
        reason: String,
    },
    /// A store appears twice in the backup: it cannot be restored whole.
    #[error("the backup holds store {0:?} twice; it is damaged (nothing was changed)")]
    RepeatedStore(String),
    /// The target database already holds data (or has another schema):
    /// restoring would mix or overwrite it.
    #[error(
        "database {0:?} already exists with data or another schema; restore into a fresh data \
         directory or under another name (nothing was changed)"
    )]
    Exists(String),
    /// The backend failed.
    #[error(transparent)]
    Storage(#[from] StorageError),
}

/// Reads every store of `db` in one read-only transaction (a consistent
/// snapshot) into a backup.
///
/// # Errors
/// A [`StorageError`] from the backend.
pub async fn backup_database<D: Database>(db: &D) -> Result<DatabaseBackup, StorageError> {
    let names = db.store_names();
    let stores: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut backup = DatabaseBackup {
        format: BACKUP_FORMAT.to_owned(),
        database: db.name().to_owned(),
        version: db.version(),
        stores: Vec::with_capacity(names.len()),
    };
    if stores.is_empty() {
        return Ok(backup);
    }
    let contents = db
        .transaction(&stores, TransactionMode::ReadOnly, async |tx| {
            let mut all = Vec::with_capacity(stores.len());
            for store in &stores {
                all.push(tx.get_all_raw(store).await?);
            }
            Ok::<_, StorageError>(all)
        })
        .await?;
    for (name, records) in names.iter().zip(contents) {
        backup.stores.push(StoreBackup {
            name: name.clone(),
            records: records
                .into_iter()
                .map(|(key, bytes)| BackedUpRecord {
                    key,
                    value: RecordBytes::of(bytes),
                })
                .collect(),
        });
    }
    Ok(backup)
}

/// Restores `backup` into `backend` as database `name`, at the backup's
/// schema version with all its stores, writing every record in one
/// transaction. The target must not exist yet (or exist empty at the same
/// version with the same stores, as a game leaves it after a first start).
///
/// # Errors
/// [`RestoreError::Format`], [`RestoreError::DamagedRecord`] (also for a
/// key repeated in a store) or [`RestoreError::RepeatedStore`] before
/// anything is created; [`RestoreError::Exists`] if the target holds data;
/// [`RestoreError::Storage`] if the backend fails (a database this call
/// created is deleted again).
pub async fn restore_database<B: StorageBackend>(
    backend: &B,
    backup: &DatabaseBackup,
    name: &str,
) -> Result<B::Database, RestoreError> {
    if backup.format != BACKUP_FORMAT {
        return Err(RestoreError::Format(backup.format.clone()));
    }
    // Every record is checked before anything is written. A repeated store
    // or key would lose records silently: refused.
    let mut stores = Vec::with_capacity(backup.stores.len());
    let mut store_names = std::collections::BTreeSet::new();
    for store in &backup.stores {
        if !store_names.insert(store.name.as_str()) {
            return Err(RestoreError::RepeatedStore(store.name.clone()));
        }
        let mut records = Vec::with_capacity(store.records.len());
        let mut keys = std::collections::BTreeSet::new();
        for record in &store.records {
            if !keys.insert(record.key.as_str()) {
                return Err(RestoreError::DamagedRecord {
                    store: store.name.clone(),
                    key: record.key.clone(),
                    reason: "the key appears twice in the store".to_owned(),
                });
            }
            let bytes = record
                .value
                .to_bytes()
                .map_err(|damage| RestoreError::DamagedRecord {
                    store: store.name.clone(),
                    key: record.key.clone(),
                    reason: damage.to_string(),
                })?;
            records.push((record.key.as_str(), bytes));
        }
        stores.push((store.name.as_str(), records));
    }
    let mut created = false;
    let opened = backend
        .open(name, backup.version, |up| {
            if up.old_version() != 0 {
                return Err(up.fail("it already has an older schema"));
            }
            created = true;
            for (store, _) in &stores {
                up.create_store(store)?;
            }
            Ok(())
        })
        .await;
    let db = match opened {
        Ok(db) => db,
        Err(StorageError::VersionTooOld { .. } | StorageError::UpgradeFailed { .. }) => {
            return Err(RestoreError::Exists(name.to_owned()));
        }
        Err(e) => return Err(e.into()),
    };
    let names: Vec<&str> = stores.iter().map(|(store, _)| *store).collect();
    if !created && !exists_empty_with(&db, &names).await? {
        return Err(RestoreError::Exists(name.to_owned()));
    }
    if names.is_empty() {
        return Ok(db);
    }
    let written = db
        .transaction(&names, TransactionMode::ReadWrite, async |tx| {
            for (store, records) in &stores {
                for (key, bytes) in records {
                    tx.put_raw(store, key, bytes).await?;
                }
            }
            Ok::<_, StorageError>(())
        })
        .await;
    match written {
        Ok(()) => Ok(db),
        Err(e) => {
            if created {
                db.close();
                if let Err(cleanup) = backend.delete_database(name).await {
                    log::warn!(
                        "restore: removing the half-made database {name:?} failed: {cleanup}"
                    );
                }
            }
            Err(e.into())
        }
    }
}

/// Whether `db` has exactly `stores`, all empty.
async fn exists_empty_with<D: Database>(db: &D, stores: &[&str]) -> Result<bool, StorageError> {
    let mut have = db.store_names();
    have.sort();
    let mut want: Vec<String> = stores.iter().map(|s| (*s).to_owned()).collect();
    want.sort();
    if have != want {
        return Ok(false);
    }
    if stores.is_empty() {
        return Ok(true);
    }
    db.transaction(stores, TransactionMode::ReadOnly, async |tx| {
        for store in stores {
            if !tx.keys(store).await?.is_empty() {
                return Ok(false);
            }
        }
        Ok::<_, StorageError>(true)
    })
    .await
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::{MemoryBackend, block_on};

    /// A database at version 3 with a JSON store and a binary store.
    fn sample(backend: &MemoryBackend, name: &str) -> crate::MemoryDatabase {
        let db = block_on(backend.open(name, 3, |up| {
            up.create_store("worlds")?;
            up.create_store("logs")?;
            Ok(())
        }))
        .unwrap();
        block_on(db.transaction(
            &["worlds", "logs"],
            TransactionMode::ReadWrite,
            async |tx| {
                tx.put_raw("worlds", "w-1", br#"{"version":2,"data":{"seed":7}}"#)
                    .await?;
                tx.put_raw("logs", "w-1/0", &[0, 159, 146, 150, 255, 10])
                    .await?;
                tx.put_raw("logs", "w-1/1", &[]).await?;
                Ok::<_, StorageError>(())
            },
        ))
        .unwrap();
        db
    }

    /// Each store's name and its (key, bytes) records.
    type Contents = Vec<(String, Vec<(String, Vec<u8>)>)>;

    fn everything<D: Database>(db: &D) -> Contents {
        db.store_names()
            .into_iter()
            .map(|store| {
                let records = block_on(db.transaction(
                    &[&store],
                    TransactionMode::ReadOnly,
                    async |tx| tx.get_all_raw(&store).await,
                ))
                .unwrap();
                (store, records)
            })
            .collect()
    }

    #[test]
    fn a_backup_restores_every_store_byte_for_byte_at_its_version() {
        let source = MemoryBackend::new();
        let db = sample(&source, "game");
        let backup = block_on(backup_database(&db)).unwrap();
        assert_eq!(backup.record_count(), 3);
        // Through JSON, as the tool writes it.
        let text = serde_json::to_string(&backup).unwrap();
        assert!(text.contains(r#""base64":"AJ+Slv8K""#), "{text}");
        let read: DatabaseBackup = serde_json::from_str(&text).unwrap();
        let target = MemoryBackend::new();
        let restored = block_on(restore_database(&target, &read, "game")).unwrap();
        assert_eq!(restored.version(), 3);
        assert_eq!(everything(&restored), everything(&db));
        // The game opens it at its version without an upgrade.
        drop(restored);
        let reopened = block_on(target.open("game", 3, |_| panic!("no upgrade"))).unwrap();
        assert_eq!(everything(&reopened), everything(&db));
    }

    #[test]
    fn a_database_with_data_is_never_overwritten() {
        let backend = MemoryBackend::new();
        let db = sample(&backend, "game");
        let backup = block_on(backup_database(&db)).unwrap();
        let before = everything(&db);
        drop(db);
        assert!(matches!(
            block_on(restore_database(&backend, &backup, "game")),
            Err(RestoreError::Exists(_))
        ));
        // Older or newer schema: refused too.
        let older = MemoryBackend::new();
        drop(block_on(older.open("game", 1, |_| Ok(()))).unwrap());
        assert!(matches!(
            block_on(restore_database(&older, &backup, "game")),
            Err(RestoreError::Exists(_))
        ));
        let db = block_on(backend.open("game", 3, |_| Ok(()))).unwrap();
        assert_eq!(everything(&db), before);
    }

    #[test]
    fn an_empty_database_a_first_start_left_takes_the_restore() {
        let source = MemoryBackend::new();
        let backup = block_on(backup_database(&sample(&source, "game"))).unwrap();
        let target = MemoryBackend::new();
        drop(
            block_on(target.open("game", 3, |up| {
                up.create_store("worlds")?;
                up.create_store("logs")?;
                Ok(())
            }))
            .unwrap(),
        );
        let restored = block_on(restore_database(&target, &backup, "game")).unwrap();
        assert_eq!(everything(&restored).len(), 2);
    }

    #[test]
    fn a_damaged_backup_creates_nothing() {
        let source = MemoryBackend::new();
        let mut backup = block_on(backup_database(&sample(&source, "game"))).unwrap();
        backup.stores[0].records[0].value = RecordBytes::Base64("not base64!".into());
        let target = MemoryBackend::new();
        let error = block_on(restore_database(&target, &backup, "game")).unwrap_err();
        assert!(
            error.to_string().contains("damaged"),
            "a named reason: {error}"
        );
        // No database was made: opening creates it fresh (upgrade from 0).
        let mut fresh = false;
        drop(block_on(target.open("game", 1, |up| {
            fresh = up.old_version() == 0;
            Ok(())
        })));
        assert!(fresh);
        // A repeated key or store would lose records: refused whole.
        let mut repeated = block_on(backup_database(&sample(&source, "again"))).unwrap();
        let first = repeated.stores[1].records[0].clone();
        repeated.stores[1].records.push(first);
        let error = block_on(restore_database(&target, &repeated, "game")).unwrap_err();
        assert!(error.to_string().contains("twice"), "{error}");
        repeated.stores[1].records.pop();
        let store = repeated.stores[0].clone();
        repeated.stores.push(store);
        assert!(matches!(
            block_on(restore_database(&target, &repeated, "game")),
            Err(RestoreError::RepeatedStore(_))
        ));
        backup.format = "something else".into();
        assert!(matches!(
            block_on(restore_database(&target, &backup, "other")),
            Err(RestoreError::Format(_))
        ));
    }
}
