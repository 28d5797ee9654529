//! Render interpolation: where each rendered object (mesh renderers and
//! cameras) stood after the last two fixed ticks, so a frame drawn between
//! ticks can place it at `alpha` of the way from one to the other.
//!
//! The loop turns it on for the fixed policy when it presents every callback
//! (the only case where a frame falls between ticks). Cost: one world-matrix
//! decomposition per rendered object per tick, and a lerp/slerp per object
//! per frame. A teleport shows as one tick of motion. An object that moved
//! outside a tick (an edit while paused, a restored snapshot, an
//! `update_render` write) is drawn where it is: its world version no longer
//! matches the one recorded, so both placements snap to the current one.

use std::collections::HashMap;

use bevy_ecs::entity::Entity;
use bevy_ecs::query::{Or, With};
use glam::{Affine3A, Quat, Vec3};

use super::Scene;
use crate::components::{Camera, MeshRenderer};
use crate::object::GameObject;
use crate::transform::{TransformSlot, TransformStore};

/// A world placement, decomposed once per tick.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Placement {
    translation: Vec3,
    rotation: Quat,
    scale: Vec3,
}

impl Placement {
    fn of(world: &Affine3A) -> Self {
        let (scale, rotation, translation) = world.to_scale_rotation_translation();
        Self {
            translation,
            rotation,
            scale,
        }
    }

    fn lerp(&self, to: &Self, alpha: f32) -> Affine3A {
        Affine3A::from_scale_rotation_translation(
            self.scale.lerp(to.scale, alpha),
            self.rotation.slerp(to.rotation, alpha),
            self.translation.lerp(to.translation, alpha),
        )
    }
}

/// Where one rendered object stood at the previous and the latest tick.
#[derive(Debug, Clone, Copy)]
struct Entry {
    previous: Placement,
    latest: Placement,
    /// Tick stamp of `latest`.
    seen: u64,
    /// World version `latest` was taken from: a different current version
    /// means the object moved since, outside a tick.
    version: u64,
}

/// Placements at the previous and the latest tick, per rendered entity.
#[derive(Debug, Default)]
pub(crate) struct TickHistory {
    entries: HashMap<Entity, Entry>,
    stamp: u64,
}

impl Scene {
    /// Turns render interpolation on or off (the loop decides; see the module docs).
    pub(crate) fn set_interpolation(&mut self, on: bool) {
        self.history = on.then(TickHistory::default);
    }

    /// Records where every active rendered object stands after a tick.
    pub(crate) fn record_tick_placements(&mut self) {
        let Some(history) = &mut self.history else {
            return;
        };
        self.sweep.run(&mut self.world);
        history.stamp += 1;
        let stamp = history.stamp;
        let store = self.world.resource::<TransformStore>();
        let Some(mut query) = self
            .world
            .try_query_filtered::<(Entity, &TransformSlot), Or<(With<MeshRenderer>, With<Camera>)>>(
            )
        else {
            return;
        };
        for (entity, &TransformSlot { slot, .. }) in query.iter(&self.world) {
            if !store.is_live(slot) {
                continue;
            }
            let now = Placement::of(store.world(slot));
            let version = store.world_version(slot);
            history
                .entries
                .entry(entity)
                .and_modify(|entry| {
                    entry.previous = entry.latest;
                    entry.latest = now;
                    entry.seen = stamp;
                    entry.version = version;
                })
                .or_insert(Entry {
                    previous: now,
                    latest: now,
                    seen: stamp,
                    version,
                });
        }
        // Objects gone (or no longer rendered) since the last tick.
        history.entries.retain(|_, entry| entry.seen == stamp);
    }

    /// Snaps every rendered object that moved since the last tick (outside
    /// any tick) to where it is now, so frames draw it there instead of
    /// between two placements it has left. Call after the frame's transform
    /// refresh.
    pub(crate) fn snap_moved_placements(&mut self) {
        let Some(history) = &mut self.history else {
            return;
        };
        let store = self.world.resource::<TransformStore>();
        for (&entity, entry) in &mut history.entries {
            let Some(&TransformSlot { slot, .. }) = self.world.get::<TransformSlot>(entity) else {
                continue;
            };
            if !store.is_live(slot) || store.world_version(slot) == entry.version {
                continue;
            }
            let now = Placement::of(store.world(slot));
            *entry = Entry {
                previous: now,
                latest: now,
                version: store.world_version(slot),
                ..*entry
            };
        }
    }

    /// Forgets every recorded placement (after a restore): until the next
    /// tick, objects are drawn where they are.
    pub(crate) fn reset_tick_placements(&mut self) {
        if let Some(history) = &mut self.history {
            history.entries.clear();
        }
    }

    /// Where `object` is drawn at `alpha` (0: the previous tick, 1: the
    /// latest) when interpolation is on and the object was seen by both
    /// ticks; otherwise `None` (draw its current world matrix).
    #[must_use]
    pub fn interpolated_world_matrix(&self, object: GameObject, alpha: f32) -> Option<Affine3A> {
        let entry = self.history.as_ref()?.entries.get(&object.entity())?;
        Some(entry.previous.lerp(&entry.latest, alpha.clamp(0.0, 1.0)))
    }

    /// `true` while render interpolation is on.
    #[must_use]
    pub fn interpolates(&self) -> bool {
        self.history.is_some()
    }
}
