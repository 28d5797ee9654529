//! Watching a game's asset folder while serving its web build: a changed
//! file is copied into the served `assets/` folder (through a temporary
//! file and a rename, so a page never reads half of it) once it has been
//! quiet for [`QUIET`], then published on the [`ChangeFeed`].

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context;
use notify::Watcher as _;

use crate::changes::ChangeFeed;

/// How long a file must see no event before it is copied and published
/// (an editor's save is a burst of events).
pub const QUIET: Duration = Duration::from_millis(40);

/// A running watch; dropping it stops watching.
pub struct AssetWatch {
    _watcher: notify::RecommendedWatcher,
}

impl std::fmt::Debug for AssetWatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AssetWatch")
    }
}

/// Watches `source` (the game's asset folder); copies each changed file to
/// the same relative path under `served` and publishes that path.
///
/// # Errors
/// The folder does not exist or cannot be watched.
pub fn watch_assets(source: &Path, served: &Path, feed: ChangeFeed) -> anyhow::Result<AssetWatch> {
    let source = source
        .canonicalize()
        .with_context(|| format!("cannot watch {}: it does not exist", source.display()))?;
    let touched: Arc<Mutex<BTreeMap<PathBuf, Instant>>> = Arc::default();
    let sink = Arc::clone(&touched);
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        let Ok(event) = event else { return };
        if matches!(
            event.kind,
            notify::EventKind::Access(_)
                | notify::EventKind::Modify(notify::event::ModifyKind::Metadata(_))
        ) {
            return;
        }
        if let Ok(mut touched) = sink.lock() {
            for path in event.paths {
                touched.insert(path, Instant::now());
            }
        }
    })
    .context("cannot start a file watcher")?;
    watcher
        .watch(&source, notify::RecursiveMode::Recursive)
        .with_context(|| format!("cannot watch {}", source.display()))?;
    let served = served.to_owned();
    std::thread::spawn(move || {
        loop {
            std::thread::sleep(QUIET / 2);
            let settled: Vec<PathBuf> = {
                let Ok(mut touched) = touched.lock() else {
                    return;
                };
                let now = Instant::now();
                let due: Vec<PathBuf> = touched
                    .iter()
                    .filter(|&(_, &at)| now.duration_since(at) >= QUIET)
                    .map(|(path, _)| path.clone())
                    .collect();
                for path in &due {
                    touched.remove(path);
                }
                due
            };
            for path in settled {
                match publish_one(&source, &served, &path, &feed) {
                    Ok(Some(asset)) => eprintln!("changed: {asset}"),
                    Ok(None) => {}
                    Err(error) => eprintln!("taos serve: {error:#}"),
                }
            }
        }
    });
    Ok(AssetWatch { _watcher: watcher })
}

/// Copies one changed file and publishes it; `None` for what is not a
/// file under `source` (a folder, a deleted file, an editor's temporary).
fn publish_one(
    source: &Path,
    served: &Path,
    path: &Path,
    feed: &ChangeFeed,
) -> anyhow::Result<Option<String>> {
    let Ok(relative) = path.strip_prefix(source) else {
        return Ok(None);
    };
    if !path.is_file() {
        return Ok(None);
    }
    let asset = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/");
    let target = served.join(relative);
    if let Some(folder) = target.parent() {
        std::fs::create_dir_all(folder)
            .with_context(|| format!("cannot create {}", folder.display()))?;
    }
    let partial = target.with_extension("taos-partial");
    std::fs::copy(path, &partial)
        .with_context(|| format!("cannot copy {} to {}", path.display(), partial.display()))?;
    std::fs::rename(&partial, &target)
        .with_context(|| format!("cannot replace {}", target.display()))?;
    feed.publish(&asset);
    Ok(Some(asset))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_dir::TestDir;

    #[test]
    fn a_file_written_in_the_source_is_copied_to_the_served_folder_and_published() {
        let source = TestDir::new("watch-source");
        let served = TestDir::new("watch-served");
        std::fs::create_dir_all(source.path().join("models")).unwrap();
        let feed = ChangeFeed::new();
        let changes = feed.subscribe();
        let _watch = watch_assets(source.path(), served.path(), feed).unwrap();
        std::fs::write(source.path().join("models/box.gltf"), b"{}").unwrap();
        let path = changes.recv_timeout(Duration::from_secs(10)).unwrap();
        assert_eq!(path, "models/box.gltf");
        assert_eq!(
            std::fs::read(served.path().join("models/box.gltf")).unwrap(),
            b"{}"
        );
    }
}
