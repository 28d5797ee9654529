//! Why a scene file could not be saved or loaded.

use crate::object::ObjectId;

/// Why a scene file could not be loaded (or a scene saved). Every error
/// names the file and, where there is one, the line and the object; a
/// load is all or nothing: the scene is untouched on an error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SceneFileError {
    /// The text is not a scene file: bad JSON, or a field of the wrong type.
    #[error("{file}:{line}:{column}: {message}")]
    Syntax {
        /// The file's name, as given to the loader.
        file: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the parser expected.
        message: String,
    },
    /// The file was written by a newer engine whose format this one does
    /// not read.
    #[error("{file}: scene format {found} is newer than this engine reads (up to {supported})")]
    Format {
        /// The file's name.
        file: String,
        /// The format the file declares.
        found: u32,
        /// The newest format this engine reads.
        supported: u32,
    },
    /// An object's entry is inconsistent: two objects with one id, a parent
    /// that is not in the file, a parent cycle, a non-finite transform.
    #[error("{file}:{line}: object {} ({name:?}): {reason}", id.0)]
    Object {
        /// The file's name.
        file: String,
        /// The line the object's entry starts on.
        line: usize,
        /// The object's id in the file.
        id: ObjectId,
        /// Its name.
        name: String,
        /// What is wrong.
        reason: String,
    },
    /// A registered component or behaviour's data does not decode, or
    /// decodes to a value its type refuses.
    #[error("{file}:{line}: object {} ({name:?}): {kind} {type_name}: {reason}", id.0)]
    Value {
        /// The file's name.
        file: String,
        /// The line the value starts on.
        line: usize,
        /// The object's id in the file.
        id: ObjectId,
        /// Its name.
        name: String,
        /// A component's or a behaviour's.
        kind: ValueKind,
        /// The registered name.
        type_name: String,
        /// Why.
        reason: String,
    },
    /// An object's id is already held by an object of the scene loaded into.
    #[error("{file}:{line}: object {} ({name:?}): the scene already has an object with this id", id.0)]
    IdInUse {
        /// The file's name.
        file: String,
        /// The line the object's entry starts on.
        line: usize,
        /// The id.
        id: ObjectId,
        /// The file object's name.
        name: String,
    },
    /// A prefab instance's file could not be read, or was refused: the
    /// instance loaded as a placeholder (see
    /// [`LoadedScene::problems`](super::LoadedScene::problems)), or
    /// [`instantiate_prefab`](super::instantiate_prefab) failed.
    #[error("{file}:{line}: object {} ({name:?}): prefab {source_file:?}: {reason}", id.0)]
    Prefab {
        /// The file holding the instance.
        file: String,
        /// The line of the instance's entry.
        line: usize,
        /// The instance root's id.
        id: ObjectId,
        /// Its name.
        name: String,
        /// The prefab file the instance names.
        source_file: String,
        /// Why it could not be used.
        reason: String,
    },
    /// A component or behaviour failed to serialise while saving.
    #[error("object {}: {kind} {type_name} does not serialise: {reason}", id.0)]
    Save {
        /// The object's id.
        id: ObjectId,
        /// A component's or a behaviour's.
        kind: ValueKind,
        /// The registered name.
        type_name: String,
        /// Why.
        reason: String,
    },
}

/// Whose data a [`SceneFileError::Value`] or [`SceneFileError::Save`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    /// A component's.
    Component,
    /// A behaviour's.
    Behaviour,
}

impl std::fmt::Display for ValueKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Component => "component",
            Self::Behaviour => "behaviour",
        })
    }
}
