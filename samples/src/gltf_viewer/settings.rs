//! What the viewer renders with: a preset and the effects on it, switched
//! at run time by rebuilding the renderer's features
//! ([`Engine::set_preset`](taos_engine::Engine::set_preset)).

use taos_engine::renderer::Renderer;
use taos_engine::renderer::features::{BloomOptions, DofOptions, TaaOptions};
use taos_engine::renderer::presets::{deferred_preset, forward_plus_preset, forward_preset};

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
    /// A message naming the unknown label and the known ones.
    pub fn set_effects(&mut self, text: &str) -> Result<(), String> {
        let text = text.trim();
        for (_, flag) in self.effects_mut().into_iter().skip(1) {
            *flag = text == "all";
        }
        if matches!(text, "all" | "off" | "none" | "") {
            return Ok(());
        }
        for label in text.split(['+', ',']).map(str::trim) {
            let flag = self.effect_mut(label).ok_or_else(|| {
                format!(
                    "unknown effect {label:?}: expected off, all, or some of {}",
                    EFFECT_LABELS.join(", ")
                )
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
    /// based light and exposure, and depth of field (when on) focused
    /// `focus_distance` metres ahead.
    pub fn preset(&self, focus_distance: f32) -> impl FnOnce(&mut Renderer) + 'static {
        let mut options = deferred_showcase_options();
        let common = &mut options.common;
        if !self.shadows {
            common.shadow = None;
        }
        if self.bloom {
            common.bloom = Some(BloomOptions {
                intensity: 0.3,
                ..BloomOptions::default()
            });
        }
        if self.dof {
            common.dof = Some(DofOptions {
                focus_distance,
                aperture_f_stops: DOF_F_STOPS,
                ..DofOptions::default()
            });
        }
        if self.taa {
            common.taa = Some(TaaOptions::default());
        }
        if self.msaa {
            common.msaa = 4;
        }
        let preset = self.preset;
        move |renderer: &mut Renderer| match preset {
            ComparePreset::Forward => forward_preset(options.common)(renderer),
            ComparePreset::ForwardPlus => forward_plus_preset(options.common)(renderer),
            ComparePreset::Deferred => deferred_preset(options)(renderer),
        }
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
        let error = settings.set_effects("bloom+glow").unwrap_err();
        assert!(
            error.contains("\"glow\"") && error.contains("msaa"),
            "{error}"
        );
    }
}
