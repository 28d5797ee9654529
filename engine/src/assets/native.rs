//! Reading a file of the asset folder from disk: regular files only,
//! inside the folder once every symbolic link is followed, no larger than
//! the limit (checked before reading and while reading).

use std::fs::File;
use std::io::Read as _;
use std::path::Path;
use std::sync::Arc;

use super::{AssetError, AssetPath, AssetRoot};
use crate::ProgressReporter;

/// Bytes read between progress reports.
const CHUNK: usize = 256 * 1024;

/// Reads `path` under `root`, growing `progress`'s total by its size and
/// advancing it as bytes come.
pub(super) fn read(
    root: &AssetRoot,
    path: &AssetPath,
    limit: u64,
    progress: &ProgressReporter,
) -> Result<Vec<u8>, AssetError> {
    let file = root.file(path);
    let location = |at: &Path| at.display().to_string();
    let io_error = |at: &Path, source: std::io::Error| {
        if source.kind() == std::io::ErrorKind::NotFound {
            AssetError::NotFound {
                path: path.clone(),
                location: location(at),
            }
        } else {
            AssetError::Io {
                path: path.clone(),
                location: location(at),
                source: Arc::new(source),
            }
        }
    };
    let resolved = std::fs::canonicalize(&file).map_err(|e| io_error(&file, e))?;
    let folder = std::fs::canonicalize(root.path()).map_err(|e| io_error(root.path(), e))?;
    if !resolved.starts_with(&folder) {
        return Err(AssetError::OutsideRoot {
            path: path.clone(),
            location: location(&resolved),
        });
    }
    // The type and size are checked before opening (opening a FIFO blocks
    // until a writer comes) and again on the opened file (in case it was
    // swapped in between).
    let checked = |meta: std::fs::Metadata| {
        if !meta.is_file() {
            return Err(AssetError::NotAFile {
                path: path.clone(),
                location: location(&resolved),
            });
        }
        if meta.len() > limit {
            return Err(AssetError::TooLarge {
                path: path.clone(),
                size: meta.len(),
                limit,
            });
        }
        Ok(meta.len())
    };
    checked(std::fs::metadata(&resolved).map_err(|e| io_error(&resolved, e))?)?;
    let opened = File::open(&resolved).map_err(|e| io_error(&resolved, e))?;
    let size = checked(opened.metadata().map_err(|e| io_error(&resolved, e))?)?;
    progress.grow_total(size);
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    let mut reader = opened.take(limit.saturating_add(1));
    let mut chunk = vec![0; CHUNK];
    loop {
        let count = match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(count) => count,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(io_error(&resolved, e)),
        };
        bytes.extend_from_slice(&chunk[..count]);
        progress.advance(count as u64);
    }
    if bytes.len() as u64 > limit {
        return Err(AssetError::TooLarge {
            path: path.clone(),
            size: bytes.len() as u64,
            limit,
        });
    }
    Ok(bytes)
}
