//! Where a cache lives: a folder of entry files natively, IndexedDB in the browser, or
//! memory; opening the latter two as [`taos_storage`] databases.

#[cfg(not(target_arch = "wasm32"))]
use std::path::PathBuf;
use std::sync::Arc;

use taos_storage::{MemoryBackend, MemoryDatabase, StorageBackend, StorageError, Upgrade};

/// The IndexedDB database's name in the browser (and the in-memory database's).
pub const DATABASE: &str = "taos_import_cache";
/// The store of image entries, keyed by the hex BLAKE3 of the encoded image.
pub(crate) const IMAGES: &str = "images";
/// The store of manifests: per model name, the image hashes its last import asked for.
pub(crate) const MANIFESTS: &str = "manifests";
/// The database's schema version.
const SCHEMA: u32 = 1;

/// The environment variable that moves the native cache folder.
pub const CACHE_DIR_ENV: &str = "TAOS_CACHE_DIR";

/// Where a cache lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Place {
    /// `<folder>/images/<hash>.timg`.
    #[cfg(not(target_arch = "wasm32"))]
    Folder(PathBuf),
    /// A [`taos_storage`] database.
    Database(DatabasePlace),
}

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

/// The native default folder: `$TAOS_CACHE_DIR` when set and not empty, else the platform's
/// cache folder plus `taos` (`~/.cache/taos` on Linux, `~/Library/Caches/taos` on macOS,
/// `%LOCALAPPDATA%\taos` on Windows).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn default_folder() -> Option<PathBuf> {
    match std::env::var_os(CACHE_DIR_ENV) {
        Some(dir) if !dir.is_empty() => Some(PathBuf::from(dir)),
        _ => dirs::cache_dir().map(|dir| dir.join("taos")),
    }
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
