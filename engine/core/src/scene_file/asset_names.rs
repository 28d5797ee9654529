//! [`AssetNames`]: the names a game gives its meshes and materials, so
//! scene files can refer to them (a handle is a number that differs from
//! run to run; a name does not).

use std::collections::BTreeMap;

use bevy_ecs::resource::Resource;

use crate::components::{MaterialHandle, MeshHandle};

/// Why a name could not be given.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AssetNameError {
    /// The name is empty.
    #[error("an asset name cannot be empty")]
    Empty,
    /// The name already names another mesh or material.
    #[error("{kind} name {name:?} already names another {kind}")]
    Taken {
        /// `"mesh"` or `"material"`.
        kind: &'static str,
        /// The name.
        name: String,
    },
}

/// The names of a scene's meshes and materials: a resource in the scene's
/// world that scene files read to write a [`MeshRenderer`](crate::MeshRenderer)
/// as `{"mesh": "crate", "material": "wood"}` and to find the handles again
/// when the file is loaded. A game names what it creates; the engine
/// names its built-in shapes.
///
/// ```
/// use taos_core::prelude::*;
/// use taos_core::scene_file::AssetNames;
///
/// let mut names = AssetNames::default();
/// names.name_mesh("crate", MeshHandle(3))?;
/// assert_eq!(names.mesh("crate"), Some(MeshHandle(3)));
/// assert_eq!(names.mesh_name(MeshHandle(3)), Some("crate"));
/// # Ok::<(), taos_core::scene_file::AssetNameError>(())
/// ```
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq)]
pub struct AssetNames {
    meshes: BTreeMap<String, MeshHandle>,
    mesh_names: BTreeMap<MeshHandle, String>,
    materials: BTreeMap<String, MaterialHandle>,
    material_names: BTreeMap<MaterialHandle, String>,
}

impl AssetNames {
    /// Names a mesh (a mesh may have one name; naming it again renames it).
    ///
    /// # Errors
    /// [`AssetNameError`] for an empty name or one naming another mesh.
    pub fn name_mesh(
        &mut self,
        name: impl Into<String>,
        mesh: MeshHandle,
    ) -> Result<(), AssetNameError> {
        let name = checked(name.into(), "mesh", &self.meshes, mesh)?;
        if let Some(old) = self.mesh_names.insert(mesh, name.clone()) {
            self.meshes.remove(&old);
        }
        self.meshes.insert(name, mesh);
        Ok(())
    }

    /// Names a material (a material may have one name; naming it again
    /// renames it).
    ///
    /// # Errors
    /// [`AssetNameError`] for an empty name or one naming another material.
    pub fn name_material(
        &mut self,
        name: impl Into<String>,
        material: MaterialHandle,
    ) -> Result<(), AssetNameError> {
        let name = checked(name.into(), "material", &self.materials, material)?;
        if let Some(old) = self.material_names.insert(material, name.clone()) {
            self.materials.remove(&old);
        }
        self.materials.insert(name, material);
        Ok(())
    }

    /// The mesh with this name.
    #[must_use]
    pub fn mesh(&self, name: &str) -> Option<MeshHandle> {
        self.meshes.get(name).copied()
    }

    /// The material with this name.
    #[must_use]
    pub fn material(&self, name: &str) -> Option<MaterialHandle> {
        self.materials.get(name).copied()
    }

    /// The name of a mesh.
    #[must_use]
    pub fn mesh_name(&self, mesh: MeshHandle) -> Option<&str> {
        self.mesh_names.get(&mesh).map(String::as_str)
    }

    /// The name of a material.
    #[must_use]
    pub fn material_name(&self, material: MaterialHandle) -> Option<&str> {
        self.material_names.get(&material).map(String::as_str)
    }
}

/// The name, unless it is empty or names another handle.
fn checked<H: PartialEq + Copy>(
    name: String,
    kind: &'static str,
    by_name: &BTreeMap<String, H>,
    handle: H,
) -> Result<String, AssetNameError> {
    if name.is_empty() {
        return Err(AssetNameError::Empty);
    }
    match by_name.get(&name) {
        Some(&other) if other != handle => Err(AssetNameError::Taken { kind, name }),
        _ => Ok(name),
    }
}
