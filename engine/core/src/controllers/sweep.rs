//! What a world that knows real shapes (a physics world) answers for a
//! character: moving an upright capsule with slopes, steps and snapping,
//! whether a capsule fits, and how far a sphere travels (a follow camera).
//! A world of boxes answers none of these; the motor then sweeps boxes.

use glam::Vec3;

use crate::GameObject;

/// A character's upright capsule to move by `motion` this step
/// ([`CollisionQuery::move_character`](super::CollisionQuery::move_character)).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CharacterSweep {
    /// The object the character moves: its own colliders are not obstacles.
    pub object: Option<GameObject>,
    /// The bottom of the capsule.
    pub feet: Vec3,
    /// The capsule's radius (the motor's half width).
    pub radius: f32,
    /// The capsule's whole height, feet to crown.
    pub height: f32,
    /// The wanted motion this step (velocity times the step), metres.
    pub motion: Vec3,
    /// The step, seconds.
    pub dt: f32,
    /// Steepest walkable floor, radians from level.
    pub max_slope: f32,
    /// Highest ledge walked onto without a jump, metres (0: none).
    pub step_height: f32,
    /// How far down the character is pulled to stay on the ground when it
    /// walks off a step or down a slope, metres (0: never).
    pub snap_distance: f32,
}

/// Something a character touched while it moved: the obstacle and the
/// face's normal (pointing out of the obstacle, toward the character).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CharacterTouch {
    /// The object hit (`None`: a collider with no object).
    pub object: Option<GameObject>,
    /// The face's normal, unit length, out of the obstacle.
    pub normal: Vec3,
}

/// What a [`CharacterSweep`] did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CharacterMoved {
    /// How far the character moved (the motion cut short by what it hit,
    /// slid along walls, lifted onto steps, pulled down to the ground).
    pub translation: Vec3,
    /// Standing on walkable ground afterwards.
    pub grounded: bool,
    /// Sliding down a slope too steep to stand on.
    pub sliding: bool,
    /// Every obstacle hit on the way, in order.
    pub touched: Vec<CharacterTouch>,
}

impl CharacterMoved {
    /// Empties it for another sweep (keeps the list's memory).
    pub fn clear(&mut self) {
        self.translation = Vec3::ZERO;
        self.grounded = false;
        self.sliding = false;
        self.touched.clear();
    }
}

/// A sphere swept from `origin` along `direction`
/// ([`CollisionQuery::cast_sphere`](super::CollisionQuery::cast_sphere)).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SphereCast {
    /// Where the sphere's centre starts.
    pub origin: Vec3,
    /// Unit direction.
    pub direction: Vec3,
    /// The farthest the centre travels, metres.
    pub max_distance: f32,
    /// The sphere's radius.
    pub radius: f32,
    /// An object whose colliders are ignored (the character the camera follows).
    pub ignore: Option<GameObject>,
}

/// How far a sphere of `radius` at `origin` moves along the unit
/// `direction` before touching `solid`, a box (`None`: it misses within
/// `max_distance`; 0 when it starts touching). The box grown by the radius
/// is tested against the centre's ray: exact on faces, slightly early at
/// edges and corners (it never lets the sphere into the box).
#[must_use]
pub(crate) fn sphere_hits_box(
    origin: Vec3,
    direction: Vec3,
    max_distance: f32,
    radius: f32,
    solid: &super::Aabb,
) -> Option<f32> {
    let min = solid.min - Vec3::splat(radius);
    let max = solid.max + Vec3::splat(radius);
    let mut enter = 0.0_f32;
    let mut exit = max_distance;
    for axis in 0..3 {
        let (o, d) = (origin[axis], direction[axis]);
        if d.abs() < 1e-12 {
            if o < min[axis] || o > max[axis] {
                return None;
            }
            continue;
        }
        let (a, b) = ((min[axis] - o) / d, (max[axis] - o) / d);
        let (near, far) = if a < b { (a, b) } else { (b, a) };
        enter = enter.max(near);
        exit = exit.min(far);
        if enter > exit {
            return None;
        }
    }
    Some(enter)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::controllers::Aabb;

    #[test]
    fn a_sphere_stops_its_radius_short_of_a_face() {
        let wall = Aabb::new(Vec3::new(-5.0, -5.0, 3.0), Vec3::new(5.0, 5.0, 4.0));
        let hit = sphere_hits_box(Vec3::ZERO, Vec3::Z, 10.0, 0.5, &wall).unwrap();
        assert!((hit - 2.5).abs() < 1e-5, "{hit}");
        assert_eq!(
            sphere_hits_box(Vec3::ZERO, Vec3::NEG_Z, 10.0, 0.5, &wall),
            None
        );
        assert_eq!(sphere_hits_box(Vec3::ZERO, Vec3::Z, 2.0, 0.5, &wall), None);
        let inside = sphere_hits_box(Vec3::new(0.0, 0.0, 3.5), Vec3::Z, 10.0, 0.5, &wall);
        assert_eq!(inside, Some(0.0));
    }
}
