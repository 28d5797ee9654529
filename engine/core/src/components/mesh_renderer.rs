//! The mesh renderer component and the typed asset handles it refers to.

use bevy_ecs::component::Component;

/// Handle to a mesh owned by the renderer's asset store.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct MeshHandle(pub u32);

/// Handle to a material owned by the renderer's asset store.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct MaterialHandle(pub u32);

/// Draws a mesh with a material at its object's world transform.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MeshRenderer {
    /// The geometry.
    pub mesh: MeshHandle,
    /// The surface.
    pub material: MaterialHandle,
    /// Whether it is drawn into shadow maps.
    pub cast_shadows: bool,
}

impl MeshRenderer {
    /// A shadow-casting mesh renderer. The handles carry the numbers of the
    /// ids the renderer's asset store hands out (`assets.add_mesh(..)`,
    /// `assets.add_material(..)`); the `taos_engine` facade converts them
    /// (`mesh_id.handle()`, its `AssetHandle` trait).
    #[must_use]
    pub fn new(mesh: impl Into<MeshHandle>, material: impl Into<MaterialHandle>) -> Self {
        Self {
            mesh: mesh.into(),
            material: material.into(),
            cast_shadows: true,
        }
    }
}
