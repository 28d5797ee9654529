//! What the viewer renders with: a preset and the effects on it. Shadows,
//! bloom, depth of field and TAA are features the preset always registers
//! and [`ViewerSettings::switch_effects`] turns on or off
//! ([`Renderer::set_enabled`]); the preset and MSAA (a setting of the lit
//! pass's pipelines) rebuild the features
//! ([`Engine::set_preset`](taos_engine::Engine::set_preset)).

use taos_engine::renderer::features::{
    BloomFeature, BloomOptions, DofFeature, DofOptions, ShadowFeature, TaaFeature, TaaOptions,
};
use taos_engine::renderer::presets::{deferred_preset, forward_plus_preset, forward_preset};
use taos_engine::renderer::{FeatureMissing, Renderer};

use crate::presets_compare::UnknownEffect;
use crate::{ComparePreset, deferred_showcase_options};

/// The aperture the viewer's depth of field uses: far wider than a real
/// lens, so that a model a few radii away shows its blur.
const DOF_F_STOPS: f32 = 0.08;

/// A preset and the effects on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ViewerSettings {
    /// Which preset renders.
    pub preset: ComparePreset,
    /// Cascaded sun shadows.
    pub shadows: bool,
    /// Bloom.
    pub bloom: bool,
    /// Depth of field, focused on the orbit's target.
    pub dof: bool,
    /// Temporal anti-aliasing.
    pub taa: bool,
    /// 4x MSAA (forward and forward-plus; deferred ignores it).
    pub msaa: bool,
    /// Show the joints and bones of the model's skins (K in the window).
    pub skeleton: bool,
}

impl Default for ViewerSettings {
    /// Forward with shadows, no post effect.
    fn default() -> Self {
        Self {
            preset: ComparePreset::Forward,
            shadows: true,
            bloom: false,
            dof: false,
            taa: false,
            msaa: false,
            skeleton: false,
        }
    }
}

/// The effects the viewer toggles, by label.
pub const EFFECT_LABELS: [&str; 5] = ["shadows", "bloom", "dof", "taa", "msaa"];

impl ViewerSettings {
    /// Each effect's label (as in [`EFFECT_LABELS`]) and flag.
    pub fn effects_mut(&mut self) -> [(&'static str, &mut bool); 5] {
        [
            ("shadows", &mut self.shadows),
            ("bloom", &mut self.bloom),
            ("dof", &mut self.dof),
            ("taa", &mut self.taa),
            ("msaa", &mut self.msaa),
        ]
    }

    /// The flag of the effect labelled `label`.
    pub fn effect_mut(&mut self, label: &str) -> Option<&mut bool> {
        self.effects_mut()
            .into_iter()
            .find_map(|(name, flag)| (name == label).then_some(flag))
    }

    /// Sets the post effects from `text`: those listed (`bloom+taa`,
    /// `bloom,dof`) on and the others off; `all` for every one, `off` or
    /// `none` for none. Shadows are not a post effect: listing `shadows`
    /// turns them on, and nothing here turns them off.
    ///
    /// # Errors
    /// [`UnknownEffect`], naming the unknown label and the known ones.
    pub fn set_effects(&mut self, text: &str) -> Result<(), UnknownEffect> {
        let text = text.trim();
        for (_, flag) in self.effects_mut().into_iter().skip(1) {
            *flag = text == "all";
        }
        if matches!(text, "all" | "off" | "none" | "") {
            return Ok(());
        }
        for label in text.split(['+', ',']).map(str::trim) {
            let flag = self.effect_mut(label).ok_or_else(|| UnknownEffect {
                label: label.to_owned(),
                known: EFFECT_LABELS.to_vec(),
            })?;
            *flag = true;
        }
        Ok(())
    }

    /// `forward-plus, bloom+taa` (or `forward, no effects`), with
    /// `no shadows` when they are off.
    #[must_use]
    pub fn label(&self) -> String {
        let mut copy = *self;
        let on: Vec<&str> = copy
            .effects_mut()
            .into_iter()
            .skip(1)
            .filter_map(|(label, flag)| (*flag).then_some(label))
            .collect();
        let effects = if on.is_empty() {
            "no effects".to_owned()
        } else {
            on.join("+")
        };
        let shadows = if self.shadows { "" } else { ", no shadows" };
        format!("{}, {effects}{shadows}", self.preset.label())
    }

    /// The preset with these settings: the deferred showcase's sky, image
    /// based light and exposure, shadows, bloom, depth of field (focused
    /// `focus_distance` metres ahead) and TAA registered and switched as
    /// the settings say.
    pub fn preset(&self, focus_distance: f32) -> impl FnOnce(&mut Renderer) + 'static {
        let mut options = deferred_showcase_options();
        let common = &mut options.common;
        common.shadow.get_or_insert_default();
        common.bloom = Some(BloomOptions {
            intensity: 0.3,
            ..BloomOptions::default()
        });
        common.dof = Some(DofOptions {
            focus_distance,
            aperture_f_stops: DOF_F_STOPS,
            ..DofOptions::default()
        });
        common.taa = Some(TaaOptions::default());
        if self.msaa {
            common.msaa = 4;
        }
        let settings = *self;
        move |renderer: &mut Renderer| {
            match settings.preset {
                ComparePreset::Forward => forward_preset(options.common)(renderer),
                ComparePreset::ForwardPlus => forward_plus_preset(options.common)(renderer),
                ComparePreset::Deferred => deferred_preset(options)(renderer),
            }
            if let Err(error) = settings.switch_effects(renderer, focus_distance) {
                eprintln!("gltf_viewer: {error}");
            }
        }
    }

    /// Whether going from `before` to these settings needs the features
    /// rebuilt ([`preset`](Self::preset)): another preset or MSAA. The
    /// other effects are switched ([`switch_effects`](Self::switch_effects)).
    #[must_use]
    pub fn needs_rebuild(&self, before: &Self) -> bool {
        self.preset != before.preset || self.msaa != before.msaa
    }

    /// Switches the shadow, bloom, depth-of-field and TAA features of a
    /// renderer built by [`preset`](Self::preset) on or off as these
    /// settings say, and focuses the depth of field `focus_distance`
    /// metres ahead. Nothing is rebuilt.
    ///
    /// # Errors
    /// [`FeatureMissing`] when the renderer lacks one of those features.
    pub fn switch_effects(
        &self,
        renderer: &mut Renderer,
        focus_distance: f32,
    ) -> Result<(), FeatureMissing> {
        renderer.set_enabled::<ShadowFeature>(self.shadows)?;
        renderer.set_enabled::<BloomFeature>(self.bloom)?;
        renderer.set_enabled::<DofFeature>(self.dof)?;
        renderer.set_enabled::<TaaFeature>(self.taa)?;
        if let Some(dof) = renderer.feature_mut::<DofFeature>() {
            dof.options.focus_distance = focus_distance;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn effects_parse_and_label_round_trip() {
        let mut settings = ViewerSettings::default();
        settings.set_effects("bloom+taa").unwrap();
        assert!(settings.bloom && settings.taa && !settings.dof && settings.shadows);
        assert_eq!(settings.label(), "forward, bloom+taa");
        settings.set_effects("all").unwrap();
        assert!(settings.dof && settings.msaa);
        settings.set_effects("off").unwrap();
        settings.shadows = false;
        settings.preset = ComparePreset::Deferred;
        assert_eq!(settings.label(), "deferred, no effects, no shadows");
        let error = settings.set_effects("bloom+glow").unwrap_err().to_string();
        assert!(
            error.contains("\"glow\"") && error.contains("msaa"),
            "{error}"
        );
    }
}
