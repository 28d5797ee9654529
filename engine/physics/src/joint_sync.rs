//! Mirroring [`Joint`] components into the library's impulse joints, after
//! the bodies are in line with their objects and before the step.
//!
//! A joint is (re)made when its component changes or when either body was
//! rebuilt; it holds the two bodies as placed at that moment unless the
//! component names the other anchor. Joints are made in object-id order,
//! so the solver sees them in the same order in every run.

use bevy_ecs::entity::Entity;
use bevy_ecs::query::QueryState;
use bevy_ecs::world::World;
use rapier3d::math::Pose;
use rapier3d::prelude::{
    FixedJointBuilder, GenericJoint, ImpulseJointHandle, PrismaticJointBuilder,
    RevoluteJointBuilder, RigidBodyBuilder, RigidBodyHandle, RigidBodyType, RopeJointBuilder,
    SphericalJointBuilder,
};
use serde::{Deserialize, Serialize};
use taos_core::{GameObject, ObjectId, ObjectInfo};

use crate::convert::to_vector;
use crate::error::StepError;
use crate::joint::{Joint, JointKind, JointTarget};
use crate::world::{Physics, StepErrorKey};

/// Every object with a [`Joint`].
pub(crate) type Jointed = QueryState<(Entity, &'static ObjectInfo, &'static Joint)>;

/// One object's joint in the library's world.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct JointEntry {
    pub(crate) handle: ImpulseJointHandle,
    /// The component it was made from.
    pub(crate) desc: Joint,
    /// The object's body, then the other side's.
    pub(crate) bodies: [RigidBodyHandle; 2],
    /// The fixed body made for a joint to the world (removed with it).
    pub(crate) world_body: Option<RigidBodyHandle>,
}

impl Physics {
    /// Brings the library's joints in line with the [`Joint`] components.
    pub(crate) fn sync_joints(&mut self, world: &mut World, jointed: &mut Jointed) {
        let mut present: Vec<(ObjectId, Entity, Joint)> = jointed
            .iter(world)
            .map(|(entity, info, joint)| (info.id(), entity, *joint))
            .collect();
        if present.is_empty() && self.joints.is_empty() {
            return;
        }
        present.sort_unstable_by_key(|&(id, _, _)| id);
        let gone: Vec<ObjectId> = self
            .joints
            .keys()
            .filter(|&&id| present.binary_search_by_key(&id, |&(id, _, _)| id).is_err())
            .copied()
            .collect();
        for id in gone {
            self.remove_joint(id);
        }
        for (id, entity, desc) in present {
            let object = GameObject::from_entity(entity);
            match self.resolve_joint(id, &desc) {
                Ok((own, other)) => {
                    let current = self.joints.get(&id).is_some_and(|j| {
                        j.desc == desc
                            && j.bodies[0] == own
                            && other.is_none_or(|other| j.bodies[1] == other)
                            && self.sim.impulse_joints.get(j.handle).is_some()
                    });
                    if !current {
                        self.remove_joint(id);
                        self.make_joint(id, desc, own, other);
                    }
                    if self.reported.get(&id) == Some(&StepErrorKey::Joint) {
                        self.reported.remove(&id);
                    }
                }
                Err(reason) => {
                    self.remove_joint(id);
                    self.report(
                        id,
                        StepErrorKey::Joint,
                        StepError::JointUnresolved { object, id, reason },
                    );
                }
            }
        }
    }

    /// The object's body and the other side's (`None`: the world).
    fn resolve_joint(
        &self,
        id: ObjectId,
        desc: &Joint,
    ) -> Result<(RigidBodyHandle, Option<RigidBodyHandle>), String> {
        if let Err(error) = desc.validate() {
            return Err(error.to_string());
        }
        let own = self
            .entries
            .get(&id)
            .map(|e| e.body)
            .ok_or_else(|| "the object has no RigidBody or Collider".to_owned())?;
        let other = match desc.target() {
            JointTarget::World => None,
            JointTarget::Object(other) if other == id => {
                return Err("the joint names its own object".to_owned());
            }
            JointTarget::Object(other) => Some(
                self.entries
                    .get(&other)
                    .map(|e| e.body)
                    .ok_or_else(|| format!("object {other} has no RigidBody or Collider"))?,
            ),
        };
        Ok((own, other))
    }

    /// Removes an object's joint (and its world anchor body).
    pub(crate) fn remove_joint(&mut self, id: ObjectId) {
        if let Some(entry) = self.joints.remove(&id) {
            self.sim.remove_impulse_joint(entry.handle);
            if let Some(body) = entry.world_body {
                self.sim.remove_body(body);
            }
        }
    }

    fn make_joint(
        &mut self,
        id: ObjectId,
        desc: Joint,
        own: RigidBodyHandle,
        other: Option<RigidBodyHandle>,
    ) {
        let Some(own_pose) = self.sim.bodies.get(own).map(|b| *b.position()) else {
            return;
        };
        let (other, world_body) = match other {
            Some(other) => (other, None),
            None => {
                let anchor = self
                    .sim
                    .insert_body(RigidBodyBuilder::new(RigidBodyType::Fixed).build());
                (anchor, Some(anchor))
            }
        };
        let Some(other_pose) = self.sim.bodies.get(other).map(|b| *b.position()) else {
            return;
        };
        let mut joint = generic_joint(&desc);
        joint.set_contacts_enabled(desc.contacts());
        joint.local_frame2 = match desc.connected_anchor() {
            Some(anchor) => Pose::from_parts(
                to_vector(anchor),
                other_pose.rotation.inverse() * own_pose.rotation * joint.local_frame1.rotation,
            ),
            None => other_pose.inverse() * own_pose * joint.local_frame1,
        };
        let handle = self.sim.insert_impulse_joint(own, other, joint);
        self.joints.insert(
            id,
            JointEntry {
                handle,
                desc,
                bodies: [own, other],
                world_body,
            },
        );
    }
}

/// The library's joint for a component, with its first frame at the
/// anchor (the second is set from the bodies' placement).
fn generic_joint(desc: &Joint) -> GenericJoint {
    let anchor = to_vector(desc.anchor());
    match desc.kind() {
        JointKind::Fixed => FixedJointBuilder::new().local_anchor1(anchor).into(),
        JointKind::Ball => SphericalJointBuilder::new().local_anchor1(anchor).into(),
        JointKind::Hinge { axis, limits } => {
            let mut builder = RevoluteJointBuilder::new(to_vector(axis)).local_anchor1(anchor);
            if let Some(limits) = limits {
                builder = builder.limits(limits);
            }
            builder.into()
        }
        JointKind::Slider { axis, limits } => {
            let mut builder = PrismaticJointBuilder::new(to_vector(axis)).local_anchor1(anchor);
            if let Some(limits) = limits {
                builder = builder.limits(limits);
            }
            builder.into()
        }
        JointKind::Rope { max_length } => RopeJointBuilder::new(max_length)
            .local_anchor1(anchor)
            .into(),
    }
}
