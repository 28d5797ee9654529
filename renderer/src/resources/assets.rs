//! The renderer's asset store: meshes, materials and textures behind typed ids.

use super::material::PbrMaterial;
use super::mesh::GpuMesh;
use super::mesh_data::MeshData;
use super::texture::Texture;
use crate::GpuContext;
use crate::deform::{DeformDataError, DeformSource, DeformableMeshData, MeshDeformations};

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
id_type!(
    /// A deformable (skinned or morphing) mesh in an [`Assets`] store: the
    /// shared source of its instances.
    DeformableMeshId
);

/// Owns GPU meshes, materials and textures; hands out typed ids.
#[derive(Debug, Default)]
pub struct Assets {
    meshes: Vec<GpuMesh>,
    materials: Vec<PbrMaterial>,
    textures: Vec<Texture>,
    /// Per texture, how many times it was replaced: material bind groups
    /// built over an older version are rebuilt.
    texture_versions: Vec<u32>,
    deformables: Vec<DeformSource>,
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

    /// Uploads a skinned and/or morphing mesh: the shared source of the
    /// instances [`add_deformed_instance`](Self::add_deformed_instance) makes.
    ///
    /// # Errors
    /// [`DeformDataError::NothingToDeform`] when `data` has neither joint
    /// influences nor morph targets (upload it with [`add_mesh`](Self::add_mesh)).
    pub fn add_deformable_mesh(
        &mut self,
        ctx: &GpuContext,
        label: &str,
        data: DeformableMeshData,
    ) -> Result<DeformableMeshId, DeformDataError> {
        data.check_deforms()?;
        self.deformables
            .push(DeformSource::upload(ctx, label, data));
        Ok(DeformableMeshId(self.deformables.len() as u32 - 1))
    }

    /// A new drawable instance of a deformable mesh, in its bind pose until
    /// [`Renderer::deform`](crate::Renderer::deform) poses it. Each object
    /// drawing the mesh needs its own. `None` for an id from another store.
    pub fn add_deformed_instance(
        &mut self,
        ctx: &GpuContext,
        source: DeformableMeshId,
    ) -> Option<MeshId> {
        let id = MeshId(self.meshes.len() as u32);
        let deformable = self.deformables.get_mut(source.0 as usize)?;
        let (mesh, regrown) = deformable.add_instance(ctx, source, id);
        self.meshes.push(mesh);
        if let Some(pool) = regrown.and_then(|index| deformable.pools.get(index)) {
            for member in &pool.members {
                if let Some(mesh) = self.meshes.get_mut(member.0 as usize) {
                    mesh.set_pool_buffers(&pool.current, &pool.previous);
                }
            }
        }
        Some(id)
    }

    /// The deformable mesh's CPU data, or `None` for an id from another store.
    #[must_use]
    pub fn deformable(&self, id: DeformableMeshId) -> Option<&DeformableMeshData> {
        self.deformables.get(id.0 as usize).map(|s| &s.data)
    }

    pub(crate) fn deform_source(&self, id: DeformableMeshId) -> Option<&DeformSource> {
        self.deformables.get(id.0 as usize)
    }

    pub(crate) fn mesh_mut(&mut self, id: MeshId) -> Option<&mut GpuMesh> {
        self.meshes.get_mut(id.0 as usize)
    }

    /// Places each posed instance's bounds around its posed skeleton (and
    /// morph targets), so frustum and shadow culling see where it is now.
    pub fn pose_bounds(&mut self, deformations: &MeshDeformations) {
        for pose in &deformations.poses {
            let Some(source) = self
                .meshes
                .get(pose.mesh.0 as usize)
                .and_then(GpuMesh::deformed_from)
                .and_then(|(source, _)| self.deformables.get(source.0 as usize))
            else {
                continue;
            };
            let bounds = source
                .bounds
                .posed(deformations.joints_of(pose), deformations.weights_of(pose));
            if let Some(mesh) = self.meshes.get_mut(pose.mesh.0 as usize) {
                mesh.set_bounds(bounds);
            }
        }
    }

    /// Adds a material.
    pub fn add_material(&mut self, material: PbrMaterial) -> MaterialId {
        self.materials.push(material);
        MaterialId(self.materials.len() as u32 - 1)
    }

    /// Adds an uploaded texture.
    pub fn add_texture(&mut self, texture: Texture) -> TextureId {
        self.textures.push(texture);
        self.texture_versions.push(0);
        TextureId(self.textures.len() as u32 - 1)
    }

    /// Replaces texture `id` with `texture` (hot reload): every material
    /// using it rebinds on the next frame. The old texture is dropped once
    /// the GPU is done with it. Returns `false` for an id from another
    /// store (nothing changes then).
    pub fn replace_texture(&mut self, id: TextureId, texture: Texture) -> bool {
        let index = id.0 as usize;
        let (Some(slot), Some(version)) = (
            self.textures.get_mut(index),
            self.texture_versions.get_mut(index),
        ) else {
            return false;
        };
        *slot = texture;
        *version = version.wrapping_add(1);
        true
    }

    /// How many times texture `id` was replaced (0 for an id from another store).
    #[must_use]
    pub fn texture_version(&self, id: TextureId) -> u32 {
        self.texture_versions
            .get(id.0 as usize)
            .copied()
            .unwrap_or(0)
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
