//! Scene edits as data, with undo and redo: what the editor's hierarchy,
//! inspector and gizmos send, and what its history keeps.
//!
//! An [`EditCommand`] names objects by their stable [`ObjectId`]s.
//! [`EditHistory::apply`] carries it out on a [`Scene`] and keeps its
//! inverse, so [`undo`](EditHistory::undo) and [`redo`](EditHistory::redo)
//! walk back and forth; a deletion keeps the deleted subtree as scene-file
//! text (ids included), so undoing it brings back the same objects with
//! the same ids. Commands sent with the same gesture number (one drag of
//! a gizmo) merge into one undo step.
//!
//! ```
//! use taos_core::edit::{EditCommand, EditHistory};
//! use taos_core::prelude::*;
//! use taos_core::scene_file::SceneTypes;
//!
//! let mut scene = Scene::new();
//! let crate_ = scene.spawn("Crate");
//! let id = scene.id(crate_).unwrap();
//! let types = SceneTypes::default();
//! let mut history = EditHistory::default();
//! history.apply(&mut scene, &types, EditCommand::Rename { object: id, name: "Big crate".into() })?;
//! history.apply(&mut scene, &types, EditCommand::Delete { object: id })?;
//! assert!(scene.find_by_id(id).is_none());
//! history.undo(&mut scene, &types)?;
//! history.undo(&mut scene, &types)?;
//! let back = scene.find_by_id(id).unwrap();
//! assert_eq!(scene.name(back), Some("Crate"));
//! # Ok::<(), taos_core::edit::EditError>(())
//! ```

pub mod viewport;

use glam::Affine3A;

use crate::Scene;
use crate::object::{GameObject, ObjectId};
use crate::scene_file::{
    ModelPart, PrefabPart, SceneFileError, SceneTypes, load_scene, save_subtree,
};
use crate::transform::Transform;

/// One edit of a scene.
#[derive(Debug, Clone, PartialEq)]
pub enum EditCommand {
    /// Renames an object.
    Rename {
        /// The object.
        object: ObjectId,
        /// Its new name.
        name: String,
    },
    /// Sets an object's local transform.
    SetTransform {
        /// The object.
        object: ObjectId,
        /// Its new local transform.
        transform: Transform,
    },
    /// Enables or disables an object.
    SetEnabled {
        /// The object.
        object: ObjectId,
        /// Enabled or not.
        enabled: bool,
    },
    /// Moves an object under another (or to the root), keeping where it is
    /// in the world.
    Reparent {
        /// The object.
        object: ObjectId,
        /// Its new parent, or `None` for a root.
        parent: Option<ObjectId>,
    },
    /// Creates an empty object.
    Create {
        /// The id to give it (`None`: a fresh one; the history records the
        /// one given, so a redo makes the same object).
        id: Option<ObjectId>,
        /// Its name.
        name: String,
        /// Its parent.
        parent: Option<ObjectId>,
        /// Its local transform.
        transform: Transform,
    },
    /// Deletes an object and its children.
    Delete {
        /// The object.
        object: ObjectId,
    },
    /// Copies an object and its children next to it, with fresh ids.
    Duplicate {
        /// The object.
        object: ObjectId,
    },
    /// Puts objects back from scene-file text (what undoing a deletion or
    /// redoing a duplication does).
    Restore {
        /// The subtree as scene-file text (its root has no parent).
        text: String,
        /// Where its root goes.
        parent: Option<ObjectId>,
    },
    /// Sets a registered component from its scene-file JSON, or removes it
    /// (`None`): what the inspector sends.
    SetComponent {
        /// The object.
        object: ObjectId,
        /// The component's registered name.
        type_name: String,
        /// Its new value as JSON text, or `None` to remove it.
        value: Option<String>,
    },
    /// Several edits as one step.
    Batch(Vec<EditCommand>),
}

/// Why an edit could not be made. The scene is unchanged then.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EditError {
    /// No object has this id.
    #[error("no object has id {}", .0.0)]
    NoSuchObject(ObjectId),
    /// The new parent is the object itself or one of its children.
    #[error("object {} cannot go under its own subtree", .0.0)]
    Cycle(ObjectId),
    /// A prefab instance's part cannot be deleted or duplicated on its own.
    #[error("object {} is part of a prefab instance: unpack the instance to delete or copy it", .0.0)]
    PrefabPart(ObjectId),
    /// An object spawned from a model file cannot be deleted or
    /// duplicated on its own (edit the object showing the model).
    #[error("object {} is part of a model: delete or copy the object showing the model", .0.0)]
    ModelPart(ObjectId),
    /// The transform is not finite.
    #[error("object {}: the transform is not finite", .0.0)]
    NotFinite(ObjectId),
    /// A component value was refused.
    #[error("object {}: component {type_name}: {reason}", object.0)]
    Component {
        /// The object.
        object: ObjectId,
        /// The component's registered name.
        type_name: String,
        /// Why.
        reason: String,
    },
    /// Saving or restoring a subtree failed.
    #[error(transparent)]
    SceneFile(#[from] SceneFileError),
    /// The game is playing (the editor's play mode): stop it to edit.
    #[error("the game is playing: stop it to edit")]
    Playing,
    /// There is nothing to undo or redo.
    #[error("nothing to {0}")]
    Empty(&'static str),
}

/// A step of the history: the command as carried out, and its inverse.
#[derive(Debug, Clone, PartialEq)]
struct Step {
    done: EditCommand,
    undo: EditCommand,
    gesture: Option<u64>,
}

/// The undo and redo stacks of a scene's edits.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EditHistory {
    undo: Vec<Step>,
    redo: Vec<Step>,
}

impl EditHistory {
    /// Carries out `command` as a new undo step (clearing the redo stack).
    ///
    /// # Errors
    /// [`EditError`]; the scene and the history are unchanged then.
    pub fn apply(
        &mut self,
        scene: &mut Scene,
        types: &SceneTypes,
        command: EditCommand,
    ) -> Result<(), EditError> {
        self.apply_in_gesture(scene, types, command, None)
    }

    /// [`apply`](Self::apply) as part of gesture `gesture` (one drag of a
    /// gizmo, one slider drag): consecutive commands of the same gesture
    /// are one undo step, undone back to before the gesture began.
    ///
    /// # Errors
    /// As [`apply`](Self::apply).
    pub fn apply_in_gesture(
        &mut self,
        scene: &mut Scene,
        types: &SceneTypes,
        command: EditCommand,
        gesture: Option<u64>,
    ) -> Result<(), EditError> {
        let (done, undo) = carry_out(scene, types, command)?;
        self.redo.clear();
        if let (Some(g), Some(top)) = (gesture, self.undo.last_mut())
            && top.gesture == Some(g)
        {
            // One step: undo goes back to before the gesture, redo to its end.
            let same_target = matches!(
                (&top.done, &done),
                (
                    EditCommand::SetTransform { object: a, .. },
                    EditCommand::SetTransform { object: b, .. },
                ) if a == b
            );
            if same_target {
                top.done = done;
            } else {
                let empty = || EditCommand::Batch(Vec::new());
                let first_undo = std::mem::replace(&mut top.undo, empty());
                let first_done = std::mem::replace(&mut top.done, empty());
                top.undo = EditCommand::Batch(vec![undo, first_undo]);
                top.done = EditCommand::Batch(vec![first_done, done]);
            }
            return Ok(());
        }
        self.undo.push(Step {
            done,
            undo,
            gesture,
        });
        Ok(())
    }

    /// Undoes the last step.
    ///
    /// # Errors
    /// [`EditError::Empty`] with nothing to undo; another [`EditError`] if
    /// the scene was changed behind the history's back (the step is kept).
    pub fn undo(&mut self, scene: &mut Scene, types: &SceneTypes) -> Result<(), EditError> {
        let step = self.undo.pop().ok_or(EditError::Empty("undo"))?;
        match carry_out(scene, types, step.undo.clone()) {
            Ok((undone, redo)) => {
                self.redo.push(Step {
                    done: redo,
                    undo: undone,
                    gesture: None,
                });
                Ok(())
            }
            Err(error) => {
                self.undo.push(step);
                Err(error)
            }
        }
    }

    /// Redoes the last undone step.
    ///
    /// # Errors
    /// As [`undo`](Self::undo).
    pub fn redo(&mut self, scene: &mut Scene, types: &SceneTypes) -> Result<(), EditError> {
        let step = self.redo.pop().ok_or(EditError::Empty("redo"))?;
        match carry_out(scene, types, step.done.clone()) {
            Ok((done, undo)) => {
                self.undo.push(Step {
                    done,
                    undo,
                    gesture: None,
                });
                Ok(())
            }
            Err(error) => {
                self.redo.push(step);
                Err(error)
            }
        }
    }

    /// Steps that can be undone.
    #[must_use]
    pub fn undo_len(&self) -> usize {
        self.undo.len()
    }

    /// Steps that can be redone.
    #[must_use]
    pub fn redo_len(&self) -> usize {
        self.redo.len()
    }

    /// Forgets every step (after loading another scene).
    pub fn clear(&mut self) {
        self.undo.clear();
        self.redo.clear();
    }
}

fn find(scene: &Scene, id: ObjectId) -> Result<GameObject, EditError> {
    scene.find_by_id(id).ok_or(EditError::NoSuchObject(id))
}

/// An object that may be deleted or copied on its own (not a prefab's or a
/// model's part): the object, its subtree as scene-file text, and its
/// parent's id.
fn own_subtree(
    scene: &Scene,
    types: &SceneTypes,
    object: ObjectId,
) -> Result<(GameObject, String, Option<ObjectId>), EditError> {
    let target = find(scene, object)?;
    if scene.get_component::<PrefabPart>(target).is_some() {
        return Err(EditError::PrefabPart(object));
    }
    if scene.get_component::<ModelPart>(target).is_some() {
        return Err(EditError::ModelPart(object));
    }
    let text = save_subtree(scene, types, target)?.text;
    let parent = scene.parent(target).and_then(|p| scene.id(p));
    Ok((target, text, parent))
}

/// Carries out `command`; returns `(done, undo)`: the command as carried
/// out (the ids it chose filled in: what a redo repeats) and its inverse.
fn carry_out(
    scene: &mut Scene,
    types: &SceneTypes,
    command: EditCommand,
) -> Result<(EditCommand, EditCommand), EditError> {
    match command {
        EditCommand::Rename { object, name } => {
            let target = find(scene, object)?;
            let old = scene.name(target).unwrap_or("").to_owned();
            let _ = scene.set_name(target, name.clone());
            Ok((
                EditCommand::Rename { object, name },
                EditCommand::Rename { object, name: old },
            ))
        }
        EditCommand::SetTransform { object, transform } => {
            let target = find(scene, object)?;
            if !transform.is_finite() {
                return Err(EditError::NotFinite(object));
            }
            let old = scene.transform(target).copied().unwrap_or_default();
            set_local(scene, target, transform);
            Ok((
                EditCommand::SetTransform { object, transform },
                EditCommand::SetTransform {
                    object,
                    transform: old,
                },
            ))
        }
        EditCommand::SetEnabled { object, enabled } => {
            let target = find(scene, object)?;
            let old = scene.is_enabled(target).unwrap_or(true);
            let _ = scene.set_enabled(target, enabled);
            Ok((
                EditCommand::SetEnabled { object, enabled },
                EditCommand::SetEnabled {
                    object,
                    enabled: old,
                },
            ))
        }
        EditCommand::Reparent { object, parent } => reparent(scene, object, parent),
        EditCommand::Create {
            id,
            name,
            parent,
            transform,
        } => {
            let parent_object = parent.map(|p| find(scene, p)).transpose()?;
            if !transform.is_finite() {
                return Err(EditError::NotFinite(id.unwrap_or(ObjectId(0))));
            }
            if let Some(id) = id
                && scene.find_by_id(id).is_some()
            {
                return Err(EditError::SceneFile(SceneFileError::IdInUse {
                    file: "edit".to_owned(),
                    line: 0,
                    id,
                    name,
                }));
            }
            let object = scene.spawn_with(name.clone(), transform);
            if let Some(id) = id {
                let _ = scene.set_id(object, id);
            }
            if let Some(parent) = parent_object {
                let _ = scene.add_child(parent, object);
            }
            let id = scene.id(object).unwrap_or(ObjectId(0));
            Ok((
                EditCommand::Create {
                    id: Some(id),
                    name,
                    parent,
                    transform,
                },
                EditCommand::Delete { object: id },
            ))
        }
        EditCommand::Delete { object } => {
            let (target, text, parent) = own_subtree(scene, types, object)?;
            let _ = scene.remove(target);
            Ok((
                EditCommand::Delete { object },
                EditCommand::Restore { text, parent },
            ))
        }
        EditCommand::Duplicate { object } => {
            let (_, text, parent) = own_subtree(scene, types, object)?;
            let text = with_fresh_ids(scene, &text)?;
            carry_out(scene, types, EditCommand::Restore { text, parent })
        }
        EditCommand::Restore { text, parent } => {
            let parent_object = parent.map(|p| find(scene, p)).transpose()?;
            let loaded = load_scene(scene, &text, "edit history", types, parent_object)?;
            let root = loaded
                .objects
                .first()
                .map(|&(id, _)| id)
                .unwrap_or(ObjectId(0));
            Ok((
                EditCommand::Restore { text, parent },
                EditCommand::Delete { object: root },
            ))
        }
        EditCommand::SetComponent {
            object,
            type_name,
            value,
        } => {
            let target = find(scene, object)?;
            let error = |reason: String| EditError::Component {
                object,
                type_name: type_name.clone(),
                reason,
            };
            let old = types
                .component_text(scene, target, &type_name)
                .map_err(error)?;
            types
                .set_component_text(scene, target, &type_name, value.as_deref())
                .map_err(error)?;
            Ok((
                EditCommand::SetComponent {
                    object,
                    type_name: type_name.clone(),
                    value,
                },
                EditCommand::SetComponent {
                    object,
                    type_name,
                    value: old,
                },
            ))
        }
        EditCommand::Batch(commands) => {
            let mut done = Vec::with_capacity(commands.len());
            let mut undo = Vec::with_capacity(commands.len());
            for command in commands {
                match carry_out(scene, types, command) {
                    Ok((d, u)) => {
                        done.push(d);
                        undo.push(u);
                    }
                    Err(error) => {
                        // Put back what this batch did, newest first.
                        for u in undo.into_iter().rev() {
                            let _ = carry_out(scene, types, u);
                        }
                        return Err(error);
                    }
                }
            }
            undo.reverse();
            Ok((EditCommand::Batch(done), EditCommand::Batch(undo)))
        }
    }
}

fn set_local(scene: &mut Scene, object: GameObject, transform: Transform) {
    if let Some(mut t) = scene.world_mut().get_mut::<Transform>(object.entity()) {
        *t = transform;
    }
}

fn reparent(
    scene: &mut Scene,
    object: ObjectId,
    parent: Option<ObjectId>,
) -> Result<(EditCommand, EditCommand), EditError> {
    let target = find(scene, object)?;
    let new_parent = parent.map(|p| find(scene, p)).transpose()?;
    let old_parent = scene.parent(target).and_then(|p| scene.id(p));
    let old_local = scene.transform(target).copied().unwrap_or_default();
    let world = scene.world_matrix(target).unwrap_or(Affine3A::IDENTITY);
    match new_parent {
        Some(p) => scene
            .add_child(p, target)
            .map_err(|_| EditError::Cycle(object))?,
        None => {
            let _ = scene.detach(target);
        }
    }
    // Keep the world placement: local = inverse(new parent world) * world.
    let parent_world = new_parent
        .and_then(|p| scene.world_matrix(p))
        .unwrap_or(Affine3A::IDENTITY);
    let local = parent_world.inverse() * world;
    let (scale, rotation, position) = local.to_scale_rotation_translation();
    let local = Transform::from_trs(position, rotation.normalize(), scale);
    if local.is_finite() {
        set_local(scene, target, local);
    }
    Ok((
        EditCommand::Reparent { object, parent },
        // Back under the old parent, with the old local transform exactly.
        EditCommand::Batch(vec![
            EditCommand::Reparent {
                object,
                parent: old_parent,
            },
            EditCommand::SetTransform {
                object,
                transform: old_local,
            },
        ]),
    ))
}

/// `text` (a saved subtree) with every id replaced by a fresh one of
/// `scene`'s, parents following.
fn with_fresh_ids(scene: &Scene, text: &str) -> Result<String, EditError> {
    let mut doc: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        EditError::SceneFile(SceneFileError::Syntax {
            file: "edit history".to_owned(),
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        })
    })?;
    let mut next = crate::object::ObjectIds::next_free(scene.world()).0;
    let mut map = std::collections::HashMap::new();
    let objects = doc
        .get_mut("objects")
        .and_then(serde_json::Value::as_array_mut);
    for object in objects.into_iter().flatten() {
        let Some(old) = object.get("id").and_then(serde_json::Value::as_u64) else {
            continue;
        };
        while scene.find_by_id(ObjectId(next)).is_some() {
            next += 1;
        }
        map.insert(old, next);
        object["id"] = next.into();
        next += 1;
        if let Some(parent) = object.get("parent").and_then(serde_json::Value::as_u64)
            && let Some(&new) = map.get(&parent)
        {
            object["parent"] = new.into();
        }
    }
    Ok(doc.to_string())
}
