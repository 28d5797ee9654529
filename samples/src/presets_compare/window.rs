//! The window: one preset, its effects switched by the keys `1`, `2`, ...
//! (one per row of [`EFFECTS`], in order). An effect with a feature is
//! switched on the live renderer; MSAA, a setting of the lit pass's
//! pipelines, rebuilds the preset. The title says what is on.

use taos_engine::game_loop::InputEvent;
use taos_engine::{App, AppError, Engine, Propagate, WindowEvent};

use super::effects::{EFFECTS, EffectSet};
use super::scene::{ComparePreset, compare_preset, presets_compare_scene};

/// The windowed comparison's state.
pub(super) struct CompareWindow {
    pub(super) preset: ComparePreset,
    pub(super) effects: EffectSet,
    pub(super) hdr: bool,
}

impl CompareWindow {
    /// The preset the window's renderer is built with: every effect with a
    /// feature, and the settings (MSAA) that are on.
    pub(super) fn preset_closure(
        &self,
    ) -> impl FnOnce(&mut taos_engine::renderer::Renderer) + use<> {
        compare_preset(self.preset, &self.effects.build(EFFECTS), self.hdr)
    }

    pub(super) fn title(&self) -> String {
        format!(
            "presets_compare: {}, {} (keys 1-{}: {})",
            self.preset.label(),
            self.effects.label(),
            EFFECTS.len(),
            EFFECTS
                .iter()
                .map(|effect| effect.label)
                .collect::<Vec<_>>()
                .join(" ")
        )
    }

    /// Turns the effect at `index` of [`EFFECTS`] on or off.
    fn toggle(&mut self, engine: &mut Engine, index: usize) -> Result<(), AppError> {
        let Some(effect) = EFFECTS.get(index) else {
            return Ok(());
        };
        let built = self.effects.build(EFFECTS).label();
        self.effects = self.effects.toggled(effect.label, EFFECTS);
        if self.effects.build(EFFECTS).label() != built {
            engine.set_preset(self.preset_closure());
        }
        self.effects.switch(engine.renderer(), EFFECTS)?;
        engine.set_title(&self.title());
        Ok(())
    }
}

impl App for CompareWindow {
    fn start(&mut self, engine: &mut Engine) -> Result<(), AppError> {
        presets_compare_scene(engine)?;
        self.effects.switch(engine.renderer(), EFFECTS)?;
        engine.set_title(&self.title());
        Ok(())
    }

    fn window_event(
        &mut self,
        engine: &mut Engine,
        event: &WindowEvent,
    ) -> Result<Propagate, AppError> {
        if let WindowEvent::Input {
            event: InputEvent::KeyDown(key),
            ui_consumed: false,
        } = *event
        {
            // Keys 1 to 9 switch effect columns 0 to 8.
            if let Some(index) = key.digit().and_then(|digit| digit.checked_sub(1)) {
                self.toggle(engine, usize::from(index))?;
            }
        }
        Ok(Propagate::Continue)
    }
}
