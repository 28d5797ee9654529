//! Prefabs: a scene file instanced under an object, linked to its file.
//!
//! An instance is an object (the instance root, with a [`PrefabInstance`])
//! whose children are the prefab file's objects (each with a
//! [`PrefabPart`]). A scene file stores the instance as one entry: the
//! root's own fields, the prefab's file, and only what the instance
//! changes (overrides per prefab object, and the prefab objects it
//! deleted). Loading reads the prefab file again, so a change to the
//! prefab reaches every instance; [`unpack_prefab`] breaks the link.
//!
//! A part's id is derived from the instance's id and its id in the prefab
//! file ([`part_id`]): the same in every load, so references to a part
//! (a joint, a save) hold.

use std::collections::BTreeMap;

use bevy_ecs::component::Component;
use bevy_ecs::resource::Resource;

use crate::Scene;
use crate::object::{GameObject, ObjectId};

use super::{LoadedScene, SceneFileError, SceneTypes, load_scene_with};

/// Reads prefab files for [`load_scene_with`]: from disk, from a game's
/// bundled assets, from a test's strings. A closure
/// `FnMut(&str) -> Result<String, E>` is one, for any error `E` that
/// displays (`String`, `std::io::Error`, ...).
pub trait PrefabFiles {
    /// The text of the prefab file `source` (a path relative to wherever
    /// the game keeps them), or why it cannot be had.
    ///
    /// # Errors
    /// [`PrefabReadError`] (the loader reports it with the instance).
    fn read(&mut self, source: &str) -> Result<String, PrefabReadError>;
}

impl<F, E> PrefabFiles for F
where
    F: FnMut(&str) -> Result<String, E>,
    E: std::fmt::Display,
{
    fn read(&mut self, source: &str) -> Result<String, PrefabReadError> {
        self(source).map_err(|why| PrefabReadError::Unreadable {
            file: source.to_owned(),
            why: why.to_string(),
        })
    }
}

/// Why a prefab file's text could not be had.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PrefabReadError {
    /// The load was given no way to read prefab files.
    #[error("prefab {file:?}: this load reads no prefab files (use load_scene_with)")]
    NoReader {
        /// The prefab file the scene names.
        file: String,
    },
    /// The reader could not read it.
    #[error("prefab {file:?}: {why}")]
    Unreadable {
        /// The prefab file the scene names.
        file: String,
        /// The reader's reason.
        why: String,
    },
}

/// Reads no prefab files: what [`load_scene`](super::load_scene) uses.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoPrefabs;

impl PrefabFiles for NoPrefabs {
    fn read(&mut self, source: &str) -> Result<String, PrefabReadError> {
        Err(PrefabReadError::NoReader {
            file: source.to_owned(),
        })
    }
}

/// On an instance root: the prefab file it instances.
#[derive(Component, Debug, Clone, PartialEq, Eq)]
pub struct PrefabInstance {
    /// The prefab file, as the scene file names it.
    pub source: String,
}

/// On each object an instance made from its prefab file.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct PrefabPart {
    /// The instance root's id.
    pub instance: ObjectId,
    /// The object's id in the prefab file.
    pub local: ObjectId,
}

/// On an instance whose prefab file could not be read or used: the
/// instance's entry as the scene file had it, written back unchanged.
#[derive(Component, Debug, Clone, PartialEq, Eq)]
pub struct UnresolvedPrefab {
    /// The entry's JSON text.
    pub entry: String,
}

/// The prefab files' texts, by source, as loads read them: what a save
/// compares an instance with to write only its overrides.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq)]
pub struct PrefabCache {
    /// Source to text.
    pub texts: BTreeMap<String, String>,
}

/// The scene id of the object with id `local` in the prefab file of the
/// instance `instance`: a mix of the two, the same in every load, with
/// the top bit set ([`ObjectId::DERIVED`]) so it never meets a fresh id.
#[must_use]
pub fn part_id(instance: ObjectId, local: ObjectId) -> ObjectId {
    let mix = |mut x: u64| {
        x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        x ^ (x >> 31)
    };
    ObjectId(mix(
        instance.0 ^ mix(local.0.wrapping_add(0x9E37_79B9_7F4A_7C15))
    ))
}

/// Instances the prefab file `source` (read through `prefabs`) under
/// `parent` as a new object named `name`, and returns the instance root.
///
/// # Errors
/// [`SceneFileError`] when the prefab cannot be read, parsed or used
/// (nothing is spawned then).
pub fn instantiate_prefab(
    scene: &mut Scene,
    source: &str,
    name: &str,
    types: &SceneTypes,
    prefabs: &mut dyn PrefabFiles,
    parent: Option<GameObject>,
) -> Result<GameObject, SceneFileError> {
    let id = free_id(scene);
    let entry = serde_json::json!({
        "format": super::SCENE_FORMAT,
        "objects": [{"id": id.0, "name": name, "prefab": {"source": source}}],
    });
    let text = entry.to_string();
    let loaded: LoadedScene = load_scene_with(scene, &text, source, types, parent, prefabs)?;
    let root = loaded.roots[0];
    if let Some(problem) = loaded.problems.into_iter().next() {
        let _ = scene.remove(root);
        return Err(problem);
    }
    Ok(root)
}

/// An id no object of `scene` holds.
fn free_id(scene: &Scene) -> ObjectId {
    let mut id = crate::object::ObjectIds::next_free(scene.world());
    while scene.find_by_id(id).is_some() {
        id = ObjectId(if id.0 + 1 >= ObjectId::DERIVED {
            1
        } else {
            id.0 + 1
        });
    }
    id
}

/// Breaks an instance's link: its root and parts become ordinary objects,
/// saved in full from now on. Returns whether `root` was an instance.
pub fn unpack_prefab(scene: &mut Scene, root: GameObject) -> bool {
    let Some(id) = scene.id(root) else {
        return false;
    };
    if scene.remove_component::<PrefabInstance>(root).is_none() {
        return false;
    }
    let mut stack: Vec<GameObject> = scene.children(root).collect();
    while let Some(object) = stack.pop() {
        if scene
            .get_component::<PrefabPart>(object)
            .is_some_and(|part| part.instance == id)
        {
            scene.remove_component::<PrefabPart>(object);
        }
        stack.extend(scene.children(object));
    }
    true
}
