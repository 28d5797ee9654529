//! The render features that ship with Taos.

mod ambient;
mod atmosphere;
pub(crate) mod counter_readback;
mod decals;
mod deferred;
pub(crate) mod forward_lit;
mod forward_plus;
pub(crate) mod gpu_util;
mod ibl;
mod lit;
mod post;
mod shader_check;
mod shader_sources;
mod shadow;
mod sky;
mod tonemap;

pub use crate::frame::{DEPTH_FORMAT, GBUFFER_FORMAT, HDR_FORMAT, HDR_USAGE};
pub use ambient::AmbientLight;
pub use atmosphere::Atmosphere;
pub use decals::{
    DEFAULT_FADE_ANGLE, DecalDraw, DecalError, DecalFeature, DecalTarget, FADE_START,
    FORWARD_ROUGHNESS, MAX_DECALS,
};
pub use deferred::{
    AmbientOcclusion, AoFeature, AoMethod, AoOptions, DEFERRED_SAMPLED_TEXTURES,
    DeferredLightingFeature, DeferredUnsupported, ForwardOverlayFeature, GBUFFER_BYTES_PER_PIXEL,
    GBuffer, GeometryFeature, OverlayLighting, PointSpotLightFeature, PointSpotMethod,
    check_deferred_support,
};
pub use forward_lit::ForwardLitFeature;
pub(crate) use forward_plus::storage_entry;
pub use forward_plus::{
    DEFAULT_LIGHTS_PER_TILE, ForwardPlusFeature, ForwardPlusUnsupported, TILE_SIZE,
};
pub use ibl::{BRDF_SIZE, ENVIRONMENT_SIZE, IRRADIANCE_SIZE, IblOptions, SPECULAR_MIPS};
pub use lit::{LightBinding, UNIFORM_LIGHT_CAP, supported_msaa_samples};
pub use post::{
    BloomFeature, BloomOptions, DofFeature, DofOptions, MAX_BLOOM_LEVELS, TaaFeature, TaaJitter,
    TaaOptions, halton, jitter_offset, jittered_projection,
};
#[doc(hidden)]
pub use shader_check::{ShaderCheckError, validate_shaders};
#[doc(hidden)]
pub use shader_sources::shader_sources;
pub use shadow::{MAX_CASCADES, ShadowCascades, ShadowFeature, ShadowMap, fit_cascades};
pub use sky::{SkyFeature, SkyOption};
pub use tonemap::{ACES_AT_PAPER_WHITE, TonemapFeature};
