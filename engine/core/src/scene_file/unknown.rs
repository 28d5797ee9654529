//! [`UnknownData`]: what a load kept without understanding it.

use std::collections::BTreeMap;

use bevy_ecs::component::Component;

/// Components and behaviours a scene file gave an object that the loading
/// game does not register (a newer game's, or a plugin's that is not
/// installed), kept as their JSON text and written back unchanged by
/// [`save_scene`](super::save_scene): a file round-trips through an older
/// editor without losing them.
#[derive(Component, Debug, Clone, PartialEq, Eq, Default)]
pub struct UnknownData {
    /// Component name to its JSON text.
    pub components: BTreeMap<String, String>,
    /// Behaviour names and JSON texts, in file order.
    pub behaviours: Vec<(String, String)>,
}

impl UnknownData {
    /// Whether nothing is kept.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.components.is_empty() && self.behaviours.is_empty()
    }
}

/// Marks an object the editor made for itself (its camera): scene files
/// leave it (and its children) out, and the editor's picking skips it.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EditorOnly;
