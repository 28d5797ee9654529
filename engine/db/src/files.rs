//! How `taos-db` writes files: never over a database file, and never half
//! written. The bytes go to `FILE.partial` beside the target, are synced to
//! disk, then moved into place and the directory synced, so a crash leaves
//! the old file or the new one, never a torn mix.

use std::fs::{self, File};
use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use taos_storage::RedbBackend;

/// What to do when the target file already exists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Existing {
    /// Replace it (atomically).
    Replace,
    /// Refuse; `hint` says how to go ahead (e.g. "pass --force to replace it").
    Refuse { hint: &'static str },
}

/// Writes `contents` to `file` as described in the [module docs](self).
///
/// # Errors
/// `file` (or its `.partial`) is a database of `backend`, or exists and
/// `existing` refuses it, or the write fails (the partial file is removed).
pub(crate) fn write_file(
    backend: &RedbBackend,
    file: &Path,
    contents: &[u8],
    existing: Existing,
) -> Result<()> {
    let partial = partial_path(file);
    refuse_database_file(backend, file)?;
    refuse_database_file(backend, &partial)?;
    let exists = fs::symlink_metadata(file).is_ok();
    if let (true, Existing::Refuse { hint }) = (exists, existing) {
        bail!(
            "{} already exists; nothing was written ({hint})",
            file.display()
        );
    }
    let written = write_synced(&partial, contents).and_then(|()| place(&partial, file, existing));
    if written.is_err() {
        let _ = fs::remove_file(&partial);
    }
    written?;
    sync_dir(file);
    Ok(())
}

/// Refuses `file` if it is (resolves to, or is a hard link of) one of the
/// database files in `backend`'s directory.
///
/// # Errors
/// Naming the database file.
pub(crate) fn refuse_database_file(backend: &RedbBackend, file: &Path) -> Result<()> {
    let Some(target) = resolve(file) else {
        return Ok(());
    };
    for name in backend.database_names()? {
        let database = backend.path_of(&name)?;
        if resolve(&database).is_some_and(|db| db == target) || same_file(&database, file) {
            bail!(
                "{} is the database file {} of database {name:?}; refusing to write over a \
                 database (choose another file name)",
                file.display(),
                database.display()
            );
        }
    }
    Ok(())
}

/// `file`'s absolute path with symlinks and `..` resolved; for a file that
/// does not exist yet, its resolved directory plus its name.
fn resolve(file: &Path) -> Option<PathBuf> {
    if let Ok(resolved) = fs::canonicalize(file) {
        return Some(resolved);
    }
    let name = file.file_name()?;
    let dir = match file.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    fs::canonicalize(dir).ok().map(|dir| dir.join(name))
}

/// Whether both paths name the same existing file (a hard link included).
#[cfg(unix)]
fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    match (fs::metadata(a), fs::metadata(b)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn same_file(_: &Path, _: &Path) -> bool {
    false
}

/// `FILE.partial`, beside `file` (so the final rename stays on one file system).
pub(crate) fn partial_path(file: &Path) -> PathBuf {
    let mut name = file.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

/// Creates (or truncates) `path`, writes `contents` and syncs it to disk.
fn write_synced(path: &Path, contents: &[u8]) -> Result<()> {
    let mut out = File::create(path).with_context(|| format!("creating {}", path.display()))?;
    out.write_all(contents)
        .and_then(|()| out.sync_all())
        .with_context(|| format!("writing {}", path.display()))
}

/// Moves the synced `from` to `to`: replacing `to`, or, when replacing is
/// refused, linking it in only if `to` still does not exist.
pub(crate) fn place(from: &Path, to: &Path, existing: Existing) -> Result<()> {
    let context = || format!("moving {} to {}", from.display(), to.display());
    match existing {
        Existing::Replace => fs::rename(from, to).with_context(context),
        Existing::Refuse { hint } => {
            // A hard link never replaces a file; file systems without links
            // fall back to a rename after checking.
            match fs::hard_link(from, to) {
                Ok(()) => {
                    let _ = fs::remove_file(from);
                    Ok(())
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => bail!(
                    "{} appeared while it was being written; nothing was replaced ({hint})",
                    to.display()
                ),
                Err(_) if fs::symlink_metadata(to).is_err() => {
                    fs::rename(from, to).with_context(context)
                }
                Err(e) => Err(e).with_context(context),
            }
        }
    }
}

/// Makes a new or renamed directory entry for `file` durable (not possible
/// on every platform; best effort).
pub(crate) fn sync_dir(file: &Path) {
    let dir = match file.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    if let Ok(dir) = File::open(dir) {
        let _ = dir.sync_all();
    }
}

/// Syncs an existing file's contents to disk.
pub(crate) fn sync_file(path: &Path) -> Result<()> {
    File::options()
        .write(true)
        .open(path)
        .and_then(|f| f.sync_all())
        .with_context(|| format!("syncing {}", path.display()))
}
