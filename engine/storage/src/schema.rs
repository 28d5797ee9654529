//! Schema upgrades (which object stores exist) and name rules shared by all backends.

use std::collections::BTreeSet;

use super::{StorageError, TransactionMode};

/// Prefix reserved for the backends' own bookkeeping tables.
pub const RESERVED_PREFIX: &str = "__taos";

/// What the upgrade callback of [`StorageBackend::open`](super::StorageBackend::open)
/// sees and changes: the stores of a database moving from `old_version` to
/// `new_version`.
///
/// The callback runs only when the requested version is newer than the stored
/// one (`old_version` is 0 for a new database). Its changes are applied
/// atomically with the version bump, and only if the callback returns `Ok`.
/// Stores are never dropped implicitly: a store disappears only through
/// [`Upgrade::delete_store`]. (This matters on IndexedDB, where `rexie` deletes
/// every store an upgrade does not list; the IndexedDB backend always lists them.)
#[derive(Debug)]
pub struct Upgrade {
    database: String,
    old_version: u32,
    new_version: u32,
    stores: BTreeSet<String>,
}

impl Upgrade {
    pub(crate) fn new(
        database: &str,
        old_version: u32,
        new_version: u32,
        stores: BTreeSet<String>,
    ) -> Self {
        Self {
            database: database.to_owned(),
            old_version,
            new_version,
            stores,
        }
    }

    /// The schema version on disk; 0 for a database that did not exist.
    #[must_use]
    pub fn old_version(&self) -> u32 {
        self.old_version
    }

    /// The schema version being opened.
    #[must_use]
    pub fn new_version(&self) -> u32 {
        self.new_version
    }

    /// The database's name.
    #[must_use]
    pub fn database(&self) -> &str {
        &self.database
    }

    /// Whether `store` exists (including stores created earlier in this upgrade).
    #[must_use]
    pub fn has_store(&self, store: &str) -> bool {
        self.stores.contains(store)
    }

    /// The stores the database will have if the upgrade succeeds, sorted.
    #[must_use]
    pub fn store_names(&self) -> Vec<String> {
        self.stores.iter().cloned().collect()
    }

    /// Creates `store` unless it exists. Returns whether it was created, so
    /// repeated upgrades are safe.
    ///
    /// # Errors
    /// [`StorageError::InvalidName`] for an empty or reserved name.
    pub fn create_store(&mut self, store: &str) -> Result<bool, StorageError> {
        check_store_name(store)?;
        Ok(self.stores.insert(store.to_owned()))
    }

    /// Deletes `store` and all its records. Returns whether it existed.
    pub fn delete_store(&mut self, store: &str) -> bool {
        self.stores.remove(store)
    }

    /// An [`StorageError::UpgradeFailed`] for this upgrade, for callbacks that refuse.
    #[must_use]
    pub fn fail(&self, reason: impl Into<String>) -> StorageError {
        StorageError::UpgradeFailed {
            database: self.database.clone(),
            from: self.old_version,
            to: self.new_version,
            reason: reason.into(),
        }
    }

    /// The stores the upgrade ends with: what a backend applies (creating the
    /// new ones, deleting the missing ones) together with the version bump.
    #[must_use]
    pub fn into_stores(self) -> BTreeSet<String> {
        self.stores
    }
}

/// The decision `open` makes from the stored and requested versions.
#[derive(Debug)]
pub enum OpenPlan {
    /// Versions match: open as is.
    Current,
    /// Run the upgrade callback, then apply its result.
    Upgrade(Upgrade),
}

/// Checks the versions and builds the upgrade, shared by all backends.
///
/// # Errors
/// [`StorageError::ZeroVersion`] for version 0,
/// [`StorageError::VersionTooOld`] when `requested < existing`.
pub fn plan_open(
    database: &str,
    existing: u32,
    requested: u32,
    stores: BTreeSet<String>,
) -> Result<OpenPlan, StorageError> {
    if requested == 0 {
        return Err(StorageError::ZeroVersion {
            database: database.to_owned(),
        });
    }
    if requested < existing {
        return Err(StorageError::VersionTooOld {
            database: database.to_owned(),
            existing,
            requested,
        });
    }
    if requested == existing {
        return Ok(OpenPlan::Current);
    }
    Ok(OpenPlan::Upgrade(Upgrade::new(
        database, existing, requested, stores,
    )))
}

/// Database names become file names: keep them portable.
///
/// # Errors
/// [`StorageError::InvalidName`] for an empty, over-long, dot-first or
/// non-portable name.
pub fn check_database_name(name: &str) -> Result<(), StorageError> {
    let bad = |reason| {
        Err(StorageError::InvalidName {
            what: "database",
            name: name.to_owned(),
            reason,
        })
    };
    if name.is_empty() || name.len() > 128 {
        return bad("must be 1 to 128 characters");
    }
    if name.starts_with('.') {
        return bad("must not start with '.'");
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    {
        return bad("only ASCII letters, digits, '-', '_' and '.' are allowed");
    }
    Ok(())
}

/// Store names: not empty, not under [`RESERVED_PREFIX`].
///
/// # Errors
/// [`StorageError::InvalidName`].
pub fn check_store_name(store: &str) -> Result<(), StorageError> {
    let reason = if store.is_empty() {
        "must not be empty"
    } else if store.starts_with(RESERVED_PREFIX) {
        "names starting with \"__taos\" are reserved"
    } else {
        return Ok(());
    };
    Err(StorageError::InvalidName {
        what: "store",
        name: store.to_owned(),
        reason,
    })
}

/// The stores and mode a transaction was opened with; every backend checks
/// each operation against it so all backends refuse the same misuse.
#[derive(Debug, Clone)]
pub struct Scope {
    stores: Vec<String>,
    mode: TransactionMode,
}

impl Scope {
    /// Validates `stores` against the stores the database has.
    ///
    /// # Errors
    /// [`StorageError::NoSuchStore`] for the first store `existing` denies.
    pub fn new<'a>(
        database: &str,
        existing: impl Fn(&str) -> bool,
        stores: impl IntoIterator<Item = &'a str>,
        mode: TransactionMode,
    ) -> Result<Self, StorageError> {
        let mut list = Vec::new();
        for store in stores {
            if !existing(store) {
                return Err(StorageError::NoSuchStore {
                    database: database.to_owned(),
                    store: store.to_owned(),
                });
            }
            if !list.iter().any(|s| s == store) {
                list.push(store.to_owned());
            }
        }
        Ok(Self { stores: list, mode })
    }

    /// The transaction's mode.
    #[must_use]
    pub fn mode(&self) -> TransactionMode {
        self.mode
    }

    /// The stores, deduplicated, in the order given.
    #[must_use]
    pub fn stores(&self) -> &[String] {
        &self.stores
    }

    /// Refuses stores outside the transaction and writes in read-only mode.
    ///
    /// # Errors
    /// [`StorageError::NotInTransaction`] or [`StorageError::ReadOnly`].
    pub fn check(&self, store: &str, write: bool) -> Result<(), StorageError> {
        if !self.stores.iter().any(|s| s == store) {
            return Err(StorageError::NotInTransaction {
                store: store.to_owned(),
            });
        }
        if write && self.mode == TransactionMode::ReadOnly {
            return Err(StorageError::ReadOnly {
                store: store.to_owned(),
            });
        }
        Ok(())
    }
}
