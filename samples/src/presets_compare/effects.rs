//! The effects the comparison turns on and off, as a small table: one row
//! per effect, a label, what it changes in the preset options, and how a
//! built renderer switches it. A new effect is one more row in [`EFFECTS`].

use taos_engine::renderer::features::{
    BloomFeature, BloomOptions, DofFeature, DofOptions, TaaFeature, TaaOptions,
};
use taos_engine::renderer::presets::PresetOptions;
use taos_engine::renderer::{FeatureMissing, Renderer};

use super::scene::focus_distance;

/// One effect: a label (lower case, no spaces) and what turning it on
/// changes in the options every preset shares.
#[derive(Debug, Clone, Copy)]
pub struct Effect {
    /// Shown in the contact sheet, the table and `--effects`.
    pub label: &'static str,
    /// Turns the effect on in the options: the preset then registers it.
    pub apply: fn(&mut PresetOptions),
    /// Switches the effect's feature on or off in a renderer built with it
    /// ([`Renderer::set_enabled`]); `None` for an effect that is a setting
    /// of the preset's passes (MSAA), which needs the features rebuilt.
    pub switch: Option<Switch>,
}

/// Switches one feature on or off: `Renderer::set_enabled::<F>`.
pub type Switch = fn(&mut Renderer, bool) -> Result<(), FeatureMissing>;

/// The effects compared, in the order of their columns.
pub const EFFECTS: &[Effect] = &[
    Effect {
        label: "dof",
        apply: |options| options.dof = Some(scene_dof()),
        switch: Some(Renderer::set_enabled::<DofFeature>),
    },
    Effect {
        label: "bloom",
        apply: |options| {
            options.bloom = Some(BloomOptions {
                intensity: 0.3,
                ..BloomOptions::default()
            })
        },
        switch: Some(Renderer::set_enabled::<BloomFeature>),
    },
    Effect {
        label: "taa",
        apply: |options| options.taa = Some(TaaOptions::default()),
        switch: Some(Renderer::set_enabled::<TaaFeature>),
    },
    Effect {
        label: "msaa",
        // Deferred ignores it (its G-buffer is single-sampled): that column
        // shows the deferred preset unchanged, which is the point.
        apply: |options| options.msaa = 4,
        switch: None,
    },
];

/// Depth of field focused on the middle of the sphere grid. The aperture
/// is far wider than a real lens's: the tiles are only 180 pixels tall,
/// and a real f/1.4 would blur less than a pixel at this distance (see
/// the book's depth-of-field section).
fn scene_dof() -> DofOptions {
    DofOptions {
        focus_distance: focus_distance(),
        aperture_f_stops: 0.03,
        ..DofOptions::default()
    }
}

/// Some effects on together: one column of the comparison.
#[derive(Debug, Clone)]
pub struct EffectSet {
    effects: Vec<Effect>,
    /// Every effect of the table: labelled `all` rather than a long list.
    everything: bool,
}

impl EffectSet {
    /// No effect.
    #[must_use]
    pub fn none() -> Self {
        Self {
            effects: Vec::new(),
            everything: false,
        }
    }

    /// These effects together.
    #[must_use]
    pub fn of(effects: &[Effect]) -> Self {
        Self {
            effects: effects.to_vec(),
            everything: false,
        }
    }

    /// Every effect of `effects` together, labelled `all`.
    #[must_use]
    pub fn all(effects: &[Effect]) -> Self {
        Self {
            everything: true,
            ..Self::of(effects)
        }
    }

    /// `off`, `all`, or the effects' labels joined with `+` (`dof+bloom`).
    #[must_use]
    pub fn label(&self) -> String {
        if self.effects.is_empty() {
            return "off".to_owned();
        }
        if self.everything {
            return "all".to_owned();
        }
        let labels: Vec<_> = self.effects.iter().map(|effect| effect.label).collect();
        labels.join("+")
    }

    /// The effects in the set.
    #[must_use]
    pub fn effects(&self) -> &[Effect] {
        &self.effects
    }

    /// Turns the set's effects on in `options`.
    pub fn apply(&self, options: &mut PresetOptions) {
        for effect in &self.effects {
            (effect.apply)(options);
        }
    }

    /// Whether the set has the effect labelled `label`.
    #[must_use]
    pub fn contains(&self, label: &str) -> bool {
        self.effects.iter().any(|effect| effect.label == label)
    }

    /// This set with the effect labelled `label` of `table` turned on if
    /// it was off and off if it was on, in table order (`all` when every
    /// effect of a table of two or more is on).
    #[must_use]
    pub fn toggled(&self, label: &str, table: &[Effect]) -> Self {
        let effects: Vec<Effect> = table
            .iter()
            .filter(|effect| (effect.label == label) != self.contains(effect.label))
            .copied()
            .collect();
        Self {
            everything: table.len() > 1 && effects.len() == table.len(),
            effects,
        }
    }

    /// What a preset must be built with to show this set by switching
    /// features: every effect of `table` that has a feature switch, and
    /// this set's effects that are settings (MSAA). Sets with the same
    /// build share a renderer.
    #[must_use]
    pub fn build(&self, table: &[Effect]) -> Self {
        let effects = table
            .iter()
            .filter(|effect| effect.switch.is_some() || self.contains(effect.label))
            .copied()
            .collect();
        Self {
            effects,
            everything: false,
        }
    }

    /// Switches the features of a renderer built with
    /// [`build`](Self::build): on for this set's effects, off for the
    /// other effects of `table`. Nothing is rebuilt.
    ///
    /// # Errors
    /// [`FeatureMissing`] when the renderer lacks one of the features.
    pub fn switch(&self, renderer: &mut Renderer, table: &[Effect]) -> Result<(), FeatureMissing> {
        for effect in table {
            if let Some(switch) = effect.switch {
                switch(renderer, self.contains(effect.label))?;
            }
        }
        Ok(())
    }

    /// Parses `off`, `all`, or labels joined with `+` or `,` (`dof+bloom`),
    /// against `effects`.
    ///
    /// # Errors
    /// [`UnknownEffect`], naming the unknown label and the known ones.
    pub fn parse(text: &str, effects: &[Effect]) -> Result<Self, UnknownEffect> {
        match text.trim() {
            "off" | "none" | "" => return Ok(Self::none()),
            "all" => return Ok(Self::all(effects)),
            _ => {}
        }
        let mut chosen = Vec::new();
        for label in text.split(['+', ',']).map(str::trim) {
            let effect = effects
                .iter()
                .find(|effect| effect.label == label)
                .ok_or_else(|| UnknownEffect {
                    label: label.to_owned(),
                    known: effects.iter().map(|effect| effect.label).collect(),
                })?;
            if !chosen.iter().any(|e: &Effect| e.label == label) {
                chosen.push(*effect);
            }
        }
        // In table order, so `bloom+dof` and `dof+bloom` are one set.
        chosen.sort_by_key(|e| effects.iter().position(|known| known.label == e.label));
        Ok(Self {
            effects: chosen,
            everything: false,
        })
    }
}

/// An effect label no table knows (`--effects dof+fog`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown effect {label:?}: use off, all, or some of {} joined with '+'",
    .known.join(", ")
)]
pub struct UnknownEffect {
    /// The label as written.
    pub label: String,
    /// The labels that exist.
    pub known: Vec<&'static str>,
}

/// The comparison's columns: every effect off, each effect alone, then all
/// of them on together (when there are two or more).
#[must_use]
pub fn effect_sets(effects: &[Effect]) -> Vec<EffectSet> {
    let mut sets = vec![EffectSet::none()];
    sets.extend(effects.iter().map(|effect| EffectSet::of(&[*effect])));
    if effects.len() > 1 {
        sets.push(EffectSet::all(effects));
    }
    sets
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(sets: &[EffectSet]) -> Vec<String> {
        sets.iter().map(EffectSet::label).collect()
    }

    #[test]
    fn the_columns_are_off_each_alone_then_all() {
        let table = [
            Effect {
                label: "a",
                apply: |_| {},
                switch: None,
            },
            Effect {
                label: "b",
                apply: |_| {},
                switch: None,
            },
            Effect {
                label: "c",
                apply: |_| {},
                switch: None,
            },
        ];
        assert_eq!(labels(&effect_sets(&table)), ["off", "a", "b", "c", "all"]);
        assert_eq!(labels(&effect_sets(&table[..1])), ["off", "a"]);
        assert_eq!(labels(&effect_sets(&[])), ["off"]);
        // The sample's own table: its labels are distinct and usable in a set.
        let labels: Vec<_> = EFFECTS.iter().map(|effect| effect.label).collect();
        for (i, label) in labels.iter().enumerate() {
            assert!(!labels[i + 1..].contains(label), "{label} twice");
            assert!(
                !label.is_empty() && !label.contains(['+', ',', ' ']),
                "{label}"
            );
        }
    }

    #[test]
    fn a_set_turns_on_exactly_its_effects() {
        let mut options = PresetOptions::default();
        EffectSet::parse("bloom", EFFECTS)
            .unwrap()
            .apply(&mut options);
        assert!(options.bloom.is_some() && options.dof.is_none());
        let mut options = PresetOptions::default();
        EffectSet::parse("all", EFFECTS)
            .unwrap()
            .apply(&mut options);
        assert!(options.bloom.is_some());
        let dof = options.dof.expect("all turns depth of field on");
        assert!((dof.focus_distance - focus_distance()).abs() < 1e-6);
        let mut options = PresetOptions::default();
        EffectSet::parse("off", EFFECTS)
            .unwrap()
            .apply(&mut options);
        assert_eq!(options, PresetOptions::default());
    }

    #[test]
    fn a_build_registers_every_switchable_effect_and_the_settings_asked_for() {
        let off = EffectSet::none().build(EFFECTS);
        assert_eq!(off.label(), "dof+bloom+taa");
        let bloom = EffectSet::parse("bloom", EFFECTS).unwrap();
        assert_eq!(bloom.build(EFFECTS).label(), off.label(), "one renderer");
        let msaa = EffectSet::parse("msaa", EFFECTS).unwrap().build(EFFECTS);
        assert_eq!(msaa.label(), "dof+bloom+taa+msaa");
        assert_eq!(EffectSet::all(EFFECTS).build(EFFECTS).label(), msaa.label());
    }

    #[test]
    fn toggling_adds_or_removes_one_effect_in_table_order() {
        let set = EffectSet::parse("taa", EFFECTS).unwrap();
        let set = set.toggled("dof", EFFECTS);
        assert_eq!(set.label(), "dof+taa");
        assert_eq!(set.toggled("taa", EFFECTS).label(), "dof");
        let every = set.toggled("bloom", EFFECTS).toggled("msaa", EFFECTS);
        assert_eq!(every.label(), "all");
        assert_eq!(every.toggled("msaa", EFFECTS).label(), "dof+bloom+taa");
    }

    #[test]
    fn parsing_is_order_free_and_names_unknown_effects() {
        let set = EffectSet::parse("bloom+dof", EFFECTS).unwrap();
        assert_eq!(set.label(), "dof+bloom");
        assert_eq!(
            EffectSet::parse("dof,bloom", EFFECTS).unwrap().label(),
            "dof+bloom"
        );
        let error = EffectSet::parse("dof+fog", EFFECTS)
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("\"fog\"") && error.contains("bloom"),
            "{error}"
        );
    }
}
