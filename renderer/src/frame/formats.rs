//! Formats of the targets every feature of a frame shares: the HDR colour
//! chain (`Frame::hdr`) and the scene depth.

/// HDR colour format of the scene: what sky, lit passes and post effects
/// read and write until tonemapping.
pub const HDR_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;
/// Usage of every HDR colour target in the chain: drawn into, sampled by
/// the next feature, and copied from (TAA's history, probes, captures).
pub const HDR_USAGE: wgpu::TextureUsages = wgpu::TextureUsages::RENDER_ATTACHMENT
    .union(wgpu::TextureUsages::TEXTURE_BINDING)
    .union(wgpu::TextureUsages::COPY_SRC);
/// Depth format of the scene.
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;
/// Format of the deferred G-buffer's packed surface texel (16 bytes: see
/// [`GBuffer`](crate::features::GBuffer)).
pub const GBUFFER_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba32Uint;
