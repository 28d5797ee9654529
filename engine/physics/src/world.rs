//! The [`Physics`] resource: the library's world, which object owns which
//! body, the last step's events, and the body controls behaviours call.

use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

use bevy_ecs::entity::Entity;
use bevy_ecs::resource::Resource;
use glam::{Quat, Vec3};
use indexmap::IndexMap;
use rapier3d::prelude::{ColliderHandle, PhysicsWorld, RigidBodyHandle};
use taos_core::{GameObject, ObjectId};

use crate::body::{RigidBody, finite_vec};
use crate::character::CharacterEntry;
use crate::collider::Collider;
use crate::convert::{from_pose, from_vector, to_vector};
use crate::error::{BodyError, SettingError, StepError};
use crate::events::{ObjectEvent, PhysicsEvent};
use crate::joint_sync::JointEntry;

/// Earth's gravity, 9.81 m/s^2 down -Y: the default.
pub const EARTH_GRAVITY: Vec3 = Vec3::new(0.0, -9.81, 0.0);

/// One object's body in the library's world, and what it was built from.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    /// The object's entity (refreshed every step: a restore may re-create it).
    pub(crate) entity: Entity,
    pub(crate) body: RigidBodyHandle,
    pub(crate) collider: Option<ColliderHandle>,
    /// The component the body was built from; `None`: an implicit fixed
    /// body for a collider alone.
    pub(crate) body_desc: Option<RigidBody>,
    /// The component the collider was built from.
    pub(crate) collider_desc: Option<Collider>,
    /// Dynamic bodies: the local position and rotation last written into
    /// the object's transform (a different value there is a teleport).
    pub(crate) written: Option<(Vec3, Quat)>,
    /// Whether the body is enabled (its object active).
    pub(crate) enabled: bool,
    /// Whether the object had a parent at the last sync (its world pose
    /// then depends on other objects, so it is looked at every step).
    pub(crate) child: bool,
}

/// A hasher for object ids and entities, which are already well spread
/// integers: one multiply instead of SipHash (the step looks every body up).
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = (self.0 ^ value).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// A map keyed by ids or entities with [`IdHasher`]. Its iteration order
/// is not the ids' order: what must be deterministic sorts first.
pub(crate) type IdMap<K, V> = HashMap<K, V, BuildHasherDefault<IdHasher>>;

/// [`IdMap`] whose entries sit in one dense array in insertion order (the
/// order objects got their bodies, which is also the order of the
/// library's body arena and, mostly, of the ECS tables). The per-step
/// passes walk it front to back, so the bodies and transforms they touch
/// stream through memory instead of being visited in hash order. Removal
/// swaps the last entry in; what must be deterministic still sorts first.
pub(crate) type DenseIdMap<K, V> = IndexMap<K, V, BuildHasherDefault<IdHasher>>;

/// The physics world of a scene: a resource in the scene's ECS world, put
/// there by [`install`](crate::install) and stepped once per scene update
/// (see the [crate docs](crate)).
///
/// Behaviours reach it with `cx.resource::<Physics>()` (queries, events)
/// and `cx.resource_mut::<Physics>()` (velocities, impulses, gravity).
#[derive(Resource)]
pub struct Physics {
    /// The library's world: every body, collider, island, contact and
    /// solver state, and the pipeline's workspace.
    /// Boxed: the scene moves this resource out of its world and back
    /// every step, and the library's world is large.
    pub(crate) sim: Box<PhysicsWorld>,
    pub(crate) gravity: Vec3,
    /// Every object with a body, by stable id.
    pub(crate) entries: DenseIdMap<ObjectId, Entry>,
    /// Every object with a joint, by stable id.
    pub(crate) joints: BTreeMap<ObjectId, JointEntry>,
    /// Every player's capsule (controllers place them), by stable id.
    pub(crate) characters: BTreeMap<ObjectId, CharacterEntry>,
    /// Entity to id, for calls that name a [`GameObject`].
    pub(crate) by_entity: IdMap<Entity, ObjectId>,
    /// The last step's events.
    pub(crate) events: Vec<PhysicsEvent>,
    /// Problems isolated by the step, until taken.
    pub(crate) errors: Vec<StepError>,
    /// Objects whose last problem was already reported (not repeated every step).
    pub(crate) reported: BTreeMap<ObjectId, StepErrorKey>,
    /// Colliders removed since the last step, with their owners: the step
    /// reports their last contacts ending.
    pub(crate) removed: Vec<(ColliderHandle, ObjectId, Entity)>,
    /// Steps run so far.
    pub(crate) steps: u64,
    /// Lists the step reuses.
    pub(crate) scratch: Scratch,
}

/// Lists one step fills and empties, kept so a step allocates nothing once
/// they have grown.
#[derive(Debug, Default)]
pub(crate) struct Scratch {
    /// `(id, entity, inactive)` of the objects the sync must look at, by id.
    pub(crate) work: Vec<(ObjectId, Entity, bool)>,
    /// Ids being removed or reported.
    pub(crate) ids: Vec<ObjectId>,
}

/// Which problem an object was last reported for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StepErrorKey {
    Transform,
    Component,
    Joint,
}

impl Default for Physics {
    fn default() -> Self {
        Self::new()
    }
}

impl std::fmt::Debug for Physics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Physics")
            .field("gravity", &self.gravity)
            .field("bodies", &self.entries.len())
            .field("events", &self.events.len())
            .field("steps", &self.steps)
            .finish_non_exhaustive()
    }
}

impl Physics {
    /// An empty world with [`EARTH_GRAVITY`].
    #[must_use]
    pub fn new() -> Self {
        Self {
            sim: Box::new(PhysicsWorld::new()),
            gravity: EARTH_GRAVITY,
            entries: DenseIdMap::default(),
            joints: BTreeMap::new(),
            characters: BTreeMap::new(),
            by_entity: IdMap::default(),
            events: Vec::new(),
            errors: Vec::new(),
            reported: BTreeMap::new(),
            removed: Vec::new(),
            steps: 0,
            scratch: Scratch::default(),
        }
    }

    /// The gravity acceleration, m/s^2.
    #[must_use]
    pub fn gravity(&self) -> Vec3 {
        self.gravity
    }

    /// Sets the gravity acceleration.
    ///
    /// # Errors
    /// [`SettingError::VectorNotFinite`] for a NaN or infinite component.
    pub fn set_gravity(&mut self, gravity: Vec3) -> Result<(), SettingError> {
        self.gravity = finite_vec("gravity", gravity)?;
        Ok(())
    }

    /// Every entry's id, in id order (what must not depend on the map's order).
    pub(crate) fn sorted_ids(&self) -> Vec<ObjectId> {
        let mut ids: Vec<ObjectId> = self.entries.keys().copied().collect();
        ids.sort_unstable();
        ids
    }

    /// Steps run so far (a paused scene runs none).
    #[must_use]
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Number of objects with a body.
    #[must_use]
    pub fn body_count(&self) -> usize {
        self.entries.len()
    }

    /// Every event of the last step, in the order the step found them.
    /// They stay readable until the next update's step replaces them, so
    /// each behaviour sees each event once per tick.
    #[must_use]
    pub fn events(&self) -> &[PhysicsEvent] {
        &self.events
    }

    /// The last step's events that involve `object`, from its side: both
    /// objects' behaviours see each event.
    pub fn events_of(&self, object: GameObject) -> impl Iterator<Item = ObjectEvent> + '_ {
        self.events.iter().filter_map(move |e| e.seen_by(object))
    }

    /// Problems the step isolated since the last call (each was logged once).
    pub fn take_errors(&mut self) -> Vec<StepError> {
        std::mem::take(&mut self.errors)
    }

    /// `true` when `object` has a body in the physics world.
    #[must_use]
    pub fn has_body(&self, object: GameObject) -> bool {
        self.entry(object).is_some()
    }

    /// `true` when `object`'s collider is a sensor.
    #[must_use]
    pub fn is_sensor(&self, object: GameObject) -> bool {
        self.entry(object)
            .and_then(|e| e.collider_desc.as_ref())
            .is_some_and(Collider::is_sensor)
    }

    /// The body's world position and rotation as the simulation has it.
    #[must_use]
    pub fn pose(&self, object: GameObject) -> Option<(Vec3, Quat)> {
        let entry = self.entry(object)?;
        self.sim
            .bodies
            .get(entry.body)
            .map(|b| from_pose(b.position()))
    }

    /// The body's linear velocity, m/s.
    #[must_use]
    pub fn linear_velocity(&self, object: GameObject) -> Option<Vec3> {
        let entry = self.entry(object)?;
        self.sim
            .bodies
            .get(entry.body)
            .map(|b| from_vector(b.linvel()))
    }

    /// The body's angular velocity, rad/s about each world axis.
    #[must_use]
    pub fn angular_velocity(&self, object: GameObject) -> Option<Vec3> {
        let entry = self.entry(object)?;
        self.sim
            .bodies
            .get(entry.body)
            .map(|b| from_vector(b.angvel()))
    }

    /// Sets the body's linear velocity (and wakes it).
    ///
    /// # Errors
    /// [`BodyError::NoBody`] without a body, [`BodyError::Setting`] for a
    /// NaN or infinite velocity (refused: the body keeps its velocity).
    pub fn set_linear_velocity(
        &mut self,
        object: GameObject,
        velocity: Vec3,
    ) -> Result<(), BodyError> {
        let velocity = checked(object, "linear velocity", velocity)?;
        self.body_mut(object)?.set_linvel(to_vector(velocity), true);
        Ok(())
    }

    /// Sets the body's angular velocity (and wakes it).
    ///
    /// # Errors
    /// As [`set_linear_velocity`](Self::set_linear_velocity).
    pub fn set_angular_velocity(
        &mut self,
        object: GameObject,
        velocity: Vec3,
    ) -> Result<(), BodyError> {
        let velocity = checked(object, "angular velocity", velocity)?;
        self.body_mut(object)?.set_angvel(to_vector(velocity), true);
        Ok(())
    }

    /// Applies an impulse (N s) at the body's centre of mass: its velocity
    /// changes by `impulse / mass` at once.
    ///
    /// # Errors
    /// As [`set_linear_velocity`](Self::set_linear_velocity).
    pub fn apply_impulse(&mut self, object: GameObject, impulse: Vec3) -> Result<(), BodyError> {
        let impulse = checked(object, "impulse", impulse)?;
        self.body_mut(object)?
            .apply_impulse(to_vector(impulse), true);
        Ok(())
    }

    /// Adds a force (N) at the centre of mass, applied during every step
    /// until [`reset_forces`](Self::reset_forces).
    ///
    /// # Errors
    /// As [`set_linear_velocity`](Self::set_linear_velocity).
    pub fn add_force(&mut self, object: GameObject, force: Vec3) -> Result<(), BodyError> {
        let force = checked(object, "force", force)?;
        self.body_mut(object)?.add_force(to_vector(force), true);
        Ok(())
    }

    /// Removes the forces and torques added to the body.
    ///
    /// # Errors
    /// [`BodyError::NoBody`] without a body.
    pub fn reset_forces(&mut self, object: GameObject) -> Result<(), BodyError> {
        let body = self.body_mut(object)?;
        body.reset_forces(true);
        body.reset_torques(true);
        Ok(())
    }

    /// `true` while the body sleeps (at rest, not simulated until touched).
    #[must_use]
    pub fn is_sleeping(&self, object: GameObject) -> bool {
        self.entry(object)
            .and_then(|e| self.sim.bodies.get(e.body))
            .is_some_and(|b| b.is_sleeping())
    }

    /// The world-space box around `object`'s collider as the last step left
    /// it, `(min, max)`: with [`overlaps`](Self::overlaps), what a box-based
    /// collision query (a character controller's) needs.
    #[must_use]
    pub fn collider_aabb(&self, object: GameObject) -> Option<(Vec3, Vec3)> {
        let handle = self.entry(object)?.collider?;
        let aabb = self.sim.colliders.get(handle)?.compute_aabb();
        Some((from_vector(aabb.mins), from_vector(aabb.maxs)))
    }

    pub(crate) fn entry(&self, object: GameObject) -> Option<&Entry> {
        let id = self.by_entity.get(&object.entity())?;
        self.entries.get(id)
    }

    fn body_mut(
        &mut self,
        object: GameObject,
    ) -> Result<&mut rapier3d::prelude::RigidBody, BodyError> {
        let handle = self.entry(object).ok_or(BodyError::NoBody(object))?.body;
        self.sim
            .bodies
            .get_mut(handle)
            .ok_or(BodyError::NoBody(object))
    }
}

fn checked(object: GameObject, what: &'static str, value: Vec3) -> Result<Vec3, BodyError> {
    finite_vec(what, value).map_err(|source| BodyError::Setting { object, source })
}
