//! Presets: plain functions that register a coordinated set of features.
//!
//! All presets share one option vocabulary ([`PresetOptions`]); applications
//! that fit none of them call [`Renderer::add_feature`] directly.

use crate::Renderer;
use crate::features::{
    ForwardLitFeature, ForwardPlusFeature, ShadowFeature, SkyFeature, SkyOption, TonemapFeature,
};

/// Options every preset understands.
#[derive(Debug, Clone, PartialEq)]
pub struct PresetOptions {
    /// What fills the background.
    pub sky: SkyOption,
    /// Cascaded shadow maps for the sun (`None`: no shadows).
    pub shadow: Option<ShadowOptions>,
    /// Exposure multiplier before tonemapping.
    pub exposure: f32,
    /// ACES filmic curve (`true`) or a plain clamp.
    pub aces: bool,
}

impl Default for PresetOptions {
    fn default() -> Self {
        Self {
            sky: SkyOption::None,
            shadow: Some(ShadowOptions::default()),
            exposure: 1.0,
            aces: true,
        }
    }
}

/// Shadow settings shared by the presets: the atlas quality. How the sun's
/// shadow is split (cascade count, split lambda, distance) belongs to the
/// light ([`SunLight::cascades`](crate::frame::SunLight::cascades), filled
/// from the engine's `DirectionalLight`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShadowOptions {
    /// Texels per cascade edge.
    pub resolution: u32,
}

impl Default for ShadowOptions {
    fn default() -> Self {
        Self { resolution: 1024 }
    }
}

/// The forward preset: sun shadows (cascaded), sky, forward-lit PBR, tonemap.
///
/// TAA, depth of field and bloom slot in before the tonemap as their
/// features land.
pub fn forward_preset(options: PresetOptions) -> impl FnOnce(&mut Renderer) {
    move |renderer| {
        add_shadow_and_sky(renderer, &options);
        renderer
            .add_feature(ForwardLitFeature::new())
            .add_feature(TonemapFeature::new(options.exposure, options.aces));
    }
}

/// The forward-plus preset: sun shadows (cascaded), sky, [`ForwardPlusFeature`]
/// (depth pre-pass, tiled light culling in a compute pass, shading over each
/// tile's lights), tonemap. Pick it for scenes with many small point and
/// spot lights.
///
/// Fallback: on a device without compute shaders or storage buffers (WebGL2)
/// it registers the forward pass instead, and logs why
/// ([`ForwardPlusFeature::check_support`]); the features then read
/// `Shadow, Sky, ForwardLit, Tonemap`.
pub fn forward_plus_preset(options: PresetOptions) -> impl FnOnce(&mut Renderer) {
    move |renderer| {
        add_shadow_and_sky(renderer, &options);
        match ForwardPlusFeature::check_support(renderer.gpu()) {
            Ok(()) => renderer.add_feature(ForwardPlusFeature::new()),
            Err(error) => {
                log::warn!("{error}: the forward-plus preset falls back to forward shading");
                renderer.add_feature(ForwardLitFeature::new())
            }
        };
        renderer.add_feature(TonemapFeature::new(options.exposure, options.aces));
    }
}

fn add_shadow_and_sky(renderer: &mut Renderer, options: &PresetOptions) {
    if let Some(shadow) = options.shadow {
        let mut feature = ShadowFeature::default();
        feature.resolution = shadow.resolution;
        renderer.add_feature(feature);
    }
    renderer.add_feature(SkyFeature::new(options.sky.clone()));
}
