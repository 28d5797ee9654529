//! The browser backend: IndexedDB through `rexie` (wasm32 only).
//!
//! Records are stored as `Uint8Array`s (the same envelope bytes as natively)
//! under string keys, in object stores without key paths.
//!
//! Schema versions map to IndexedDB versions plus one: IndexedDB creates an
//! unknown database at version 1 when it is opened without a version, which
//! here means "schema version 0, no stores". `open` first opens without a
//! version to read the current version and store names, runs the upgrade
//! callback, then reopens at the new version listing **every** store that
//! should exist. `rexie` deletes stores an upgrade does not list, so listing
//! them all is what keeps data safe across upgrades.

use std::collections::BTreeSet;

use js_sys::Uint8Array;
use js_sys::wasm_bindgen::{JsCast, JsValue};
use rexie::{ObjectStore, Rexie};

use super::schema::{OpenPlan, Scope, check_database_name, plan_open};
use super::{Database, StorageBackend, StorageError, Transaction, TransactionMode, Upgrade};

/// The browser's IndexedDB (wasm32 only).
#[derive(Debug, Clone, Copy, Default)]
pub struct IndexedDbBackend;

impl IndexedDbBackend {
    /// The browser's IndexedDB of this origin.
    #[must_use]
    pub fn new() -> Self {
        Self
    }
}

fn idb_error(database: &str, error: impl std::fmt::Debug) -> StorageError {
    let message = format!("{error:?}");
    if message.contains("QuotaExceeded") {
        // Some browsers name the quota on the failing request.
        return StorageError::Full {
            database: database.to_owned(),
            detail: message,
        };
    }
    StorageError::IndexedDb {
        database: database.to_owned(),
        message,
    }
}

/// Why a commit failed. A browser aborts a transaction that would take the
/// site past its quota, and the commit's answer does not say why: the
/// storage estimate tells whether this transaction's bytes fit.
async fn commit_failed(database: &str, written: u64, error: rexie::Error) -> StorageError {
    let plain = idb_error(database, error);
    if plain.is_full() {
        return plain;
    }
    match storage_estimate().await {
        Some((usage, quota)) if usage.saturating_add(written) >= quota => StorageError::Full {
            database: database.to_owned(),
            detail: format!(
                "the commit was refused with the site using {usage} of its {quota} bytes \
                 and this write adding about {written}"
            ),
        },
        _ => plain,
    }
}

/// `navigator.storage.estimate()`: the site's usage and quota in bytes, if
/// the browser answers (in a page or a worker).
async fn storage_estimate() -> Option<(u64, u64)> {
    use js_sys::{Function, Promise, Reflect};
    let field = |of: &JsValue, name: &str| Reflect::get(of, &JsValue::from_str(name)).ok();
    let storage = field(&field(&js_sys::global(), "navigator")?, "storage")?;
    let estimate = field(&storage, "estimate")?.dyn_into::<Function>().ok()?;
    let promise = estimate.call0(&storage).ok()?.dyn_into::<Promise>().ok()?;
    let answer = wasm_bindgen_futures::JsFuture::from(promise).await.ok()?;
    let bytes = |name| field(&answer, name)?.as_f64().map(|n| n as u64);
    Some((bytes("usage")?, bytes("quota")?))
}

fn idb_version(schema_version: u32, database: &str) -> Result<u32, StorageError> {
    schema_version
        .checked_add(1)
        .ok_or_else(|| idb_error(database, "schema version too large"))
}

impl StorageBackend for IndexedDbBackend {
    type Database = IndexedDbDatabase;

    async fn open<F>(
        &self,
        name: &str,
        version: u32,
        upgrade: F,
    ) -> Result<IndexedDbDatabase, StorageError>
    where
        F: FnOnce(&mut Upgrade) -> Result<(), StorageError>,
    {
        check_database_name(name)?;
        let probe = Rexie::builder(name)
            .build()
            .await
            .map_err(|e| idb_error(name, e))?;
        let existing = probe
            .version()
            .map_err(|e| idb_error(name, e))?
            .saturating_sub(1);
        let mut stores: BTreeSet<String> = probe.store_names().into_iter().collect();
        probe.close();
        if let OpenPlan::Upgrade(mut up) = plan_open(name, existing, version, stores.clone())? {
            upgrade(&mut up)?;
            stores = up.into_stores();
        }
        // Every store is listed, so the upgrade keeps them all; a store is
        // dropped only when the callback deleted it.
        let mut builder = Rexie::builder(name).version(idb_version(version, name)?);
        for store in &stores {
            builder = builder.add_object_store(ObjectStore::new(store));
        }
        let db = builder.build().await.map_err(|e| idb_error(name, e))?;
        Ok(IndexedDbDatabase {
            name: name.to_owned(),
            version,
            stores,
            db,
        })
    }

    async fn delete_database(&self, name: &str) -> Result<(), StorageError> {
        check_database_name(name)?;
        Rexie::delete(name).await.map_err(|e| idb_error(name, e))
    }
}

/// An open IndexedDB database.
#[derive(Debug)]
pub struct IndexedDbDatabase {
    name: String,
    version: u32,
    stores: BTreeSet<String>,
    db: Rexie,
}

impl Database for IndexedDbDatabase {
    type Transaction<'db> = IndexedDbTransaction<'db>;

    fn name(&self) -> &str {
        &self.name
    }

    fn version(&self) -> u32 {
        self.version
    }

    fn store_names(&self) -> Vec<String> {
        self.stores.iter().cloned().collect()
    }

    async fn begin(
        &self,
        stores: &[&str],
        mode: TransactionMode,
    ) -> Result<IndexedDbTransaction<'_>, StorageError> {
        let scope = Scope::new(
            &self.name,
            |s| self.stores.contains(s),
            stores.iter().copied(),
            mode,
        )?;
        let idb_mode = match mode {
            TransactionMode::ReadOnly => rexie::TransactionMode::ReadOnly,
            TransactionMode::ReadWrite => rexie::TransactionMode::ReadWrite,
        };
        let tx = self
            .db
            .transaction(scope.stores(), idb_mode)
            .map_err(|e| idb_error(&self.name, e))?;
        Ok(IndexedDbTransaction {
            database: &self.name,
            scope,
            tx,
            written: 0,
        })
    }

    fn close(self) {
        self.db.close();
    }
}

/// A transaction of an [`IndexedDbDatabase`].
pub struct IndexedDbTransaction<'db> {
    database: &'db str,
    scope: Scope,
    tx: rexie::Transaction,
    /// Bytes put so far (keys and values), to tell a refused commit's cause.
    written: u64,
}

impl std::fmt::Debug for IndexedDbTransaction<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IndexedDbTransaction")
            .field("database", &self.database)
            .field("scope", &self.scope)
            .finish_non_exhaustive()
    }
}

impl IndexedDbTransaction<'_> {
    fn store(&self, store: &str, write: bool) -> Result<rexie::Store, StorageError> {
        self.scope.check(store, write)?;
        self.tx.store(store).map_err(|e| self.err(e))
    }

    fn err(&self, error: impl std::fmt::Debug) -> StorageError {
        idb_error(self.database, error)
    }
}

fn bytes_of(store: &str, key: &str, value: &JsValue) -> Result<Vec<u8>, StorageError> {
    value
        .dyn_ref::<Uint8Array>()
        .map(Uint8Array::to_vec)
        .ok_or_else(|| {
            StorageError::decode(store, key, "not a byte array (written by other code?)")
        })
}

fn key_of(store: &str, key: &JsValue) -> Result<String, StorageError> {
    key.as_string()
        .ok_or_else(|| StorageError::decode(store, &format!("{key:?}"), "key is not a string"))
}

impl Transaction for IndexedDbTransaction<'_> {
    fn mode(&self) -> TransactionMode {
        self.scope.mode()
    }

    async fn put_raw(&mut self, store: &str, key: &str, value: &[u8]) -> Result<(), StorageError> {
        self.written += (key.len() + value.len()) as u64;
        let value: JsValue = Uint8Array::from(value).into();
        self.store(store, true)?
            .put(&value, Some(&JsValue::from_str(key)))
            .await
            .map(drop)
            .map_err(|e| self.err(e))
    }

    async fn get_raw(&mut self, store: &str, key: &str) -> Result<Option<Vec<u8>>, StorageError> {
        let value = self
            .store(store, false)?
            .get(JsValue::from_str(key))
            .await
            .map_err(|e| self.err(e))?;
        value.map(|v| bytes_of(store, key, &v)).transpose()
    }

    async fn get_all_raw(&mut self, store: &str) -> Result<Vec<(String, Vec<u8>)>, StorageError> {
        let pairs = self
            .store(store, false)?
            .scan(None, None, None, None)
            .await
            .map_err(|e| self.err(e))?;
        pairs
            .iter()
            .map(|(k, v)| {
                let key = key_of(store, k)?;
                let bytes = bytes_of(store, &key, v)?;
                Ok((key, bytes))
            })
            .collect()
    }

    async fn keys(&mut self, store: &str) -> Result<Vec<String>, StorageError> {
        let keys = self
            .store(store, false)?
            .get_all_keys(None, None)
            .await
            .map_err(|e| self.err(e))?;
        keys.iter().map(|k| key_of(store, k)).collect()
    }

    async fn delete(&mut self, store: &str, key: &str) -> Result<(), StorageError> {
        self.store(store, true)?
            .delete(JsValue::from_str(key))
            .await
            .map_err(|e| self.err(e))
    }

    async fn clear(&mut self, store: &str) -> Result<(), StorageError> {
        self.store(store, true)?
            .clear()
            .await
            .map_err(|e| self.err(e))
    }

    async fn commit(self) -> Result<(), StorageError> {
        let (database, written) = (self.database, self.written);
        match self.tx.commit().await {
            Ok(()) => Ok(()),
            Err(e) => Err(commit_failed(database, written, e).await),
        }
    }

    async fn abort(self) -> Result<(), StorageError> {
        let database = self.database;
        self.tx.abort().await.map_err(|e| idb_error(database, e))
    }
}
