//! The render features that ship with Taos.

pub(crate) mod forward_lit;
mod gpu_util;
mod shadow;
mod sky;
mod tonemap;

pub use crate::frame::{DEPTH_FORMAT, HDR_FORMAT};
pub use forward_lit::ForwardLitFeature;
pub use shadow::{MAX_CASCADES, ShadowCascades, ShadowFeature, ShadowMap, fit_cascades};
pub use sky::{SkyFeature, SkyOption};
pub use tonemap::TonemapFeature;
