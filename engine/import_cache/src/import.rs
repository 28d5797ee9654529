//! One import through the cache. Natively the decoding threads read and write the folder's
//! entry files as they go; through a [`Database`] (IndexedDB, memory), the entries the
//! model's manifest names are read first, the import runs with them in memory, and what it
//! decoded is written after it with the new manifest, in one transaction.

use std::collections::HashMap;
use std::sync::Arc;

use taos_gltf::{ContentHash, ExternalFiles, GltfError, GltfModel, LoadOptions};
use taos_storage::{Database, StorageError, Transaction, TransactionMode};

use crate::entry::Compression;
use crate::place::{IMAGES, MANIFESTS};
use crate::prefetched::Prefetched;
use crate::record::Record;

/// What one import through an [`ImportCache`](crate::ImportCache) did.
#[derive(Debug, Default)]
#[non_exhaustive]
pub struct ImportStats {
    /// Images the model has (each counted once per distinct content).
    pub images: usize,
    /// Images answered from the cache.
    pub from_cache: usize,
    /// Entries found but refused (corrupt, truncated, another format version): decoded again
    /// and replaced.
    pub refused: usize,
    /// Bytes of entries read from the database.
    pub bytes_read: u64,
    /// Entries written (one per image decoded).
    pub entries_written: usize,
    /// Bytes of entries written.
    pub bytes_written: u64,
    /// What went wrong with the database, if anything: the model was still imported, with
    /// fewer or no images from the cache, and perhaps none written.
    pub problem: Option<StorageError>,
}

/// Imports with `cache` (any [`ImageCache`](taos_gltf::ImageCache) of this crate); gives it
/// back with the model.
fn import_through<C: taos_gltf::ImageCache + 'static>(
    cache: C,
    bytes: &[u8],
    name: &str,
    files: &ExternalFiles,
    options: &LoadOptions,
) -> Result<(GltfModel, Option<C>), GltfError> {
    let cache = Arc::new(cache);
    let with_cache = options.clone().with_image_cache(cache.clone());
    let model = GltfModel::from_slice_with_files(bytes, name, files, &with_cache, &mut |_| {})?;
    drop(with_cache);
    Ok((model, Arc::into_inner(cache)))
}

/// Imports through the files of a native cache folder.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn import_in_folder(
    folder: &std::path::Path,
    compression: Compression,
    bytes: &[u8],
    name: &str,
    files: &ExternalFiles,
    options: &LoadOptions,
) -> Result<(GltfModel, ImportStats), GltfError> {
    let cache = match crate::folder::FolderImages::open(folder, compression) {
        Ok(cache) => cache,
        Err(error) => return import_without(error, bytes, name, files, options),
    };
    let (model, cache) = import_through(cache, bytes, name, files, options)?;
    let stats = cache.map(|c| c.finish().into_stats()).unwrap_or_default();
    Ok((model, stats))
}

/// Imports without a cache, because of `error`.
pub(crate) fn import_without(
    error: StorageError,
    bytes: &[u8],
    name: &str,
    files: &ExternalFiles,
    options: &LoadOptions,
) -> Result<(GltfModel, ImportStats), GltfError> {
    let mut record = Record::default();
    record.fail("opening the cache", error);
    let model = GltfModel::from_slice_with_files(bytes, name, files, options, &mut |_| {})?;
    Ok((model, record.into_stats()))
}

/// Imports through `db`: reads the entries `name`'s manifest names (else those of every
/// external file), imports with them, then writes the new entries and manifest. A storage
/// failure is noted in the stats, never returned.
pub(crate) async fn import_with<D: Database>(
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
        record.fail("reading the cache", e);
    }
    let mut asked = record.asked.clone();
    asked.sort_unstable();
    let new_manifest = (asked != manifest).then_some(asked);
    if (!new_entries.is_empty() || new_manifest.is_some())
        && let Err(e) = write(db, name, &new_entries, new_manifest.as_deref()).await
    {
        record.entries_written = 0;
        record.bytes_written = 0;
        record.fail("writing the cache", e);
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
