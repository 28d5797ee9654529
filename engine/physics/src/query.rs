//! Ray casts, shape casts and overlap tests against the last step's world.

use glam::{Quat, Vec3};
use rapier3d::prelude::{
    ColliderHandle, Group, InteractionGroups, InteractionTestMode, QueryFilter as RapierFilter, Ray,
};
use taos_core::{GameObject, ObjectId};

use crate::convert::{from_vector, to_pose, to_vector};
use crate::error::QueryError;
use crate::shape::Shape;
use crate::world::Physics;

/// Which colliders a query can hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueryFilter {
    /// Colliders on none of these layers (their `memberships`) are skipped.
    pub layers: u32,
    /// Whether sensors count as hits.
    pub include_sensors: bool,
    /// An object to skip (usually the caster itself).
    pub exclude: Option<GameObject>,
}

impl Default for QueryFilter {
    fn default() -> Self {
        Self::ALL
    }
}

impl QueryFilter {
    /// Every solid collider on every layer; sensors skipped.
    pub const ALL: Self = Self {
        layers: u32::MAX,
        include_sensors: false,
        exclude: None,
    };

    /// Only colliders on `layers`.
    #[must_use]
    pub const fn layers(layers: u32) -> Self {
        Self {
            layers,
            ..Self::ALL
        }
    }

    /// This filter, also skipping `object`.
    #[must_use]
    pub const fn excluding(mut self, object: GameObject) -> Self {
        self.exclude = Some(object);
        self
    }

    /// This filter, counting sensors as hits too.
    #[must_use]
    pub const fn with_sensors(mut self) -> Self {
        self.include_sensors = true;
        self
    }
}

/// Where a ray or a cast shape first met a collider.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hit {
    /// The object hit.
    pub object: GameObject,
    /// Its stable id.
    pub id: ObjectId,
    /// The point of contact, world space (for a shape cast: on the collider hit).
    pub point: Vec3,
    /// The surface normal there, pointing out of the collider hit.
    pub normal: Vec3,
    /// How far along the direction the hit is, in metres.
    pub distance: f32,
}

impl Physics {
    /// The first collider a ray meets within `max_distance` of `origin`
    /// along `direction` (normalised here), or `None`. A ray that starts
    /// inside a collider hits it at distance 0.
    ///
    /// Queries see the world as the last step left it: a collider added
    /// since is found after the next step.
    ///
    /// # Errors
    /// [`QueryError`] for a NaN or infinite input, a zero direction, or a
    /// negative distance.
    pub fn cast_ray(
        &self,
        origin: Vec3,
        direction: Vec3,
        max_distance: f32,
        filter: &QueryFilter,
    ) -> Result<Option<Hit>, QueryError> {
        finite3("origin", origin)?;
        let direction = unit(direction)?;
        distance(max_distance)?;
        let ray = Ray::new(to_vector(origin), to_vector(direction));
        let pipeline = self
            .sim
            .query_pipeline_with_filter(self.rapier_filter(filter));
        Ok(pipeline
            .cast_ray_and_get_normal(&ray, max_distance, true)
            .and_then(|(handle, hit)| {
                let (id, object) = self.owner(handle)?;
                Some(Hit {
                    object,
                    id,
                    point: origin + direction * hit.time_of_impact,
                    normal: from_vector(hit.normal),
                    distance: hit.time_of_impact,
                })
            }))
    }

    /// Sweeps `shape` (at `position`, turned by `rotation`) along
    /// `direction` for up to `max_distance` metres; the first collider it
    /// would touch, or `None`. A shape already touching something hits at 0.
    ///
    /// # Errors
    /// As [`cast_ray`](Self::cast_ray), and for a non-finite rotation.
    pub fn cast_shape(
        &self,
        shape: &Shape,
        position: Vec3,
        rotation: Quat,
        direction: Vec3,
        max_distance: f32,
        filter: &QueryFilter,
    ) -> Result<Option<Hit>, QueryError> {
        finite3("position", position)?;
        let rotation = finite_rotation(rotation)?;
        let direction = unit(direction)?;
        distance(max_distance)?;
        let Ok(built) = shape.build() else {
            return Ok(None);
        };
        let pipeline = self
            .sim
            .query_pipeline_with_filter(self.rapier_filter(filter));
        let options = rapier3d::parry::query::ShapeCastOptions {
            max_time_of_impact: max_distance,
            stop_at_penetration: true,
            ..Default::default()
        };
        Ok(pipeline
            .cast_shape(
                &to_pose(position, rotation),
                to_vector(direction),
                built.as_ref(),
                options,
            )
            .and_then(|(handle, hit)| {
                let (id, object) = self.owner(handle)?;
                let collider = self.sim.colliders.get(handle)?;
                Some(Hit {
                    object,
                    id,
                    point: from_vector(collider.position() * hit.witness1),
                    normal: from_vector(collider.position().rotation * hit.normal1),
                    distance: hit.time_of_impact,
                })
            }))
    }

    /// Every object whose collider overlaps `shape` at `position` turned by
    /// `rotation`, pushed onto `out` (not cleared) in the library's order.
    ///
    /// # Errors
    /// [`QueryError::NotFinite`] for a NaN or infinite pose.
    pub fn overlaps(
        &self,
        shape: &Shape,
        position: Vec3,
        rotation: Quat,
        filter: &QueryFilter,
        out: &mut Vec<GameObject>,
    ) -> Result<(), QueryError> {
        finite3("position", position)?;
        let rotation = finite_rotation(rotation)?;
        let Ok(built) = shape.build() else {
            return Ok(());
        };
        let pipeline = self
            .sim
            .query_pipeline_with_filter(self.rapier_filter(filter));
        out.extend(
            pipeline
                .intersect_shape(to_pose(position, rotation), built.as_ref())
                .filter_map(|(handle, _)| self.owner(handle).map(|(_, object)| object)),
        );
        Ok(())
    }

    fn rapier_filter(&self, filter: &QueryFilter) -> RapierFilter<'_> {
        let mut out = RapierFilter::new().groups(InteractionGroups::new(
            Group::ALL,
            Group::from_bits_retain(filter.layers),
            InteractionTestMode::And,
        ));
        if !filter.include_sensors {
            out = out.exclude_sensors();
        }
        if let Some(entry) = filter.exclude.and_then(|o| self.entry(o)) {
            out = out.exclude_rigid_body(entry.body);
        } else if let Some(character) = filter
            .exclude
            .and_then(|o| self.characters.values().find(|c| c.entity == o.entity()))
        {
            out = out.exclude_rigid_body(character.body);
        }
        out
    }

    fn owner(&self, collider: ColliderHandle) -> Option<(ObjectId, GameObject)> {
        let (id, entity) = self.collider_owner(collider)?;
        Some((id, GameObject::from_entity(entity)))
    }
}

fn finite3(what: &'static str, v: Vec3) -> Result<(), QueryError> {
    if v.is_finite() {
        Ok(())
    } else {
        Err(QueryError::NotFinite {
            what,
            value: v.extend(0.0).to_array(),
        })
    }
}

fn finite_rotation(q: Quat) -> Result<Quat, QueryError> {
    if q.is_finite() && q.length_squared() > 0.0 {
        Ok(q.normalize())
    } else {
        Err(QueryError::NotFinite {
            what: "rotation",
            value: q.to_array(),
        })
    }
}

fn unit(direction: Vec3) -> Result<Vec3, QueryError> {
    finite3("direction", direction)?;
    direction.try_normalize().ok_or(QueryError::ZeroDirection)
}

fn distance(max: f32) -> Result<(), QueryError> {
    if max >= 0.0 {
        Ok(())
    } else {
        Err(QueryError::BadDistance(max))
    }
}
