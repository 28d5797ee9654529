//! [`FrameSlots`]: typed per-frame values that render features hand each
//! other, so a new feature never needs a new field on [`FrameData`](super::FrameData).
//!
//! A slot is keyed by its Rust type: the shadow feature puts a
//! [`ShadowCascades`](crate::features::ShadowCascades) in during
//! `early_update`, and the lit feature reads it in `update`. Values live for
//! one frame: the renderer [`clear`](FrameSlots::clear)s every slot before the
//! features' `early_update`, so a feature that was disabled leaves nothing
//! stale behind. Clearing keeps each slot's storage, so a steady frame
//! allocates nothing.
//!
//! ```
//! use taos_renderer::FrameSlots;
//!
//! #[derive(Debug, PartialEq)]
//! struct FogDensity(f32);
//!
//! let mut slots = FrameSlots::default();
//! assert_eq!(slots.get::<FogDensity>(), None);
//! slots.insert(FogDensity(0.02));
//! assert_eq!(slots.get::<FogDensity>(), Some(&FogDensity(0.02)));
//! slots.clear();
//! assert_eq!(slots.get::<FogDensity>(), None);
//! ```

use std::any::{Any, TypeId};
use std::collections::HashMap;

/// One slot's storage: an `Option<T>` that can be emptied without knowing `T`.
trait Slot: Send + Sync {
    fn empty(&mut self);
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<T: Send + Sync + 'static> Slot for Option<T> {
    fn empty(&mut self) {
        *self = None;
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// Values of any `Send + Sync + 'static` type, at most one per type, kept
/// for one frame (see the module docs).
#[derive(Default)]
pub struct FrameSlots {
    slots: HashMap<TypeId, Box<dyn Slot>>,
}

impl FrameSlots {
    /// Puts `value` in `T`'s slot, replacing what this frame put there before.
    pub fn insert<T: Send + Sync + 'static>(&mut self, value: T) {
        let slot = self
            .slots
            .entry(TypeId::of::<T>())
            .or_insert_with(|| Box::new(None::<T>));
        if let Some(slot) = slot.as_any_mut().downcast_mut::<Option<T>>() {
            *slot = Some(value);
        }
    }

    /// `T`'s value this frame, if a feature put one in.
    #[must_use]
    pub fn get<T: Send + Sync + 'static>(&self) -> Option<&T> {
        self.slots
            .get(&TypeId::of::<T>())?
            .as_any()
            .downcast_ref::<Option<T>>()?
            .as_ref()
    }

    /// `T`'s value this frame, mutable.
    pub fn get_mut<T: Send + Sync + 'static>(&mut self) -> Option<&mut T> {
        self.slots
            .get_mut(&TypeId::of::<T>())?
            .as_any_mut()
            .downcast_mut::<Option<T>>()?
            .as_mut()
    }

    /// Takes `T`'s value out, leaving the slot empty.
    pub fn remove<T: Send + Sync + 'static>(&mut self) -> Option<T> {
        self.slots
            .get_mut(&TypeId::of::<T>())?
            .as_any_mut()
            .downcast_mut::<Option<T>>()?
            .take()
    }

    /// Empties every slot (the start of a frame); the storage is kept.
    pub fn clear(&mut self) {
        for slot in self.slots.values_mut() {
            slot.empty();
        }
    }
}

impl Clone for FrameSlots {
    /// Slots are per-frame scratch between features: a cloned
    /// [`FrameData`](super::FrameData) starts with none.
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl std::fmt::Debug for FrameSlots {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FrameSlots")
            .field("slots", &self.slots.len())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::FrameSlots;

    #[test]
    fn values_are_kept_per_type_and_cleared_per_frame() {
        let mut slots = FrameSlots::default();
        slots.insert(3_u32);
        slots.insert("sun");
        assert_eq!(slots.get::<u32>(), Some(&3));
        assert_eq!(slots.get::<&str>(), Some(&"sun"));
        *slots.get_mut::<u32>().unwrap() += 1;
        assert_eq!(slots.remove::<u32>(), Some(4));
        assert_eq!(slots.get::<u32>(), None);
        slots.insert(7_u32);
        slots.clear();
        assert_eq!((slots.get::<u32>(), slots.get::<&str>()), (None, None));
        assert_eq!(slots.get::<i64>(), None);
    }
}
