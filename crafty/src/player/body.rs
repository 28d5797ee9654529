//! The player's body: an axis-aligned box that walks, jumps, falls and flies
//! through the voxel world without entering solid blocks.

use glam::{IVec3, Vec3};

use crate::world::World;

/// Half the body's width (it is 0.6 blocks wide).
pub const HALF_WIDTH: f32 = 0.3;
/// Body height.
pub const HEIGHT: f32 = 1.8;
/// Eye height above the feet.
pub const EYE_HEIGHT: f32 = 1.62;
/// Downward acceleration, blocks/s².
pub const GRAVITY: f32 = 28.0;
/// Upward speed of a jump (about 1.25 blocks high).
pub const JUMP_SPEED: f32 = 8.4;
/// Walking speed, blocks/s.
pub const WALK_SPEED: f32 = 4.3;
/// Sprinting speed.
pub const SPRINT_SPEED: f32 = 5.6;
/// Flying speed.
pub const FLY_SPEED: f32 = 10.8;
/// Fastest fall.
const TERMINAL_SPEED: f32 = 60.0;
/// Keeps the box this far from faces it touches, so it never starts a step inside one.
const SKIN: f32 = 1e-3;

/// Where the player is and how it moves.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Body {
    /// Feet position (bottom centre of the box).
    pub position: Vec3,
    /// Velocity, blocks/s.
    pub velocity: Vec3,
    /// Standing on something.
    pub on_ground: bool,
    /// Flying (creative): no gravity, vertical control.
    pub flying: bool,
}

/// One tick's intent: horizontal wish direction (world space, length ≤ 1),
/// jump/ascend, descend, sprint.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct MoveIntent {
    /// Desired horizontal direction (y ignored).
    pub wish: Vec3,
    /// Jump, or rise when flying.
    pub up: bool,
    /// Sink when flying.
    pub down: bool,
    /// Sprint.
    pub sprint: bool,
}

impl Body {
    /// A body standing at `position`.
    #[must_use]
    pub const fn at(position: Vec3) -> Self {
        Self {
            position,
            velocity: Vec3::ZERO,
            on_ground: false,
            flying: false,
        }
    }

    /// The eye position.
    #[must_use]
    pub fn eye(&self) -> Vec3 {
        self.position + Vec3::Y * EYE_HEIGHT
    }

    /// The box's min and max corners.
    #[must_use]
    pub fn bounds(&self) -> (Vec3, Vec3) {
        bounds_at(self.position)
    }

    /// True when the body's box overlaps block `block`.
    #[must_use]
    pub fn overlaps_block(&self, block: IVec3) -> bool {
        let (min, max) = self.bounds();
        let (bmin, bmax) = (block.as_vec3(), block.as_vec3() + Vec3::ONE);
        min.cmplt(bmax).all() && max.cmpgt(bmin).all()
    }

    /// Advances one step of `dt` seconds with `intent`, colliding with solid
    /// blocks axis by axis (y first, so landing and ledges behave).
    pub fn step(&mut self, world: &World, intent: MoveIntent, dt: f32) {
        if !dt.is_finite() || dt <= 0.0 {
            return;
        }
        let wish = Vec3::new(intent.wish.x, 0.0, intent.wish.z).clamp_length_max(1.0);
        if self.flying {
            let vertical = f32::from(u8::from(intent.up)) - f32::from(u8::from(intent.down));
            let speed = if intent.sprint {
                FLY_SPEED * 2.0
            } else {
                FLY_SPEED
            };
            self.velocity = (wish + Vec3::Y * vertical) * speed;
        } else {
            let speed = if intent.sprint {
                SPRINT_SPEED
            } else {
                WALK_SPEED
            };
            self.velocity.x = wish.x * speed;
            self.velocity.z = wish.z * speed;
            if intent.up && self.on_ground {
                self.velocity.y = JUMP_SPEED;
            }
            self.velocity.y = (self.velocity.y - GRAVITY * dt).max(-TERMINAL_SPEED);
        }
        let motion = self.velocity * dt;
        self.on_ground = false;
        for axis in [1, 0, 2] {
            let moved = sweep(world, self.position, axis, motion[axis]);
            if moved != motion[axis] {
                if axis == 1 && motion[axis] < 0.0 {
                    self.on_ground = true;
                }
                self.velocity[axis] = 0.0;
            }
            self.position[axis] += moved;
        }
    }
}

fn bounds_at(position: Vec3) -> (Vec3, Vec3) {
    (
        position - Vec3::new(HALF_WIDTH, 0.0, HALF_WIDTH),
        position + Vec3::new(HALF_WIDTH, HEIGHT, HALF_WIDTH),
    )
}

/// How far the box at `position` can move by `distance` along `axis` before
/// touching a solid block.
fn sweep(world: &World, position: Vec3, axis: usize, distance: f32) -> f32 {
    if distance == 0.0 {
        return 0.0;
    }
    let (min, max) = bounds_at(position);
    // Blocks the moved box could touch: the box's cross-section, over the
    // range of cells the leading face passes through.
    let (lead, end) = if distance > 0.0 {
        (max[axis], max[axis] + distance)
    } else {
        (min[axis], min[axis] + distance)
    };
    let mut allowed = distance;
    let (others_lo, others_hi) = cross_section(min, max, axis);
    let first = lead.floor() as i32;
    let last = end.floor() as i32;
    let cells: Box<dyn Iterator<Item = i32>> = if distance > 0.0 {
        Box::new(first..=last)
    } else {
        Box::new((last..=first).rev())
    };
    for cell in cells {
        for a in others_lo[0]..=others_hi[0] {
            for b in others_lo[1]..=others_hi[1] {
                let block = compose(axis, cell, a, b);
                if !world.block(block).is_solid() {
                    continue;
                }
                let limit = if distance > 0.0 {
                    cell as f32 - max[axis] - SKIN
                } else {
                    cell as f32 + 1.0 - min[axis] + SKIN
                };
                if distance > 0.0 {
                    allowed = allowed.min(limit.max(0.0));
                } else {
                    allowed = allowed.max(limit.min(0.0));
                }
            }
        }
        if allowed != distance {
            break;
        }
    }
    allowed
}

/// The integer cell ranges the box covers on the two axes other than `axis`.
fn cross_section(min: Vec3, max: Vec3, axis: usize) -> ([i32; 2], [i32; 2]) {
    let others = match axis {
        0 => [1, 2],
        1 => [0, 2],
        _ => [0, 1],
    };
    let lo = others.map(|o| min[o].floor() as i32);
    // A box ending exactly on a boundary does not touch the next cell.
    let hi = others.map(|o| (max[o] - SKIN * 0.5).floor() as i32);
    (lo, hi)
}

fn compose(axis: usize, along: i32, a: i32, b: i32) -> IVec3 {
    match axis {
        0 => IVec3::new(along, a, b),
        1 => IVec3::new(a, along, b),
        _ => IVec3::new(a, b, along),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::BlockType;

    /// A stone floor at y = 100 (top face at 101) over a 9x9 area, high above the terrain.
    fn floor() -> World {
        let mut world = World::new(5);
        for x in -4..=4 {
            for z in -4..=4 {
                world
                    .set_block(IVec3::new(x, 100, z), BlockType::Stone)
                    .unwrap();
            }
        }
        world
    }

    #[test]
    fn falls_and_lands_on_the_floor() {
        let world = floor();
        let mut body = Body::at(Vec3::new(0.5, 105.0, 0.5));
        for _ in 0..120 {
            body.step(&world, MoveIntent::default(), 1.0 / 60.0);
        }
        assert!(body.on_ground);
        assert!(
            (body.position.y - 101.0).abs() < 0.01,
            "{}",
            body.position.y
        );
    }

    #[test]
    fn jumps_about_a_block_and_a_quarter() {
        let world = floor();
        let mut body = Body::at(Vec3::new(0.5, 101.0, 0.5));
        body.step(&world, MoveIntent::default(), 1.0 / 60.0);
        assert!(body.on_ground);
        let jump = MoveIntent {
            up: true,
            ..MoveIntent::default()
        };
        let mut peak: f32 = 0.0;
        for tick in 0..90 {
            body.step(
                &world,
                if tick == 0 {
                    jump
                } else {
                    MoveIntent::default()
                },
                1.0 / 60.0,
            );
            peak = peak.max(body.position.y - 101.0);
        }
        assert!((1.1..1.4).contains(&peak), "peak {peak}");
        assert!(body.on_ground);
    }

    #[test]
    fn walls_stop_walking() {
        let mut world = floor();
        for y in 101..104 {
            world
                .set_block(IVec3::new(3, y, 0), BlockType::Stone)
                .unwrap();
        }
        let mut body = Body::at(Vec3::new(0.5, 101.0, 0.5));
        let east = MoveIntent {
            wish: Vec3::X,
            ..MoveIntent::default()
        };
        for _ in 0..120 {
            body.step(&world, east, 1.0 / 60.0);
        }
        assert!(
            (body.position.x - (3.0 - HALF_WIDTH)).abs() < 0.01,
            "{}",
            body.position.x
        );
        assert!(!body.overlaps_block(IVec3::new(3, 101, 0)));
    }

    #[test]
    fn flying_ignores_gravity() {
        let world = floor();
        let mut body = Body::at(Vec3::new(0.5, 110.0, 0.5));
        body.flying = true;
        body.step(&world, MoveIntent::default(), 1.0 / 60.0);
        assert_eq!(body.position.y, 110.0);
        let up = MoveIntent {
            up: true,
            ..MoveIntent::default()
        };
        body.step(&world, up, 0.5);
        assert!((body.position.y - (110.0 + FLY_SPEED * 0.5)).abs() < 1e-3);
    }
}
