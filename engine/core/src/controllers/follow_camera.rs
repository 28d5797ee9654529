//! [`FollowCamera`]: a third-person camera that orbits a focus point and
//! pulls in when something solid stands between them.

use glam::{Quat, Vec3};

use super::{CollisionQuery, SphereCast};
use crate::{GameObject, Transform};

/// A camera orbiting a character at a distance, at the controller's yaw and
/// pitch, that never ends up inside geometry: each placement sweeps a small
/// sphere from the focus (above the character's feet) out to the wanted
/// distance and stops it short of the first solid
/// ([`CollisionQuery::cast_sphere`]: every collider's real shape in a
/// physics world, boxes in a box world). It pulls in at once and eases back
/// out at [`ease_out`](Self::ease_out) metres per second.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FollowCamera {
    /// The camera object placed each update.
    pub camera: GameObject,
    /// The wanted distance from the focus, metres (the mouse wheel changes it).
    pub distance: f32,
    /// The closest the wheel brings it.
    pub min_distance: f32,
    /// The farthest the wheel takes it.
    pub max_distance: f32,
    /// The focus's height above the character's feet.
    pub focus_height: f32,
    /// The radius of the sphere kept clear of geometry.
    pub radius: f32,
    /// How fast it moves back out after a wall, metres per second.
    pub ease_out: f32,
    current: Option<f32>,
}

impl FollowCamera {
    /// A camera placing `camera` 5 m from a focus 1.3 m above the feet.
    #[must_use]
    pub fn new(camera: GameObject) -> Self {
        Self {
            camera,
            distance: 5.0,
            min_distance: 1.5,
            max_distance: 15.0,
            focus_height: 1.3,
            radius: 0.2,
            ease_out: 4.0,
            current: None,
        }
    }

    /// The distance it was last placed at (less than
    /// [`distance`](Self::distance) while pulled in).
    #[must_use]
    pub fn current_distance(&self) -> f32 {
        self.current.unwrap_or(self.distance)
    }

    /// Zooms by wheel `steps` (up brings it closer), within the limits.
    pub fn zoom(&mut self, steps: f32) {
        if steps.is_finite() && steps != 0.0 {
            self.distance = (self.distance * 0.9_f32.powf(steps))
                .clamp(self.min_distance, self.max_distance.max(self.min_distance));
        }
    }

    /// The camera's transform for a character with feet at `feet`, viewed
    /// at `rotation` (the orbit: yaw then pitch), `dt` seconds after the
    /// last placement; `ignore` is the character (its own colliders do not
    /// push the camera in).
    pub fn place(
        &mut self,
        world: &dyn CollisionQuery,
        feet: Vec3,
        rotation: Quat,
        ignore: Option<GameObject>,
        dt: f32,
    ) -> Transform {
        let focus = feet + Vec3::Y * self.focus_height;
        let back = rotation * Vec3::Z;
        let wanted = if self.distance.is_finite() {
            self.distance.max(0.0)
        } else {
            5.0
        };
        let clear = world
            .cast_sphere(&SphereCast {
                origin: focus,
                direction: back,
                max_distance: wanted,
                radius: self.radius,
                ignore,
            })
            .map_or(wanted, |hit| hit.max(0.0));
        let distance = match self.current {
            Some(current) if clear > current && dt.is_finite() && dt > 0.0 => {
                (current + self.ease_out * dt).min(clear)
            }
            _ => clear,
        };
        self.current = Some(distance);
        Transform::from_trs(focus + back * distance, rotation, Vec3::ONE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::controllers::{Aabb, BoxWorld};

    #[test]
    fn a_camera_behind_a_wall_ends_up_in_front_of_it() {
        let camera = GameObject::from_entity(bevy_ecs::entity::Entity::PLACEHOLDER);
        let mut follow = FollowCamera::new(camera);
        // Behind the character (looking down -Z, the camera sits at +Z); a
        // wall from z = 2 to 2.5.
        let wall = BoxWorld(vec![Aabb::new(
            Vec3::new(-5.0, -1.0, 2.0),
            Vec3::new(5.0, 5.0, 2.5),
        )]);
        let placed = follow.place(&wall, Vec3::ZERO, Quat::IDENTITY, None, 1.0 / 60.0);
        assert!(
            placed.position.z <= 2.0 - follow.radius + 1e-4,
            "in front of the wall: {}",
            placed.position
        );
        assert!(placed.position.z > 1.0, "pulled in only as far as needed");
        // The wall gone, it eases back out.
        let open = BoxWorld::default();
        let next = follow.place(&open, Vec3::ZERO, Quat::IDENTITY, None, 0.1);
        assert!(next.position.z > placed.position.z && next.position.z < 5.0);
        for _ in 0..100 {
            follow.place(&open, Vec3::ZERO, Quat::IDENTITY, None, 0.1);
        }
        assert!((follow.current_distance() - 5.0).abs() < 1e-4);
    }
}
