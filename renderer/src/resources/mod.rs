//! GPU resources: meshes, PBR materials, textures and samplers, and the store
//! that owns them.

mod assets;
mod material;
mod mesh;
mod mesh_data;
mod mesh_readback;
mod texture;
mod texture_slot;
mod uniform_slab;

pub use assets::{Assets, DeformableMeshId, MaterialId, MeshId, TextureId};
pub use material::{
    AlphaMode, MATERIAL_TEXTURE_SLOTS, MaterialUniform, PbrMaterial, TextureSlotUniform,
};
pub use mesh::GpuMesh;
pub use mesh_data::{MeshData, MeshDataError, Vertex};
pub use mesh_readback::MAX_READBACK_BYTES;
pub use texture::{ColorSpace, SamplerKind, Texture, TextureError};
pub use texture_slot::{Filter, TextureSampler, TextureSlot, UvTransform, Wrap};
pub use uniform_slab::uniform_slab;
