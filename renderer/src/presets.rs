//! Presets: plain functions that register a coordinated set of features.
//!
//! All presets share one option vocabulary ([`PresetOptions`]); applications
//! that fit none of them call [`Renderer::add_feature`] directly.

use crate::Renderer;
use crate::features::{
    AmbientLight, AoFeature, AoOptions, DecalFeature, DecalTarget, DeferredLightingFeature,
    ForwardLitFeature, ForwardOverlayFeature, ForwardPlusFeature, GeometryFeature, IblOptions,
    OverlayLighting, PointSpotLightFeature, PointSpotMethod, ShadowFeature, SkyFeature, SkyOption,
    TonemapFeature, check_deferred_support,
};
use crate::features::{BloomFeature, BloomOptions, DofFeature, DofOptions, TaaFeature, TaaOptions};
use crate::particles::ParticleFeature;

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
    /// Image-based lighting baked from the sky (`None`: off; the lit
    /// passes then use [`ambient`](Self::ambient) alone).
    pub ibl: Option<IblOptions>,
    /// Ambient light on every surface, in every preset (`None`, the
    /// default: [`AmbientLight::default`], a soft sky-and-ground hemisphere,
    /// when [`ibl`](Self::ibl) is off, and no ambient when IBL is on, whose
    /// environment is then the ambient light). See [`PresetOptions::ambient_light`].
    pub ambient: Option<AmbientLight>,
    /// Temporal anti-aliasing (`None`: off).
    pub taa: Option<TaaOptions>,
    /// Multisample anti-aliasing: samples per pixel of the forward and
    /// forward-plus lit passes (1: off; 4 is usual). A count the device
    /// cannot render falls to the largest it can, logged. The deferred
    /// preset ignores it (its G-buffer is one sample per pixel: use TAA).
    pub msaa: u32,
    /// Depth of field (`None`: off).
    pub dof: Option<DofOptions>,
    /// Bloom before the tonemap (`None`: off).
    pub bloom: Option<BloomOptions>,
    /// Present in HDR when the output offers it (`false`, the default:
    /// SDR). The preset then switches the renderer to the HDR format the
    /// output offered ([`Renderer::use_hdr_output`]: `Rgba16Float` in
    /// extended linear sRGB; the engine's window offers it when the surface
    /// has it) before adding any feature, and the tonemap writes linear
    /// values above 1.0 (paper white stays 1.0). Where no HDR format is
    /// offered (headless engines, SDR displays) the output stays SDR and
    /// the preset logs one warning saying why.
    pub hdr_output: bool,
}

impl PresetOptions {
    /// The ambient light the presets give the lit passes:
    /// [`ambient`](Self::ambient) when set, otherwise the default
    /// hemisphere without IBL and none with it.
    ///
    /// ```
    /// use taos_renderer::features::{AmbientLight, IblOptions};
    /// use taos_renderer::presets::PresetOptions;
    ///
    /// let plain = PresetOptions::default();
    /// assert_eq!(plain.ambient_light(), AmbientLight::default());
    /// let lit_by_the_sky = PresetOptions { ibl: Some(IblOptions::default()), ..plain.clone() };
    /// assert_eq!(lit_by_the_sky.ambient_light(), AmbientLight::NONE);
    /// let chosen = PresetOptions { ambient: Some(glam::Vec3::splat(0.1).into()), ..plain };
    /// assert_eq!(chosen.ambient_light(), AmbientLight::uniform(glam::Vec3::splat(0.1)));
    /// ```
    #[must_use]
    pub fn ambient_light(&self) -> AmbientLight {
        match (self.ambient, self.ibl) {
            (Some(ambient), _) => ambient,
            (None, None) => AmbientLight::default(),
            (None, Some(_)) => AmbientLight::NONE,
        }
    }
}

impl Default for PresetOptions {
    fn default() -> Self {
        Self {
            sky: SkyOption::None,
            shadow: Some(ShadowOptions::default()),
            exposure: 1.0,
            aces: true,
            ibl: None,
            ambient: None,
            taa: None,
            msaa: 1,
            dof: None,
            bloom: None,
            hdr_output: false,
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

/// The forward preset: sun shadows (cascaded), sky, forward-lit PBR,
/// [decals](DecalFeature), the post effects that are on ([`TaaFeature`], [`DofFeature`],
/// [`BloomFeature`]), tonemap.
pub fn forward_preset(options: PresetOptions) -> impl FnOnce(&mut Renderer) {
    move |renderer| {
        use_hdr_output_if_asked(renderer, &options);
        add_shadow_and_sky(renderer, &options);
        renderer.add_feature(forward_lit(&options));
        renderer.add_feature(lit_decals(&options));
        add_post_and_tonemap(renderer, &options);
    }
}

/// The forward-plus preset: sun shadows (cascaded), sky, [`ForwardPlusFeature`]
/// (depth pre-pass, tiled light culling in a compute pass, shading over each
/// tile's lights), [decals](DecalFeature), the post effects that are on,
/// tonemap. Pick it for scenes
/// with many small point and spot lights.
///
/// Fallback: on a device without compute shaders or storage buffers (WebGL2)
/// it registers the forward pass instead, and logs why
/// ([`ForwardPlusFeature::check_support`]); the features then read as the
/// [forward preset](forward_preset)'s: `Shadow, Sky, ForwardLit, Decals`,
/// the post effects, `Tonemap`.
pub fn forward_plus_preset(options: PresetOptions) -> impl FnOnce(&mut Renderer) {
    move |renderer| {
        use_hdr_output_if_asked(renderer, &options);
        add_shadow_and_sky(renderer, &options);
        match ForwardPlusFeature::check_support(renderer.gpu()) {
            Ok(()) => {
                let mut feature = ForwardPlusFeature::new();
                feature.msaa_samples = options.msaa;
                feature.ambient = options.ambient_light();
                renderer.add_feature(feature)
            }
            Err(error) => {
                log::warn!("{error}: the forward-plus preset falls back to forward shading");
                renderer.add_feature(forward_lit(&options))
            }
        };
        renderer.add_feature(lit_decals(&options));
        add_post_and_tonemap(renderer, &options);
    }
}

/// Decals over the forward presets' lit frame, with their ambient light.
fn lit_decals(options: &PresetOptions) -> DecalFeature {
    let mut decals = DecalFeature::new(DecalTarget::Lit);
    decals.ambient = options.ambient_light();
    decals
}

fn forward_lit(options: &PresetOptions) -> ForwardLitFeature {
    let mut feature = ForwardLitFeature::new();
    feature.msaa_samples = options.msaa;
    feature.ambient = options.ambient_light();
    feature
}

/// Switches to HDR output first when the options ask for it (before any
/// feature is set up for the output format); logs why when it cannot.
fn use_hdr_output_if_asked(renderer: &mut Renderer, options: &PresetOptions) {
    if options.hdr_output
        && let Err(why) = renderer.use_hdr_output()
    {
        log::warn!(
            "HDR output asked for; presenting SDR in {:?} instead: {why}",
            renderer.output_format()
        );
    }
}

/// The post effects that are on, in the design's order, then the tonemap.
fn add_post_and_tonemap(renderer: &mut Renderer, options: &PresetOptions) {
    if let Some(taa) = options.taa {
        renderer.add_feature(TaaFeature::new(taa));
    }
    renderer.add_feature(ParticleFeature::default());
    if let Some(dof) = options.dof {
        renderer.add_feature(DofFeature::new(dof));
    }
    if let Some(bloom) = options.bloom {
        renderer.add_feature(BloomFeature::new(bloom));
    }
    renderer.add_feature(TonemapFeature::new(options.exposure, options.aces));
}

fn add_shadow_and_sky(renderer: &mut Renderer, options: &PresetOptions) {
    if let Some(shadow) = options.shadow {
        let mut feature = ShadowFeature::default();
        feature.resolution = shadow.resolution;
        renderer.add_feature(feature);
    }
    renderer.add_feature(sky_feature(options));
}

fn sky_feature(options: &PresetOptions) -> SkyFeature {
    let mut sky = SkyFeature::new(options.sky.clone());
    sky.ibl = options.ibl;
    sky
}

/// Options of the [deferred preset](deferred_preset): the shared vocabulary
/// plus the deferred path's own knobs.
///
/// The defaults follow the design: TAA on (`common.taa`; the G-buffer is
/// one sample per pixel, so TAA is this path's anti-aliasing), point and
/// spot lights off until asked for (`point_spot_lights`). A `common` built
/// from [`PresetOptions::default()`] has TAA off, as the forward presets
/// do: `DeferredOptions { common: PresetOptions { .. }, ..Default::default() }`
/// sets `taa` with the rest of `common`.
#[derive(Debug, Clone, PartialEq)]
pub struct DeferredOptions {
    /// Sky, shadow, exposure and tone curve, as in every preset.
    pub common: PresetOptions,
    /// Screen-space ambient occlusion (`None`: off); its `method` picks SSAO
    /// (the default) or GTAO.
    pub ao: Option<AoOptions>,
    /// Shade blended draws in a forward overlay after the deferred
    /// lighting (`false`: blended draws are not drawn).
    pub transparent: bool,
    /// Shade point and spot lights (`None`, the default: only the sun and
    /// ambient); `Some(None)` takes the default method (light volumes).
    pub point_spot_lights: Option<Option<PointSpotMethod>>,
    /// The deferred lighting's settings.
    pub lighting: LightingOptions,
    /// Which forward pass shades the transparency overlay.
    pub overlay_lighting: OverlayLighting,
}

impl Default for DeferredOptions {
    fn default() -> Self {
        Self {
            common: PresetOptions {
                taa: Some(TaaOptions::default()),
                ..PresetOptions::default()
            },
            ao: Some(AoOptions::default()),
            transparent: true,
            point_spot_lights: None,
            lighting: LightingOptions::default(),
            overlay_lighting: OverlayLighting::Forward,
        }
    }
}

/// Settings of the deferred lighting.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct LightingOptions {
    /// Ambient light on every surface, times the ambient occlusion; the
    /// transparency overlay uses it too (`None`, the default: the common
    /// options' [`ambient_light`](PresetOptions::ambient_light), as in the
    /// forward presets).
    pub ambient: Option<AmbientLight>,
}

/// The deferred preset, in the order of the design: shadow (optional),
/// [`GeometryFeature`] (the G-buffer), [`DecalFeature`] (decals into the
/// G-buffer), [`AoFeature`] (optional), sky,
/// [`DeferredLightingFeature`] (sun and ambient), [`PointSpotLightFeature`]
/// (optional), [`ForwardOverlayFeature`] (transparency, optional), the post
/// effects that are on, tonemap.
///
/// Pick it for scenes with much opaque geometry, ambient occlusion, and
/// many lights; blended surfaces go through a forward overlay. Every
/// feature runs without compute shaders except the tiled point/spot method
/// (light volumes are the default) and the forward-plus overlay, which fall
/// back (logged) to light volumes and the forward overlay.
///
/// Fallback: on a device that cannot hold the G-buffer, pack it (half-float
/// packing in shaders) or bind the lighting's seven sampled textures
/// ([`check_deferred_support`]) it
/// registers the [forward preset](forward_preset) with the same common
/// options instead, and logs why.
pub fn deferred_preset(options: DeferredOptions) -> impl FnOnce(&mut Renderer) {
    move |renderer| {
        if let Err(error) = check_deferred_support(renderer.gpu()) {
            log::warn!("{error}: the deferred preset falls back to forward shading");
            forward_preset(options.common)(renderer);
            return;
        }
        let common = &options.common;
        use_hdr_output_if_asked(renderer, common);
        if let Some(shadow) = common.shadow {
            let mut feature = ShadowFeature::default();
            feature.resolution = shadow.resolution;
            renderer.add_feature(feature);
        }
        renderer.add_feature(GeometryFeature::new());
        renderer.add_feature(DecalFeature::new(DecalTarget::GBuffer));
        if let Some(ao) = options.ao {
            renderer.add_feature(AoFeature::new(ao));
        }
        renderer.add_feature(sky_feature(common));
        let ambient = options
            .lighting
            .ambient
            .unwrap_or_else(|| common.ambient_light());
        let mut lighting = DeferredLightingFeature::new();
        lighting.ambient = ambient;
        renderer.add_feature(lighting);
        if let Some(method) = options.point_spot_lights {
            let mut lights = PointSpotLightFeature::new();
            lights.method = method;
            renderer.add_feature(lights);
        }
        if options.transparent {
            let mut overlay = ForwardOverlayFeature::new(options.overlay_lighting);
            overlay.set_ambient(ambient);
            renderer.add_feature(overlay);
        }
        add_post_and_tonemap(renderer, common);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deferred_defaults_follow_the_design() {
        let options = DeferredOptions::default();
        assert_eq!(options.common.taa, Some(TaaOptions::default()), "TAA on");
        assert_eq!(options.point_spot_lights, None, "point and spot lights off");
        assert!(options.ao.is_some() && options.transparent);
        assert_eq!(
            PresetOptions::default().taa,
            None,
            "the forward presets' TAA is off"
        );
    }
}
