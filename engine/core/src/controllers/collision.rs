//! What a controller collides with: boxes the game reports on request.

use bevy_ecs::resource::Resource;
use glam::Vec3;

use super::sweep::{CharacterMoved, CharacterSweep, SphereCast, sphere_hits_box};

/// An axis-aligned box, `min` to `max` corners.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Aabb {
    /// The corner with the smallest coordinates.
    pub min: Vec3,
    /// The corner with the largest coordinates.
    pub max: Vec3,
}

impl Aabb {
    /// The box between two corners (in any order).
    #[must_use]
    pub fn new(a: Vec3, b: Vec3) -> Self {
        Self {
            min: a.min(b),
            max: a.max(b),
        }
    }

    /// The unit cube whose minimum corner is `corner` (a voxel).
    #[must_use]
    pub fn unit_cube(corner: Vec3) -> Self {
        Self {
            min: corner,
            max: corner + Vec3::ONE,
        }
    }

    /// True when the boxes share volume (touching faces do not count).
    #[must_use]
    pub fn overlaps(&self, other: &Aabb) -> bool {
        self.min.cmplt(other.max).all() && self.max.cmpgt(other.min).all()
    }

    /// The smallest box holding both.
    #[must_use]
    pub fn union(&self, other: &Aabb) -> Self {
        Self {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }

    /// The box moved by `offset`.
    #[must_use]
    pub fn translated(&self, offset: Vec3) -> Self {
        Self {
            min: self.min + offset,
            max: self.max + offset,
        }
    }
}

/// The solid world as a controller sees it. A voxel game answers with the
/// solid blocks in the region, a level with its wall and floor boxes.
pub trait CollisionQuery: Send + Sync {
    /// Pushes every solid box that overlaps `region` onto `out` (boxes that
    /// only touch it may be included; extra boxes are harmless).
    fn solids(&self, region: Aabb, out: &mut Vec<Aabb>);

    /// True when `point` is in a fluid a body swims in (water). The default
    /// has no fluid anywhere.
    fn is_fluid(&self, point: Vec3) -> bool {
        let _ = point;
        false
    }

    /// Moves a character's capsule through a world of real shapes (slopes,
    /// steps, snapping to the ground, sliding along walls), filling `out`,
    /// and returns `true`; a world that knows only boxes returns `false`
    /// (the default) and the motor sweeps its box against
    /// [`solids`](Self::solids) instead. The physics world answers with
    /// rapier's kinematic character controller.
    fn move_character(&self, sweep: &CharacterSweep, out: &mut CharacterMoved) -> bool {
        let _ = (sweep, out);
        false
    }

    /// Whether an upright capsule of `radius` and `height` standing at
    /// `feet` fits (overlaps no solid but `object`'s own); `None` (the
    /// default) asks the motor to test its box against
    /// [`solids`](Self::solids).
    fn capsule_fits(
        &self,
        object: Option<crate::GameObject>,
        feet: Vec3,
        radius: f32,
        height: f32,
    ) -> Option<bool> {
        let _ = (object, feet, radius, height);
        None
    }

    /// How far a sphere travels along a cast before it touches a solid
    /// (`None`: it does not within the cast's distance). The default tests
    /// the boxes [`solids`](Self::solids) reports along the way; the
    /// physics world tests every collider's real shape.
    fn cast_sphere(&self, cast: &SphereCast) -> Option<f32> {
        if !(cast.origin.is_finite()
            && cast.direction.is_finite()
            && cast.max_distance.is_finite()
            && cast.radius.is_finite())
        {
            return None;
        }
        let end = cast.origin + cast.direction * cast.max_distance;
        let reach = Vec3::splat(cast.radius.max(0.0));
        let region = Aabb::new(cast.origin.min(end) - reach, cast.origin.max(end) + reach);
        let mut boxes = Vec::new();
        self.solids(region, &mut boxes);
        boxes
            .iter()
            .filter_map(|solid| {
                sphere_hits_box(
                    cast.origin,
                    cast.direction,
                    cast.max_distance,
                    cast.radius.max(0.0),
                    solid,
                )
            })
            .min_by(f32::total_cmp)
    }
}

/// A plain list of solid boxes: tests, blockouts, simple levels.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BoxWorld(pub Vec<Aabb>);

impl CollisionQuery for BoxWorld {
    fn solids(&self, region: Aabb, out: &mut Vec<Aabb>) {
        out.extend(self.0.iter().filter(|b| b.overlaps(&region)));
    }
}

/// The scene's collision query, read by every
/// [`PlayerController`](super::PlayerController) in the scene. Without one,
/// nothing is solid.
#[derive(Resource)]
pub struct SceneCollision(pub Box<dyn CollisionQuery>);

impl std::fmt::Debug for SceneCollision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SceneCollision(..)")
    }
}
