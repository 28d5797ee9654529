//! The renderer's asset store: meshes, materials and textures behind typed ids.

use super::material::PbrMaterial;
use super::mesh::GpuMesh;
use super::mesh_data::MeshData;
use super::texture::Texture;
use crate::GpuContext;

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u32);
    };
}

id_type!(
    /// A mesh in an [`Assets`] store (the engine's `MeshHandle` carries the same number).
    MeshId
);
id_type!(
    /// A material in an [`Assets`] store (the engine's `MaterialHandle` carries the same number).
    MaterialId
);
id_type!(
    /// A texture in an [`Assets`] store.
    TextureId
);

/// Owns GPU meshes, materials and textures; hands out typed ids.
#[derive(Debug, Default)]
pub struct Assets {
    meshes: Vec<GpuMesh>,
    materials: Vec<PbrMaterial>,
    textures: Vec<Texture>,
}

impl Assets {
    /// An empty store.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Uploads a mesh.
    pub fn add_mesh(&mut self, ctx: &GpuContext, label: &str, data: &MeshData) -> MeshId {
        self.meshes.push(GpuMesh::upload(ctx, label, data));
        MeshId(self.meshes.len() as u32 - 1)
    }

    /// Adds a material.
    pub fn add_material(&mut self, material: PbrMaterial) -> MaterialId {
        self.materials.push(material);
        MaterialId(self.materials.len() as u32 - 1)
    }

    /// Adds an uploaded texture.
    pub fn add_texture(&mut self, texture: Texture) -> TextureId {
        self.textures.push(texture);
        TextureId(self.textures.len() as u32 - 1)
    }

    /// A mesh, or `None` for an id from another store.
    #[must_use]
    pub fn mesh(&self, id: MeshId) -> Option<&GpuMesh> {
        self.meshes.get(id.0 as usize)
    }

    /// A material, or `None` for an id from another store.
    #[must_use]
    pub fn material(&self, id: MaterialId) -> Option<&PbrMaterial> {
        self.materials.get(id.0 as usize)
    }

    /// Number of materials (ids are `0..material_count()`).
    #[must_use]
    pub fn material_count(&self) -> usize {
        self.materials.len()
    }

    /// A material, mutable (changes show from the next frame).
    pub fn material_mut(&mut self, id: MaterialId) -> Option<&mut PbrMaterial> {
        self.materials.get_mut(id.0 as usize)
    }

    /// A texture, or `None` for an id from another store.
    #[must_use]
    pub fn texture(&self, id: TextureId) -> Option<&Texture> {
        self.textures.get(id.0 as usize)
    }
}
