//! Presets: plain functions that register a coordinated set of features.
//!
//! All presets share one option vocabulary ([`PresetOptions`]); applications
//! that fit none of them call [`Renderer::add_feature`] directly.

use crate::Renderer;
use crate::features::{ForwardLitFeature, SkyFeature, SkyOption, TonemapFeature};

/// Options every preset understands.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PresetOptions {
    /// What fills the background.
    pub sky: SkyOption,
    /// Exposure multiplier before tonemapping.
    pub exposure: f32,
    /// ACES filmic curve (`true`) or a plain clamp.
    pub aces: bool,
}

impl Default for PresetOptions {
    fn default() -> Self {
        Self {
            sky: SkyOption::None,
            exposure: 1.0,
            aces: true,
        }
    }
}

/// The forward preset: sky, forward-lit PBR, tonemap.
///
/// Cascaded sun shadows, TAA, depth of field and bloom slot in between as
/// their features land.
pub fn forward_preset(options: PresetOptions) -> impl FnOnce(&mut Renderer) {
    move |renderer| {
        renderer
            .add_feature(SkyFeature { sky: options.sky })
            .add_feature(ForwardLitFeature::new())
            .add_feature(TonemapFeature::new(options.exposure, options.aces));
    }
}
