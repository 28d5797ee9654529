//! One import through the cache: read the model's manifest and the entries it names, import
//! with them, then write what was decoded and the new manifest in one transaction.

use std::collections::HashMap;
use std::sync::Arc;

use taos_gltf::{ContentHash, ExternalFiles, GltfError, GltfModel, LoadOptions};
use taos_storage::{Database, StorageError, Transaction, TransactionMode};

use crate::entry::Compression;
use crate::place::{IMAGES, MANIFESTS};
use crate::prefetched::Prefetched;

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

/// Imports through `db`; any storage failure is noted in the stats, never returned.
pub(crate) async fn import_with<D: Database>(
    db: &D,
    compression: Compression,
    bytes: &[u8],
    name: &str,
    files: &ExternalFiles,
    options: &LoadOptions,
) -> Result<(GltfModel, ImportStats), GltfError> {
    let mut stats = ImportStats::default();
    let note = |stats: &mut ImportStats, error: StorageError| {
        log::warn!("import cache: {error}; {name} goes on without it");
        stats.problem.get_or_insert(error);
    };
    let manifest = read_manifest(db, name)
        .await
        .unwrap_or_else(|e| {
            note(&mut stats, e);
            None
        })
        .unwrap_or_default();
    // Without a manifest (a first load, another name), any external file may be an image.
    let hints = if manifest.is_empty() && stats.problem.is_none() {
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
            note(&mut stats, e);
            HashMap::new()
        }
    };
    stats.bytes_read = entries.values().map(|e| e.len() as u64).sum();

    let cache = Arc::new(Prefetched::new(entries, compression));
    let with_cache = options.clone().with_image_cache(cache.clone());
    let model = GltfModel::from_slice_with_files(bytes, name, files, &with_cache, &mut |_| {})?;
    drop(with_cache);
    let Some(cache) = Arc::into_inner(cache) else {
        return Ok((model, stats));
    };
    let mut record = cache.into_record();
    stats.images = record.asked.len();
    stats.from_cache = record.hits;
    stats.refused = record.refused;
    stats.entries_written = record.new_entries.len();
    stats.bytes_written = record.new_entries.iter().map(|(_, e)| e.len() as u64).sum();
    record.asked.sort_unstable();
    let new_manifest = (record.asked != manifest).then_some(record.asked);
    if (stats.entries_written > 0 || new_manifest.is_some())
        && let Err(e) = write(db, name, &record.new_entries, new_manifest.as_deref()).await
    {
        note(&mut stats, e);
    }
    Ok((model, stats))
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
