//! The storage traits: a backend opens databases, a database begins
//! transactions, a transaction reads and writes records in named stores.

use super::record::{self, Record};
use super::{StorageError, Upgrade};

/// Whether a transaction may write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TransactionMode {
    /// Reads only; sees one consistent snapshot.
    ReadOnly,
    /// Reads and writes; its writes become visible together at commit, or not at all.
    ReadWrite,
}

/// A place databases live: a directory of files ([`RedbBackend`](super::RedbBackend)),
/// the browser's IndexedDB (`IndexedDbBackend`, wasm32 only),
/// or memory ([`MemoryBackend`](super::MemoryBackend)). The counterpart of
/// IndexedDB's `indexedDB` factory.
///
/// Methods are `async` so one trait serves the browser, where every request
/// completes later; the native backends complete immediately (drive them with
/// [`block_on`](super::block_on)). The futures are not `Send`: they are meant
/// to be awaited on the thread that owns the database.
#[allow(
    async_fn_in_trait,
    reason = "IndexedDB futures are !Send; callers await them on the owning thread"
)]
pub trait StorageBackend {
    /// The open database handle this backend returns.
    type Database: Database + std::fmt::Debug;

    /// Opens (creating if needed) database `name` at schema `version` (1 or more).
    ///
    /// If the stored version is older (0 for a new database), `upgrade` runs
    /// with an [`Upgrade`] describing the move; the stores it creates or
    /// deletes and the new version are committed together, and nothing changes
    /// if it returns an error. Opening at an older version than the stored one
    /// fails with [`StorageError::VersionTooOld`].
    ///
    /// # Errors
    /// Invalid names or version, a locked, corrupt or unreadable database, or
    /// the error `upgrade` returned.
    async fn open<F>(
        &self,
        name: &str,
        version: u32,
        upgrade: F,
    ) -> Result<Self::Database, StorageError>
    where
        F: FnOnce(&mut Upgrade) -> Result<(), StorageError>;

    /// Deletes database `name` and all its stores. Deleting a database that
    /// does not exist succeeds.
    ///
    /// # Errors
    /// An invalid name, or the backend could not remove it (for example it is open).
    async fn delete_database(&self, name: &str) -> Result<(), StorageError>;
}

/// An open database: named object stores of records keyed by strings.
#[allow(
    async_fn_in_trait,
    reason = "IndexedDB futures are !Send; callers await them on the owning thread"
)]
pub trait Database {
    /// The transaction type; it borrows the database.
    type Transaction<'db>: Transaction + std::fmt::Debug
    where
        Self: 'db;

    /// The database's name.
    fn name(&self) -> &str;

    /// The schema version it was opened at.
    fn version(&self) -> u32;

    /// Its object stores, sorted by name.
    fn store_names(&self) -> Vec<String>;

    /// Begins a transaction over `stores`. Drop it, or call
    /// [`Transaction::abort`], to discard its writes; call
    /// [`Transaction::commit`] to keep them. Prefer [`Database::transaction`],
    /// which does this for you.
    ///
    /// # Errors
    /// [`StorageError::NoSuchStore`] for an unknown store,
    /// [`StorageError::WriteInProgress`] if a native read-write transaction is
    /// already open on this database, or a backend error.
    async fn begin(
        &self,
        stores: &[&str],
        mode: TransactionMode,
    ) -> Result<Self::Transaction<'_>, StorageError>;

    /// Closes the database. Dropping it does the same.
    fn close(self)
    where
        Self: Sized,
    {
    }

    /// Runs `work` in a transaction over `stores`: commits if it returns `Ok`,
    /// rolls back every write if it returns `Err` (or if the commit fails).
    ///
    /// On IndexedDB, await only the transaction's own requests inside `work`:
    /// the browser commits a transaction as soon as it has nothing pending.
    ///
    /// # Errors
    /// The error `work` returned, or a [`StorageError`] from beginning or committing.
    async fn transaction<R, E, F>(
        &self,
        stores: &[&str],
        mode: TransactionMode,
        work: F,
    ) -> Result<R, E>
    where
        F: for<'t> AsyncFnOnce(&'t mut Self::Transaction<'_>) -> Result<R, E>,
        E: From<StorageError>,
    {
        let mut tx = self.begin(stores, mode).await?;
        match work(&mut tx).await {
            Ok(value) => {
                tx.commit().await?;
                Ok(value)
            }
            Err(error) => {
                if let Err(abort) = tx.abort().await {
                    // Dropping the transaction rolls it back all the same (after an
                    // I/O error the embedded database refuses the abort itself).
                    log::debug!("storage: abort after a failed transaction also failed: {abort}");
                }
                Err(error)
            }
        }
    }

    /// Puts one record in its own read-write transaction.
    ///
    /// # Errors
    /// See [`Transaction::put`].
    async fn put<T: Record>(&self, store: &str, key: &str, value: &T) -> Result<(), StorageError> {
        self.transaction(&[store], TransactionMode::ReadWrite, async |tx| {
            tx.put(store, key, value).await
        })
        .await
    }

    /// Gets one record in its own read-only transaction.
    ///
    /// # Errors
    /// See [`Transaction::get`].
    async fn get<T: Record>(&self, store: &str, key: &str) -> Result<Option<T>, StorageError> {
        self.transaction(&[store], TransactionMode::ReadOnly, async |tx| {
            tx.get(store, key).await
        })
        .await
    }

    /// Gets every record of `store`, in key order, in its own read-only transaction.
    ///
    /// # Errors
    /// See [`Transaction::get_all`].
    async fn get_all<T: Record>(&self, store: &str) -> Result<Vec<(String, T)>, StorageError> {
        self.transaction(&[store], TransactionMode::ReadOnly, async |tx| {
            tx.get_all(store).await
        })
        .await
    }

    /// Deletes one record in its own read-write transaction.
    ///
    /// # Errors
    /// See [`Transaction::delete`].
    async fn delete(&self, store: &str, key: &str) -> Result<(), StorageError> {
        self.transaction(&[store], TransactionMode::ReadWrite, async |tx| {
            tx.delete(store, key).await
        })
        .await
    }

    /// Removes every record of `store` in its own read-write transaction.
    ///
    /// # Errors
    /// See [`Transaction::clear`].
    async fn clear(&self, store: &str) -> Result<(), StorageError> {
        self.transaction(&[store], TransactionMode::ReadWrite, async |tx| {
            tx.clear(store).await
        })
        .await
    }
}

/// A transaction over a fixed set of stores.
///
/// The `*_raw` methods move stored bytes (the record envelope) unchanged; the
/// typed [`put`](Transaction::put) / [`get`](Transaction::get) family encode,
/// decode and migrate [`Record`]s. Every method refuses stores the transaction
/// was not opened on, and writes in a read-only transaction.
#[allow(
    async_fn_in_trait,
    reason = "IndexedDB futures are !Send; callers await them on the owning thread"
)]
pub trait Transaction {
    /// The mode it was opened with.
    fn mode(&self) -> TransactionMode;

    /// Stores `value` under `key`, replacing any record there.
    ///
    /// # Errors
    /// Scope or mode misuse, or a backend error.
    async fn put_raw(&mut self, store: &str, key: &str, value: &[u8]) -> Result<(), StorageError>;

    /// The bytes stored under `key`, if any.
    ///
    /// # Errors
    /// Scope misuse, or a backend error.
    async fn get_raw(&mut self, store: &str, key: &str) -> Result<Option<Vec<u8>>, StorageError>;

    /// Every `(key, bytes)` of `store`, in key order.
    ///
    /// # Errors
    /// Scope misuse, or a backend error.
    async fn get_all_raw(&mut self, store: &str) -> Result<Vec<(String, Vec<u8>)>, StorageError>;

    /// Every key of `store`, in order.
    ///
    /// # Errors
    /// Scope misuse, or a backend error.
    async fn keys(&mut self, store: &str) -> Result<Vec<String>, StorageError>;

    /// Removes the record under `key`; removing a missing key succeeds.
    ///
    /// # Errors
    /// Scope or mode misuse, or a backend error.
    async fn delete(&mut self, store: &str, key: &str) -> Result<(), StorageError>;

    /// Removes every record of `store`.
    ///
    /// # Errors
    /// Scope or mode misuse, or a backend error.
    async fn clear(&mut self, store: &str) -> Result<(), StorageError>;

    /// Makes every write of this transaction durable and visible, atomically.
    ///
    /// # Errors
    /// A backend error; then nothing of this transaction was written.
    async fn commit(self) -> Result<(), StorageError>;

    /// Discards every write of this transaction.
    ///
    /// # Errors
    /// A backend error while rolling back.
    async fn abort(self) -> Result<(), StorageError>;

    /// Encodes `value` (with [`Record::VERSION`]) and stores it under `key`.
    ///
    /// # Errors
    /// [`StorageError::Encode`], or as [`put_raw`](Transaction::put_raw).
    async fn put<T: Record>(
        &mut self,
        store: &str,
        key: &str,
        value: &T,
    ) -> Result<(), StorageError> {
        let bytes = record::encode(store, key, value)?;
        self.put_raw(store, key, &bytes).await
    }

    /// Reads and decodes the record under `key`, upgrading an older one.
    ///
    /// # Errors
    /// [`StorageError::Decode`], [`StorageError::NewerRecord`] or
    /// [`StorageError::Migration`] naming the store and key, or as
    /// [`get_raw`](Transaction::get_raw).
    async fn get<T: Record>(&mut self, store: &str, key: &str) -> Result<Option<T>, StorageError> {
        match self.get_raw(store, key).await? {
            Some(bytes) => record::decode(store, key, &bytes).map(Some),
            None => Ok(None),
        }
    }

    /// Reads and decodes every record of `store` in key order; the first bad
    /// record fails the whole call (use [`get_each`](Transaction::get_each) to
    /// keep the good ones).
    ///
    /// # Errors
    /// As [`get`](Transaction::get), for the first record that fails.
    async fn get_all<T: Record>(&mut self, store: &str) -> Result<Vec<(String, T)>, StorageError> {
        self.get_all_raw(store)
            .await?
            .into_iter()
            .map(|(key, bytes)| record::decode(store, &key, &bytes).map(|value| (key, value)))
            .collect()
    }

    /// Reads every record of `store` in key order, decoding each on its own:
    /// one bad record does not hide the others.
    ///
    /// # Errors
    /// As [`get_all_raw`](Transaction::get_all_raw); per-record errors are in the list.
    #[allow(
        clippy::type_complexity,
        reason = "a list of per-key results reads clearer than a named alias"
    )]
    async fn get_each<T: Record>(
        &mut self,
        store: &str,
    ) -> Result<Vec<(String, Result<T, StorageError>)>, StorageError> {
        Ok(self
            .get_all_raw(store)
            .await?
            .into_iter()
            .map(|(key, bytes)| {
                let value = record::decode(store, &key, &bytes);
                (key, value)
            })
            .collect())
    }
}
