//! [`FrameInputs`]: what the game set through the handle, copied out once
//! per frame for the passes to read.

use crate::render::handle::{Avatars, Clouds, Fog, Godrays, Shadows};
use crate::time_of_day::SkyLighting;
use crate::weather::WeatherView;

/// This frame's settings from the game, besides the engine's frame data.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FrameInputs {
    pub(crate) light: SkyLighting,
    pub(crate) fog: Fog,
    pub(crate) highlight: Option<glam::IVec3>,
    pub(crate) weather: WeatherView,
    /// World `(x, z)` of the precipitation map's texel 0; `None` until the
    /// game handed one over.
    pub(crate) precipitation_origin: Option<glam::IVec2>,
    pub(crate) underwater: bool,
    pub(crate) clouds: Clouds,
    pub(crate) shadows: Shadows,
    pub(crate) godrays: Godrays,
    /// Other players, drawn as blocky figures.
    pub(crate) avatars: Avatars,
}
