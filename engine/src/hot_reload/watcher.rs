//! Watching folders for changed files: `notify` natively (inotify, FSEvents,
//! ReadDirectoryChangesW), nothing in the browser (the dev server's page
//! pushes changes through [`HotReload::file_changed`](super::HotReload::file_changed)).
//!
//! Editors save in bursts (write, truncate, write again, rename over): a
//! path is reported once it has been quiet for [`QUIET`], so a reload reads
//! the finished file, and a burst reloads once.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use web_time::{Duration, Instant};

/// How long a path must see no event before it is reported.
pub const QUIET: Duration = Duration::from_millis(40);

/// Watching a folder failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WatchError {
    /// The operating system's watcher refused (no such folder, too many
    /// watches: raise `fs.inotify.max_user_watches`).
    #[error("cannot watch {path}: {reason}")]
    Refused {
        /// The folder.
        path: PathBuf,
        /// The watcher's message.
        reason: String,
    },
    /// This platform has no file watcher (the browser: changes come from
    /// the dev server).
    #[error("this platform cannot watch files; changes come from the dev server")]
    Unsupported,
}

/// Paths seen changing, with when each was last touched.
type Touched = Arc<Mutex<BTreeMap<PathBuf, Instant>>>;

/// Watches folders (recursively) and reports the files that changed.
pub struct FileWatcher {
    touched: Touched,
    #[cfg(not(target_arch = "wasm32"))]
    inner: notify::RecommendedWatcher,
    folders: Vec<PathBuf>,
}

impl std::fmt::Debug for FileWatcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FileWatcher")
            .field("folders", &self.folders)
            .finish_non_exhaustive()
    }
}

impl FileWatcher {
    /// A watcher watching nothing yet.
    ///
    /// # Errors
    /// [`WatchError::Unsupported`] in the browser, [`WatchError::Refused`]
    /// if the OS has no watcher to give.
    pub fn new() -> Result<Self, WatchError> {
        Self::create()
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn create() -> Result<Self, WatchError> {
        let touched = Touched::default();
        let sink = Arc::clone(&touched);
        let inner = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
            let Ok(event) = event else { return };
            if !changes_content(&event.kind) {
                return;
            }
            let now = Instant::now();
            let Ok(mut touched) = sink.lock() else { return };
            for path in event.paths {
                touched.insert(path, now);
            }
        })
        .map_err(|error| WatchError::Refused {
            path: PathBuf::new(),
            reason: error.to_string(),
        })?;
        Ok(Self {
            touched,
            inner,
            folders: Vec::new(),
        })
    }

    #[cfg(target_arch = "wasm32")]
    fn create() -> Result<Self, WatchError> {
        Err(WatchError::Unsupported)
    }

    /// Watches `folder` and everything under it.
    ///
    /// # Errors
    /// [`WatchError::Refused`] naming the folder.
    pub fn watch(&mut self, folder: &Path) -> Result<(), WatchError> {
        let folder = folder.canonicalize().unwrap_or_else(|_| folder.to_owned());
        if self.folders.iter().any(|f| folder.starts_with(f)) {
            return Ok(());
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            use notify::Watcher as _;
            self.inner
                .watch(&folder, notify::RecursiveMode::Recursive)
                .map_err(|error| WatchError::Refused {
                    path: folder.clone(),
                    reason: error.to_string(),
                })?;
        }
        self.folders.push(folder);
        Ok(())
    }

    /// The folders watched (canonical paths).
    #[must_use]
    pub fn folders(&self) -> &[PathBuf] {
        &self.folders
    }

    /// The files that changed and have been quiet for [`QUIET`] by `now`,
    /// each once, in path order. Paths are as the OS reports them: under
    /// the canonical folder.
    pub fn take_settled(&self, now: Instant) -> Vec<PathBuf> {
        let Ok(mut touched) = self.touched.lock() else {
            return Vec::new();
        };
        let settled: Vec<PathBuf> = touched
            .iter()
            .filter(|&(_, &at)| now.saturating_duration_since(at) >= QUIET)
            .map(|(path, _)| path.clone())
            .collect();
        for path in &settled {
            touched.remove(path);
        }
        settled
    }

    /// Whether some change is still settling (a reload is coming).
    #[must_use]
    pub fn is_settling(&self) -> bool {
        self.touched.lock().is_ok_and(|t| !t.is_empty())
    }
}

/// Whether an event may have changed a file's bytes (not an access or a
/// metadata-only change).
#[cfg(not(target_arch = "wasm32"))]
fn changes_content(kind: &notify::EventKind) -> bool {
    use notify::EventKind;
    use notify::event::{AccessKind, AccessMode, ModifyKind};
    match kind {
        EventKind::Create(_) | EventKind::Remove(_) => true,
        EventKind::Modify(ModifyKind::Metadata(_)) => false,
        EventKind::Modify(_) => true,
        // A file written and closed: its contents are final.
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        EventKind::Access(_) | EventKind::Any | EventKind::Other => false,
    }
}
