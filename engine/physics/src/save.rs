//! [`Physics`] in snapshots and checksums.
//!
//! A snapshot holds the whole library state (rapier's `PhysicsWorld`:
//! bodies with their velocities and sleep state, colliders, islands, the
//! broad and narrow phases with their contact manifolds and warm-start
//! impulses, joints, and the integration parameters; the pipeline and the
//! CCD solver are workspaces) as one compact binary blob (postcard, base64 in
//! the snapshot's JSON), beside the object-to-body table and the last
//! step's events. The library's arenas keep their free lists and
//! generations through serialisation, so a restored world steps exactly as
//! the original did.

use base64::Engine as _;
use bevy_ecs::entity::Entity;
use glam::{Quat, Vec3};
use rapier3d::prelude::{ColliderHandle, RigidBodyHandle};
use serde::de::Error as _;
use serde::ser::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use taos_core::game_loop::{StateHash, StateHasher};
use taos_core::{GameObject, ObjectId};

use crate::body::RigidBody;
use crate::character::CharacterEntry;
use crate::collider::Collider;
use crate::convert::from_pose;
use crate::events::{PhysicsEvent, PhysicsEventKind};
use crate::joint_sync::JointEntry;
use crate::world::{Entry, Physics};

#[derive(Serialize, Deserialize)]
struct Saved {
    gravity: [f32; 3],
    steps: u64,
    entries: Vec<SavedEntry>,
    events: Vec<SavedEvent>,
    /// Joints by owner id (absent in snapshots from before joints).
    #[serde(default)]
    joints: Vec<(u64, JointEntry)>,
    /// Players' capsules (absent in snapshots from before they existed).
    #[serde(default)]
    characters: Vec<(u64, CharacterEntry)>,
    /// The library state: postcard bytes, base64.
    sim: String,
}

#[derive(Serialize, Deserialize)]
struct SavedEntry {
    id: u64,
    entity: u64,
    body: RigidBodyHandle,
    collider: Option<ColliderHandle>,
    body_desc: Option<RigidBody>,
    collider_desc: Option<Collider>,
    /// Position then rotation (xyzw).
    written: Option<[f32; 7]>,
    enabled: bool,
}

#[derive(Serialize, Deserialize)]
struct SavedEvent {
    kind: PhysicsEventKind,
    entities: [u64; 2],
    ids: [u64; 2],
}

impl Serialize for Physics {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let bytes = postcard::to_allocvec(&self.sim).map_err(S::Error::custom)?;
        let saved = Saved {
            gravity: self.gravity.to_array(),
            steps: self.steps,
            entries: self
                .sorted_ids()
                .into_iter()
                .filter_map(|id| Some((id, self.entries.get(&id)?)))
                .map(|(id, e)| SavedEntry {
                    id: id.0,
                    entity: e.entity.to_bits(),
                    body: e.body,
                    collider: e.collider,
                    body_desc: e.body_desc,
                    collider_desc: e.collider_desc.clone(),
                    written: e.written.map(|(p, r)| {
                        let [x, y, z] = p.to_array();
                        let [qx, qy, qz, qw] = r.to_array();
                        [x, y, z, qx, qy, qz, qw]
                    }),
                    enabled: e.enabled,
                })
                .collect(),
            events: self
                .events
                .iter()
                .map(|e| SavedEvent {
                    kind: e.kind,
                    entities: e.objects.map(|o| o.entity().to_bits()),
                    ids: e.ids.map(|id| id.0),
                })
                .collect(),
            joints: self
                .joints
                .iter()
                .map(|(id, j)| (id.0, j.clone()))
                .collect(),
            characters: self.characters.iter().map(|(id, c)| (id.0, *c)).collect(),
            sim: base64::engine::general_purpose::STANDARD.encode(bytes),
        };
        saved.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Physics {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let saved = Saved::deserialize(deserializer)?;
        let entity = |bits: u64| {
            Entity::try_from_bits(bits)
                .ok_or_else(|| D::Error::custom(format!("invalid entity bits {bits:#x}")))
        };
        let gravity = Vec3::from_array(saved.gravity);
        if !gravity.is_finite() {
            return Err(D::Error::custom("gravity is not finite"));
        }
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(saved.sim.as_bytes())
            .map_err(D::Error::custom)?;
        let mut physics = Physics::new();
        physics.sim = postcard::from_bytes(&bytes).map_err(D::Error::custom)?;
        physics.gravity = gravity;
        physics.steps = saved.steps;
        for e in saved.entries {
            let id = ObjectId(e.id);
            let entity = entity(e.entity)?;
            if physics.sim.bodies.get(e.body).is_none()
                || e.collider
                    .is_some_and(|c| physics.sim.colliders.get(c).is_none())
            {
                return Err(D::Error::custom(format!(
                    "object {id} names a body or collider the state does not hold"
                )));
            }
            let written = e.written.map(|[x, y, z, qx, qy, qz, qw]| {
                (Vec3::new(x, y, z), Quat::from_xyzw(qx, qy, qz, qw))
            });
            physics.by_entity.insert(entity, id);
            physics.entries.insert(
                id,
                Entry {
                    entity,
                    body: e.body,
                    collider: e.collider,
                    body_desc: e.body_desc,
                    collider_desc: e.collider_desc,
                    written,
                    enabled: e.enabled,
                    child: false,
                },
            );
        }
        for (id, joint) in saved.joints {
            if physics.sim.impulse_joints.get(joint.handle).is_none()
                || joint
                    .bodies
                    .iter()
                    .chain(&joint.world_body)
                    .any(|&b| physics.sim.bodies.get(b).is_none())
            {
                return Err(D::Error::custom(format!(
                    "the joint of object {id} names a joint or body the state does not hold"
                )));
            }
            joint
                .desc
                .validate()
                .map_err(|e| D::Error::custom(format!("the joint of object {id}: {e}")))?;
            physics.joints.insert(ObjectId(id), joint);
        }
        for (id, character) in saved.characters {
            if physics.sim.bodies.get(character.body).is_none()
                || physics.sim.colliders.get(character.collider).is_none()
            {
                return Err(D::Error::custom(format!(
                    "the character of object {id} names a body the state does not hold"
                )));
            }
            physics.characters.insert(ObjectId(id), character);
        }
        for e in saved.events {
            physics.events.push(PhysicsEvent {
                kind: e.kind,
                objects: [
                    GameObject::from_entity(entity(e.entities[0])?),
                    GameObject::from_entity(entity(e.entities[1])?),
                ],
                ids: e.ids.map(ObjectId),
            });
        }
        Ok(physics)
    }
}

/// The checksum covers every body's pose and velocities (bit for bit, in
/// object-id order), the gravity and the step count.
impl StateHash for Physics {
    fn hash_state(&self, h: &mut StateHasher) {
        self.gravity.hash_state(h);
        h.write_u64(self.steps);
        h.write_u64(self.entries.len() as u64);
        for id in self.sorted_ids() {
            let Some(entry) = self.entries.get(&id) else {
                continue;
            };
            h.write_u64(id.0);
            let Some(body) = self.sim.bodies.get(entry.body) else {
                h.write_u8(0);
                continue;
            };
            h.write_u8(1);
            let (position, rotation) = from_pose(body.position());
            position.hash_state(h);
            rotation.hash_state(h);
            crate::convert::from_vector(body.linvel()).hash_state(h);
            crate::convert::from_vector(body.angvel()).hash_state(h);
        }
    }
}
