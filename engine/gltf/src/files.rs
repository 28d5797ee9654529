//! External files named by URIs: confined to the model's folder (and
//! [`LoadOptions::allowed_roots`]), regular files only, read no further than the decoded-data
//! budget allows, and each read once per load. Or, for a model imported with its files
//! supplied in memory ([`ExternalFiles`]), looked up there and charged to the same budget.

use std::collections::HashMap;
use std::fs::File;
use std::io::Read as _;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::budget::Budget;
use crate::error::SourceProblem;
use crate::external::ExternalFiles;
use crate::options::LoadOptions;
use crate::source::{decode_relative_uri, parse_data_uri, resolve_relative_uri};

/// A buffer's or an image's bytes: borrowed from the input, decoded from a `data:` URI, or a
/// file shared by every element naming it.
#[derive(Debug, Clone)]
pub(crate) enum Bytes<'a> {
    Borrowed(&'a [u8]),
    Owned(Vec<u8>),
    Shared(Arc<Vec<u8>>),
}

impl Deref for Bytes<'_> {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            Self::Borrowed(b) => b,
            Self::Owned(b) => b,
            Self::Shared(b) => b,
        }
    }
}

/// Why [`read_regular_file`] refused or failed.
#[derive(Debug)]
pub(crate) enum ReadProblem {
    Io(std::io::Error),
    /// A folder, FIFO, device, socket...
    NotRegularFile,
    /// At least `size` bytes, more than the limit.
    TooLarge {
        size: u64,
    },
}

impl From<std::io::Error> for ReadProblem {
    fn from(e: std::io::Error) -> Self {
        Self::Io(e)
    }
}

/// Reads `path` if it is a regular file of at most `limit` bytes, reading no more than
/// `limit + 1` bytes whatever its metadata says.
///
/// The type is checked before opening (opening a FIFO would block until a writer comes) and
/// again on the opened file (in case it was swapped in between).
pub(crate) fn read_regular_file(path: &Path, limit: u64) -> Result<Vec<u8>, ReadProblem> {
    let checked = |meta: std::fs::Metadata| {
        if !meta.is_file() {
            return Err(ReadProblem::NotRegularFile);
        }
        if meta.len() > limit {
            return Err(ReadProblem::TooLarge { size: meta.len() });
        }
        Ok(meta.len())
    };
    checked(std::fs::metadata(path)?)?;
    let file = File::open(path)?;
    let len = checked(file.metadata()?)?;
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    let size = bytes.len() as u64;
    if size > limit {
        return Err(ReadProblem::TooLarge { size });
    }
    Ok(bytes)
}

/// One load's external files: where they may come from, and those already read.
pub(crate) struct Files<'o> {
    /// The model's folder, as given; `None` when loading from memory without one.
    base_dir: Option<&'o Path>,
    /// [`LoadOptions::allowed_roots`].
    allowed_roots: &'o [PathBuf],
    /// The model's folder and the allowed roots, canonicalized when first needed.
    roots: Option<Vec<PathBuf>>,
    /// Files read so far, by canonical path (by decoded URI path for files in memory).
    cache: HashMap<PathBuf, Arc<Vec<u8>>>,
    /// The files supplied in memory: when set, the file system is never touched.
    memory: Option<&'o ExternalFiles>,
}

impl<'o> Files<'o> {
    pub(crate) fn new(base_dir: Option<&'o Path>, options: &'o LoadOptions) -> Self {
        Self {
            // `Path::new("model.gltf").parent()` is the empty path: the current folder.
            base_dir: base_dir.map(|d| {
                if d.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    d
                }
            }),
            allowed_roots: &options.allowed_roots,
            roots: None,
            cache: HashMap::new(),
            memory: None,
        }
    }

    /// External files come from `memory` only, keyed by their URI's percent-decoded path.
    pub(crate) fn in_memory(memory: &'o ExternalFiles, options: &'o LoadOptions) -> Self {
        Self {
            memory: Some(memory),
            ..Self::new(None, options)
        }
    }

    /// The bytes `uri` names (a `data:` URI or an external file), charged to `budget`, and
    /// the data URI's MIME type.
    pub(crate) fn load_uri(
        &mut self,
        uri: &str,
        budget: &Budget,
    ) -> Result<(Option<String>, Bytes<'static>), SourceProblem> {
        if let Some(data) = parse_data_uri(uri) {
            let data = data?;
            budget
                .charge(data.bytes.len() as u64)
                .map_err(|(size, remaining)| SourceProblem::DataUriTooLarge { size, remaining })?;
            return Ok((data.mime, Bytes::Owned(data.bytes)));
        }
        Ok((None, Bytes::Shared(self.external(uri, budget)?)))
    }

    fn external(&mut self, uri: &str, budget: &Budget) -> Result<Arc<Vec<u8>>, SourceProblem> {
        if let Some(memory) = self.memory {
            return self.supplied(memory, uri, budget);
        }
        let joined = resolve_relative_uri(uri, self.base_dir, !self.allowed_roots.is_empty())?;
        let file_error = |path: &Path, source| SourceProblem::File {
            uri: uri.to_owned(),
            path: path.into(),
            source,
        };
        let path = std::fs::canonicalize(&joined).map_err(|e| file_error(&joined, e))?;
        if !self.roots(uri)?.iter().any(|root| path.starts_with(root)) {
            return Err(SourceProblem::OutsideFolder {
                uri: uri.to_owned(),
                path: path.into(),
            });
        }
        if let Some(bytes) = self.cache.get(&path) {
            return Ok(Arc::clone(bytes));
        }
        let remaining = budget.remaining();
        let bytes = read_regular_file(&path, remaining).map_err(|problem| match problem {
            ReadProblem::Io(e) => file_error(&path, e),
            ReadProblem::NotRegularFile => SourceProblem::NotRegularFile {
                uri: uri.to_owned(),
                path: path.as_path().into(),
            },
            ReadProblem::TooLarge { size } => SourceProblem::FileTooLarge {
                uri: uri.to_owned(),
                size,
                remaining,
            },
        })?;
        // Cannot fail: the read stopped at `remaining`.
        let _ = budget.charge(bytes.len() as u64);
        let bytes = Arc::new(bytes);
        self.cache.insert(path, Arc::clone(&bytes));
        Ok(bytes)
    }

    /// The file `uri` names among those supplied in memory, charged to `budget` the first time
    /// it is named. `..` is not refused here: whoever supplied the files chose where they came
    /// from.
    fn supplied(
        &mut self,
        memory: &ExternalFiles,
        uri: &str,
        budget: &Budget,
    ) -> Result<Arc<Vec<u8>>, SourceProblem> {
        let path = decode_relative_uri(uri, true)?;
        let key = PathBuf::from(&path);
        if let Some(bytes) = self.cache.get(&key) {
            return Ok(Arc::clone(bytes));
        }
        let Some(bytes) = memory.shared(&path) else {
            return Err(SourceProblem::NotSupplied {
                uri: uri.to_owned(),
                path: path.into(),
            });
        };
        budget
            .charge(bytes.len() as u64)
            .map_err(|(size, remaining)| SourceProblem::FileTooLarge {
                uri: uri.to_owned(),
                size,
                remaining,
            })?;
        let bytes = Arc::clone(bytes);
        self.cache.insert(key, Arc::clone(&bytes));
        Ok(bytes)
    }

    /// The canonical folders files may come from: the model's, then the allowed roots (those
    /// that do not exist are skipped).
    fn roots(&mut self, uri: &str) -> Result<&[PathBuf], SourceProblem> {
        if self.roots.is_none() {
            // `resolve_relative_uri` has refused a missing base directory already.
            let base = self.base_dir.unwrap_or(Path::new("."));
            let model_dir = std::fs::canonicalize(base).map_err(|source| SourceProblem::File {
                uri: uri.to_owned(),
                path: base.into(),
                source,
            })?;
            let mut roots = vec![model_dir];
            for root in self.allowed_roots {
                match std::fs::canonicalize(root) {
                    Ok(root) => roots.push(root),
                    Err(e) => log::warn!("allowed glTF root {}: {e}; skipped", root.display()),
                }
            }
            self.roots = Some(roots);
        }
        Ok(self.roots.as_deref().unwrap_or_default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_empty_parent_of_a_bare_file_name_is_the_current_folder() {
        let options = LoadOptions::default();
        let mut files = Files::new(Some(Path::new("")), &options);
        let roots = files.roots("a.bin").unwrap();
        assert_eq!(roots, [std::fs::canonicalize(".").unwrap()]);
    }

    #[test]
    fn reads_stop_at_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.bin");
        std::fs::write(&path, [1u8; 10]).unwrap();
        assert_eq!(read_regular_file(&path, 10).unwrap().len(), 10);
        assert!(matches!(
            read_regular_file(&path, 9),
            Err(ReadProblem::TooLarge { size: 10 })
        ));
        assert!(matches!(
            read_regular_file(dir.path(), 100),
            Err(ReadProblem::NotRegularFile)
        ));
    }
}
