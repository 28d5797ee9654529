//! Where native database files live.

use std::ffi::OsString;
use std::path::PathBuf;

use super::StorageError;

/// The environment variable that overrides the data directory.
pub const DATA_DIR_ENV: &str = "TAOS_DATA_DIR";

/// The directory database files go in: `$TAOS_DATA_DIR` if set and not empty,
/// else the platform's data directory plus `taos` (for example
/// `~/.local/share/taos` on Linux, `%APPDATA%\taos` on Windows,
/// `~/Library/Application Support/taos` on macOS).
///
/// # Errors
/// [`StorageError::NoDataDirectory`] when neither is known.
pub fn default_data_dir() -> Result<PathBuf, StorageError> {
    resolve_data_dir(std::env::var_os(DATA_DIR_ENV), dirs::data_dir())
}

/// The rule behind [`default_data_dir`], with its inputs passed in: `env` (the
/// value of `TAOS_DATA_DIR`) wins when not empty, else `platform` joined with `taos`.
///
/// # Errors
/// [`StorageError::NoDataDirectory`] when neither is given.
pub fn resolve_data_dir(
    env: Option<OsString>,
    platform: Option<PathBuf>,
) -> Result<PathBuf, StorageError> {
    match env {
        Some(dir) if !dir.is_empty() => Ok(PathBuf::from(dir)),
        _ => platform
            .map(|dir| dir.join("taos"))
            .ok_or(StorageError::NoDataDirectory),
    }
}
