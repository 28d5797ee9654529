//! `taos-db restore`: the database is rebuilt in a staging directory inside
//! the data directory (`.restoring-NAME-PID`), synced, then moved into place
//! in one step. A restore killed at any moment leaves no database under the
//! name, or the complete one, never an empty or half-written one a game
//! could open and start over in; the next restore clears what a killed one
//! staged.

use anyhow::{Context, Result};
use taos_storage::{
    Database, DatabaseBackup, RedbBackend, RestoreError, StorageBackend, StorageError, Transaction,
    TransactionMode, block_on, restore_database,
};

use crate::files::{self, Existing};

/// Restores the backup in `file` into `backend` as `name` (else its own name).
pub(crate) fn restore(backend: &RedbBackend, file: &str, name: Option<&str>) -> Result<()> {
    let text = std::fs::read_to_string(file).with_context(|| format!("reading {file}"))?;
    let backup: DatabaseBackup =
        serde_json::from_str(&text).with_context(|| format!("{file} is not a taos-db backup"))?;
    let name = name.unwrap_or(&backup.database);
    let target = backend.path_of(name)?;
    let context = || format!("restoring {file} into {}", backend.dir().display());
    // The target may only be absent, or empty as a first start (or an
    // interrupted restore of an older taos-db) left it.
    let replace = replaceable(backend, &backup, name).with_context(context)?;
    clear_staging(backend, name);
    let staging = backend
        .dir()
        .join(format!(".restoring-{name}-{}", std::process::id()));
    let staged = RedbBackend::new(&staging);
    let restored = block_on(restore_database(&staged, &backup, name)).with_context(context);
    let placed = restored.and_then(|db| {
        let version = db.version();
        drop(db);
        let staged_file = staged.path_of(name)?;
        files::sync_file(&staged_file)?;
        let existing = if replace {
            Existing::Replace
        } else {
            Existing::Refuse {
                hint: "restore under another name with --as",
            }
        };
        files::place(&staged_file, &target, existing)?;
        files::sync_dir(&target);
        Ok(version)
    });
    let _ = std::fs::remove_dir_all(&staging);
    let version = placed?;
    eprintln!(
        "restored {name} (schema version {version}, {} stores, {} records) into {}",
        backup.stores.len(),
        backup.record_count(),
        backend.dir().display()
    );
    Ok(())
}

/// Whether database `name` exists and may be replaced: it has no schema yet,
/// or the backup's schema version and stores, all empty.
///
/// # Errors
/// [`RestoreError::Exists`] if it holds data or another schema.
fn replaceable(backend: &RedbBackend, backup: &DatabaseBackup, name: &str) -> Result<bool> {
    let Some(version) = backend.existing_version(name)? else {
        return Ok(false);
    };
    if version == 0 {
        // Its first open never finished: nothing in it.
        return Ok(true);
    }
    let exists = || RestoreError::Exists(name.to_owned());
    if version != backup.version {
        return Err(exists().into());
    }
    let db = block_on(backend.open(name, version, |_| Ok(())))?;
    let mut wanted: Vec<&str> = backup.stores.iter().map(|s| s.name.as_str()).collect();
    wanted.sort_unstable();
    let have = db.store_names();
    if have != wanted {
        return Err(exists().into());
    }
    if wanted.is_empty() {
        return Ok(true);
    }
    let empty = block_on(
        db.transaction(&wanted, TransactionMode::ReadOnly, async |tx| {
            for store in &wanted {
                if !tx.keys(store).await?.is_empty() {
                    return Ok(false);
                }
            }
            Ok::<_, StorageError>(true)
        }),
    )?;
    if empty {
        Ok(true)
    } else {
        Err(exists().into())
    }
}

/// Removes what killed restores of `name` staged (never read otherwise).
fn clear_staging(backend: &RedbBackend, name: &str) {
    let prefix = format!(".restoring-{name}-");
    let Ok(entries) = std::fs::read_dir(backend.dir()) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(rest) = file_name.to_str().and_then(|n| n.strip_prefix(&prefix)) else {
            continue;
        };
        if rest.bytes().all(|b| b.is_ascii_digit()) && entry.path().is_dir() {
            log::warn!(
                "removing {} left by an interrupted restore",
                entry.path().display()
            );
            if let Err(e) = std::fs::remove_dir_all(entry.path()) {
                log::warn!("could not remove {}: {e}", entry.path().display());
            }
        }
    }
}
