//! [`ResponseWatch`]: what changed during each tick, as a fingerprint the
//! watchdog compares across an input: the watchdog's default progress.
//!
//! A tick's fingerprint is the scene's structure, plus which components and
//! resources were written during the tick, plus how each moving object
//! moved (direction and a power-of-two speed band, for position and
//! turning). Ambient animation (a flag waving, a coin spinning, physics
//! settling at a steady rate) writes the same things the same way every
//! tick, so its fingerprint stays put; an input that makes anything new
//! happen changes it: a player starting to walk, turning, running or
//! jumping; a component or resource only the input writes (a hotbar slot,
//! a menu flag); an object spawned or removed.

use std::collections::HashMap;

use bevy_ecs::change_detection::Tick;
use bevy_ecs::entity::Entity;
use glam::{Quat, Vec3};

use super::replay::checksum::{StateChecksum, StateHasher};
use crate::{Scene, Transform};

/// Movement below this (metres or radians per tick) is standing still.
const STILL: f32 = 1e-6;

/// Fingerprints what each tick changed.
#[derive(Debug, Default)]
pub(crate) struct ResponseWatch {
    /// The world's change tick when the running tick began.
    began: Option<Tick>,
    /// Each object's pose at the end of the last tick it moved in.
    poses: HashMap<Entity, (Vec3, Quat)>,
}

impl ResponseWatch {
    /// Marks the start of a tick: what is written from now on belongs to it.
    pub(crate) fn begin(&mut self, scene: &mut Scene) {
        let world = scene.world_mut();
        world.increment_change_tick();
        self.began = Some(world.change_tick());
    }

    /// The fingerprint of the tick since [`begin`](Self::begin).
    pub(crate) fn end(&mut self, scene: &mut Scene, checksum: &mut StateChecksum) -> u64 {
        let structure = checksum.structure(scene);
        let world = scene.world_mut();
        let now = world.change_tick();
        let since = self.began.unwrap_or(now);
        // Changed at `since` or later.
        let last_run = Tick::new(since.get().wrapping_sub(1));
        let transform_id = world.components().component_id::<Transform>();
        let mut h = StateHasher::default();
        h.write_u64(structure);
        for entity in world.iter_entities() {
            let archetype = entity.archetype();
            let mut wrote = false;
            for &component in archetype.components() {
                let changed = entity
                    .get_change_ticks_by_id(component)
                    .is_some_and(|ticks| ticks.is_changed(last_run, now));
                if !changed {
                    continue;
                }
                if !wrote {
                    h.write_u64(entity.id().to_bits());
                    wrote = true;
                }
                h.write_u64(component.index() as u64);
                if Some(component) == transform_id
                    && let Some(transform) = entity.get::<Transform>()
                {
                    let pose = (transform.position, transform.rotation);
                    let before = self.poses.insert(entity.id(), pose).unwrap_or(pose);
                    hash_motion(&mut h, before, pose);
                }
            }
        }
        // Objects gone since: their last poses would only pile up.
        let entities = world.entities();
        self.poses.retain(|&entity, _| entities.contains(entity));
        h.finish()
    }

    /// Forgets poses and the open tick (on resume, or a new scene).
    pub(crate) fn reset(&mut self) {
        self.began = None;
        self.poses.clear();
    }
}

/// How an object moved from `before` to `after`: direction per axis and a
/// power-of-two band of distance, the same for turning.
fn hash_motion(h: &mut StateHasher, before: (Vec3, Quat), after: (Vec3, Quat)) {
    let moved = after.0 - before.0;
    for axis in moved.to_array() {
        h.write_u32(match axis {
            a if a > STILL => 1,
            a if a < -STILL => 2,
            _ => 0,
        });
    }
    h.write_u32(band(moved.length()));
    let turn = after.1 * before.1.inverse();
    let (axis, angle) = turn.to_axis_angle();
    let angle = if angle > std::f32::consts::PI {
        std::f32::consts::TAU - angle
    } else {
        angle
    };
    h.write_u32(band(angle));
    if angle > STILL {
        for component in axis.to_array() {
            h.write_u32(u32::from(component > 0.0));
        }
    }
}

/// 0 for standing still, else a power-of-two band of `amount`.
fn band(amount: f32) -> u32 {
    if !amount.is_finite() || amount <= STILL {
        0
    } else {
        // log2 of 1e-6 is about -20: bands start at 1.
        (amount.log2().floor() as i32 + 40).clamp(1, 100) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_steady_spin_keeps_its_fingerprint_and_gone_objects_are_forgotten() {
        let mut scene = Scene::new();
        let mut checksum = StateChecksum::default();
        let mut watch = ResponseWatch::default();
        let spinner = scene.spawn("Spinner");
        let mut tick = |scene: &mut Scene, watch: &mut ResponseWatch| {
            watch.begin(scene);
            if scene.contains(spinner) {
                let mut object = scene.object_mut(spinner).unwrap();
                let turned = object.transform().rotation * Quat::from_rotation_y(0.1);
                object.set_rotation(turned);
            }
            watch.end(scene, &mut checksum)
        };
        tick(&mut scene, &mut watch);
        let steady = tick(&mut scene, &mut watch);
        assert_eq!(
            tick(&mut scene, &mut watch),
            steady,
            "the same turn each tick"
        );
        assert_eq!(watch.poses.len(), 1);
        scene.remove(spinner).unwrap();
        assert_ne!(tick(&mut scene, &mut watch), steady, "removing it is news");
        assert!(watch.poses.is_empty(), "its pose is forgotten");
    }
}
