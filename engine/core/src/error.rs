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

/// Something that went wrong while the scene updated, reported through
/// [`Scene::take_errors`](crate::Scene::take_errors) and, under a loop, the
/// loop's error path ([`GameLoop::take_errors`](crate::game_loop::GameLoop::take_errors),
/// `taos_engine`'s `Engine::frame` `Err`).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum UpdateError {
    /// A behaviour's lifecycle method returned an error.
    #[error("behaviour {behaviour} on {object:?} failed in {stage}")]
    Behaviour {
        /// The behaviour's [`name`](crate::Behaviour::name).
        behaviour: &'static str,
        /// The object it is attached to.
        object: GameObject,
        /// Which method: `on_attach`, `update`, `update_render` or `on_detach`.
        stage: &'static str,
        /// What the behaviour returned.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// A queued [`SceneCommands`](crate::SceneCommands) command was refused.
    #[error("a queued scene command was refused")]
    Command(#[source] SceneError),
    /// A quick save or quick load asked for through
    /// [`LoopControl`](crate::game_loop::LoopControl) failed.
    #[error("quick save or load failed")]
    Snapshot(#[source] crate::game_loop::SnapshotError),
}
