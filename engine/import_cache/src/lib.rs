//! Taos's import cache: decoded glTF images kept between loads.
//!
//! Decoding a model's PNG and JPEG textures is most of the time it takes to load it (a
//! FlightHelmet-sized model: 15 maps of 2048 x 2048). The first load through an
//! [`ImportCache`] stores each decoded image under the BLAKE3 hash of its encoded bytes
//! ([`ContentHash`]); later loads that meet the same bytes take the pixels from the cache
//! instead of decoding them. A changed image has another hash, so it is decoded (and stored)
//! again: nothing has to be invalidated by hand, and an old entry is simply no longer asked
//! for.
//!
//! | platform | where | |
//! | --- | --- | --- |
//! | native | `<folder>/taos_import_cache.redb`, a [`taos_storage`] `redb` database; the folder is `$TAOS_CACHE_DIR`, else the platform's cache folder plus `taos` (`~/.cache/taos` on Linux) | [`ImportCache::platform`], [`ImportCache::in_folder`] |
//! | browser | the IndexedDB database `taos_import_cache` of the page's origin | [`ImportCache::platform`] |
//! | any | process memory | [`ImportCache::in_memory`] |
//!
//! The database has two stores: `images` (hex hash -> an entry: a versioned, checksummed
//! header and the RGBA8 pixels, LZ4-compressed when that saves an eighth; see
//! [`Compression`]) and `manifests` (model name -> the hashes its last import asked for).
//! Because IndexedDB only answers later, an import never asks the database anything while it
//! runs: [`ImportCache::import`] first reads the entries the manifest names (or, for a model
//! it has not seen, those of every external file), imports with them in memory, then writes
//! the new entries and manifest in one transaction.
//!
//! A cache never fails a load: an entry that is corrupt, truncated, of another format
//! version ([`ENTRY_VERSION`]) or of another size is a miss and is replaced; a database that
//! cannot be opened or written (locked by another process, a full disk or quota) leaves the
//! model imported without it and says why in [`ImportStats::problem`].
//!
//! This crate is not a general asset pipeline: meshes, animations and the glTF JSON are
//! imported every time (they cost little next to images), and nothing is ever evicted
//! (delete the database file, or the site's data, to empty it).
//!
//! ```
//! use taos_gltf::{ExternalFiles, LoadOptions, external_uris, test_models};
//! use taos_import_cache::ImportCache;
//! use taos_storage::block_on;
//!
//! let dir = tempfile::tempdir()?;
//! let path = test_models::textured_box(dir.path())?; // a .gltf with a .bin and PNGs
//! let bytes = std::fs::read(&path)?;
//! let mut files = ExternalFiles::new();
//! for uri in external_uris(&bytes, "box.gltf")? {
//!     files.insert(uri.path.clone(), std::fs::read(dir.path().join(&uri.path))?);
//! }
//! let cache = ImportCache::in_folder(dir.path().join("cache"));
//! let options = LoadOptions::default();
//! let (cold, stats) = block_on(cache.import(&bytes, "box.gltf", &files, &options))?;
//! assert_eq!((stats.from_cache, stats.entries_written), (0, stats.images));
//! let (warm, stats) = block_on(cache.import(&bytes, "box.gltf", &files, &options))?;
//! assert_eq!((stats.from_cache, stats.entries_written), (stats.images, 0));
//! assert_eq!(cold, warm);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]

mod entry;
mod import;
mod place;
mod prefetched;
#[cfg(test)]
mod tests;

pub use entry::{Compression, ENTRY_VERSION};
pub use import::ImportStats;
pub use place::{CACHE_DIR_ENV, DATABASE};
pub use taos_gltf::ContentHash;

use std::sync::Arc;

use taos_gltf::{ExternalFiles, GltfError, GltfModel, LoadOptions};
use taos_storage::MemoryBackend;

use place::{Opened, Place};

/// Where decoded images are kept between loads, and how (see the [crate] docs). Cheap to
/// clone; clones use the same database. Two are equal when they use the same database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportCache {
    place: Place,
    compression: Compression,
}

impl ImportCache {
    /// The platform's cache: natively `<folder>/taos_import_cache.redb` in `$TAOS_CACHE_DIR`,
    /// else in the platform's cache folder plus `taos` (`~/.cache/taos` on Linux,
    /// `~/Library/Caches/taos` on macOS, `%LOCALAPPDATA%\taos` on Windows); in the browser the
    /// IndexedDB database [`DATABASE`]. `None` natively when the platform has no cache folder
    /// and the variable is not set.
    #[must_use]
    pub fn platform() -> Option<Self> {
        #[cfg(not(target_arch = "wasm32"))]
        {
            place::default_folder().map(Self::in_folder)
        }
        #[cfg(target_arch = "wasm32")]
        {
            Some(Self::with_place(Place::IndexedDb))
        }
    }

    /// A cache in `folder` (created when first used): `<folder>/taos_import_cache.redb`. Native
    /// only. One process shares one open database per folder; a folder another process has
    /// open cannot be used until it closes it (imports go on without the cache meanwhile).
    #[cfg(not(target_arch = "wasm32"))]
    #[must_use]
    pub fn in_folder(folder: impl Into<std::path::PathBuf>) -> Self {
        Self::with_place(Place::Folder(folder.into()))
    }

    /// A cache in process memory, empty at first, shared by this value's clones (tests, tools).
    #[must_use]
    pub fn in_memory() -> Self {
        Self::with_place(Place::Memory(Arc::new(MemoryBackend::new())))
    }

    fn with_place(place: Place) -> Self {
        Self {
            place,
            compression: Compression::default(),
        }
    }

    /// This cache storing new entries with `compression` (default [`Compression::Lz4`]);
    /// entries of either kind are read back.
    #[must_use]
    pub fn with_compression(mut self, compression: Compression) -> Self {
        self.compression = compression;
        self
    }

    /// The folder of a native cache on disk, if it is one.
    #[cfg(not(target_arch = "wasm32"))]
    #[must_use]
    pub fn folder(&self) -> Option<&std::path::Path> {
        match &self.place {
            Place::Folder(dir) => Some(dir),
            Place::Memory(_) => None,
        }
    }

    /// Imports the `.gltf`/`.glb` in `bytes` whose external files are `files` (as
    /// [`GltfModel::from_slice_with_files`]), taking decoded images from the cache where it
    /// has them and storing those it decodes. Natively the future is ready at once (drive it
    /// with [`taos_storage::block_on`]); in the browser it awaits IndexedDB before and after
    /// the import.
    ///
    /// # Errors
    /// What the import itself fails with; a cache that cannot be used never fails it (see
    /// [`ImportStats::problem`]).
    pub async fn import(
        &self,
        bytes: &[u8],
        name: &str,
        files: &ExternalFiles,
        options: &LoadOptions,
    ) -> Result<(GltfModel, ImportStats), GltfError> {
        let compression = self.compression;
        let run = async |db| match db {
            #[cfg(not(target_arch = "wasm32"))]
            Opened::Redb(db) => {
                import::import_with(&*db, compression, bytes, name, files, options).await
            }
            #[cfg(target_arch = "wasm32")]
            Opened::IndexedDb(db) => {
                import::import_with(&db, compression, bytes, name, files, options).await
            }
            Opened::Memory(db) => {
                import::import_with(&db, compression, bytes, name, files, options).await
            }
        };
        match self.place.open().await {
            Ok(db) => run(db).await,
            Err(error) => {
                log::warn!("import cache: {error}; {name} goes on without it");
                let model =
                    GltfModel::from_slice_with_files(bytes, name, files, options, &mut |_| {})?;
                let stats = ImportStats {
                    problem: Some(error),
                    ..ImportStats::default()
                };
                Ok((model, stats))
            }
        }
    }
}
