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
//! | native | one file per image, `<folder>/images/<hash>.timg`; the folder is `$TAOS_CACHE_DIR`, else the platform's cache folder plus `taos` (`~/.cache/taos` on Linux) | [`ImportCache::platform`], [`ImportCache::in_folder`] |
//! | browser | the IndexedDB database `taos_import_cache` of the page's origin, through `taos_storage` | [`ImportCache::platform`] |
//! | any | a `taos_storage` database in process memory | `ImportCache::in_memory` |
//!
//! The `database` feature (on by default) brings the last two and `taos_storage`; without it
//! (the `taos` tool) the crate caches in folders only and depends on no database.
//!
//! An entry is the image's RGBA8 pixels, raw or LZ4-compressed ([`Compression`]), followed
//! by a 24-byte trailer: length, CRC-32, width, height, codec, format version
//! ([`ENTRY_VERSION`]) and a magic number. Natively the importer's decoding threads read
//! and write the entry files as they go (see `folder.rs` for why files and not `redb`). A
//! database (IndexedDB, memory) has two stores, `images` (hex hash -> entry) and
//! `manifests` (model name -> the hashes its last import asked for); because IndexedDB only
//! answers later, an import never asks it anything while it runs: [`ImportCache::import`]
//! first reads the entries the manifest names (or, for a model it has not seen, those of
//! every external file), imports with them in memory, then writes the new entries and
//! manifest in one transaction.
//!
//! A cache never fails a load: an entry that is corrupt, truncated, of another format
//! version or of another size is a miss and is replaced; a cache that cannot be opened,
//! read or written (a full disk or quota, a folder that is a file) leaves the model imported
//! without it and says why in [`ImportStats::problem`].
//!
//! This crate is not a general asset pipeline: meshes, animations and the glTF JSON are
//! imported every time (they cost little next to images), and nothing is ever evicted
//! (delete the cache folder, or the site's data, to empty it).
//!
//! ```
//! use taos_gltf::{ExternalFiles, LoadOptions, external_uris, test_models};
//! use taos_import_cache::ImportCache;
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
//! let (cold, stats) = cache.import_now(&bytes, "box.gltf", &files, &options)?;
//! assert_eq!((stats.from_cache, stats.entries_written), (0, stats.images));
//! let (warm, stats) = cache.import_now(&bytes, "box.gltf", &files, &options)?;
//! assert_eq!((stats.from_cache, stats.entries_written), (stats.images, 0));
//! assert_eq!(cold, warm);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]

#[cfg(all(target_arch = "wasm32", not(feature = "database")))]
compile_error!("in the browser the import cache lives in IndexedDB: enable the `database` feature");

#[cfg(feature = "database")]
mod database;
mod entry;
mod error;
#[cfg(not(target_arch = "wasm32"))]
mod folder;
mod import;
mod place;
#[cfg(feature = "database")]
mod prefetched;
mod record;
#[cfg(all(test, feature = "database"))]
mod tests;

#[cfg(feature = "database")]
pub use database::DATABASE;
pub use entry::{Compression, ENTRY_VERSION};
pub use error::CacheError;
pub use import::ImportStats;
pub use place::CACHE_DIR_ENV;
pub use taos_gltf::ContentHash;

use taos_gltf::{ExternalFiles, GltfError, GltfModel, LoadOptions};

use place::Place;

/// Where decoded images are kept between loads, and how (see the [crate] docs). Cheap to
/// clone; clones use the same database. Two are equal when they use the same database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportCache {
    place: Place,
    compression: Compression,
}

impl ImportCache {
    /// The platform's cache: natively the folder `$TAOS_CACHE_DIR`, else the platform's cache
    /// folder plus `taos` (`~/.cache/taos` on Linux, `~/Library/Caches/taos` on macOS,
    /// `%LOCALAPPDATA%\taos` on Windows); in the browser the IndexedDB database [`DATABASE`].
    /// `None` natively when the platform has no cache folder and the variable is not set.
    #[must_use]
    pub fn platform() -> Option<Self> {
        #[cfg(not(target_arch = "wasm32"))]
        {
            place::default_folder().map(Self::in_folder)
        }
        #[cfg(target_arch = "wasm32")]
        {
            Some(Self::with_place(Place::Database(
                database::DatabasePlace::IndexedDb,
            )))
        }
    }

    /// A cache in `folder` (created when first used): `<folder>/images/<hash>.timg`. Native
    /// only. Several processes may share a folder: entries are written under a temporary name
    /// and renamed into place.
    #[cfg(not(target_arch = "wasm32"))]
    #[must_use]
    pub fn in_folder(folder: impl Into<std::path::PathBuf>) -> Self {
        Self::with_place(Place::Folder(folder.into()))
    }

    /// A cache in process memory, empty at first, shared by this value's clones (tests, tools).
    #[cfg(feature = "database")]
    #[must_use]
    pub fn in_memory() -> Self {
        Self::with_place(Place::Database(database::DatabasePlace::Memory(
            std::sync::Arc::new(taos_storage::MemoryBackend::new()),
        )))
    }

    fn with_place(place: Place) -> Self {
        Self {
            place,
            compression: Compression::default(),
        }
    }

    /// This cache storing new entries with `compression` (default [`Compression::None`]);
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
            #[cfg(feature = "database")]
            Place::Database(_) => None,
        }
    }

    /// Imports the `.gltf`/`.glb` in `bytes` whose external files are `files` (as
    /// [`GltfModel::from_slice_with_files`]), taking decoded images from the cache where it
    /// has them and storing those it decodes. Natively the future is ready at once (or call
    /// [`ImportCache::import_now`]); in the browser it awaits IndexedDB before and after the
    /// import.
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
        match &self.place {
            #[cfg(not(target_arch = "wasm32"))]
            Place::Folder(folder) => {
                import::import_in_folder(folder, self.compression, bytes, name, files, options)
            }
            #[cfg(feature = "database")]
            Place::Database(place) => {
                database::import(place, self.compression, bytes, name, files, options).await
            }
        }
    }

    /// This cache as an [`ImageCache`](taos_gltf::ImageCache) for
    /// [`LoadOptions::with_image_cache`], natively for a cache folder: how a
    /// load that reads its own files (`GltfModel::load_with_options`,
    /// `Engine::load_gltf`) goes through the cache. `None` for another
    /// place, or a folder that cannot be created.
    #[cfg(not(target_arch = "wasm32"))]
    #[must_use]
    pub fn image_cache(&self) -> Option<std::sync::Arc<dyn taos_gltf::ImageCache>> {
        let folder = self.folder()?;
        let images = folder::FolderImages::open(folder, self.compression).ok()?;
        Some(std::sync::Arc::new(images))
    }

    /// [`ImportCache::import`], natively, where every place answers at once.
    ///
    /// # Errors
    /// As [`ImportCache::import`].
    #[cfg(not(target_arch = "wasm32"))]
    pub fn import_now(
        &self,
        bytes: &[u8],
        name: &str,
        files: &ExternalFiles,
        options: &LoadOptions,
    ) -> Result<(GltfModel, ImportStats), GltfError> {
        import::run_to_end(self.import(bytes, name, files, options))
    }
}
