//! The render features that ship with Taos.

pub(crate) mod forward_lit;
mod sky;
mod tonemap;

pub use forward_lit::{DEPTH_FORMAT, ForwardLitFeature, HDR_FORMAT};
pub use sky::{SkyFeature, SkyOption};
pub use tonemap::TonemapFeature;
