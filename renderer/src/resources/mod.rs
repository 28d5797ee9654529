//! GPU resources: meshes, PBR materials, textures and samplers, and the store
//! that owns them.
//!
//! Textures come from PNG/JPEG (RGBA8, mip chain built on the GPU) or KTX2
//! Basis Universal files (transcoded to BC7, ASTC, ETC2 or RGBA8 for the
//! device, with the file's mips); [`TextureData`] is a processed texture on
//! the CPU, the form an import cache stores.

mod assets;
mod ktx2;
mod material;
mod mesh;
mod mesh_data;
mod mesh_readback;
mod mip_cpu;
mod mipmaps;
mod texel_format;
mod texture;
mod texture_data;
mod texture_slot;
mod texture_upload;
mod uniform_slab;

pub use assets::{Assets, DeformableMeshId, MaterialId, MeshId, TextureId};
pub use ktx2::{BasisCodec, Ktx2Info, Ktx2Problem};
pub use material::{
    AlphaMode, MATERIAL_TEXTURE_SLOTS, MaterialUniform, PbrMaterial, TextureSlotUniform,
};
pub use mesh::GpuMesh;
pub use mesh_data::{MeshData, MeshDataError, Vertex};
pub use mesh_readback::MAX_READBACK_BYTES;
pub(crate) use mipmaps::MipGenerator;
pub use texel_format::{
    MAX_TEXTURE_SIZE, TexelFormat, full_mip_count, mip_size, texture_gpu_bytes,
};
pub use texture::{ColorSpace, SamplerKind, Texture, TextureError};
pub use texture_data::{TextureData, TextureDataError};
pub use texture_slot::{Filter, TextureSampler, TextureSlot, UvTransform, Wrap};
pub use texture_upload::is_ktx2;
pub use uniform_slab::uniform_slab;
