//! Where a cache's database lives, and opening it: a `redb` file natively (one open handle
//! per folder in a process, since `redb` locks its file), IndexedDB in the browser, or memory.

use std::path::PathBuf;
use std::sync::Arc;
#[cfg(not(target_arch = "wasm32"))]
use std::sync::{Mutex, PoisonError, Weak};

use taos_storage::{MemoryBackend, MemoryDatabase, StorageBackend, StorageError, Upgrade};

/// The database's name: `<folder>/taos_import_cache.redb` natively, the IndexedDB database
/// `taos_import_cache` in the browser.
pub const DATABASE: &str = "taos_import_cache";
/// The store of image entries, keyed by the hex BLAKE3 of the encoded image.
pub(crate) const IMAGES: &str = "images";
/// The store of manifests: per model name, the image hashes its last import asked for.
pub(crate) const MANIFESTS: &str = "manifests";
/// The database's schema version.
const SCHEMA: u32 = 1;
/// The most bytes of pages `redb` keeps in memory for the cache: entries are read once per
/// load and then live in the model, so a large page cache would only hold copies.
#[cfg(not(target_arch = "wasm32"))]
const REDB_CACHE_BYTES: usize = 16 << 20;

/// The environment variable that moves the native cache folder.
pub const CACHE_DIR_ENV: &str = "TAOS_CACHE_DIR";

/// Where a cache lives.
#[derive(Debug, Clone)]
pub(crate) enum Place {
    /// `<folder>/taos_import_cache.redb`.
    #[cfg(not(target_arch = "wasm32"))]
    Folder(PathBuf),
    /// The page origin's IndexedDB.
    #[cfg(target_arch = "wasm32")]
    IndexedDb,
    /// Process memory (tests, tools); clones share it.
    Memory(Arc<MemoryBackend>),
}

impl PartialEq for Place {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            #[cfg(not(target_arch = "wasm32"))]
            (Self::Folder(a), Self::Folder(b)) => a == b,
            #[cfg(target_arch = "wasm32")]
            (Self::IndexedDb, Self::IndexedDb) => true,
            (Self::Memory(a), Self::Memory(b)) => Arc::ptr_eq(a, b),
            #[allow(
                unreachable_patterns,
                reason = "on wasm32 the two variants above cover every pair but mixed ones"
            )]
            _ => false,
        }
    }
}

impl Eq for Place {}

/// An open cache database.
pub(crate) enum Opened {
    #[cfg(not(target_arch = "wasm32"))]
    Redb(Arc<taos_storage::RedbDatabase>),
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

impl Place {
    /// Opens (creating if needed) the database.
    pub(crate) async fn open(&self) -> Result<Opened, StorageError> {
        match self {
            #[cfg(not(target_arch = "wasm32"))]
            Self::Folder(dir) => open_folder(dir).map(Opened::Redb),
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

/// Handles open in this process, by canonical folder: `redb` refuses a second open of a file.
#[cfg(not(target_arch = "wasm32"))]
static OPEN: Mutex<Vec<(PathBuf, Weak<taos_storage::RedbDatabase>)>> = Mutex::new(Vec::new());

/// The database in `dir`, shared with every other open handle to it in this process.
#[cfg(not(target_arch = "wasm32"))]
fn open_folder(dir: &std::path::Path) -> Result<Arc<taos_storage::RedbDatabase>, StorageError> {
    let io = |source| StorageError::Io {
        path: dir.to_owned(),
        source,
    };
    std::fs::create_dir_all(dir).map_err(io)?;
    let dir = std::fs::canonicalize(dir).map_err(io)?;
    let mut open = OPEN.lock().unwrap_or_else(PoisonError::into_inner);
    open.retain(|(_, handle)| handle.strong_count() > 0);
    if let Some(db) = open
        .iter()
        .find(|(at, _)| *at == dir)
        .and_then(|(_, handle)| handle.upgrade())
    {
        return Ok(db);
    }
    let backend = taos_storage::RedbBackend::new(&dir).with_cache_size(REDB_CACHE_BYTES);
    let db = Arc::new(taos_storage::block_on(
        backend.open(DATABASE, SCHEMA, upgrade),
    )?);
    open.push((dir, Arc::downgrade(&db)));
    Ok(db)
}
