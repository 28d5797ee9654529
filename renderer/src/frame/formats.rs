//! Formats of the targets every feature of a frame shares: the HDR colour
//! chain (`Frame::hdr`) and the scene depth.

/// HDR colour format of the scene: what sky, lit passes and post effects
/// read and write until tonemapping.
pub const HDR_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;
/// Depth format of the scene.
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;
/// Format of the deferred G-buffer's packed surface texel (16 bytes: see
/// [`GBuffer`](crate::features::GBuffer)).
pub const GBUFFER_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba32Uint;
