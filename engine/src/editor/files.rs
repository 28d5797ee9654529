//! Where the editor's scene files live: the file system natively, the
//! page's local storage in the browser (keyed by the path), so Save and
//! Load work in both; and the editor's Save and Load.

use std::path::{Path, PathBuf};

use super::Editor;
use crate::Engine;
use crate::scene_file::{
    AssetNames, EditorOnly, LoadedScene, SceneFileError, load_scene_with, save_scene,
};

/// Why a scene file could not be read or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SceneFileIoError {
    /// The file system refused (natively).
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the file system said.
        #[source]
        source: std::io::Error,
    },
    /// The page has no local storage (in the browser).
    #[error("this page has no local storage (site data blocked?)")]
    NoStorage,
    /// The page's storage refused the write (in the browser).
    #[error("{}: the page's storage refused it (full?): {reason}", path.display())]
    StorageRefused {
        /// The file.
        path: PathBuf,
        /// What the browser said.
        reason: String,
    },
    /// No file of that path was saved in this browser.
    #[error("{}: not saved in this browser", path.display())]
    NotSaved {
        /// The file.
        path: PathBuf,
    },
}

/// Why [`Editor::save`] or [`Editor::load`] failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EditorFileError {
    /// The file could not be read or written.
    #[error(transparent)]
    File(#[from] SceneFileIoError),
    /// The scene could not be saved as a scene file, or the file is not a
    /// scene file the editor can load.
    #[error(transparent)]
    Scene(#[from] SceneFileError),
    /// The edit was refused (the game is playing).
    #[error(transparent)]
    Edit(#[from] crate::edit::EditError),
}

/// Writes a scene file. Natively through a temporary file and a rename: a
/// failed write (a full disk) never leaves half a scene behind and keeps
/// the old file. In the browser, into local storage under the path (a
/// full storage quota is an error, and the old text is kept).
///
/// # Errors
/// What went wrong, naming the path.
pub fn write_scene_file(path: &Path, text: &str) -> Result<(), SceneFileIoError> {
    platform::write(path, text)
}

/// Reads a scene file written by [`write_scene_file`] (or any file,
/// natively).
///
/// # Errors
/// What went wrong, naming the path (a file that is not there).
pub fn read_scene_file(path: &Path) -> Result<String, SceneFileIoError> {
    platform::read(path)
}

#[cfg(not(target_arch = "wasm32"))]
mod platform {
    use std::io::Write as _;
    use std::path::Path;

    use super::SceneFileIoError;

    fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> SceneFileIoError + '_ {
        |source| SceneFileIoError::Io {
            path: path.to_owned(),
            source,
        }
    }

    pub(super) fn write(path: &Path, text: &str) -> Result<(), SceneFileIoError> {
        let temporary = path.with_extension("json.partial");
        let written = std::fs::File::create(&temporary).and_then(|mut file| {
            file.write_all(text.as_bytes())?;
            file.sync_all()
        });
        let result = written.and_then(|()| std::fs::rename(&temporary, path));
        if result.is_err() {
            let _ = std::fs::remove_file(&temporary);
        }
        result.map_err(io_error(path))
    }

    pub(super) fn read(path: &Path) -> Result<String, SceneFileIoError> {
        std::fs::read_to_string(path).map_err(io_error(path))
    }
}

#[cfg(target_arch = "wasm32")]
mod platform {
    use std::path::Path;

    use super::SceneFileIoError;

    /// Local storage keys start with this, then the path.
    const PREFIX: &str = "taos.scene-file:";

    fn storage() -> Result<web_sys::Storage, SceneFileIoError> {
        web_sys::window()
            .and_then(|window| window.local_storage().ok().flatten())
            .ok_or(SceneFileIoError::NoStorage)
    }

    fn key(path: &Path) -> String {
        format!("{PREFIX}{}", path.display())
    }

    pub(super) fn write(path: &Path, text: &str) -> Result<(), SceneFileIoError> {
        storage()?
            .set_item(&key(path), text)
            .map_err(|error| SceneFileIoError::StorageRefused {
                path: path.to_owned(),
                reason: format!("{error:?}"),
            })
    }

    pub(super) fn read(path: &Path) -> Result<String, SceneFileIoError> {
        storage()?
            .get_item(&key(path))
            .ok()
            .flatten()
            .ok_or_else(|| SceneFileIoError::NotSaved {
                path: path.to_owned(),
            })
    }
}

/// An empty scene knowing `engine`'s asset names: where a level is loaded
/// first, so a bad file leaves the real scene alone.
pub(super) fn scratch_scene(engine: &Engine) -> crate::Scene {
    let mut scratch = crate::Scene::new();
    if let Some(names) = engine.scene().world().get_resource::<AssetNames>() {
        scratch.world_mut().insert_resource(names.clone());
    }
    scratch
}

impl Editor {
    /// Loads the level `text` (read from [`file`](Self::file)) into
    /// `scene`, its prefabs read from [`prefab_folder`](Self::prefab_folder)
    /// or the file's folder.
    pub(super) fn load_level_text(
        &self,
        scene: &mut crate::Scene,
        text: &str,
    ) -> Result<LoadedScene, EditorFileError> {
        let folder = self
            .prefab_folder
            .clone()
            .unwrap_or_else(|| self.file.parent().map(PathBuf::from).unwrap_or_default());
        let mut prefabs =
            |source: &str| read_scene_file(&folder.join(source)).map_err(|e| e.to_string());
        Ok(load_scene_with(
            scene,
            text,
            &self.file.display().to_string(),
            &self.types,
            None,
            &mut prefabs,
        )?)
    }

    /// Saves the scene to [`file`](Self::file).
    ///
    /// # Errors
    /// The scene-file or file-system error (its text is also the status).
    pub fn save(&mut self, engine: &Engine) -> Result<(), EditorFileError> {
        let result = save_scene(engine.scene(), &self.types)
            .map_err(EditorFileError::from)
            .and_then(|saved| {
                write_scene_file(&self.file, &saved.text)?;
                self.last_text = Some(saved.text);
                Ok(saved.skipped.len())
            });
        if result.is_ok() {
            self.remember_level(engine);
        }
        match &result {
            Ok(0) => self.status = format!("saved {}", self.file.display()),
            Ok(skipped) => {
                self.status = format!(
                    "saved {} ({skipped} unregistered behaviours left out)",
                    self.file.display()
                );
            }
            Err(error) => self.status = format!("save: {error}"),
        }
        result.map(|_| ())
    }

    /// Replaces the scene's objects with [`file`](Self::file)'s (prefabs
    /// read from the same folder). The history is cleared.
    ///
    /// # Errors
    /// The file-system or scene-file error (its text is also the status);
    /// the scene is left as it was then.
    pub fn load(&mut self, engine: &mut Engine) -> Result<(), EditorFileError> {
        let result = read_scene_file(&self.file)
            .map_err(EditorFileError::from)
            .and_then(|text| {
                self.last_text = Some(text.clone());
                // Loaded into an empty copy first, so a bad file leaves the scene alone.
                self.load_level_text(&mut scratch_scene(engine), &text)?;
                let scene = engine.scene_mut();
                for root in scene.roots() {
                    if scene.get_component::<EditorOnly>(root).is_none() {
                        let _ = scene.remove(root);
                    }
                }
                self.load_level_text(scene, &text)
            });
        match result {
            Ok(loaded) => {
                self.sync_models(engine);
                self.remember_level(engine);
                self.history.clear();
                self.select(None);
                self.status = format!(
                    "loaded {} ({} objects{})",
                    self.file.display(),
                    loaded.objects.len(),
                    if loaded.problems.is_empty() {
                        String::new()
                    } else {
                        format!(
                            ", {} problems: {}",
                            loaded.problems.len(),
                            loaded.problems[0]
                        )
                    }
                );
                Ok(())
            }
            Err(error) => {
                self.status = format!("load: {error}");
                Err(error)
            }
        }
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
                .to_string()
                .contains("missing.json")
        );
    }
}
