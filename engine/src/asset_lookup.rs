//! Meshes and materials by name: [`Engine::mesh_named`] and
//! [`Engine::material_named`] look in the scene's
//! [`AssetNames`](crate::scene_file::AssetNames) (the built-in shapes, and
//! what the game named with [`Engine::name_mesh`]), then in the names of
//! the glTF models the engine spawned ([`ModelAssetNames`]).

use std::collections::HashMap;

use crate::gltf::SpawnedGltf;
use crate::scene_file::AssetNames;
use crate::{Engine, MaterialHandle, MeshHandle};

/// The named meshes and materials of every model spawned through the
/// [`Engine`]: a later model's name replaces an earlier one's, so loading
/// a model again finds its new uploads.
#[derive(Debug, Default)]
pub(crate) struct ModelAssetNames {
    meshes: HashMap<String, MeshHandle>,
    materials: HashMap<String, MaterialHandle>,
}

impl ModelAssetNames {
    /// Keeps the names of a model just spawned.
    pub(crate) fn record(&mut self, spawned: &SpawnedGltf) {
        self.meshes.extend(
            spawned
                .meshes_by_name
                .iter()
                .map(|(name, &mesh)| (name.clone(), mesh)),
        );
        self.materials.extend(
            spawned
                .materials_by_name
                .iter()
                .map(|(name, &material)| (name.clone(), material)),
        );
    }
}

impl Engine {
    /// The mesh named `name`: first a name in the scene's
    /// [`AssetNames`](crate::scene_file::AssetNames) (a built-in shape such
    /// as `"taos.cube"`, or one the game gave with
    /// [`name_mesh`](Self::name_mesh)), then a mesh of a glTF model this
    /// engine spawned (the latest model with that name; see
    /// [`SpawnedGltf::meshes_by_name`] for how primitives are named).
    /// `None` when nothing has that name. Two map lookups.
    ///
    /// ```no_run
    /// use taos_engine::prelude::*;
    /// use taos_engine::renderer::presets::{PresetOptions, forward_preset};
    ///
    /// let mut engine = Engine::headless(EngineConfig::new(64, 64), forward_preset(PresetOptions::default()))?;
    /// let cube = engine.mesh_named("taos.cube").expect("a built-in shape");
    /// let grey = engine.material_named("taos.default").expect("the default material");
    /// let crate_ = engine.scene_mut().spawn("Crate");
    /// engine.scene_mut().add_component(crate_, MeshRenderer::new(cube, grey))?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn mesh_named(&self, name: &str) -> Option<MeshHandle> {
        self.scene()
            .world()
            .get_resource::<AssetNames>()
            .and_then(|names| names.mesh(name))
            .or_else(|| self.model_names.meshes.get(name).copied())
    }

    /// The material named `name`: first a name in the scene's
    /// [`AssetNames`](crate::scene_file::AssetNames) (`"taos.default"`, or
    /// one the game gave with [`name_material`](Self::name_material)), then
    /// a material of a glTF model this engine spawned (the latest model with
    /// that name). `None` when nothing has that name. Two map lookups.
    #[must_use]
    pub fn material_named(&self, name: &str) -> Option<MaterialHandle> {
        self.scene()
            .world()
            .get_resource::<AssetNames>()
            .and_then(|names| names.material(name))
            .or_else(|| self.model_names.materials.get(name).copied())
    }
}
