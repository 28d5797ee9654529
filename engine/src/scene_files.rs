//! Naming assets for scene files: [`Engine::name_mesh`] and
//! [`Engine::name_material`] put names in the scene's
//! [`AssetNames`](crate::scene_file::AssetNames), so
//! [`save_scene`](crate::scene_file::save_scene) writes mesh renderers by
//! name and [`load_scene`](crate::scene_file::load_scene) finds them again
//! in another run.

use taos_renderer::resources::{MaterialId, MeshId};

use crate::scene_file::{AssetNameError, AssetNames, SceneTypes};
use crate::{AssetHandle, Engine};

/// Every component and behaviour the engine stores in scene files: the
/// core's ([`SceneTypes::default`]: camera, lights, mesh renderer, model
/// file, morph weights, the controllers), sound's
/// ([`audio::scene_file::scene_types`](crate::audio::scene_file::scene_types))
/// and physics' ([`physics::scene_types`](crate::physics::scene_types)). A
/// game adds its own to it.
#[must_use]
pub fn scene_types() -> SceneTypes {
    let mut types = SceneTypes::default();
    taos_audio::scene_file::scene_types(&mut types);
    taos_physics::scene_types(&mut types);
    types
}

impl Engine {
    /// Names a mesh for scene files (in the current scene's
    /// [`AssetNames`]).
    ///
    /// # Errors
    /// [`AssetNameError`] for an empty name or one naming another mesh.
    pub fn name_mesh(&mut self, name: &str, mesh: MeshId) -> Result<(), AssetNameError> {
        self.asset_names().name_mesh(name, mesh.handle())
    }

    /// Names a material for scene files (in the current scene's
    /// [`AssetNames`]).
    ///
    /// # Errors
    /// [`AssetNameError`] for an empty name or one naming another material.
    pub fn name_material(
        &mut self,
        name: &str,
        material: MaterialId,
    ) -> Result<(), AssetNameError> {
        self.asset_names().name_material(name, material.handle())
    }

    fn asset_names(&mut self) -> bevy_ecs::change_detection::Mut<'_, AssetNames> {
        let world = self.scene_mut().world_mut();
        world.get_resource_or_insert_with(AssetNames::default)
    }
}
