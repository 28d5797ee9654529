//! Steps 2 and 3 of the update: the library's step and its collision events,
//! then the moved dynamic bodies' poses written back into their objects.

use bevy_ecs::hierarchy::ChildOf;
use bevy_ecs::world::World;
use glam::{Quat, Vec3};
use taos_core::transform::world_matrix_in;
use taos_core::{GameObject, ObjectId, Transform};

use crate::body::BodyKind;
use crate::convert::{from_pose, to_pose, to_vector};
use crate::error::StepError;
use crate::events::{Collector, PhysicsEvent, PhysicsEventKind};
use crate::world::{Physics, StepErrorKey};

impl Physics {
    /// One step of `dt` seconds (step 2), then the events.
    pub(super) fn step(&mut self, dt: f32) {
        let collector = Collector::default();
        self.sim.gravity = to_vector(self.gravity);
        self.sim.integration_parameters.dt = dt;
        self.sim.step_with_events(&(), &collector);
        self.steps += 1;
        for (a, b, started, sensor) in collector.take() {
            // A player's capsule is a sensor that only sensors see: its
            // overlaps with solid colliders are not events.
            let solid = |c| self.sim.colliders.get(c).is_some_and(|c| !c.is_sensor());
            if (self.is_character_collider(a) && solid(b))
                || (self.is_character_collider(b) && solid(a))
            {
                continue;
            }
            let (Some(a), Some(b)) = (self.object_of(a), self.object_of(b)) else {
                continue;
            };
            let kind = match (started, sensor) {
                (true, false) => PhysicsEventKind::ContactStart,
                (false, false) => PhysicsEventKind::ContactStop,
                (true, true) => PhysicsEventKind::TriggerEnter,
                (false, true) => PhysicsEventKind::TriggerExit,
            };
            self.events.push(PhysicsEvent {
                kind,
                objects: [a.1, b.1],
                ids: [a.0, b.0],
            });
        }
        self.removed.clear();
    }

    /// The object a collider belongs to (its id is the collider's user
    /// data; the entity is the live one, or the last known for a removed object).
    fn object_of(
        &self,
        collider: rapier3d::prelude::ColliderHandle,
    ) -> Option<(ObjectId, GameObject)> {
        if let Some(&(_, id, entity)) = self.removed.iter().find(|(c, _, _)| *c == collider) {
            return Some((id, GameObject::from_entity(entity)));
        }
        let (id, entity) = self.collider_owner(collider)?;
        Some((id, GameObject::from_entity(entity)))
    }

    /// Writes moved dynamic bodies into their objects' transforms (step 3).
    ///
    /// A root whose pose is what was last written (asleep, or resting
    /// exactly) costs one comparison; only moved bodies touch their object.
    pub(super) fn write_back(&mut self, world: &mut World) {
        let mut bad = std::mem::take(&mut self.scratch.ids);
        bad.clear();
        for (&id, entry) in &mut self.entries {
            if !entry
                .body_desc
                .is_some_and(|b| b.kind() == BodyKind::Dynamic)
            {
                continue;
            }
            // Read-only: a mutable borrow would flag the body as changed by
            // the user, and the next step would redo its bookkeeping.
            let Some(body) = self.sim.bodies.get(entry.body) else {
                continue;
            };
            let (position, rotation) = from_pose(body.position());
            if !entry.child && entry.written == Some((position, rotation)) {
                continue;
            }
            let finite = position.is_finite()
                && rotation.is_finite()
                && body.linvel().is_finite()
                && body.angvel().is_finite();
            if !finite {
                let Some(body) = self.sim.bodies.get_mut(entry.body) else {
                    continue;
                };
                // Isolate: back to the last pose written, at rest.
                let back = entry.written.unwrap_or((Vec3::ZERO, Quat::IDENTITY));
                body.set_position(to_pose(back.0, back.1), false);
                body.set_linvel(to_vector(Vec3::ZERO), false);
                body.set_angvel(to_vector(Vec3::ZERO), false);
                bad.push(id);
                continue;
            }
            let entity = entry.entity;
            let parent = if entry.child {
                world.get::<ChildOf>(entity).map(ChildOf::parent)
            } else {
                None
            };
            let local = match parent {
                None => (position, rotation),
                Some(parent) => {
                    let Some(parent) = world_matrix_in(world, GameObject::from_entity(parent))
                    else {
                        continue;
                    };
                    let (_, parent_rotation, _) = parent.to_scale_rotation_translation();
                    (
                        parent.inverse().transform_point3(position),
                        (parent_rotation.inverse() * rotation).normalize(),
                    )
                }
            };
            let Some(mut transform) = world.get_mut::<Transform>(entity) else {
                continue;
            };
            if (transform.position, transform.rotation) != local {
                transform.position = local.0;
                transform.rotation = local.1;
            }
            entry.written = Some(local);
        }
        bad.sort_unstable();
        for &id in &bad {
            if let Some(entity) = self.entries.get(&id).map(|e| e.entity) {
                let object = GameObject::from_entity(entity);
                self.report(
                    id,
                    StepErrorKey::Transform,
                    StepError::NonFiniteState { object, id },
                );
            }
        }
        self.scratch.ids = bad;
    }
}
