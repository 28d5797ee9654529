//! Errors of scene operations.

use crate::object::{GameObject, ObjectId};

/// Why a [`Scene`](crate::Scene) operation was refused. Nothing was changed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SceneError {
    /// The handle refers to an object that was removed (or never was a GameObject).
    #[error("{0:?} is not a live GameObject of this scene")]
    StaleObject(GameObject),
    /// The re-parenting would make an object its own ancestor.
    #[error("cannot parent {child:?} under {parent:?}: {child:?} would become its own ancestor")]
    WouldCreateCycle {
        /// The requested parent.
        parent: GameObject,
        /// The object being re-parented.
        child: GameObject,
    },
    /// Another live object already has this id.
    #[error("object id {id} is already used by {holder:?}")]
    DuplicateId {
        /// The requested id.
        id: ObjectId,
        /// The object that has it.
        holder: GameObject,
    },
}
