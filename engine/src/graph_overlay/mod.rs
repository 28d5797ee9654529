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

use crate::game_loop::{InputEvent, Key};

use model::OverlayModel;
use view::draw;

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

impl GraphOverlay {
    /// Draws the overlay over `ui` from `renderer`'s last frame, if shown
    /// (its close button hides it).
    pub(crate) fn draw(&mut self, ui: &egui::Ui, renderer: &taos_renderer::Renderer) {
        if !self.shown() {
            return;
        }
        let model = OverlayModel::new(
            renderer.last_graph(),
            renderer.last_timings(),
            renderer.gpu_timings_enabled(),
        );
        let mut open = true;
        draw(ui, &model, &mut open);
        if !open {
            self.set_shown(false);
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
