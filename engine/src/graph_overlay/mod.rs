//! The render-graph overlay: a window over the frame listing the last
//! frame's passes in execution order with their GPU times, the culled
//! passes, the resources (imported or transient, aliased), and the CPU time
//! to build, compile and record the graph.
//!
//! Toggled at run time with a key ([`DEFAULT_KEY`], F3) or
//! [`Engine::set_graph_overlay`](crate::Engine::set_graph_overlay); drawn
//! with the UI overlay, so only windowed engines show it. Its content is
//! an [`OverlayModel`] built from the renderer's plain data
//! ([`Renderer::last_graph`](taos_renderer::Renderer::last_graph),
//! [`Renderer::last_timings`](taos_renderer::Renderer::last_timings)).

mod model;
mod view;

use crate::facade::Engine;
use crate::game_loop::{InputEvent, Key};

pub(crate) use model::OverlayModel;
pub(crate) use view::draw;

/// The key that shows and hides the overlay unless a game picks another.
pub(crate) const DEFAULT_KEY: Key = Key::F3;

/// Whether the overlay is shown, and the key that toggles it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct GraphOverlay {
    shown: bool,
    key: Option<Key>,
    /// The key is down: the platform's key repeats do not toggle again.
    key_held: bool,
}

impl Default for GraphOverlay {
    fn default() -> Self {
        Self {
            shown: false,
            key: Some(DEFAULT_KEY),
            key_held: false,
        }
    }
}

impl GraphOverlay {
    pub(crate) fn shown(&self) -> bool {
        self.shown
    }

    pub(crate) fn set_shown(&mut self, shown: bool) {
        self.shown = shown;
    }

    pub(crate) fn key(&self) -> Option<Key> {
        self.key
    }

    /// `None`: no key toggles the overlay.
    pub(crate) fn set_key(&mut self, key: Option<Key>) {
        self.key = key;
        self.key_held = false;
    }

    /// Follows an input event the game let through; true when it toggled
    /// the overlay.
    pub(crate) fn on_input(&mut self, event: &InputEvent) -> bool {
        let Some(key) = self.key else {
            return false;
        };
        match event {
            InputEvent::KeyDown(k) if *k == key && !self.key_held => {
                self.key_held = true;
                self.shown = !self.shown;
                true
            }
            InputEvent::KeyUp(k) if *k == key => {
                self.key_held = false;
                false
            }
            _ => false,
        }
    }

    /// Focus left the window: the key's release may never arrive.
    pub(crate) fn on_focus_lost(&mut self) {
        self.key_held = false;
    }
}

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
        if !self.graph_overlay.shown() {
            return;
        }
        let renderer = self.renderer();
        let model = OverlayModel::new(
            renderer.last_graph(),
            renderer.last_timings(),
            renderer.gpu_timings_enabled(),
        );
        let mut open = true;
        draw(ui, &model, &mut open);
        if !open {
            self.graph_overlay.set_shown(false);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_key_toggles_once_per_press() {
        let mut overlay = GraphOverlay::default();
        assert!(!overlay.shown());
        assert!(overlay.on_input(&InputEvent::KeyDown(Key::F3)));
        assert!(overlay.shown());
        // Key repeat while held: no flicker.
        assert!(!overlay.on_input(&InputEvent::KeyDown(Key::F3)));
        assert!(overlay.shown());
        assert!(!overlay.on_input(&InputEvent::KeyUp(Key::F3)));
        assert!(overlay.on_input(&InputEvent::KeyDown(Key::F3)));
        assert!(!overlay.shown());
        // Other keys do nothing.
        overlay.on_input(&InputEvent::KeyUp(Key::F3));
        assert!(!overlay.on_input(&InputEvent::KeyDown(Key::F4)));
        assert!(!overlay.shown());
    }

    #[test]
    fn focus_loss_forgets_the_held_key() {
        let mut overlay = GraphOverlay::default();
        overlay.on_input(&InputEvent::KeyDown(Key::F3));
        overlay.on_focus_lost();
        // The release happened elsewhere; the next press counts.
        assert!(overlay.on_input(&InputEvent::KeyDown(Key::F3)));
        assert!(!overlay.shown());
    }

    #[test]
    fn the_key_can_be_changed_or_removed() {
        let mut overlay = GraphOverlay::default();
        overlay.set_key(Some(Key::F9));
        assert!(!overlay.on_input(&InputEvent::KeyDown(Key::F3)));
        assert!(overlay.on_input(&InputEvent::KeyDown(Key::F9)));
        assert!(overlay.shown());
        overlay.set_key(None);
        assert!(!overlay.on_input(&InputEvent::KeyDown(Key::F9)));
        assert_eq!(overlay.key(), None);
        overlay.set_shown(false);
        assert!(!overlay.shown());
    }
}
