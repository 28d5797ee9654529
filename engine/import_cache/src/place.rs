//! Where a cache lives: a folder of entry files natively, or a [`taos_storage`] database
//! (IndexedDB in the browser, memory) with the `database` feature.

#[cfg(not(target_arch = "wasm32"))]
use std::path::PathBuf;

/// The environment variable that moves the native cache folder.
pub const CACHE_DIR_ENV: &str = "TAOS_CACHE_DIR";

/// Where a cache lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Place {
    /// `<folder>/images/<hash>.timg`.
    #[cfg(not(target_arch = "wasm32"))]
    Folder(PathBuf),
    /// A [`taos_storage`] database.
    #[cfg(feature = "database")]
    Database(crate::database::DatabasePlace),
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
