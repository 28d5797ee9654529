//! Reading a scene file into a scene, all or nothing.

use std::collections::{BTreeMap, HashMap};

use glam::{Quat, Vec3};
use serde::Deserialize;
use serde_json::value::RawValue;

use crate::Scene;
use crate::behaviour::Behaviour;
use crate::object::{GameObject, ObjectId};
use crate::transform::Transform;

use super::types::Apply;
use super::{SCENE_FORMAT, SceneFileError, SceneTypes, UnknownData, ValueKind};

/// What [`load_scene`] made.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadedScene {
    /// The file's root objects, in file order (children of `parent` when
    /// one was given).
    pub roots: Vec<GameObject>,
    /// Every object the file made, by its id, in file order.
    pub objects: Vec<(ObjectId, GameObject)>,
    /// Names of components and behaviours the file holds that `types`
    /// does not register: kept on their objects as [`UnknownData`] and
    /// written back unchanged by the next save.
    pub unknown: Vec<String>,
}

#[derive(Deserialize)]
struct FileDoc<'a> {
    format: u32,
    #[serde(borrow, default)]
    objects: Vec<&'a RawValue>,
}

fn enabled_default() -> bool {
    true
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ObjectDoc<'a> {
    id: u64,
    #[serde(default)]
    name: String,
    #[serde(default = "enabled_default")]
    enabled: bool,
    #[serde(default)]
    parent: Option<u64>,
    #[serde(default)]
    position: Option<[f32; 3]>,
    #[serde(default)]
    rotation: Option<[f32; 4]>,
    #[serde(default)]
    scale: Option<[f32; 3]>,
    #[serde(borrow, default)]
    components: BTreeMap<String, &'a RawValue>,
    #[serde(borrow, default)]
    behaviours: Vec<BehaviourDoc<'a>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BehaviourDoc<'a> {
    #[serde(rename = "type")]
    kind: String,
    #[serde(borrow)]
    data: &'a RawValue,
}

/// One object, checked and decoded, ready to spawn.
struct Pending {
    id: ObjectId,
    name: String,
    line: usize,
    enabled: bool,
    parent: Option<ObjectId>,
    transform: Transform,
    components: Vec<Apply>,
    behaviours: Vec<Box<dyn Behaviour>>,
    unknown: UnknownData,
}

/// The 1-based line `inner` (a slice of `text`) starts on.
fn line_of(text: &str, inner: &str) -> usize {
    let offset = (inner.as_ptr() as usize).saturating_sub(text.as_ptr() as usize);
    1 + text
        .as_bytes()
        .get(..offset.min(text.len()))
        .map_or(0, |before| before.iter().filter(|&&b| b == b'\n').count())
}

/// Loads the scene file `text` (named `file` in errors) into `scene`,
/// under `parent` when given. Objects keep their ids from the file, so
/// references between them (and to them from saves) hold.
///
/// Everything is checked before the scene is touched: the JSON, the
/// format, unique ids not already in the scene, parents that are in the
/// file without cycles, finite transforms, and every registered
/// component's and behaviour's data. Components and behaviours `types`
/// does not know are kept as [`UnknownData`] and written back unchanged.
/// Behaviours are attached as [`Scene::add_behaviour`] attaches them.
///
/// # Errors
/// [`SceneFileError`], naming the file, the line and the object; the
/// scene is left as it was.
pub fn load_scene(
    scene: &mut Scene,
    text: &str,
    file: &str,
    types: &SceneTypes,
    parent: Option<GameObject>,
) -> Result<LoadedScene, SceneFileError> {
    let syntax = |error: &serde_json::Error, line_base: usize| SceneFileError::Syntax {
        file: file.to_owned(),
        line: line_base + error.line().saturating_sub(1),
        column: error.column(),
        message: error.to_string(),
    };
    let doc: FileDoc<'_> = serde_json::from_str(text).map_err(|e| syntax(&e, 1))?;
    if doc.format != SCENE_FORMAT {
        return Err(SceneFileError::Format {
            file: file.to_owned(),
            found: doc.format,
            supported: SCENE_FORMAT,
        });
    }
    let mut pending: Vec<Pending> = Vec::with_capacity(doc.objects.len());
    let mut index: HashMap<ObjectId, usize> = HashMap::with_capacity(doc.objects.len());
    let mut unknown_names: Vec<String> = Vec::new();
    for raw in &doc.objects {
        let line = line_of(text, raw.get());
        let object: ObjectDoc<'_> =
            serde_json::from_str(raw.get()).map_err(|e| syntax(&e, line))?;
        let id = ObjectId(object.id);
        let object_error = |reason: String| SceneFileError::Object {
            file: file.to_owned(),
            line,
            id,
            name: object.name.clone(),
            reason,
        };
        if index.insert(id, pending.len()).is_some() {
            return Err(object_error(
                "another object in the file has this id".to_owned(),
            ));
        }
        if scene.find_by_id(id).is_some() {
            return Err(SceneFileError::IdInUse {
                file: file.to_owned(),
                line,
                id,
                name: object.name.clone(),
            });
        }
        let transform = transform_of(&object).map_err(object_error)?;
        let mut components = Vec::new();
        let mut unknown = UnknownData::default();
        for (type_name, value) in &object.components {
            match types.component_type(type_name) {
                Some(kind) => {
                    components.push((kind.load)(scene.world(), value.get()).map_err(|reason| {
                        SceneFileError::Value {
                            file: file.to_owned(),
                            line: line_of(text, value.get()),
                            id,
                            name: object.name.clone(),
                            kind: ValueKind::Component,
                            type_name: type_name.clone(),
                            reason,
                        }
                    })?)
                }
                None => {
                    unknown
                        .components
                        .insert(type_name.clone(), value.get().to_owned());
                    unknown_names.push(type_name.clone());
                }
            }
        }
        let mut behaviours = Vec::new();
        for behaviour in &object.behaviours {
            match types.behaviour_type(&behaviour.kind) {
                Some(kind) => {
                    behaviours.push((kind.load)(behaviour.data.get()).map_err(|reason| {
                        SceneFileError::Value {
                            file: file.to_owned(),
                            line: line_of(text, behaviour.data.get()),
                            id,
                            name: object.name.clone(),
                            kind: ValueKind::Behaviour,
                            type_name: behaviour.kind.clone(),
                            reason,
                        }
                    })?)
                }
                None => {
                    unknown
                        .behaviours
                        .push((behaviour.kind.clone(), behaviour.data.get().to_owned()));
                    unknown_names.push(behaviour.kind.clone());
                }
            }
        }
        pending.push(Pending {
            id,
            name: object.name,
            line,
            enabled: object.enabled,
            parent: object.parent.map(ObjectId),
            transform,
            components,
            behaviours,
            unknown,
        });
    }
    check_parents(&pending, &index, file)?;
    unknown_names.sort();
    unknown_names.dedup();
    Ok(spawn(scene, pending, &index, parent, unknown_names))
}

fn transform_of(object: &ObjectDoc<'_>) -> Result<Transform, String> {
    let position = Vec3::from_array(object.position.unwrap_or([0.0; 3]));
    let rotation = object.rotation.map_or(Quat::IDENTITY, Quat::from_array);
    let scale = Vec3::from_array(object.scale.unwrap_or([1.0; 3]));
    if !(position.is_finite() && rotation.is_finite() && scale.is_finite()) {
        return Err("its transform is not finite".to_owned());
    }
    if rotation.length_squared() < 1e-12 {
        return Err("its rotation has no length".to_owned());
    }
    Ok(Transform::from_trs(position, rotation, scale))
}

/// Every parent is in the file, and no object is its own ancestor.
fn check_parents(
    pending: &[Pending],
    index: &HashMap<ObjectId, usize>,
    file: &str,
) -> Result<(), SceneFileError> {
    for object in pending {
        let error = |reason: String| SceneFileError::Object {
            file: file.to_owned(),
            line: object.line,
            id: object.id,
            name: object.name.clone(),
            reason,
        };
        let mut at = object.parent;
        let mut steps = 0;
        while let Some(parent) = at {
            let Some(&i) = index.get(&parent) else {
                return Err(error(format!("its parent {} is not in the file", parent.0)));
            };
            steps += 1;
            if parent == object.id || steps > pending.len() {
                return Err(error("its parents form a cycle".to_owned()));
            }
            at = pending[i].parent;
        }
    }
    Ok(())
}

/// Spawns the checked objects: all of them first (in file order, with
/// their ids), then the parent links, flags, components and behaviours.
fn spawn(
    scene: &mut Scene,
    pending: Vec<Pending>,
    index: &HashMap<ObjectId, usize>,
    parent: Option<GameObject>,
    unknown: Vec<String>,
) -> LoadedScene {
    let parent = parent.filter(|&p| scene.contains(p));
    let objects: Vec<(ObjectId, GameObject)> = pending
        .iter()
        .map(|p| {
            let object = scene.spawn_with(p.name.clone(), p.transform);
            // Checked above: no live object holds the id, and the ids the
            // loader's own spawns take are freed as each gets its file id.
            let _ = scene.set_id(object, p.id);
            (p.id, object)
        })
        .collect();
    let mut roots = Vec::new();
    for (p, &(_, object)) in pending.iter().zip(&objects) {
        match p.parent.and_then(|id| index.get(&id)) {
            Some(&i) => {
                let _ = scene.add_child(objects[i].1, object);
            }
            None => {
                if let Some(parent) = parent {
                    let _ = scene.add_child(parent, object);
                }
                roots.push(object);
            }
        }
    }
    for (p, &(_, object)) in pending.into_iter().zip(&objects) {
        if !p.enabled {
            let _ = scene.set_enabled(object, false);
        }
        for apply in p.components {
            apply(scene, object);
        }
        if !p.unknown.is_empty() {
            let _ = scene.add_component(object, p.unknown);
        }
        for behaviour in p.behaviours {
            let _ = scene.add_boxed_behaviour(object, behaviour);
        }
    }
    LoadedScene {
        roots,
        objects,
        unknown,
    }
}
