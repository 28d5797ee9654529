//! Characters in the physics world: the core's motor moved by rapier's
//! kinematic character controller (slopes, steps, snapping, every collider
//! shape), the capsule a player carries so sensors see it, and sphere casts
//! for follow cameras.

use bevy_ecs::entity::Entity;
use glam::{Quat, Vec3};
use rapier3d::control::{CharacterAutostep, CharacterLength, KinematicCharacterController};
use rapier3d::parry::query::ShapeCastOptions;
use rapier3d::prelude::{
    ActiveCollisionTypes, ActiveEvents, ColliderBuilder, ColliderHandle, InteractionGroups,
    QueryFilter as RapierFilter, RigidBodyBuilder, RigidBodyHandle, RigidBodyType, SharedShape,
};
use serde::{Deserialize, Serialize};
use taos_core::controllers::{
    Aabb, CharacterMoved, CharacterSweep, CharacterTouch, CollisionQuery, SphereCast,
};
use taos_core::{GameObject, ObjectId};

use crate::body::BodyKind;
use crate::convert::{from_vector, to_pose, to_vector};
use crate::query::QueryFilter;
use crate::shape::Shape;
use crate::world::Physics;

/// The smallest half extent of a box query (a flat region still finds what
/// it touches).
const MIN_HALF: f32 = 1e-3;

/// The gap the controller keeps between the capsule and what it touches,
/// metres (rapier's controller needs one above zero).
const SKIN: f32 = 0.01;

/// The thinnest capsule segment (a capsule shorter than its width is
/// nearly a ball).
const MIN_SEGMENT: f32 = 1e-3;

/// A character's capsule in the library's world: a kinematic body with a
/// sensor collider that follows the character's motor, so sensors report
/// the player entering and leaving them. Being a sensor, it is no obstacle
/// to anything (the motor pushes what it walks into itself).
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub(crate) struct CharacterEntry {
    /// The character's entity (refreshed at each placement).
    #[serde(with = "entity_bits")]
    pub(crate) entity: Entity,
    pub(crate) body: RigidBodyHandle,
    pub(crate) collider: ColliderHandle,
    /// The capsule's radius and height the collider was built with.
    pub(crate) size: [f32; 2],
}

mod entity_bits {
    use bevy_ecs::entity::Entity;
    use serde::{Deserialize, Deserializer, Serializer, de::Error as _};

    pub(super) fn serialize<S: Serializer>(entity: &Entity, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(entity.to_bits())
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Entity, D::Error> {
        let bits = u64::deserialize(d)?;
        Entity::try_from_bits(bits)
            .ok_or_else(|| D::Error::custom(format!("invalid entity bits {bits:#x}")))
    }
}

/// The upright capsule of `radius` and `height` (feet to crown), centred
/// on its origin; `None` for a size that is not a positive finite number.
fn capsule(radius: f32, height: f32) -> Option<SharedShape> {
    if !(radius.is_finite() && height.is_finite() && radius > 0.0 && height > 0.0) {
        return None;
    }
    let segment = (height * 0.5 - radius).max(MIN_SEGMENT);
    Some(SharedShape::capsule_y(segment, radius))
}

/// The capsule's centre for feet at `feet`: the capsule is at least its
/// width tall, so its centre is at least a radius up.
fn centre(feet: Vec3, radius: f32, height: f32) -> Vec3 {
    let segment = (height * 0.5 - radius).max(MIN_SEGMENT);
    feet + Vec3::Y * (segment + radius)
}

/// Rapier's controller set up from a sweep.
fn controller(sweep: &CharacterSweep) -> KinematicCharacterController {
    let slope = if sweep.max_slope.is_finite() {
        sweep.max_slope.clamp(0.0, std::f32::consts::FRAC_PI_2)
    } else {
        std::f32::consts::FRAC_PI_4
    };
    let positive = |value: f32| (value.is_finite() && value > 0.0).then_some(value);
    KinematicCharacterController {
        offset: CharacterLength::Absolute(SKIN),
        slide: true,
        autostep: positive(sweep.step_height).map(|height| CharacterAutostep {
            max_height: CharacterLength::Absolute(height),
            min_width: CharacterLength::Absolute(sweep.radius * 0.5),
            include_dynamic_bodies: false,
        }),
        max_slope_climb_angle: slope,
        min_slope_slide_angle: slope,
        snap_to_ground: positive(sweep.snap_distance).map(CharacterLength::Absolute),
        ..KinematicCharacterController::default()
    }
}

impl Physics {
    /// The objects whose solid colliders overlap `region`, onto `out`.
    pub(crate) fn touching(&self, region: Aabb, out: &mut Vec<GameObject>) {
        let half = ((region.max - region.min) * 0.5).max(Vec3::splat(MIN_HALF));
        let Ok(shape) = Shape::cuboid(half) else {
            return;
        };
        let centre = (region.min + region.max) * 0.5;
        // A non-finite region finds nothing.
        let _ = self.overlaps(&shape, centre, Quat::IDENTITY, &QueryFilter::ALL, out);
    }

    /// True when `object` has a dynamic body.
    pub(crate) fn is_dynamic(&self, object: GameObject) -> bool {
        self.entry(object)
            .and_then(|entry| entry.body_desc)
            .is_some_and(|body| body.kind() == BodyKind::Dynamic)
    }

    /// The library's filter for a character's own queries: solids only,
    /// not `object`'s own body.
    fn character_filter(&self, object: Option<GameObject>) -> RapierFilter<'_> {
        let mut filter = RapierFilter::new().exclude_sensors();
        if let Some(entry) = object.and_then(|o| self.entry(o)) {
            filter = filter.exclude_rigid_body(entry.body);
        }
        filter
    }

    /// The object owning a collider (a body's object or a character).
    pub(crate) fn collider_owner(&self, collider: ColliderHandle) -> Option<(ObjectId, Entity)> {
        let data = self.sim.colliders.get(collider)?.user_data;
        let id = ObjectId(u64::try_from(data).ok()?);
        self.entries
            .get(&id)
            .map(|e| e.entity)
            .or_else(|| self.characters.get(&id).map(|c| c.entity))
            .map(|entity| (id, entity))
    }

    /// True when `collider` is a character's capsule.
    pub(crate) fn is_character_collider(&self, collider: ColliderHandle) -> bool {
        self.characters.values().any(|c| c.collider == collider)
    }

    /// Puts `object`'s character capsule (feet at `feet`) in the world, or
    /// moves it there: a kinematic body with a sensor collider, reaching
    /// its place at the next step, so the sensors it enters and leaves
    /// report it. Nothing is added for an object that has its own body
    /// (its collider is already seen).
    pub(crate) fn place_character(
        &mut self,
        id: ObjectId,
        object: GameObject,
        feet: Vec3,
        radius: f32,
        height: f32,
    ) {
        if self.entries.contains_key(&id) {
            self.remove_character(id);
            return;
        }
        if !feet.is_finite() {
            return;
        }
        let Some(shape) = capsule(radius, height) else {
            return;
        };
        let pose = to_pose(centre(feet, radius, height), Quat::IDENTITY);
        let rebuild = self
            .characters
            .get(&id)
            .is_none_or(|c| c.size != [radius, height]);
        if rebuild {
            self.remove_character(id);
            let body = self.sim.bodies.insert(
                RigidBodyBuilder::new(RigidBodyType::KinematicPositionBased)
                    .pose(pose)
                    .build(),
            );
            let collider = ColliderBuilder::new(shape)
                .sensor(true)
                .active_collision_types(ActiveCollisionTypes::all())
                .collision_groups(InteractionGroups::all())
                .active_events(ActiveEvents::COLLISION_EVENTS)
                .user_data(u128::from(id.0))
                .build();
            let collider = self.sim.insert_collider(collider, Some(body));
            self.characters.insert(
                id,
                CharacterEntry {
                    entity: object.entity(),
                    body,
                    collider,
                    size: [radius, height],
                },
            );
        } else if let Some(entry) = self.characters.get_mut(&id) {
            entry.entity = object.entity();
            if let Some(body) = self.sim.bodies.get_mut(entry.body) {
                body.set_next_kinematic_position(pose);
            }
        }
    }

    /// Takes `id`'s character capsule out of the world (its last sensor
    /// contacts end at the next step).
    pub(crate) fn remove_character(&mut self, id: ObjectId) {
        if let Some(entry) = self.characters.remove(&id) {
            self.removed.push((entry.collider, id, entry.entity));
            self.sim.remove_body_with_colliders(entry.body, true);
        }
    }

    /// Characters whose objects are gone (despawned without their
    /// controller's detach) leave the world.
    pub(crate) fn remove_gone_characters(&mut self, alive: impl Fn(Entity) -> bool) {
        let gone: Vec<ObjectId> = self
            .characters
            .iter()
            .filter(|(_, c)| !alive(c.entity))
            .map(|(&id, _)| id)
            .collect();
        for id in gone {
            self.remove_character(id);
        }
    }
}

impl CollisionQuery for Physics {
    /// Every solid collider (not sensors) as its world-space bounding box,
    /// as the last step left it (what a box motor and a voxel-style query
    /// see; the motor itself moves through
    /// [`move_character`](CollisionQuery::move_character)).
    fn solids(&self, region: Aabb, out: &mut Vec<Aabb>) {
        let mut found = Vec::new();
        self.touching(region, &mut found);
        out.extend(
            found
                .into_iter()
                .filter_map(|object| self.collider_aabb(object))
                .map(|(min, max)| Aabb { min, max }),
        );
    }

    fn move_character(&self, sweep: &CharacterSweep, out: &mut CharacterMoved) -> bool {
        out.clear();
        let Some(shape) = capsule(sweep.radius, sweep.height) else {
            return true;
        };
        if !(sweep.feet.is_finite() && sweep.motion.is_finite() && sweep.dt.is_finite())
            || sweep.dt <= 0.0
        {
            return true;
        }
        let pose = to_pose(
            centre(sweep.feet, sweep.radius, sweep.height),
            Quat::IDENTITY,
        );
        let pipeline = self
            .sim
            .query_pipeline_with_filter(self.character_filter(sweep.object));
        let touched = &mut out.touched;
        let moved = controller(sweep).move_shape(
            sweep.dt,
            &pipeline,
            shape.as_ref(),
            &pose,
            to_vector(sweep.motion),
            |collision| {
                touched.push(CharacterTouch {
                    object: self
                        .collider_owner(collision.handle)
                        .map(|(_, entity)| GameObject::from_entity(entity)),
                    normal: from_vector(collision.hit.normal1).normalize_or_zero(),
                });
            },
        );
        out.translation = from_vector(moved.translation);
        out.grounded = moved.grounded;
        out.sliding = moved.is_sliding_down_slope;
        true
    }

    fn capsule_fits(
        &self,
        object: Option<GameObject>,
        feet: Vec3,
        radius: f32,
        height: f32,
    ) -> Option<bool> {
        let shape = capsule(radius, height)?;
        if !feet.is_finite() {
            return Some(false);
        }
        // The skin's gap above the feet: the floor it stands on is no obstacle.
        let pose = to_pose(
            centre(feet, radius, height) + Vec3::Y * SKIN,
            Quat::IDENTITY,
        );
        let pipeline = self
            .sim
            .query_pipeline_with_filter(self.character_filter(object));
        let mut hits = pipeline.intersect_shape(pose, shape.as_ref());
        Some(hits.next().is_none())
    }

    fn cast_sphere(&self, cast: &SphereCast) -> Option<f32> {
        let ok = cast.origin.is_finite()
            && cast.direction.is_finite()
            && cast.max_distance.is_finite()
            && cast.radius.is_finite()
            && cast.radius > 0.0
            && cast.max_distance >= 0.0;
        let direction = cast.direction.try_normalize()?;
        if !ok {
            return None;
        }
        let pipeline = self
            .sim
            .query_pipeline_with_filter(self.character_filter(cast.ignore));
        let options = ShapeCastOptions {
            max_time_of_impact: cast.max_distance,
            stop_at_penetration: true,
            ..ShapeCastOptions::default()
        };
        pipeline
            .cast_shape(
                &to_pose(cast.origin, Quat::IDENTITY),
                to_vector(direction),
                &rapier3d::parry::shape::Ball::new(cast.radius),
                options,
            )
            .map(|(_, hit)| hit.time_of_impact)
    }
}
