//! Contact and trigger events of one step, and how behaviours read them.

use std::sync::Mutex;

use rapier3d::prelude::{
    ColliderHandle, ColliderSet, CollisionEvent, ContactPair, EventHandler, RigidBodySet,
    SoftBodySet, SoftBodyTearEvent,
};
use serde::{Deserialize, Serialize};
use taos_core::{GameObject, ObjectId};

/// What happened between two colliders during a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PhysicsEventKind {
    /// Two solid colliders started touching.
    ContactStart,
    /// Two solid colliders stopped touching (or one of them was removed).
    ContactStop,
    /// A collider entered a sensor (or a sensor reached a collider).
    TriggerEnter,
    /// A collider left a sensor (or one of them was removed).
    TriggerExit,
}

/// One event of the last step, between two objects. Each start (contact or
/// trigger entry) is reported once, in the step where it began, and each
/// stop once, in the step where it ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PhysicsEvent {
    /// What happened.
    pub kind: PhysicsEventKind,
    /// The two objects (for a trigger, neither order is the sensor's:
    /// check [`Physics::is_sensor`](crate::Physics::is_sensor)).
    pub objects: [GameObject; 2],
    /// Their stable ids, valid even when an object has since been removed.
    pub ids: [ObjectId; 2],
}

impl PhysicsEvent {
    /// The event from `object`'s side: `None` when it is not involved.
    #[must_use]
    pub fn seen_by(&self, object: GameObject) -> Option<ObjectEvent> {
        let other = if self.objects[0] == object {
            1
        } else if self.objects[1] == object {
            0
        } else {
            return None;
        };
        Some(ObjectEvent {
            kind: self.kind,
            other: self.objects[other],
            other_id: self.ids[other],
        })
    }
}

/// An event as one of its two objects sees it (from
/// [`Physics::events_of`](crate::Physics::events_of)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ObjectEvent {
    /// What happened.
    pub kind: PhysicsEventKind,
    /// The other object.
    pub other: GameObject,
    /// The other object's stable id.
    pub other_id: ObjectId,
}

/// Collects the library's collision events during one step, in the order
/// the step reports them (deterministic: the step runs on one thread).
#[derive(Default)]
pub(crate) struct Collector {
    events: Mutex<Vec<(ColliderHandle, ColliderHandle, bool, bool)>>,
}

impl Collector {
    /// The collected `(a, b, started, sensor)` tuples, emptying the collector.
    pub(crate) fn take(&self) -> Vec<(ColliderHandle, ColliderHandle, bool, bool)> {
        match self.events.lock() {
            Ok(mut events) => std::mem::take(&mut *events),
            Err(poisoned) => std::mem::take(&mut *poisoned.into_inner()),
        }
    }
}

impl EventHandler for Collector {
    fn handle_collision_event(
        &self,
        _bodies: &RigidBodySet,
        _colliders: &ColliderSet,
        event: CollisionEvent,
        _contact_pair: Option<&ContactPair>,
    ) {
        let entry = (
            event.collider1(),
            event.collider2(),
            event.started(),
            event.sensor(),
        );
        match self.events.lock() {
            Ok(mut events) => events.push(entry),
            Err(poisoned) => poisoned.into_inner().push(entry),
        }
    }

    fn handle_contact_force_event(
        &self,
        _dt: f32,
        _bodies: &RigidBodySet,
        _colliders: &ColliderSet,
        _contact_pair: &ContactPair,
        _total_force_magnitude: f32,
    ) {
    }

    fn handle_soft_body_tear_event(&self, _soft_bodies: &SoftBodySet, _event: &SoftBodyTearEvent) {}
}
