//! The render features that ship with Taos.

mod atmosphere;
pub(crate) mod forward_lit;
mod forward_plus;
mod gpu_util;
mod lit;
mod shadow;
mod sky;
mod tonemap;

pub use crate::frame::{DEPTH_FORMAT, HDR_FORMAT};
pub use atmosphere::Atmosphere;
pub use forward_lit::ForwardLitFeature;
pub use forward_plus::{
    DEFAULT_LIGHTS_PER_TILE, ForwardPlusFeature, ForwardPlusUnsupported, TILE_SIZE,
};
pub use lit::{LightBinding, UNIFORM_LIGHT_CAP};
pub use shadow::{MAX_CASCADES, ShadowCascades, ShadowFeature, ShadowMap, fit_cascades};
pub use sky::{SkyFeature, SkyOption};
pub use tonemap::TonemapFeature;
