//! Writing a scene as a scene file.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::Scene;
use crate::behaviour::Behaviours;
use crate::object::{GameObject, ObjectId};

use super::{SCENE_FORMAT, SceneFileError, SceneTypes, UnknownData, ValueKind};

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
/// # Errors
/// [`SceneFileError::Save`] for a component or behaviour that does not
/// serialise, or a transform that is not finite (JSON has no NaN).
pub fn save_scene(scene: &Scene, types: &SceneTypes) -> Result<SavedScene, SceneFileError> {
    let mut order = Vec::new();
    for root in scene.roots() {
        depth_first(scene, root, &mut order);
    }
    let mut text = String::new();
    let mut skipped = Vec::new();
    let _ = writeln!(text, "{{\n  \"format\": {SCENE_FORMAT},\n  \"objects\": [");
    for (i, &object) in order.iter().enumerate() {
        write_object(scene, types, object, &mut text, &mut skipped)?;
        text.push_str(if i + 1 < order.len() { ",\n" } else { "\n" });
    }
    text.push_str("  ]\n}\n");
    Ok(SavedScene { text, skipped })
}

fn depth_first(scene: &Scene, object: GameObject, out: &mut Vec<GameObject>) {
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

fn write_object(
    scene: &Scene,
    types: &SceneTypes,
    object: GameObject,
    out: &mut String,
    skipped: &mut Vec<SkippedBehaviour>,
) -> Result<(), SceneFileError> {
    let world = scene.world();
    let entity = object.entity();
    let id = scene.id(object).unwrap_or(ObjectId(0));
    let save_error = |kind, type_name: &str, reason: String| SceneFileError::Save {
        id,
        kind,
        type_name: type_name.to_owned(),
        reason,
    };
    let _ = writeln!(out, "    {{\n      \"id\": {},", id.0);
    let _ = write!(
        out,
        "      \"name\": {}",
        json(scene.name(object).unwrap_or(""))
    );
    if scene.is_enabled(object) == Some(false) {
        out.push_str(",\n      \"enabled\": false");
    }
    if let Some(parent) = scene.parent(object).and_then(|p| scene.id(p)) {
        let _ = write!(out, ",\n      \"parent\": {}", parent.0);
    }
    if let Some(t) = scene.transform(object) {
        if !t.is_finite() {
            return Err(save_error(
                ValueKind::Component,
                "Transform",
                "the transform is not finite".to_owned(),
            ));
        }
        if t.position != glam::Vec3::ZERO {
            let _ = write!(
                out,
                ",\n      \"position\": {}",
                json(&t.position.to_array())
            );
        }
        if t.rotation != glam::Quat::IDENTITY {
            let _ = write!(
                out,
                ",\n      \"rotation\": {}",
                json(&t.rotation.to_array())
            );
        }
        if t.scale != glam::Vec3::ONE {
            let _ = write!(out, ",\n      \"scale\": {}", json(&t.scale.to_array()));
        }
    }
    let unknown = world.get::<UnknownData>(entity);
    let mut components: BTreeMap<&str, String> = BTreeMap::new();
    for component in &types.components {
        if let Some(saved) = (component.save)(world, entity) {
            let text =
                saved.map_err(|reason| save_error(ValueKind::Component, component.name, reason))?;
            components.insert(component.name, text);
        }
    }
    if let Some(unknown) = unknown {
        for (name, text) in &unknown.components {
            components
                .entry(name.as_str())
                .or_insert_with(|| text.clone());
        }
    }
    if !components.is_empty() {
        out.push_str(",\n      \"components\": {\n");
        for (i, (name, text)) in components.iter().enumerate() {
            let comma = if i + 1 < components.len() { "," } else { "" };
            let _ = writeln!(out, "        {}: {text}{comma}", json(name));
        }
        out.push_str("      }");
    }
    let mut behaviours: Vec<(&str, String)> = Vec::new();
    if let Some(attached) = world.get::<Behaviours>(entity) {
        for behaviour in &attached.list {
            let type_id = (&**behaviour as &dyn std::any::Any).type_id();
            match types.behaviour_type_of(type_id) {
                Some(kind) => {
                    let text = (kind.save)(behaviour.as_ref())
                        .map_err(|reason| save_error(ValueKind::Behaviour, kind.name, reason))?;
                    behaviours.push((kind.name, text));
                }
                None => skipped.push(SkippedBehaviour {
                    object: id,
                    behaviour: behaviour.name(),
                }),
            }
        }
    }
    if let Some(unknown) = unknown {
        behaviours.extend(
            unknown
                .behaviours
                .iter()
                .map(|(n, t)| (n.as_str(), t.clone())),
        );
    }
    if !behaviours.is_empty() {
        out.push_str(",\n      \"behaviours\": [\n");
        for (i, (name, text)) in behaviours.iter().enumerate() {
            let comma = if i + 1 < behaviours.len() { "," } else { "" };
            let _ = writeln!(
                out,
                "        {{\"type\": {}, \"data\": {text}}}{comma}",
                json(name)
            );
        }
        out.push_str("      ]");
    }
    out.push_str("\n    }");
    Ok(())
}
