//! GPU resources: meshes, PBR materials, textures and samplers, and the store
//! that owns them.

mod assets;
mod material;
mod mesh;
mod mesh_data;
mod texture;
mod uniform_slab;

pub use assets::{Assets, MaterialId, MeshId, TextureId};
pub use material::{AlphaMode, MaterialUniform, PbrMaterial};
pub use mesh::GpuMesh;
pub use mesh_data::{MeshData, MeshDataError, Vertex};
pub use texture::{ColorSpace, SamplerKind, Texture, TextureError};
pub use uniform_slab::uniform_slab;
