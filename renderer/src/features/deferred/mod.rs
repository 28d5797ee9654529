//! The deferred path's features: the [`GeometryFeature`] packs opaque
//! surfaces into a [`GBuffer`], the [`AoFeature`] darkens its creases,
//! the [`DeferredLightingFeature`] lights it with the sun and ambient, the
//! [`PointSpotLightFeature`] adds point and spot lights (per tile or per
//! light volume), and the [`ForwardOverlayFeature`] shades the blended
//! draws on top. The [deferred preset](crate::presets::deferred_preset)
//! registers them in that order.

mod ao;
mod gbuffer;
mod geometry;
mod lighting;
mod overlay;
mod point_spot;

pub use ao::{AmbientOcclusion, AoFeature, AoOptions};
pub use gbuffer::{GBUFFER_BYTES_PER_PIXEL, GBuffer};
pub use geometry::GeometryFeature;
pub use lighting::DeferredLightingFeature;
pub use overlay::{ForwardOverlayFeature, OverlayLighting};
pub use point_spot::{PointSpotLightFeature, PointSpotMethod};
