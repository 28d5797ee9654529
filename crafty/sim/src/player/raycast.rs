//! Voxel raycasting: which block the player is looking at.

use glam::{IVec3, Vec3};

use crate::world::World;

/// A block hit by a ray.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RayHit {
    /// The targeted block.
    pub block: IVec3,
    /// The outward normal of the face the ray entered through (zero if the
    /// ray started inside the block).
    pub normal: IVec3,
    /// Distance along the ray to the entry point.
    pub distance: f32,
}

impl RayHit {
    /// Where a block placed against this face goes.
    #[must_use]
    pub fn place_position(&self) -> IVec3 {
        self.block + self.normal
    }
}

/// Walks the voxel grid from `origin` along `direction` (any length) up to
/// `reach` blocks and returns the first targetable block (Amanatides & Woo:
/// one step per cell boundary crossed, no block skipped or visited twice).
#[must_use]
pub fn raycast(world: &World, origin: Vec3, direction: Vec3, reach: f32) -> Option<RayHit> {
    let direction = direction.normalize_or_zero();
    // Beyond ±2^24 f32 has no fraction left, so cell arithmetic breaks down.
    let sane = origin.abs().max_element() < 16_000_000.0;
    if direction == Vec3::ZERO || !origin.is_finite() || !sane || !reach.is_finite() {
        return None;
    }
    let mut cell = origin.floor().as_ivec3();
    let step = IVec3::new(
        direction.x.signum() as i32,
        direction.y.signum() as i32,
        direction.z.signum() as i32,
    );
    // Distance along the ray between two boundaries of each axis, and to the first.
    let delta = (Vec3::ONE / direction).abs();
    let mut next = Vec3::ZERO;
    for axis in 0..3 {
        let boundary = if direction[axis] > 0.0 {
            cell[axis] as f32 + 1.0 - origin[axis]
        } else {
            origin[axis] - cell[axis] as f32
        };
        next[axis] = if direction[axis] == 0.0 {
            f32::INFINITY
        } else {
            boundary * delta[axis]
        };
    }
    let mut normal = IVec3::ZERO;
    let mut distance = 0.0;
    // A ray crosses at most three cell boundaries per unit of length.
    let max_steps = 3 * (reach.max(0.0).ceil() as usize) + 3;
    for _ in 0..max_steps {
        if distance > reach {
            break;
        }
        if world.block(cell).is_targetable() {
            return Some(RayHit {
                block: cell,
                normal,
                distance,
            });
        }
        let axis = if next.x < next.y {
            if next.x < next.z { 0 } else { 2 }
        } else if next.y < next.z {
            1
        } else {
            2
        };
        distance = next[axis];
        next[axis] += delta[axis];
        cell[axis] += step[axis];
        normal = IVec3::ZERO;
        normal[axis] = -step[axis];
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::BlockType;

    fn world_with_block(pos: IVec3) -> World {
        let mut world = World::new(1);
        // High in the sky: the terrain never reaches y = 120.
        world.set_block(pos, BlockType::Stone).unwrap();
        world
    }

    #[test]
    fn hits_the_block_in_front_and_reports_the_entry_face() {
        let world = world_with_block(IVec3::new(5, 120, 0));
        let hit = raycast(&world, Vec3::new(0.5, 120.5, 0.5), Vec3::X, 8.0).unwrap();
        assert_eq!(hit.block, IVec3::new(5, 120, 0));
        assert_eq!(hit.normal, IVec3::NEG_X);
        assert_eq!(hit.place_position(), IVec3::new(4, 120, 0));
        assert!((hit.distance - 4.5).abs() < 1e-5);
    }

    #[test]
    fn respects_reach_and_diagonals() {
        let world = world_with_block(IVec3::new(3, 123, 3));
        assert!(raycast(&world, Vec3::new(0.5, 120.5, 0.5), Vec3::ONE, 2.0).is_none());
        let hit = raycast(&world, Vec3::new(0.5, 120.5, 0.5), Vec3::ONE, 8.0).unwrap();
        assert_eq!(hit.block, IVec3::new(3, 123, 3));
        assert!(raycast(&world, Vec3::new(0.5, 120.5, 0.5), Vec3::NAN, 8.0).is_none());
    }

    #[test]
    fn absurd_origins_end_at_once() {
        let world = World::new(1);
        assert!(raycast(&world, Vec3::new(3e9, 50.0, 0.0), Vec3::Y, 5.0).is_none());
        assert!(raycast(&world, Vec3::new(0.5, 1e30, 0.5), Vec3::NEG_Y, 1e30).is_none());
    }
}
