//! The render-graph overlay's switches on the [`Engine`] (its state and
//! drawing are `crate::graph_overlay`'s).

#[allow(clippy::wildcard_imports)]
use super::*;
use crate::game_loop::{InputEvent, Key};

impl Engine {
    /// Shows or hides the render-graph overlay: the last frame's passes in
    /// execution order with their GPU times, culled passes, resources
    /// (imported or transient, aliased) and the CPU time to build, compile
    /// and record the graph. Drawn with the UI overlay, so only a windowed
    /// engine shows it; F3 toggles it too (see
    /// [`set_graph_overlay_key`](Self::set_graph_overlay_key)).
    ///
    /// The same figures are in code at
    /// `engine.renderer().last_timings()` and `.last_graph()`.
    pub fn set_graph_overlay(&mut self, shown: bool) {
        if self.graph_overlay.shown() != shown {
            self.graph_overlay.set_shown(shown);
            self.request_redraw();
        }
    }

    /// Whether the render-graph overlay is shown.
    #[must_use]
    pub fn graph_overlay_shown(&self) -> bool {
        self.graph_overlay.shown()
    }

    /// The key that toggles the render-graph overlay (F3 by default;
    /// `None`: no key, only [`set_graph_overlay`](Self::set_graph_overlay)).
    /// The key's events still reach the game.
    pub fn set_graph_overlay_key(&mut self, key: Option<Key>) {
        self.graph_overlay.set_key(key);
    }

    /// The key that toggles the render-graph overlay, if any.
    #[must_use]
    pub fn graph_overlay_key(&self) -> Option<Key> {
        self.graph_overlay.key()
    }

    /// Follows an input event the game let through (the toggle key).
    pub(crate) fn graph_overlay_input(&mut self, event: &InputEvent) {
        if self.graph_overlay.on_input(event) {
            self.request_redraw();
        }
    }

    /// Draws the overlay into this frame's UI, if shown.
    pub(crate) fn draw_graph_overlay(&mut self, ui: &egui::Ui) {
        self.graph_overlay.draw(ui, &self.render.renderer);
    }
}
