//! Writing a scene as a scene file (prefab instances as their overrides).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use glam::{Quat, Vec3};

use crate::Scene;
use crate::behaviour::Behaviours;
use crate::object::{GameObject, ObjectId};

use super::load::{FileDoc, ObjectDoc};
use super::prefab::{PrefabCache, PrefabInstance, PrefabPart, UnresolvedPrefab, part_id};
use super::{
    EditorOnly, ModelPart, SCENE_FORMAT, SceneFileError, SceneTypes, UnknownData, ValueKind,
};

/// A saved scene: the file's text, and the behaviours it left out.
#[derive(Debug, Clone, PartialEq)]
pub struct SavedScene {
    /// The scene file (JSON; one object per entry, parents before children).
    pub text: String,
    /// Behaviours on the scene's objects that are not registered with the
    /// [`SceneTypes`]: not in the file (a game re-attaches them in code).
    pub skipped: Vec<SkippedBehaviour>,
}

/// A behaviour [`save_scene`] left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkippedBehaviour {
    /// The object's id.
    pub object: ObjectId,
    /// The behaviour's type name.
    pub behaviour: &'static str,
}

/// Writes every object of `scene` (depth first from the roots, in
/// hierarchy order) with its id, name, enabled flag, parent, local
/// transform, the components `types` registers, the behaviours it
/// registers, and any data an earlier load kept without understanding it
/// ([`UnknownData`]). Default values (enabled, a zero position, no
/// rotation, unit scale) are left out; floats are written in their
/// shortest exact form, so saving a loaded file gives the same text.
///
/// A prefab instance is one entry: its root, the prefab's file, and what
/// the instance changes in the prefab's objects (names, flags,
/// transforms, components added, changed or removed; objects deleted).
/// Objects added under an instance's parts are saved as ordinary entries.
///
/// # Errors
/// [`SceneFileError::Save`] for a component or behaviour that does not
/// serialise, a transform that is not finite (JSON has no NaN), or an
/// instance whose prefab text this scene never loaded.
pub fn save_scene(scene: &Scene, types: &SceneTypes) -> Result<SavedScene, SceneFileError> {
    save_trees(scene, types, &scene.roots())
}

/// [`save_scene`] for the subtree under `root` only: `root`'s entry has no
/// parent, so the text loads as a root (or under any object). What the
/// editor keeps to undo a deletion, and copies to duplicate.
///
/// # Errors
/// As [`save_scene`].
pub fn save_subtree(
    scene: &Scene,
    types: &SceneTypes,
    root: GameObject,
) -> Result<SavedScene, SceneFileError> {
    save_trees(scene, types, &[root])
}

fn save_trees(
    scene: &Scene,
    types: &SceneTypes,
    roots: &[GameObject],
) -> Result<SavedScene, SceneFileError> {
    let mut order = Vec::new();
    for &root in roots {
        depth_first(scene, root, &mut order);
    }
    let mut entries = Vec::new();
    let mut skipped = Vec::new();
    for &object in &order {
        let world = scene.world();
        // A part still under its instance is written as the instance's
        // overrides; one moved out of it is an ordinary object now.
        if let Some(part) = world.get::<PrefabPart>(object.entity())
            && let Some(root) = scene.find_by_id(part.instance)
            && is_part_of(scene, object, part.instance, root)
        {
            continue;
        }
        if let Some(unresolved) = world.get::<UnresolvedPrefab>(object.entity()) {
            entries.push(format!("    {}", unresolved.entry));
            continue;
        }
        let mut fields = Fields::of(scene, types, object, &mut skipped)?;
        if roots.contains(&object) {
            fields.parent = None;
        }
        let mut entry = String::new();
        let _ = writeln!(entry, "    {{\n      \"id\": {},", fields.id.0);
        fields.write(&mut entry);
        if let Some(instance) = world.get::<PrefabInstance>(object.entity()) {
            let link = link_text(scene, types, object, fields.id, instance)?;
            let _ = write!(entry, ",\n      \"prefab\": {link}");
        }
        entry.push_str("\n    }");
        entries.push(entry);
    }
    let mut text = format!("{{\n  \"format\": {SCENE_FORMAT},\n  \"objects\": [\n");
    text.push_str(&entries.join(",\n"));
    if !entries.is_empty() {
        text.push('\n');
    }
    text.push_str("  ]\n}\n");
    Ok(SavedScene { text, skipped })
}

fn depth_first(scene: &Scene, object: GameObject, out: &mut Vec<GameObject>) {
    if scene.get_component::<EditorOnly>(object).is_some()
        || scene.get_component::<ModelPart>(object).is_some()
    {
        return;
    }
    out.push(object);
    let children: Vec<GameObject> = scene.children(object).collect();
    for child in children {
        depth_first(scene, child, out);
    }
}

/// JSON text of a value that always serialises (strings, float arrays).
fn json<T: serde::Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "null".to_owned())
}

/// An object's entry fields as text, minus its id and prefab link.
struct Fields {
    id: ObjectId,
    name: String,
    enabled: bool,
    parent: Option<ObjectId>,
    position: Vec3,
    rotation: Quat,
    scale: Vec3,
    components: BTreeMap<String, String>,
    behaviours: Vec<(String, String)>,
}

impl Fields {
    fn of(
        scene: &Scene,
        types: &SceneTypes,
        object: GameObject,
        skipped: &mut Vec<SkippedBehaviour>,
    ) -> Result<Self, SceneFileError> {
        let world = scene.world();
        let entity = object.entity();
        let id = scene.id(object).unwrap_or(ObjectId(0));
        let save_error = |kind, type_name: &str, reason: String| SceneFileError::Save {
            id,
            kind,
            type_name: type_name.to_owned(),
            reason,
        };
        let transform = scene.transform(object).copied().unwrap_or_default();
        if !transform.is_finite() {
            return Err(save_error(
                ValueKind::Component,
                "Transform",
                "the transform is not finite".to_owned(),
            ));
        }
        let unknown = world.get::<UnknownData>(entity);
        let mut components = BTreeMap::new();
        for component in &types.components {
            if let Some(saved) = (component.save)(world, entity) {
                let text = saved
                    .map_err(|reason| save_error(ValueKind::Component, component.name, reason))?;
                components.insert(component.name.to_owned(), text);
            }
        }
        if let Some(unknown) = unknown {
            for (name, text) in &unknown.components {
                components
                    .entry(name.clone())
                    .or_insert_with(|| text.clone());
            }
        }
        let mut behaviours = Vec::new();
        if let Some(attached) = world.get::<Behaviours>(entity) {
            for behaviour in &attached.list {
                let type_id = (&**behaviour as &dyn std::any::Any).type_id();
                match types.behaviour_type_of(type_id) {
                    Some(kind) => {
                        let text = (kind.save)(behaviour.as_ref()).map_err(|reason| {
                            save_error(ValueKind::Behaviour, kind.name, reason)
                        })?;
                        behaviours.push((kind.name.to_owned(), text));
                    }
                    None => skipped.push(SkippedBehaviour {
                        object: id,
                        behaviour: behaviour.name(),
                    }),
                }
            }
        }
        if let Some(unknown) = unknown {
            behaviours.extend(unknown.behaviours.iter().cloned());
        }
        Ok(Self {
            id,
            name: scene.name(object).unwrap_or("").to_owned(),
            enabled: scene.is_enabled(object) != Some(false),
            parent: scene.parent(object).and_then(|p| scene.id(p)),
            position: transform.position,
            rotation: transform.rotation,
            scale: transform.scale,
            components,
            behaviours,
        })
    }

    /// Writes the fields after `"id": N,` (defaults left out).
    fn write(&self, out: &mut String) {
        let _ = write!(out, "      \"name\": {}", json(&self.name));
        if !self.enabled {
            out.push_str(",\n      \"enabled\": false");
        }
        if let Some(parent) = self.parent {
            let _ = write!(out, ",\n      \"parent\": {}", parent.0);
        }
        if self.position != Vec3::ZERO {
            let _ = write!(
                out,
                ",\n      \"position\": {}",
                json(&self.position.to_array())
            );
        }
        if self.rotation != Quat::IDENTITY {
            let _ = write!(
                out,
                ",\n      \"rotation\": {}",
                json(&self.rotation.to_array())
            );
        }
        if self.scale != Vec3::ONE {
            let _ = write!(out, ",\n      \"scale\": {}", json(&self.scale.to_array()));
        }
        if !self.components.is_empty() {
            out.push_str(",\n      \"components\": {\n");
            write_components(out, &self.components, "        ");
            out.push_str("      }");
        }
        if !self.behaviours.is_empty() {
            out.push_str(",\n      \"behaviours\": [\n");
            for (i, (name, text)) in self.behaviours.iter().enumerate() {
                let comma = if i + 1 < self.behaviours.len() {
                    ","
                } else {
                    ""
                };
                let _ = writeln!(
                    out,
                    "        {{\"type\": {}, \"data\": {text}}}{comma}",
                    json(name)
                );
            }
            out.push_str("      ]");
        }
    }
}

fn write_components(out: &mut String, components: &BTreeMap<String, String>, indent: &str) {
    for (i, (name, text)) in components.iter().enumerate() {
        let comma = if i + 1 < components.len() { "," } else { "" };
        let _ = writeln!(out, "{indent}{}: {text}{comma}", json(name));
    }
}

/// Two JSON texts with the same value (whitespace and key order aside).
fn same_json(a: &str, b: &str) -> bool {
    a == b
        || matches!(
            (
                serde_json::from_str::<serde_json::Value>(a),
                serde_json::from_str::<serde_json::Value>(b),
            ),
            (Ok(x), Ok(y)) if x == y
        )
}

/// An instance's `"prefab"` value: its source, and what it changes.
fn link_text(
    scene: &Scene,
    types: &SceneTypes,
    root: GameObject,
    id: ObjectId,
    instance: &PrefabInstance,
) -> Result<String, SceneFileError> {
    let save_error = |reason: String| SceneFileError::Save {
        id,
        kind: ValueKind::Component,
        type_name: "prefab link".to_owned(),
        reason,
    };
    let text = scene
        .world()
        .get_resource::<PrefabCache>()
        .and_then(|cache| cache.texts.get(&instance.source))
        .ok_or_else(|| {
            save_error(format!(
                "the text of prefab {:?} was never loaded",
                instance.source
            ))
        })?;
    let doc: FileDoc<'_> = serde_json::from_str(text).map_err(|e| save_error(e.to_string()))?;
    let mut overrides = Vec::new();
    let mut deleted = Vec::new();
    for raw in &doc.objects {
        let base: ObjectDoc<'_> =
            serde_json::from_str(raw.get()).map_err(|e| save_error(e.to_string()))?;
        let part = scene
            .find_by_id(part_id(id, ObjectId(base.id)))
            .filter(|&o| is_part_of(scene, o, id, root));
        let Some(part) = part else {
            deleted.push(base.id);
            continue;
        };
        let now = Fields::of(scene, types, part, &mut Vec::new())?;
        if let Some(change) = override_text(&base, &now) {
            overrides.push(change);
        }
    }
    let mut out = format!("{{\"source\": {}", json(&instance.source));
    if !overrides.is_empty() {
        out.push_str(", \"overrides\": [\n");
        out.push_str(&overrides.join(",\n"));
        out.push_str("\n      ]");
    }
    if !deleted.is_empty() {
        let _ = write!(out, ", \"deleted\": {}", json(&deleted));
    }
    out.push('}');
    Ok(out)
}

/// Whether `object` is still one of instance `id`'s parts, under `root`.
fn is_part_of(scene: &Scene, object: GameObject, id: ObjectId, root: GameObject) -> bool {
    let linked = scene
        .get_component::<PrefabPart>(object)
        .is_some_and(|part| part.instance == id);
    let mut at = scene.parent(object);
    while let Some(parent) = at {
        if parent == root {
            return linked;
        }
        at = scene.parent(parent);
    }
    false
}

/// One override entry, or `None` when the part is as the prefab has it.
fn override_text(base: &ObjectDoc<'_>, now: &Fields) -> Option<String> {
    let mut fields = Vec::new();
    if base.name != now.name {
        fields.push(format!("\"name\": {}", json(&now.name)));
    }
    if base.enabled != now.enabled {
        fields.push(format!("\"enabled\": {}", now.enabled));
    }
    let position = base.position.map_or(Vec3::ZERO, Vec3::from_array);
    if position != now.position {
        fields.push(format!("\"position\": {}", json(&now.position.to_array())));
    }
    let rotation = base.rotation.map_or(Quat::IDENTITY, Quat::from_array);
    if rotation != now.rotation {
        fields.push(format!("\"rotation\": {}", json(&now.rotation.to_array())));
    }
    let scale = base.scale.map_or(Vec3::ONE, Vec3::from_array);
    if scale != now.scale {
        fields.push(format!("\"scale\": {}", json(&now.scale.to_array())));
    }
    let changed: BTreeMap<String, String> = now
        .components
        .iter()
        .filter(|(name, text)| {
            base.components
                .get(name.as_str())
                .is_none_or(|raw| !same_json(raw.get(), text))
        })
        .map(|(name, text)| (name.clone(), text.clone()))
        .collect();
    if !changed.is_empty() {
        let mut block = "\"components\": {\n".to_owned();
        write_components(&mut block, &changed, "          ");
        block.push_str("        }");
        fields.push(block);
    }
    let removed: Vec<&str> = base
        .components
        .keys()
        .filter(|name| !now.components.contains_key(name.as_str()))
        .map(String::as_str)
        .collect();
    if !removed.is_empty() {
        fields.push(format!("\"removed\": {}", json(&removed)));
    }
    if fields.is_empty() {
        return None;
    }
    Some(format!(
        "        {{\"object\": {}, {}}}",
        base.id,
        fields.join(", ")
    ))
}
