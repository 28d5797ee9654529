//! [`ModelFile`]: an object that shows a model file (glTF), stored in
//! scene files as the file's path, not as the objects the model spawns.

use std::path::{Component as PathPart, Path};

use bevy_ecs::component::Component;
use serde::{Deserialize, Serialize};

/// An object that shows a model file: the engine spawns the file's objects
/// under it (`taos_engine`'s `Engine::spawn_model_files`), each marked
/// [`ModelPart`], and scene files store only this component
/// (`"taos.Model": {"path": "props/lamp.glb"}`), so a change to the model
/// file shows in every scene that uses it.
///
/// The path is relative to the folder the game (or the editor) loads
/// models from, uses `/` between folders, and may not leave that folder:
/// absolute paths and `..` are refused ([`ModelFile::new`], and the scene
/// file loader, which names the file, line and object).
#[derive(Component, Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "ModelFileDoc", into = "ModelFileDoc")]
pub struct ModelFile {
    path: String,
    /// Start the model's first animation, looped, when it spawns.
    pub autoplay: bool,
}

impl ModelFile {
    /// The model at `path` (relative to the models folder).
    ///
    /// # Errors
    /// [`ModelPathError`]: the path is empty, uses `\\`, is absolute, or
    /// leaves the folder.
    ///
    /// ```
    /// use taos_core::scene_file::{ModelFile, ModelPathError};
    ///
    /// assert!(ModelFile::new("props/lamp.glb").is_ok());
    /// assert!(matches!(ModelFile::new("../secrets.glb"), Err(ModelPathError::Outside { .. })));
    /// ```
    pub fn new(path: impl Into<String>) -> Result<Self, ModelPathError> {
        let path = path.into();
        check_model_path(&path)?;
        Ok(Self {
            path,
            autoplay: false,
        })
    }

    /// Plays the model's first animation, looped, when it spawns.
    #[must_use]
    pub fn with_autoplay(mut self, autoplay: bool) -> Self {
        self.autoplay = autoplay;
        self
    }

    /// The path, relative to the models folder.
    #[must_use]
    pub fn path(&self) -> &str {
        &self.path
    }
}

/// Marks an object spawned from a [`ModelFile`] (its model's nodes): scene
/// files leave it and its children out (the model file holds them), and
/// the editor selects the object carrying the `ModelFile` when one is
/// clicked.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ModelPart;

/// Why a model path is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ModelPathError {
    /// No path at all.
    #[error("the model path is empty")]
    Empty,
    /// A backslash or NUL: paths are portable, `/` between folders.
    #[error("model path {path:?}: use '/' between folders")]
    Separator {
        /// The path as given.
        path: String,
    },
    /// Absolute, or `..` leaving the models folder.
    #[error("model path {path:?} leaves the models folder (absolute paths and '..' are refused)")]
    Outside {
        /// The path as given.
        path: String,
    },
}

/// Refuses a model path that is empty, absolute, or leaves its folder
/// (`..`): a scene file from elsewhere must not read files outside the
/// game's models.
fn check_model_path(path: &str) -> Result<(), ModelPathError> {
    if path.is_empty() {
        return Err(ModelPathError::Empty);
    }
    if path.contains('\\') || path.contains('\0') {
        return Err(ModelPathError::Separator {
            path: path.to_owned(),
        });
    }
    let inside = Path::new(path)
        .components()
        .all(|part| matches!(part, PathPart::Normal(_) | PathPart::CurDir));
    if inside {
        Ok(())
    } else {
        Err(ModelPathError::Outside {
            path: path.to_owned(),
        })
    }
}

#[derive(Serialize, Deserialize)]
struct ModelFileDoc {
    path: String,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    autoplay: bool,
}

impl TryFrom<ModelFileDoc> for ModelFile {
    type Error = ModelPathError;

    fn try_from(doc: ModelFileDoc) -> Result<Self, ModelPathError> {
        Ok(Self::new(doc.path)?.with_autoplay(doc.autoplay))
    }
}

impl From<ModelFile> for ModelFileDoc {
    fn from(model: ModelFile) -> Self {
        Self {
            path: model.path,
            autoplay: model.autoplay,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_inside_the_folder_are_kept_and_others_refused() {
        for good in ["lamp.glb", "props/lamp.gltf", "./props/lamp.glb"] {
            assert!(ModelFile::new(good).is_ok(), "{good}");
        }
        for bad in [
            "",
            "../lamp.glb",
            "props/../../lamp.glb",
            "/etc/passwd",
            "props\\lamp.glb",
        ] {
            assert!(ModelFile::new(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_file_with_a_bad_path_does_not_decode() {
        let bad: Result<ModelFile, _> = serde_json::from_str(r#"{"path":"../../x.glb"}"#);
        assert!(bad.is_err());
        let good: ModelFile = serde_json::from_str(r#"{"path":"x.glb","autoplay":true}"#).unwrap();
        assert!(good.autoplay);
        assert_eq!(
            serde_json::to_string(&good).unwrap(),
            r#"{"path":"x.glb","autoplay":true}"#
        );
    }
}
