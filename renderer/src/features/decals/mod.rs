//! Projected decals: textures (base colour, optional normal and roughness
//! maps) projected through a box onto the opaque surfaces inside it, with
//! a fade by surface angle and a draw order.
//!
//! The engine fills [`FrameData::decals`](crate::FrameData::decals) with
//! [`DecalDraw`]s each frame; the [`DecalFeature`] the presets register
//! draws them:
//!
//! - deferred ([`DecalTarget::GBuffer`], right after the geometry pass):
//!   the packed G-buffer cannot blend, so the boxes blend albedo, normal
//!   and roughness into three blendable layers and a full-screen pass
//!   writes a new G-buffer from the old one and the layers. The lighting,
//!   ambient occlusion and everything after see the decals as part of the
//!   surface.
//! - forward and forward-plus ([`DecalTarget::Lit`], after the lit pass,
//!   before the post effects): each box's pixels are lit by the sun (with
//!   its shadow) and the ambient light and blended over the HDR frame,
//!   premultiplied. The surface normal comes from the depth buffer.
//!
//! What it is not: decals do not receive point or spot lights in the
//! forward presets, do not change metallic, occlusion or emissive, and do
//! not land on blended (transparent) surfaces; a decal box is not culled
//! against the view or against other geometry (every box is drawn), and
//! the surface under a forward decal keeps its own specular highlight
//! beneath the decal's.

mod draw;
mod feature;
mod passes;
mod pipelines;
mod textures;
mod uniforms;

pub use draw::{
    DEFAULT_FADE_ANGLE, DecalDraw, DecalError, FADE_START, FORWARD_ROUGHNESS, MAX_DECALS,
};
pub use feature::DecalFeature;
pub use pipelines::DecalTarget;
pub(crate) use pipelines::shader_sources;
