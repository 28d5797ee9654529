//! Crafty's render passes, one type per pass, each with its own pipelines,
//! bind groups and per-frame update. They depend on
//! [`shared`](super::shared) only; [`CraftyPipelineFeature`](super::CraftyPipelineFeature)
//! composes them, in frame order: [`SunShadows`], [`SkyPass`],
//! [`OpaqueChunksPass`], [`AvatarPass`], [`TransparentChunksPass`], [`WeatherPass`],
//! [`HighlightPass`], [`GodrayPasses`].

mod avatars;
mod chunk_draws;
mod chunk_shading;
mod godrays;
mod highlight;
mod opaque;
mod shadows;
mod sky;
mod transparent;
mod weather;

pub(crate) use avatars::AvatarPass;
pub(crate) use chunk_draws::ChunkDraws;
pub(crate) use chunk_shading::{ChunkScene, ChunkShading};
pub(crate) use godrays::GodrayPasses;
pub(crate) use highlight::HighlightPass;
pub(crate) use opaque::OpaqueChunksPass;
pub(crate) use shadows::SunShadows;
pub(crate) use sky::SkyPass;
pub(crate) use transparent::TransparentChunksPass;
pub(crate) use weather::WeatherPass;
