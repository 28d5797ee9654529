//! The one error type of the storage module.

#[cfg(not(target_arch = "wasm32"))]
use std::path::PathBuf;

/// Everything that can go wrong opening a database or touching its records.
///
/// Every variant names what it is about: the database file, the database name,
/// the store and the key. A failed operation never overwrites stored data.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StorageError {
    /// A database, store or key name is empty, reserved or unusable as a file name.
    #[error("invalid {what} name {name:?}: {reason}")]
    InvalidName {
        /// `"database"`, `"store"` or `"key"`.
        what: &'static str,
        /// The offending name.
        name: String,
        /// Why it was refused.
        reason: &'static str,
    },
    /// Schema versions start at 1.
    #[error("database {database:?}: schema version 0 is not allowed (versions start at 1)")]
    ZeroVersion {
        /// The database being opened.
        database: String,
    },
    /// The database on disk is at a newer schema version than the caller asked for.
    #[error(
        "database {database:?} is at schema version {existing}, newer than the requested {requested}; \
         refusing to open it with older code"
    )]
    VersionTooOld {
        /// The database being opened.
        database: String,
        /// The version stored in the database.
        existing: u32,
        /// The version the caller asked for.
        requested: u32,
    },
    /// The named object store does not exist in this database.
    #[error("database {database:?} has no object store {store:?}")]
    NoSuchStore {
        /// The database.
        database: String,
        /// The missing store.
        store: String,
    },
    /// The store was not listed when the transaction began.
    #[error("object store {store:?} is not part of this transaction")]
    NotInTransaction {
        /// The store that was used.
        store: String,
    },
    /// A write was attempted in a read-only transaction.
    #[error("cannot write to object store {store:?} in a read-only transaction")]
    ReadOnly {
        /// The store that was written to.
        store: String,
    },
    /// Another read-write transaction on this database is still open.
    #[error("database {database:?} already has an open read-write transaction")]
    WriteInProgress {
        /// The database.
        database: String,
    },
    /// A record could not be encoded.
    #[error("cannot encode record {key:?} for object store {store:?}: {source}")]
    Encode {
        /// The store.
        store: String,
        /// The record's key.
        key: String,
        /// What serde said.
        source: serde_json::Error,
    },
    /// A stored record could not be decoded; the record is left as it is.
    #[error("cannot decode record {key:?} in object store {store:?}: {reason}")]
    Decode {
        /// The store.
        store: String,
        /// The record's key.
        key: String,
        /// What was wrong with it.
        reason: String,
    },
    /// A stored record was written by a newer format version than this code knows.
    #[error(
        "record {key:?} in object store {store:?} has format version {found}, newer than the \
         supported {supported}; it was left untouched"
    )]
    NewerRecord {
        /// The store.
        store: String,
        /// The record's key.
        key: String,
        /// The version stored with the record.
        found: u32,
        /// The newest version this code reads.
        supported: u32,
    },
    /// A registered upgrade step failed on an older record.
    #[error(
        "cannot upgrade record {key:?} in object store {store:?} from format version {from}: {reason}"
    )]
    Migration {
        /// The store.
        store: String,
        /// The record's key.
        key: String,
        /// The version the failed step started from.
        from: u32,
        /// What the step said.
        reason: String,
    },
    /// The upgrade callback given to `open` refused the upgrade; nothing was changed.
    #[error("database {database:?}: upgrade from version {from} to {to} failed: {reason}")]
    UpgradeFailed {
        /// The database.
        database: String,
        /// The version on disk.
        from: u32,
        /// The requested version.
        to: u32,
        /// What the callback said.
        reason: String,
    },
    /// No platform data directory is known and `TAOS_DATA_DIR` is not set.
    #[error("no data directory: this platform has none; set TAOS_DATA_DIR or pass a directory")]
    NoDataDirectory,
    /// A file system operation on the database file or its directory failed.
    #[cfg(not(target_arch = "wasm32"))]
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// Another process (or another handle in this one) holds the database file open.
    #[cfg(not(target_arch = "wasm32"))]
    #[error("database file {} is locked: another process has it open", path.display())]
    Locked {
        /// The database file.
        path: PathBuf,
    },
    /// The database file is truncated, garbage, or not a database; it was not modified.
    #[cfg(not(target_arch = "wasm32"))]
    #[error("database file {} is corrupt or not a Taos database: {reason}", path.display())]
    Corrupt {
        /// The database file.
        path: PathBuf,
        /// What the embedded database reported.
        reason: String,
    },
    /// Any other error from the embedded database (`redb`).
    #[cfg(not(target_arch = "wasm32"))]
    #[error("database file {}: {source}", path.display())]
    Redb {
        /// The database file.
        path: PathBuf,
        /// The embedded database's error.
        source: Box<redb::Error>,
    },
    /// The storage is full: the browser's quota for the site, or (through
    /// [`is_full`](StorageError::is_full)) the disk. The transaction wrote
    /// nothing; freeing space lets the same write succeed.
    #[error("database {database:?}: storage is full ({detail}); nothing of this write was kept")]
    Full {
        /// The database.
        database: String,
        /// What was measured or reported.
        detail: String,
    },
    /// Another writer changed what this transaction read, or the two
    /// deadlocked (a database server's serialization failure): nothing of
    /// this transaction was written. **Retry** the whole transaction; it
    /// will read the other writer's result.
    #[error(
        "database {database:?}: another writer changed what this transaction read; \
         nothing was written, retry the transaction"
    )]
    Conflict {
        /// The database.
        database: String,
    },
    /// A database server (the PostgreSQL backend) refused a connection, lost
    /// it, or failed a statement; the open transaction wrote nothing.
    #[error("database {database:?}: {source}")]
    Server {
        /// The database (or, before one is open, the server's address).
        database: String,
        /// The client library's error.
        source: Box<dyn std::error::Error + Send + Sync + 'static>,
    },
    /// An error reported by the browser's IndexedDB.
    #[error("IndexedDB database {database:?}: {message}")]
    IndexedDb {
        /// The database.
        database: String,
        /// The browser's error, as text.
        message: String,
    },
}

impl StorageError {
    /// Whether the write failed for want of space: [`StorageError::Full`]
    /// (the browser's quota), or an I/O error of a full disk anywhere in
    /// the error's chain (natively). A game tells the player to free space
    /// rather than reporting a broken save.
    #[must_use]
    pub fn is_full(&self) -> bool {
        if matches!(self, Self::Full { .. }) {
            return true;
        }
        let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(self);
        while let Some(error) = cause {
            if io_error_of(error).is_some_and(|io| io.kind() == std::io::ErrorKind::StorageFull) {
                return true;
            }
            cause = error.source();
        }
        false
    }

    /// Whether retrying the whole transaction may succeed: a
    /// [`StorageError::Conflict`] with another writer.
    #[must_use]
    pub fn is_conflict(&self) -> bool {
        matches!(self, Self::Conflict { .. })
    }

    /// A decode error for `key` in `store`.
    pub(crate) fn decode(store: &str, key: &str, reason: impl Into<String>) -> Self {
        Self::Decode {
            store: store.to_owned(),
            key: key.to_owned(),
            reason: reason.into(),
        }
    }
}

/// `error` as an I/O error, looking into the embedded database's I/O
/// variant (which does not name it as its source).
fn io_error_of<'e>(error: &'e (dyn std::error::Error + 'static)) -> Option<&'e std::io::Error> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        let redb = error
            .downcast_ref::<redb::Error>()
            .or_else(|| error.downcast_ref::<Box<redb::Error>>().map(|b| &**b));
        if let Some(redb::Error::Io(io)) = redb {
            return Some(io);
        }
    }
    error.downcast_ref::<std::io::Error>()
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::StorageError;

    #[test]
    fn a_full_disk_or_quota_reads_as_full_and_other_errors_do_not() {
        let quota = StorageError::Full {
            database: "crafty".to_owned(),
            detail: "the site's quota".to_owned(),
        };
        assert!(quota.is_full());
        // ENOSPC, as the OS reports a full disk.
        let disk = StorageError::Io {
            path: "/saves/crafty.redb".into(),
            source: std::io::Error::from_raw_os_error(28),
        };
        assert!(disk.is_full(), "{disk}");
        // The same, wrapped by the embedded database.
        let wrapped = StorageError::Redb {
            path: "/saves/crafty.redb".into(),
            source: Box::new(redb::Error::Io(std::io::Error::from_raw_os_error(28))),
        };
        assert!(wrapped.is_full(), "{wrapped}");
        let denied = StorageError::Io {
            path: "/saves/crafty.redb".into(),
            source: std::io::Error::from(std::io::ErrorKind::PermissionDenied),
        };
        assert!(!denied.is_full());
        assert!(!StorageError::NoDataDirectory.is_full());
    }
}
