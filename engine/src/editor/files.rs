//! Where the editor's scene files live: the file system natively, the
//! page's local storage in the browser (keyed by the path), so Save and
//! Load work in both.

use std::path::Path;

/// Writes a scene file. Natively through a temporary file and a rename: a
/// failed write (a full disk) never leaves half a scene behind and keeps
/// the old file. In the browser, into local storage under the path (a
/// full storage quota is an error, and the old text is kept).
///
/// # Errors
/// What went wrong, naming the path.
pub fn write_scene_file(path: &Path, text: &str) -> Result<(), String> {
    platform::write(path, text)
}

/// Reads a scene file written by [`write_scene_file`] (or any file,
/// natively).
///
/// # Errors
/// What went wrong, naming the path (a file that is not there).
pub fn read_scene_file(path: &Path) -> Result<String, String> {
    platform::read(path)
}

#[cfg(not(target_arch = "wasm32"))]
mod platform {
    use std::io::Write as _;
    use std::path::Path;

    pub(super) fn write(path: &Path, text: &str) -> Result<(), String> {
        let temporary = path.with_extension("json.partial");
        let written = std::fs::File::create(&temporary).and_then(|mut file| {
            file.write_all(text.as_bytes())?;
            file.sync_all()
        });
        let result = written.and_then(|()| std::fs::rename(&temporary, path));
        if result.is_err() {
            let _ = std::fs::remove_file(&temporary);
        }
        result.map_err(|e| format!("{}: {e}", path.display()))
    }

    pub(super) fn read(path: &Path) -> Result<String, String> {
        std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
    }
}

#[cfg(target_arch = "wasm32")]
mod platform {
    use std::path::Path;

    /// Local storage keys start with this, then the path.
    const PREFIX: &str = "taos.scene-file:";

    fn storage() -> Result<web_sys::Storage, String> {
        web_sys::window()
            .and_then(|window| window.local_storage().ok().flatten())
            .ok_or_else(|| "this page has no local storage (site data blocked?)".to_owned())
    }

    fn key(path: &Path) -> String {
        format!("{PREFIX}{}", path.display())
    }

    pub(super) fn write(path: &Path, text: &str) -> Result<(), String> {
        storage()?.set_item(&key(path), text).map_err(|error| {
            format!(
                "{}: the page's storage refused it (full?): {error:?}",
                path.display()
            )
        })
    }

    pub(super) fn read(path: &Path) -> Result<String, String> {
        storage()?
            .get_item(&key(path))
            .ok()
            .flatten()
            .ok_or_else(|| format!("{}: not saved in this browser", path.display()))
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn a_save_replaces_the_file_whole_and_a_failed_one_keeps_the_old() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("level.json");
        write_scene_file(&path, "one").unwrap();
        write_scene_file(&path, "two").unwrap();
        assert_eq!(read_scene_file(&path).unwrap(), "two");
        assert!(!dir.path().join("level.json.partial").exists());
        // A folder where the file should be: the write fails, nothing is lost.
        let blocked = dir.path().join("blocked.json");
        std::fs::create_dir(&blocked).unwrap();
        std::fs::write(blocked.join("inside"), "kept").unwrap();
        assert!(write_scene_file(&blocked, "new").is_err());
        assert_eq!(
            std::fs::read_to_string(blocked.join("inside")).unwrap(),
            "kept"
        );
        assert!(
            read_scene_file(&dir.path().join("missing.json"))
                .unwrap_err()
                .contains("missing.json")
        );
    }
}
