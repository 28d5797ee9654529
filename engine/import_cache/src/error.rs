//! [`CacheError`]: why a cache could not be used (never why a load failed).

/// Why a cache could not be used: the model was imported all the same (see
/// [`ImportStats::problem`](crate::ImportStats::problem)).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CacheError {
    /// A native cache folder or entry file could not be created, read or written.
    #[cfg(not(target_arch = "wasm32"))]
    #[error("{}: {source}", path.display())]
    Io {
        /// The folder or file.
        path: std::path::PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The cache's database (IndexedDB, memory) could not be opened, read or written.
    #[cfg(feature = "database")]
    #[error(transparent)]
    Storage(#[from] taos_storage::StorageError),
}
