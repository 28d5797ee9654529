//! Scene files: a scene's objects as readable, diffable JSON text.
//!
//! [`save_scene`] writes every object of a [`Scene`](crate::Scene) (its
//! stable [`ObjectId`](crate::ObjectId), name, enabled flag, parent, local
//! transform, and the components and behaviours a [`SceneTypes`] registers)
//! and [`load_scene`] reads them back, keeping the ids so references
//! between objects, and to them from saves, survive. The built-in
//! components (camera, lights, morph weights) are registered from the
//! start; a game registers its own, and anything a file holds that the
//! loading game does not know is kept ([`UnknownData`]) and written back
//! unchanged, so a newer game's file passes through an older tool intact.
//!
//! ```text
//! {
//!   "format": 1,
//!   "objects": [
//!     {
//!       "id": 3,
//!       "name": "Room",
//!       "position": [3.0,0.0,-2.5],
//!       "rotation": [0.0,0.14943814,0.0,0.9887711]
//!     },
//!     {
//!       "id": 5,
//!       "name": "Lamp",
//!       "enabled": false,
//!       "parent": 3,
//!       "position": [0.0,2.5,0.0],
//!       "components": {
//!         "taos.PointLight": {"color":[1.0,0.8,0.6],"intensity":4.0,"range":12.0}
//!       },
//!       "behaviours": [
//!         {"type": "mygame.Flicker", "data": {"rate":3.0}}
//!       ]
//!     }
//!   ]
//! }
//! ```
//!
//! One object per entry, parents before children, one line per component
//! and behaviour: a change to a level shows as a small diff. Ids are the
//! objects' [`ObjectId`](crate::ObjectId)s, kept on load: a file loads
//! only into a scene that has none of its ids (a second copy of a file
//! is a prefab's job: its parts get ids derived from the instance's).
//!
//! Loads are all or nothing and name the file, the line and the object on
//! every error ([`SceneFileError`]). Saving a loaded file gives the same
//! text: defaults are left out and floats are written in their shortest
//! exact form.
//!
//! A [`MeshRenderer`](crate::MeshRenderer) is stored by its mesh's and
//! material's names in the scene's [`AssetNames`] (handles are runtime
//! numbers); a renderer whose mesh or material has no name cannot be saved
//! (the error says so), and a file naming a mesh the scene does not have
//! is refused on load.
//!
//! **Prefabs** ([`instantiate_prefab`], [`load_scene_with`]): a scene file
//! instanced under an object and linked to its file; the scene file
//! stores only the instance's overrides, so a change to the prefab
//! reaches every instance on the next load; [`unpack_prefab`] breaks the
//! link.
//!
//! **Model files** ([`ModelFile`]): an object showing a glTF model is
//! stored as the model's path; the engine spawns the model's objects under
//! it ([`ModelPart`]s, left out of the file).
//!
//! ```
//! use taos_core::prelude::*;
//! use taos_core::scene_file::{SceneTypes, load_scene, save_scene};
//!
//! let mut scene = Scene::new();
//! let lamp = scene.spawn_with("Lamp", Transform::from_position(Vec3::new(0.0, 2.0, 0.0)));
//! scene.add_component(lamp, PointLight::new(Vec3::ONE, 5.0, 10.0))?;
//! let types = SceneTypes::default();
//! let saved = save_scene(&scene, &types)?;
//!
//! let mut copy = Scene::new();
//! let loaded = load_scene(&mut copy, &saved.text, "level.scene.json", &types, None)?;
//! assert_eq!(copy.get_component::<PointLight>(loaded.roots[0]).unwrap().range, 10.0);
//! assert_eq!(save_scene(&copy, &types)?.text, saved.text);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod asset_names;
mod controllers;
mod error;
mod load;
mod model_file;
mod prefab;
mod save;
mod types;
mod unknown;

pub use asset_names::{AssetNameError, AssetNames};
pub use error::{SceneFileError, ValueKind};
pub use load::{LoadedScene, load_scene, load_scene_with};
pub use model_file::{ModelFile, ModelPart, ModelPathError};
pub use prefab::{
    NoPrefabs, PrefabCache, PrefabFiles, PrefabInstance, PrefabPart, PrefabReadError,
    UnresolvedPrefab, instantiate_prefab, part_id, unpack_prefab,
};
pub use save::{SavedScene, SkippedBehaviour, save_scene, save_subtree};
pub use types::SceneTypes;
pub use unknown::{EditorOnly, UnknownData};

/// The scene file format this engine writes and reads.
pub const SCENE_FORMAT: u32 = 1;
