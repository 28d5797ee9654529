//! One physics update, run by the scene after its behaviours:
//!
//! 1. **Sync**: objects that gained a [`RigidBody`] or [`Collider`] get a
//!    body; changed components rebuild theirs; bodies of objects (or
//!    components) that are gone are removed; inactive objects' bodies are
//!    disabled. Kinematic and fixed bodies take their object's world pose;
//!    a dynamic body whose transform was written since the last step is
//!    teleported there.
//! 2. **Step** with the scene's scaled delta (none while it is 0).
//! 3. **Write back** each moved dynamic body's pose into its object's local
//!    transform, and turn the step's collision events into [`PhysicsEvent`]s.

use bevy_ecs::change_detection::Mut;
use bevy_ecs::change_detection::{DetectChanges, Ref};
use bevy_ecs::entity::Entity;
use bevy_ecs::hierarchy::ChildOf;
use bevy_ecs::query::{Has, Or, QueryState, With};
use bevy_ecs::world::World;
use glam::{Quat, Vec3};
use rapier3d::prelude::{
    ActiveCollisionTypes, ActiveEvents, CoefficientCombineRule, ColliderBuilder, Group,
    InteractionGroups, InteractionTestMode, RigidBodyBuilder, RigidBodyType,
};
use taos_core::transform::world_matrix_in;
use taos_core::{GameObject, Inactive, ObjectId, ObjectInfo, Time, Transform};

use crate::body::{BodyKind, Mass, RigidBody};
use crate::collider::Collider;
use crate::convert::{from_pose, to_pose, to_vector};
use crate::error::StepError;
use crate::joint_sync::Jointed;
use crate::world::{Entry, Physics, StepErrorKey};

mod write_back;

/// The objects the physics world mirrors, with what the sync compares.
pub(crate) type Mirrored = QueryState<
    (
        Entity,
        &'static ObjectInfo,
        Option<Ref<'static, RigidBody>>,
        Option<Ref<'static, Collider>>,
        Option<&'static Transform>,
        Has<Inactive>,
        Has<ChildOf>,
    ),
    Or<(With<RigidBody>, With<Collider>)>,
>;

/// The scene system: sync, step with the scene's scaled delta, write back.
pub(crate) fn physics_update(world: &mut World, mirrored: &mut Mirrored, jointed: &mut Jointed) {
    let dt = world.get_resource::<Time>().map_or(0.0, Time::delta);
    if !world.contains_resource::<Physics>() {
        return;
    }
    world.resource_scope(|world, mut physics: Mut<'_, Physics>| {
        let physics = &mut *physics;
        physics.events.clear();
        physics.remove_gone_characters(|entity| world.get_entity(entity).is_ok());
        physics.sync(world, mirrored);
        physics.sync_joints(world, jointed);
        if dt > 0.0 && dt.is_finite() {
            physics.step(dt);
            physics.write_back(world);
        }
    });
    // Changes made after this (by the game between ticks, by later systems)
    // must be newer than this run, so the next sync's change checks see them.
    world.increment_change_tick();
}

impl Physics {
    pub(crate) fn report(&mut self, id: ObjectId, key: StepErrorKey, error: StepError) {
        if self.reported.get(&id) != Some(&key) {
            log::error!("physics: {error}");
            self.errors.push(error);
            self.reported.insert(id, key);
        }
    }

    /// Brings the library's bodies in line with the objects (step 1).
    ///
    /// One pass over the mirrored objects picks the few that need a look:
    /// new ones, changed or added components, a changed active state or
    /// parent, children (their world pose follows other objects), and any
    /// whose transform differs from what the physics last put there or
    /// took from it. Those are then synced in id order (so bodies are made
    /// in the same order in every run); the rest cost one comparison.
    fn sync(&mut self, world: &mut World, mirrored: &mut Mirrored) {
        let mut work = std::mem::take(&mut self.scratch.work);
        work.clear();
        let mut known = 0_usize;
        for (entity, info, body, collider, transform, inactive, child) in mirrored.iter(world) {
            let id = info.id();
            // The table is in the order bodies were made, which is mostly
            // the query's: try the next entry in line before hashing.
            let in_line = self
                .entries
                .get_index(known)
                .filter(|&(&key, _)| key == id)
                .map(|(_, entry)| entry);
            let Some(entry) = in_line.or_else(|| self.entries.get(&id)) else {
                work.push((id, entity, inactive));
                continue;
            };
            known += 1;
            let body_changed = body.as_ref().map(DetectChanges::is_changed);
            let collider_changed = collider.as_ref().map(DetectChanges::is_changed);
            let look = entry.entity != entity
                || entry.enabled == inactive
                || child
                || entry.child
                || body_changed != entry.body_desc.map(|_| false)
                || collider_changed != entry.collider_desc.as_ref().map(|_| false)
                || transform.map(|t| (t.position, t.rotation)) != entry.written;
            if look {
                work.push((id, entity, inactive));
            }
        }
        if known < self.entries.len() {
            self.remove_gone(world, mirrored);
        }
        work.sort_unstable_by_key(|&(id, _, _)| id);
        for &(id, entity, inactive) in &work {
            self.sync_one(world, id, entity, !inactive);
        }
        self.scratch.work = work;
    }

    /// Removes the bodies of objects that are gone or lost both components,
    /// in id order.
    fn remove_gone(&mut self, world: &World, mirrored: &mut Mirrored) {
        let mut present = std::mem::take(&mut self.scratch.ids);
        present.clear();
        present.extend(mirrored.iter(world).map(|item| item.1.id()));
        present.sort_unstable();
        let mut gone: Vec<ObjectId> = self
            .entries
            .keys()
            .filter(|id| present.binary_search(id).is_err())
            .copied()
            .collect();
        gone.sort_unstable();
        for id in gone {
            self.remove_entry(id);
            self.reported.remove(&id);
        }
        self.scratch.ids = present;
    }

    fn remove_entry(&mut self, id: ObjectId) {
        if let Some(entry) = self.entries.swap_remove(&id) {
            if self.by_entity.get(&entry.entity) == Some(&id) {
                self.by_entity.remove(&entry.entity);
            }
            if let Some(collider) = entry.collider {
                self.removed.push((collider, id, entry.entity));
            }
            self.sim.remove_body_with_colliders(entry.body, true);
        }
    }

    fn sync_one(&mut self, world: &mut World, id: ObjectId, entity: Entity, enabled: bool) {
        let object = GameObject::from_entity(entity);
        let body_desc = world.get::<RigidBody>(entity).copied();
        let collider_desc = world.get::<Collider>(entity).cloned();
        // Components are checked when they change (a hull or mesh check
        // builds the shape: not something to repeat every step).
        let changed = self
            .entries
            .get(&id)
            .is_none_or(|e| e.body_desc != body_desc || e.collider_desc != collider_desc);
        if changed
            && let Some(error) = invalid(object, id, body_desc.as_ref(), collider_desc.as_ref())
        {
            self.remove_entry(id);
            self.report(id, StepErrorKey::Component, error);
            return;
        }
        // A set mass lives on the collider, or on the body while it has none.
        let mass_moves = |e: &Entry| {
            body_desc.is_some_and(|b| matches!(b.mass(), Mass::Kilograms(_)))
                && e.collider_desc.is_some() != collider_desc.is_some()
        };
        let rebuild = self
            .entries
            .get(&id)
            .is_none_or(|e| e.body_desc != body_desc || mass_moves(e));
        if rebuild {
            let Some(pose) = self.world_pose(world, object, id) else {
                self.remove_entry(id);
                return;
            };
            let velocities = self.entries.get(&id).and_then(|e| {
                let body = self.sim.bodies.get(e.body)?;
                Some((body.linvel(), body.angvel()))
            });
            self.remove_entry(id);
            let body = build_body(
                body_desc.as_ref(),
                pose,
                velocities,
                collider_desc.is_some(),
            );
            let handle = self.sim.bodies.insert(body);
            let written = world
                .get::<Transform>(entity)
                .map(|t| (t.position, t.rotation));
            self.entries.insert(
                id,
                Entry {
                    entity,
                    body: handle,
                    collider: None,
                    body_desc,
                    collider_desc: None,
                    written,
                    enabled: true,
                    child: false,
                },
            );
        }
        let Some(entry) = self.entries.get_mut(&id) else {
            return;
        };
        if self.by_entity.get(&entity) != Some(&id) {
            if self.by_entity.get(&entry.entity) == Some(&id) {
                self.by_entity.remove(&entry.entity);
            }
            self.by_entity.insert(entity, id);
        }
        entry.entity = entity;
        entry.child = world.get::<ChildOf>(entity).is_some();
        if entry.collider_desc != collider_desc || (rebuild && collider_desc.is_some()) {
            let s = &mut self.sim;
            if let Some(old) = entry.collider.take() {
                self.removed.push((old, id, entity));
                s.remove_collider(old);
            }
            if let Some(desc) = &collider_desc {
                match build_collider(desc, body_desc.as_ref(), id) {
                    Ok(collider) => {
                        entry.collider = Some(s.insert_collider(collider, Some(entry.body)));
                    }
                    Err(error) => {
                        let error = StepError::InvalidComponent {
                            object,
                            id,
                            component: "Collider",
                            reason: error.to_string(),
                        };
                        self.report(id, StepErrorKey::Component, error);
                        return;
                    }
                }
            }
            entry.collider_desc = collider_desc;
        }
        if entry.enabled != enabled {
            entry.enabled = enabled;
            if let Some(body) = self.sim.bodies.get_mut(entry.body) {
                body.set_enabled(enabled);
            }
        }
        if !rebuild {
            self.push_pose(world, id, object);
        }
    }

    /// Moves a kinematic or fixed body to its object, or teleports a
    /// dynamic one whose transform the game wrote.
    fn push_pose(&mut self, world: &mut World, id: ObjectId, object: GameObject) {
        let Some(entry) = self.entries.get(&id) else {
            return;
        };
        let kind = entry.body_desc.map_or(BodyKind::Fixed, |b| b.kind());
        let handle = entry.body;
        if kind == BodyKind::Dynamic {
            let current = world
                .get::<Transform>(object.entity())
                .map(|t| (t.position, t.rotation));
            if current == entry.written {
                return;
            }
        }
        let Some((position, rotation)) = self.world_pose(world, object, id) else {
            if let Some(entry) = self.entries.get_mut(&id) {
                // Written back over the bad transform after the step.
                entry.written = None;
            }
            return;
        };
        let Some(body) = self.sim.bodies.get_mut(handle) else {
            return;
        };
        let pose = to_pose(position, rotation);
        match kind {
            BodyKind::Kinematic => body.set_next_kinematic_position(pose),
            BodyKind::Fixed => {
                if from_pose(body.position()) != (position, rotation) {
                    body.set_position(pose, true);
                }
            }
            BodyKind::Dynamic => body.set_position(pose, true),
        }
        // What the body now follows: the next sync looks at the object
        // again only when its transform differs from this.
        if let Some(entry) = self.entries.get_mut(&id) {
            entry.written = world
                .get::<Transform>(object.entity())
                .map(|t| (t.position, t.rotation));
        }
    }

    /// The object's world position and rotation, or `None` (reported) when
    /// its transform is not finite.
    ///
    /// A root's pose is its transform's fields as they are (no matrix
    /// arithmetic, so the same bits on every CPU, SIMD or not); a child's
    /// comes from its world matrix.
    fn world_pose(
        &mut self,
        world: &mut World,
        object: GameObject,
        id: ObjectId,
    ) -> Option<(Vec3, Quat)> {
        let (position, rotation, finite) = if world.get::<ChildOf>(object.entity()).is_none() {
            let transform = world.get::<Transform>(object.entity())?;
            let rotation = transform.rotation;
            let rotation = if (rotation.length_squared() - 1.0).abs() > 1e-4 {
                rotation.normalize()
            } else {
                rotation
            };
            (transform.position, rotation, transform.is_finite())
        } else {
            let matrix = world_matrix_in(world, object)?;
            let (_, rotation, position) = matrix.to_scale_rotation_translation();
            (position, rotation.normalize(), matrix.is_finite())
        };
        if position.is_finite() && rotation.is_finite() && finite {
            if self.reported.get(&id) == Some(&StepErrorKey::Transform) {
                self.reported.remove(&id);
            }
            Some((position, rotation))
        } else {
            self.report(
                id,
                StepErrorKey::Transform,
                StepError::NonFiniteTransform { object, id },
            );
            None
        }
    }
}

/// The first problem with an object's components, as a step error.
fn invalid(
    object: GameObject,
    id: ObjectId,
    body: Option<&RigidBody>,
    collider: Option<&Collider>,
) -> Option<StepError> {
    let error = |component, reason: String| StepError::InvalidComponent {
        object,
        id,
        component,
        reason,
    };
    if let Some(Err(e)) = body.map(RigidBody::validate) {
        return Some(error("RigidBody", e.to_string()));
    }
    if let Some(Err(e)) = collider.map(Collider::validate) {
        return Some(error("Collider", e.to_string()));
    }
    None
}

/// The library's body for a component (`None`: a collider's implicit fixed body).
fn build_body(
    desc: Option<&RigidBody>,
    (position, rotation): (Vec3, Quat),
    velocities: Option<(rapier3d::math::Vector, rapier3d::math::Vector)>,
    has_collider: bool,
) -> rapier3d::prelude::RigidBody {
    let Some(desc) = desc else {
        return RigidBodyBuilder::new(RigidBodyType::Fixed)
            .pose(to_pose(position, rotation))
            .build();
    };
    let kind = match desc.kind() {
        BodyKind::Dynamic => RigidBodyType::Dynamic,
        BodyKind::Kinematic => RigidBodyType::KinematicPositionBased,
        BodyKind::Fixed => RigidBodyType::Fixed,
    };
    let (linvel, angvel) = velocities.unwrap_or((
        to_vector(desc.initial_linear_velocity()),
        to_vector(desc.initial_angular_velocity()),
    ));
    let mut builder = RigidBodyBuilder::new(kind)
        .pose(to_pose(position, rotation))
        .linear_damping(desc.linear_damping())
        .angular_damping(desc.angular_damping())
        .gravity_scale(desc.gravity_scale())
        .locked_axes(rapier3d::prelude::LockedAxes::from_bits_truncate(
            desc.locked_axes().bits(),
        ))
        .ccd_enabled(desc.ccd());
    if desc.kind() == BodyKind::Dynamic {
        builder = builder.linvel(linvel).angvel(angvel);
    }
    if let (Mass::Kilograms(kg), false) = (desc.mass(), has_collider) {
        builder = builder.additional_mass(kg);
    }
    builder.build()
}

/// The library's collider for a component; `id` goes in its user data.
fn build_collider(
    desc: &Collider,
    body: Option<&RigidBody>,
    id: ObjectId,
) -> Result<rapier3d::prelude::Collider, crate::error::ShapeError> {
    let layers = desc.layers();
    let mut builder = ColliderBuilder::new(desc.shape().build()?)
        .friction(desc.friction())
        .restitution(desc.restitution())
        .restitution_combine_rule(CoefficientCombineRule::Max)
        .sensor(desc.is_sensor())
        .collision_groups(InteractionGroups::new(
            Group::from_bits_retain(layers.memberships),
            Group::from_bits_retain(layers.filter),
            InteractionTestMode::And,
        ))
        .active_events(ActiveEvents::COLLISION_EVENTS)
        .user_data(u128::from(id.0));
    builder = match body.map(RigidBody::mass) {
        Some(Mass::Kilograms(kg)) => builder.mass(kg),
        _ => builder.density(desc.density()),
    };
    if desc.is_sensor() {
        // Triggers see kinematic and fixed bodies too (a door zone, a player
        // moved by its controller).
        builder = builder.active_collision_types(ActiveCollisionTypes::all());
    }
    Ok(builder.build())
}
