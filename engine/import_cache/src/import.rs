//! One import through the cache, and what it did ([`ImportStats`]). Natively the decoding
//! threads read and write the folder's entry files as they go; the flow through a database
//! is in `database.rs`.

use std::sync::Arc;

use taos_gltf::{ExternalFiles, GltfError, GltfModel, LoadOptions};

use crate::CacheError;
#[cfg(not(target_arch = "wasm32"))]
use crate::entry::Compression;
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
    pub problem: Option<CacheError>,
}

/// Imports with `cache` (any [`ImageCache`](taos_gltf::ImageCache) of this crate); gives it
/// back with the model.
pub(crate) fn import_through<C: taos_gltf::ImageCache + 'static>(
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
    error: CacheError,
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

/// Runs a future that never waits (natively every place answers at once) to its end.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn run_to_end<F: std::future::Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    let mut context = std::task::Context::from_waker(std::task::Waker::noop());
    loop {
        if let std::task::Poll::Ready(output) = future.as_mut().poll(&mut context) {
            return output;
        }
        // Unreachable with this crate's places; a future that did wait is polled again.
        std::thread::yield_now();
    }
}
