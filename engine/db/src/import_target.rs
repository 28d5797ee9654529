//! Where `taos-db import` writes: an existing store of an existing database,
//! opened at the schema version it has. A missing database or store is made
//! only when asked (`--create-stores`): adding a store needs a schema upgrade
//! (version + 1), and a game that opens the database at its own version then
//! refuses the whole database.

use anyhow::{Result, bail};
use taos_storage::{Database, RedbBackend, RedbDatabase, StorageBackend, block_on};

const ASK: &str = "pass --create-stores to create it anyway";

/// Opens database `name` for an import into `store`.
///
/// # Errors
/// The database or store is missing and `create` is false (nothing is
/// created or changed), or the backend fails.
pub(crate) fn open(
    backend: &RedbBackend,
    name: &str,
    store: &str,
    create: bool,
) -> Result<RedbDatabase> {
    let version = match backend.existing_version(name)? {
        Some(version) if version > 0 => version,
        missing => {
            if !create {
                let why = if missing.is_none() {
                    "no database"
                } else {
                    "an unfinished (schema-less) database"
                };
                bail!(
                    "{why} {name:?} in {}; importing would create it at schema version 1, \
                     which the game may not expect (nothing was changed; {ASK}, or restore a \
                     whole-database backup with `taos-db restore`)",
                    backend.dir().display()
                );
            }
            return Ok(block_on(backend.open(name, 1, |up| {
                up.create_store(store)?;
                Ok(())
            }))?);
        }
    };
    let db = block_on(backend.open(name, version, |_| Ok(())))?;
    let stores = db.store_names();
    if stores.iter().any(|s| s == store) {
        return Ok(db);
    }
    if !create {
        bail!(
            "database {name:?} has no store {store:?} (its stores: {}); adding it would raise the \
             schema version from {version} to {}, and a game opening version {version} would then \
             refuse the whole database (nothing was changed; {ASK})",
            stores.join(", "),
            version + 1
        );
    }
    db.close();
    Ok(block_on(backend.open(name, version + 1, |up| {
        up.create_store(store)?;
        Ok(())
    }))?)
}
