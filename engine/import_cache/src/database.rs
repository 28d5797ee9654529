//! A cache in a [`taos_storage`] database: IndexedDB in the browser, memory anywhere.
//!
//! IndexedDB answers every request later and the importer must not wait in the middle of
//! decoding, so an import reads first (the entries `name`'s manifest names, else those of
//! every external file), imports with them in memory ([`Prefetched`]), and writes after (the
//! new entries and the new manifest, in one transaction).

use std::collections::HashMap;
use std::sync::Arc;

use taos_gltf::{ContentHash, ExternalFiles, GltfError, GltfModel, LoadOptions};
use taos_storage::{
    Database, MemoryBackend, MemoryDatabase, StorageBackend, StorageError, Transaction,
    TransactionMode, Upgrade,
};

use crate::entry::Compression;
use crate::import::{ImportStats, import_through};
use crate::prefetched::Prefetched;

/// The IndexedDB database's name in the browser (and the in-memory database's).
pub const DATABASE: &str = "taos_import_cache";
/// The store of image entries, keyed by the hex BLAKE3 of the encoded image.
pub(crate) const IMAGES: &str = "images";
/// The store of manifests: per model name, the image hashes its last import asked for.
pub(crate) const MANIFESTS: &str = "manifests";
/// The database's schema version.
const SCHEMA: u32 = 1;

/// Where a cache's [`taos_storage`] database lives.
#[derive(Debug, Clone)]
pub(crate) enum DatabasePlace {
    /// The page origin's IndexedDB.
    #[cfg(target_arch = "wasm32")]
    IndexedDb,
    /// Process memory (tests, tools); clones share it.
    Memory(Arc<MemoryBackend>),
}

impl PartialEq for DatabasePlace {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            #[cfg(target_arch = "wasm32")]
            (Self::IndexedDb, Self::IndexedDb) => true,
            (Self::Memory(a), Self::Memory(b)) => Arc::ptr_eq(a, b),
            #[cfg(target_arch = "wasm32")]
            _ => false,
        }
    }
}

impl Eq for DatabasePlace {}

/// An open cache database.
pub(crate) enum Opened {
    #[cfg(target_arch = "wasm32")]
    IndexedDb(taos_storage::IndexedDbDatabase),
    Memory(MemoryDatabase),
}

fn upgrade(up: &mut Upgrade) -> Result<(), StorageError> {
    up.create_store(IMAGES)?;
    up.create_store(MANIFESTS)?;
    Ok(())
}

impl DatabasePlace {
    /// Opens (creating if needed) the database.
    pub(crate) async fn open(&self) -> Result<Opened, StorageError> {
        match self {
            #[cfg(target_arch = "wasm32")]
            Self::IndexedDb => taos_storage::IndexedDbBackend::new()
                .open(DATABASE, SCHEMA, upgrade)
                .await
                .map(Opened::IndexedDb),
            Self::Memory(backend) => backend
                .open(DATABASE, SCHEMA, upgrade)
                .await
                .map(Opened::Memory),
        }
    }
}

/// Imports through the database at `place`; one that cannot be opened is noted in the stats.
pub(crate) async fn import(
    place: &DatabasePlace,
    compression: Compression,
    bytes: &[u8],
    name: &str,
    files: &ExternalFiles,
    options: &LoadOptions,
) -> Result<(GltfModel, ImportStats), GltfError> {
    match place.open().await {
        #[cfg(target_arch = "wasm32")]
        Ok(Opened::IndexedDb(db)) => {
            import_with(&db, compression, bytes, name, files, options).await
        }
        Ok(Opened::Memory(db)) => import_with(&db, compression, bytes, name, files, options).await,
        Err(error) => crate::import::import_without(error.into(), bytes, name, files, options),
    }
}

/// Imports through `db`: reads the entries `name`'s manifest names (else those of every
/// external file), imports with them, then writes the new entries and manifest. A storage
/// failure is noted in the stats, never returned.
async fn import_with<D: Database>(
    db: &D,
    compression: Compression,
    bytes: &[u8],
    name: &str,
    files: &ExternalFiles,
    options: &LoadOptions,
) -> Result<(GltfModel, ImportStats), GltfError> {
    let mut problem = None;
    let manifest = match read_manifest(db, name).await {
        Ok(manifest) => manifest.unwrap_or_default(),
        Err(e) => {
            problem = Some(e);
            Vec::new()
        }
    };
    // Without a manifest (a first load, another name), any external file may be an image.
    let hints = if manifest.is_empty() && problem.is_none() {
        files
            .iter()
            .map(|(_, data)| ContentHash::of(data))
            .collect()
    } else {
        manifest.clone()
    };
    let entries = match read_entries(db, &hints).await {
        Ok(entries) => entries,
        Err(e) => {
            problem.get_or_insert(e);
            HashMap::new()
        }
    };
    let (model, cache) = import_through(
        Prefetched::new(entries, compression),
        bytes,
        name,
        files,
        options,
    )?;
    let Some(cache) = cache else {
        return Ok((model, ImportStats::default()));
    };
    let (mut record, new_entries) = cache.finish();
    if let Some(e) = problem {
        record.fail("reading the cache", e.into());
    }
    let mut asked = record.asked.clone();
    asked.sort_unstable();
    let new_manifest = (asked != manifest).then_some(asked);
    if (!new_entries.is_empty() || new_manifest.is_some())
        && let Err(e) = write(db, name, &new_entries, new_manifest.as_deref()).await
    {
        record.entries_written = 0;
        record.bytes_written = 0;
        record.fail("writing the cache", e.into());
    }
    Ok((model, record.into_stats()))
}

/// The hashes the last import of `name` asked for, sorted; `None` for none.
async fn read_manifest<D: Database>(
    db: &D,
    name: &str,
) -> Result<Option<Vec<ContentHash>>, StorageError> {
    let stored = db
        .transaction(&[MANIFESTS], TransactionMode::ReadOnly, async |tx| {
            tx.get_raw(MANIFESTS, name).await
        })
        .await?;
    // A damaged manifest is only a worse hint: unreadable lines are skipped.
    Ok(stored.map(|text| {
        let mut hashes: Vec<ContentHash> = String::from_utf8_lossy(&text)
            .lines()
            .filter_map(ContentHash::from_hex)
            .collect();
        hashes.sort_unstable();
        hashes
    }))
}

/// The entries stored for `hashes` (those there are).
async fn read_entries<D: Database>(
    db: &D,
    hashes: &[ContentHash],
) -> Result<HashMap<ContentHash, Vec<u8>>, StorageError> {
    if hashes.is_empty() {
        return Ok(HashMap::new());
    }
    db.transaction(&[IMAGES], TransactionMode::ReadOnly, async |tx| {
        let mut entries = HashMap::new();
        for hash in hashes {
            if let Some(entry) = tx.get_raw(IMAGES, &hash.to_hex()).await? {
                entries.insert(*hash, entry);
            }
        }
        Ok::<_, StorageError>(entries)
    })
    .await
}

/// Writes `entries` and, when given, `name`'s new manifest, all or nothing.
async fn write<D: Database>(
    db: &D,
    name: &str,
    entries: &[(ContentHash, Vec<u8>)],
    manifest: Option<&[ContentHash]>,
) -> Result<(), StorageError> {
    db.transaction(
        &[IMAGES, MANIFESTS],
        TransactionMode::ReadWrite,
        async |tx| {
            for (hash, entry) in entries {
                tx.put_raw(IMAGES, &hash.to_hex(), entry).await?;
            }
            if let Some(hashes) = manifest {
                let text: String = hashes.iter().map(|h| h.to_hex() + "\n").collect();
                tx.put_raw(MANIFESTS, name, text.as_bytes()).await?;
            }
            Ok::<_, StorageError>(())
        },
    )
    .await
}
