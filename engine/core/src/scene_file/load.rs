//! Reading a scene file into a scene, all or nothing (prefab instances
//! included: their files are read through a [`PrefabFiles`]).

use std::collections::{BTreeMap, HashMap, HashSet};

use glam::{Quat, Vec3};
use serde::Deserialize;
use serde_json::value::RawValue;

use crate::Scene;
use crate::behaviour::Behaviour;
use crate::object::{GameObject, ObjectId};
use crate::transform::Transform;

use super::prefab::{
    NoPrefabs, PrefabCache, PrefabFiles, PrefabInstance, PrefabPart, UnresolvedPrefab, part_id,
};
use super::types::Apply;
use super::{SCENE_FORMAT, SceneFileError, SceneTypes, UnknownData, ValueKind};

/// What [`load_scene`] made.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadedScene {
    /// The file's root objects, in file order (children of `parent` when
    /// one was given).
    pub roots: Vec<GameObject>,
    /// Every object the file made (prefab instances' parts included), by
    /// its id, in file order.
    pub objects: Vec<(ObjectId, GameObject)>,
    /// Names of components and behaviours the file holds that `types`
    /// does not register: kept on their objects as [`UnknownData`] and
    /// written back unchanged by the next save.
    pub unknown: Vec<String>,
    /// Prefab instances whose file could not be read or used: each is
    /// loaded as a placeholder object (its name, transform and parent)
    /// that the next save writes back as it was; the rest of the scene
    /// loaded.
    pub problems: Vec<SceneFileError>,
}

#[derive(Deserialize)]
pub(crate) struct FileDoc<'a> {
    pub(crate) format: u32,
    #[serde(borrow, default)]
    pub(crate) objects: Vec<&'a RawValue>,
}

fn enabled_default() -> bool {
    true
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ObjectDoc<'a> {
    pub(crate) id: u64,
    #[serde(default)]
    pub(crate) name: String,
    #[serde(default = "enabled_default")]
    pub(crate) enabled: bool,
    #[serde(default)]
    pub(crate) parent: Option<u64>,
    #[serde(default)]
    pub(crate) position: Option<[f32; 3]>,
    #[serde(default)]
    pub(crate) rotation: Option<[f32; 4]>,
    #[serde(default)]
    pub(crate) scale: Option<[f32; 3]>,
    #[serde(borrow, default)]
    pub(crate) components: BTreeMap<String, &'a RawValue>,
    #[serde(borrow, default)]
    pub(crate) behaviours: Vec<BehaviourDoc<'a>>,
    #[serde(borrow, default)]
    pub(crate) prefab: Option<PrefabDoc<'a>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BehaviourDoc<'a> {
    #[serde(rename = "type")]
    pub(crate) kind: String,
    #[serde(borrow)]
    pub(crate) data: &'a RawValue,
}

/// An instance entry's link: the prefab file and what this instance
/// changes in it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PrefabDoc<'a> {
    pub(crate) source: String,
    #[serde(borrow, default)]
    pub(crate) overrides: Vec<OverrideDoc<'a>>,
    #[serde(default)]
    pub(crate) deleted: Vec<u64>,
}

/// What an instance changes in one of its prefab's objects (by the
/// object's id in the prefab file).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct OverrideDoc<'a> {
    pub(crate) object: u64,
    #[serde(default)]
    pub(crate) name: Option<String>,
    #[serde(default)]
    pub(crate) enabled: Option<bool>,
    #[serde(default)]
    pub(crate) position: Option<[f32; 3]>,
    #[serde(default)]
    pub(crate) rotation: Option<[f32; 4]>,
    #[serde(default)]
    pub(crate) scale: Option<[f32; 3]>,
    #[serde(borrow, default)]
    pub(crate) components: BTreeMap<String, &'a RawValue>,
    #[serde(default)]
    pub(crate) removed: Vec<String>,
}

/// One object, checked and decoded, ready to spawn.
struct Pending {
    id: ObjectId,
    name: String,
    enabled: bool,
    parent: Option<ObjectId>,
    transform: Transform,
    components: Vec<(String, Apply)>,
    behaviours: Vec<Box<dyn Behaviour>>,
    unknown: UnknownData,
    part: Option<PrefabPart>,
    instance: Option<PrefabInstance>,
    unresolved: Option<UnresolvedPrefab>,
    /// Where its entry is, for errors found after reading.
    file: String,
    line: usize,
}

/// The 1-based line `inner` (a slice of `text`) starts on.
fn line_of(text: &str, inner: &str) -> usize {
    let offset = (inner.as_ptr() as usize).saturating_sub(text.as_ptr() as usize);
    1 + text
        .as_bytes()
        .get(..offset.min(text.len()))
        .map_or(0, |before| before.iter().filter(|&&b| b == b'\n').count())
}

/// How a file's ids become scene ids.
#[derive(Clone, Copy)]
enum Ids {
    /// As they are (a scene file).
    Keep,
    /// Mixed with the instance's id (a prefab's objects).
    Part(ObjectId),
}

impl Ids {
    fn map(self, local: u64) -> ObjectId {
        match self {
            Self::Keep => ObjectId(local),
            Self::Part(instance) => part_id(instance, ObjectId(local)),
        }
    }
}

/// Loads the scene file `text` (named `file` in errors) into `scene`,
/// under `parent` when given. Objects keep their ids from the file, so
/// references between them (and to them from saves) hold. A file holding
/// prefab instances needs [`load_scene_with`] and a [`PrefabFiles`].
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
    load_scene_with(scene, text, file, types, parent, &mut NoPrefabs)
}

/// [`load_scene`] for a file that may hold prefab instances: `prefabs`
/// reads each prefab file the first time it is named. An instance whose
/// file cannot be read or is refused becomes a placeholder (reported in
/// [`LoadedScene::problems`]); the rest of the scene loads.
///
/// # Errors
/// As [`load_scene`].
pub fn load_scene_with(
    scene: &mut Scene,
    text: &str,
    file: &str,
    types: &SceneTypes,
    parent: Option<GameObject>,
    prefabs: &mut dyn PrefabFiles,
) -> Result<LoadedScene, SceneFileError> {
    let mut reader = Reader {
        scene,
        types,
        prefabs,
        pending: Vec::new(),
        unknown: Vec::new(),
        problems: Vec::new(),
        texts: BTreeMap::new(),
    };
    reader.read(text, file, Ids::Keep, None)?;
    let Reader {
        pending,
        mut unknown,
        problems,
        texts,
        ..
    } = reader;
    let index = check(scene, &pending)?;
    unknown.sort();
    unknown.dedup();
    if !texts.is_empty() {
        let mut cache = scene
            .world_mut()
            .get_resource_or_insert_with(PrefabCache::default);
        cache.texts.extend(texts);
    }
    let mut loaded = spawn(scene, pending, &index, parent);
    loaded.unknown = unknown;
    loaded.problems = problems;
    Ok(loaded)
}

struct Reader<'s> {
    scene: &'s Scene,
    types: &'s SceneTypes,
    prefabs: &'s mut dyn PrefabFiles,
    pending: Vec<Pending>,
    unknown: Vec<String>,
    problems: Vec<SceneFileError>,
    /// Prefab texts read during this load, by source.
    texts: BTreeMap<String, String>,
}

fn syntax_error(file: &str, error: &serde_json::Error, line_base: usize) -> SceneFileError {
    SceneFileError::Syntax {
        file: file.to_owned(),
        line: line_base + error.line().saturating_sub(1),
        column: error.column(),
        message: error.to_string(),
    }
}

impl Reader<'_> {
    /// Reads one file's objects into `pending`: a scene file (`Ids::Keep`)
    /// or a prefab's (`Ids::Part`, its roots under the instance).
    fn read(
        &mut self,
        text: &str,
        file: &str,
        ids: Ids,
        instance: Option<ObjectId>,
    ) -> Result<(), SceneFileError> {
        let doc: FileDoc<'_> = serde_json::from_str(text).map_err(|e| syntax_error(file, &e, 1))?;
        if doc.format != SCENE_FORMAT {
            return Err(SceneFileError::Format {
                file: file.to_owned(),
                found: doc.format,
                supported: SCENE_FORMAT,
            });
        }
        for raw in &doc.objects {
            let line = line_of(text, raw.get());
            let object: ObjectDoc<'_> =
                serde_json::from_str(raw.get()).map_err(|e| syntax_error(file, &e, line))?;
            let id = ids.map(object.id);
            let at = Place {
                file,
                text,
                line,
                id,
                name: &object.name,
            };
            let transform = transform_of(object.position, object.rotation, object.scale)
                .map_err(|reason| at.object_error(reason))?;
            let parent = match (object.parent, instance) {
                (Some(local), _) => Some(ids.map(local)),
                (None, Some(instance)) => Some(instance),
                (None, None) => None,
            };
            let mut pending = Pending {
                id,
                name: object.name.clone(),
                enabled: object.enabled,
                parent,
                transform,
                components: Vec::new(),
                behaviours: Vec::new(),
                unknown: UnknownData::default(),
                part: instance.map(|instance| PrefabPart {
                    instance,
                    local: ObjectId(object.id),
                }),
                instance: None,
                unresolved: None,
                file: file.to_owned(),
                line,
            };
            for (type_name, value) in &object.components {
                self.component(&at, &mut pending, type_name, value)?;
            }
            for behaviour in &object.behaviours {
                self.behaviour(&at, &mut pending, &behaviour.kind, behaviour.data)?;
            }
            match &object.prefab {
                None => self.pending.push(pending),
                Some(_) if instance.is_some() => {
                    return Err(at.object_error(
                        "a prefab file cannot hold prefab instances (nested prefabs are not supported yet)"
                            .to_owned(),
                    ));
                }
                Some(link) => self.instance(&at, pending, link, raw.get())?,
            }
        }
        Ok(())
    }

    fn component(
        &mut self,
        at: &Place<'_>,
        pending: &mut Pending,
        type_name: &str,
        value: &RawValue,
    ) -> Result<(), SceneFileError> {
        pending.components.retain(|(name, _)| name != type_name);
        pending.unknown.components.remove(type_name);
        match self.types.component_type(type_name) {
            Some(kind) => {
                let apply = (kind.load)(self.scene.world(), value.get()).map_err(|reason| {
                    at.value_error(value.get(), ValueKind::Component, type_name, reason)
                })?;
                pending.components.push((type_name.to_owned(), apply));
            }
            None => {
                pending
                    .unknown
                    .components
                    .insert(type_name.to_owned(), value.get().to_owned());
                self.unknown.push(type_name.to_owned());
            }
        }
        Ok(())
    }

    fn behaviour(
        &mut self,
        at: &Place<'_>,
        pending: &mut Pending,
        type_name: &str,
        data: &RawValue,
    ) -> Result<(), SceneFileError> {
        match self.types.behaviour_type(type_name) {
            Some(kind) => pending
                .behaviours
                .push((kind.load)(data.get()).map_err(|reason| {
                    at.value_error(data.get(), ValueKind::Behaviour, type_name, reason)
                })?),
            None => {
                pending
                    .unknown
                    .behaviours
                    .push((type_name.to_owned(), data.get().to_owned()));
                self.unknown.push(type_name.to_owned());
            }
        }
        Ok(())
    }

    /// An instance entry: its root, then the prefab's objects under it
    /// with the overrides applied; a placeholder if the prefab is missing
    /// or refused.
    fn instance(
        &mut self,
        at: &Place<'_>,
        mut root: Pending,
        link: &PrefabDoc<'_>,
        raw: &str,
    ) -> Result<(), SceneFileError> {
        let id = root.id;
        let text = match self.texts.get(&link.source) {
            Some(text) => Ok(text.clone()),
            None => self.prefabs.read(&link.source).map_err(|e| e.to_string()),
        };
        let first = self.pending.len();
        let parts = text.and_then(|text| {
            self.texts.insert(link.source.clone(), text.clone());
            self.read(&text, &link.source, Ids::Part(id), Some(id))
                .map_err(|e| e.to_string())
        });
        let parts = parts.and_then(|()| self.apply_overrides(at, first, id, link));
        match parts {
            Ok(()) => {
                root.instance = Some(PrefabInstance {
                    source: link.source.clone(),
                });
                self.pending.insert(first, root);
            }
            Err(reason) => {
                self.pending.truncate(first);
                self.problems.push(SceneFileError::Prefab {
                    file: at.file.to_owned(),
                    line: at.line,
                    id,
                    name: at.name.to_owned(),
                    source_file: link.source.clone(),
                    reason,
                });
                root.components.clear();
                root.behaviours.clear();
                root.unknown = UnknownData::default();
                root.unresolved = Some(UnresolvedPrefab {
                    entry: raw.to_owned(),
                });
                self.pending.push(root);
            }
        }
        Ok(())
    }

    /// Applies an instance's overrides and deletions to its parts (the
    /// pending entries from `first` on).
    fn apply_overrides(
        &mut self,
        at: &Place<'_>,
        first: usize,
        instance: ObjectId,
        link: &PrefabDoc<'_>,
    ) -> Result<(), String> {
        for change in &link.overrides {
            let id = part_id(instance, ObjectId(change.object));
            let Some(i) = self.pending[first..].iter().position(|p| p.id == id) else {
                return Err(format!(
                    "an override names object {} that the prefab does not have",
                    change.object
                ));
            };
            let mut part = std::mem::replace(&mut self.pending[first + i], placeholder());
            let result = self.apply_override(at, &mut part, change);
            self.pending[first + i] = part;
            result?;
        }
        if !link.deleted.is_empty() {
            let mut gone: HashSet<ObjectId> = link
                .deleted
                .iter()
                .map(|&local| part_id(instance, ObjectId(local)))
                .collect();
            // Children of deleted objects go with them (parents come first).
            for p in &self.pending[first..] {
                if p.parent.is_some_and(|parent| gone.contains(&parent)) {
                    gone.insert(p.id);
                }
            }
            let mut i = first;
            while i < self.pending.len() {
                if gone.contains(&self.pending[i].id) {
                    self.pending.remove(i);
                } else {
                    i += 1;
                }
            }
        }
        Ok(())
    }

    fn apply_override(
        &mut self,
        at: &Place<'_>,
        part: &mut Pending,
        change: &OverrideDoc<'_>,
    ) -> Result<(), String> {
        if let Some(name) = &change.name {
            part.name.clone_from(name);
        }
        if let Some(enabled) = change.enabled {
            part.enabled = enabled;
        }
        let t = part.transform;
        part.transform = transform_of(
            Some(change.position.unwrap_or(t.position.to_array())),
            Some(change.rotation.unwrap_or(t.rotation.to_array())),
            Some(change.scale.unwrap_or(t.scale.to_array())),
        )?;
        for removed in &change.removed {
            part.components.retain(|(name, _)| name != removed);
            part.unknown.components.remove(removed);
        }
        for (type_name, value) in &change.components {
            self.component(at, part, type_name, value)
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    }
}

/// An empty entry, standing in while one is edited.
fn placeholder() -> Pending {
    Pending {
        id: ObjectId(0),
        name: String::new(),
        enabled: true,
        parent: None,
        transform: Transform::default(),
        components: Vec::new(),
        behaviours: Vec::new(),
        unknown: UnknownData::default(),
        part: None,
        instance: None,
        unresolved: None,
        file: String::new(),
        line: 0,
    }
}

/// Where an entry is, for its errors.
struct Place<'a> {
    file: &'a str,
    text: &'a str,
    line: usize,
    id: ObjectId,
    name: &'a str,
}

impl Place<'_> {
    fn object_error(&self, reason: String) -> SceneFileError {
        SceneFileError::Object {
            file: self.file.to_owned(),
            line: self.line,
            id: self.id,
            name: self.name.to_owned(),
            reason,
        }
    }

    fn value_error(
        &self,
        value: &str,
        kind: ValueKind,
        type_name: &str,
        reason: String,
    ) -> SceneFileError {
        SceneFileError::Value {
            file: self.file.to_owned(),
            line: line_of(self.text, value),
            id: self.id,
            name: self.name.to_owned(),
            kind,
            type_name: type_name.to_owned(),
            reason,
        }
    }
}

pub(crate) fn transform_of(
    position: Option<[f32; 3]>,
    rotation: Option<[f32; 4]>,
    scale: Option<[f32; 3]>,
) -> Result<Transform, String> {
    let position = Vec3::from_array(position.unwrap_or([0.0; 3]));
    let rotation = rotation.map_or(Quat::IDENTITY, Quat::from_array);
    let scale = Vec3::from_array(scale.unwrap_or([1.0; 3]));
    if !(position.is_finite() && rotation.is_finite() && scale.is_finite()) {
        return Err("its transform is not finite".to_owned());
    }
    if rotation.length_squared() < 1e-12 {
        return Err("its rotation has no length".to_owned());
    }
    Ok(Transform::from_trs(position, rotation, scale))
}

/// Unique ids not in the scene, parents present, no cycles; the index of
/// each id in `pending`.
fn check(scene: &Scene, pending: &[Pending]) -> Result<HashMap<ObjectId, usize>, SceneFileError> {
    let mut index: HashMap<ObjectId, usize> = HashMap::with_capacity(pending.len());
    for (i, p) in pending.iter().enumerate() {
        let error = |reason: String| SceneFileError::Object {
            file: p.file.clone(),
            line: p.line,
            id: p.id,
            name: p.name.clone(),
            reason,
        };
        if index.insert(p.id, i).is_some() {
            return Err(error("another object in the file has this id".to_owned()));
        }
        if scene.find_by_id(p.id).is_some() {
            return Err(SceneFileError::IdInUse {
                file: p.file.clone(),
                line: p.line,
                id: p.id,
                name: p.name.clone(),
            });
        }
    }
    for p in pending {
        let error = |reason: String| SceneFileError::Object {
            file: p.file.clone(),
            line: p.line,
            id: p.id,
            name: p.name.clone(),
            reason,
        };
        let mut at = p.parent;
        let mut steps = 0;
        while let Some(parent) = at {
            let Some(&i) = index.get(&parent) else {
                return Err(error(format!("its parent {} is not in the file", parent.0)));
            };
            steps += 1;
            if parent == p.id || steps > pending.len() {
                return Err(error("its parents form a cycle".to_owned()));
            }
            at = pending[i].parent;
        }
    }
    Ok(index)
}

/// Spawns the checked objects: all of them first (in file order, with
/// their ids), then the parent links, flags, components and behaviours.
fn spawn(
    scene: &mut Scene,
    pending: Vec<Pending>,
    index: &HashMap<ObjectId, usize>,
    parent: Option<GameObject>,
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
        for (_, apply) in p.components {
            apply(scene, object);
        }
        if !p.unknown.is_empty() {
            let _ = scene.add_component(object, p.unknown);
        }
        if let Some(part) = p.part {
            let _ = scene.add_component(object, part);
        }
        if let Some(instance) = p.instance {
            let _ = scene.add_component(object, instance);
        }
        if let Some(unresolved) = p.unresolved {
            let _ = scene.add_component(object, unresolved);
        }
        for behaviour in p.behaviours {
            let _ = scene.add_boxed_behaviour(object, behaviour);
        }
    }
    LoadedScene {
        roots,
        objects,
        unknown: Vec::new(),
        problems: Vec::new(),
    }
}
