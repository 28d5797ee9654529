//! The player's body as the simulation last left it, and crafty's voxel
//! collision: every solid block is a unit box to the engine's
//! [`CharacterMotor`], which moves the player
//! ([`PlayerController`](taos_core::controllers::PlayerController)).

use glam::{IVec3, Vec3};
use taos_core::controllers::{Aabb, CharacterMotor, CollisionQuery, MotorSettings};

use crate::world::World;

/// Half the body's width (it is 0.6 blocks wide).
pub const HALF_WIDTH: f32 = 0.3;
/// Body height.
pub const HEIGHT: f32 = 1.8;
/// Body height while crouching.
pub const CROUCH_HEIGHT: f32 = 1.3;
/// Eye height above the feet.
pub const EYE_HEIGHT: f32 = 1.62;
/// Eye height above the feet while crouching.
pub const CROUCH_EYE_HEIGHT: f32 = 1.15;
/// Downward acceleration, blocks/s².
pub const GRAVITY: f32 = 28.0;
/// Upward speed of a jump (about 1.25 blocks high).
pub const JUMP_SPEED: f32 = 8.4;
/// Walking speed, blocks/s.
pub const WALK_SPEED: f32 = 4.3;
/// Sprinting speed.
pub const SPRINT_SPEED: f32 = 5.6;
/// Crouching speed.
pub const CROUCH_SPEED: f32 = 1.3;
/// Flying speed (sprinting doubles it).
pub const FLY_SPEED: f32 = 10.8;
/// Fastest fall.
const TERMINAL_SPEED: f32 = 60.0;

/// crafty's body for the engine's motor: the sizes and speeds above.
#[must_use]
pub fn motor_settings() -> MotorSettings {
    MotorSettings {
        half_width: HALF_WIDTH,
        height: HEIGHT,
        crouch_height: CROUCH_HEIGHT,
        eye_height: EYE_HEIGHT,
        crouch_eye_height: CROUCH_EYE_HEIGHT,
        walk_speed: WALK_SPEED,
        run_speed: SPRINT_SPEED,
        crouch_speed: CROUCH_SPEED,
        fly_speed: FLY_SPEED,
        jump_speed: JUMP_SPEED,
        gravity: GRAVITY,
        terminal_speed: TERMINAL_SPEED,
        ..MotorSettings::default()
    }
}

/// Where the player is and how it moves, as of the last tick (the player
/// object's controller owns the motion; the game keeps this copy for
/// targeting, saving, sounds and the state checksum).
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
    /// Crouching: lower and slower.
    pub crouching: bool,
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
            crouching: false,
        }
    }

    /// The body a motor has now.
    #[must_use]
    pub fn of_motor(motor: &CharacterMotor) -> Self {
        Self {
            position: motor.position,
            velocity: motor.velocity,
            on_ground: motor.on_ground,
            flying: motor.flying,
            crouching: motor.crouching,
        }
    }

    /// A motor in this body's state, with crafty's [`motor_settings`].
    #[must_use]
    pub fn motor(&self) -> CharacterMotor {
        let mut motor = CharacterMotor::new(self.position, motor_settings());
        motor.velocity = self.velocity;
        motor.on_ground = self.on_ground;
        motor.flying = self.flying;
        motor.crouching = self.crouching;
        motor
    }

    /// Eye height above the feet now.
    #[must_use]
    pub fn eye_height(&self) -> f32 {
        if self.crouching {
            CROUCH_EYE_HEIGHT
        } else {
            EYE_HEIGHT
        }
    }

    /// The eye position.
    #[must_use]
    pub fn eye(&self) -> Vec3 {
        self.position + Vec3::Y * self.eye_height()
    }

    /// The box's min and max corners.
    #[must_use]
    pub fn bounds(&self) -> (Vec3, Vec3) {
        let height = if self.crouching {
            CROUCH_HEIGHT
        } else {
            HEIGHT
        };
        (
            self.position - Vec3::new(HALF_WIDTH, 0.0, HALF_WIDTH),
            self.position + Vec3::new(HALF_WIDTH, height, HALF_WIDTH),
        )
    }

    /// True when the body's box overlaps block `block`.
    #[must_use]
    pub fn overlaps_block(&self, block: IVec3) -> bool {
        let (min, max) = self.bounds();
        let (bmin, bmax) = (block.as_vec3(), block.as_vec3() + Vec3::ONE);
        min.cmplt(bmax).all() && max.cmpgt(bmin).all()
    }
}

/// crafty's voxel collision: every solid block the region touches, as a unit box.
impl CollisionQuery for World {
    fn solids(&self, region: Aabb, out: &mut Vec<Aabb>) {
        if !region.min.is_finite() || !region.max.is_finite() {
            return;
        }
        let lo = region.min.floor().as_ivec3();
        // A body's step never spans this much; a bigger region is a caller's bug.
        let hi = region.max.floor().as_ivec3().min(lo + IVec3::splat(256));
        for x in lo.x..=hi.x {
            for y in lo.y..=hi.y {
                for z in lo.z..=hi.z {
                    let block = IVec3::new(x, y, z);
                    if self.block(block).is_solid() {
                        out.push(Aabb::unit_cube(block.as_vec3()));
                    }
                }
            }
        }
    }

    /// Water is the one fluid: the body swims in it.
    fn is_fluid(&self, point: Vec3) -> bool {
        point.is_finite() && self.block(point.floor().as_ivec3()) == crate::world::BlockType::Water
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::BlockType;
    use taos_core::controllers::MoveIntent;

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
        let mut body = Body::at(Vec3::new(0.5, 105.0, 0.5)).motor();
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
        let mut body = Body::at(Vec3::new(0.5, 101.0, 0.5)).motor();
        body.step(&world, MoveIntent::default(), 1.0 / 60.0);
        assert!(body.on_ground);
        let jump = MoveIntent {
            jump: true,
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
        let mut body = Body::at(Vec3::new(0.5, 101.0, 0.5)).motor();
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
        assert!(!Body::of_motor(&body).overlaps_block(IVec3::new(3, 101, 0)));
    }

    /// [`floor`] walled in and filled with water 5 blocks deep (y 101 to 105).
    fn pool() -> World {
        let mut world = floor();
        for x in -4..=4 {
            for z in -4..=4 {
                for y in 101..=106 {
                    let wall = i32::abs(x) == 4 || i32::abs(z) == 4;
                    let block = match (wall, y) {
                        (true, _) => BlockType::Stone,
                        (false, 106) => BlockType::Air,
                        (false, _) => BlockType::Water,
                    };
                    world.set_block(IVec3::new(x, y, z), block).unwrap();
                }
            }
        }
        world
    }

    #[test]
    fn water_holds_the_player_up_and_a_bank_can_be_climbed() {
        let world = pool();
        let mut body = Body::at(Vec3::new(0.5, 108.0, 0.5)).motor();
        for _ in 0..600 {
            body.step(&world, MoveIntent::default(), 1.0 / 60.0);
            assert!(!body.on_ground, "sank to the bottom at {}", body.position);
        }
        assert!(
            (Body::of_motor(&body).eye().y - 106.0).abs() < 0.3,
            "{}",
            body.position
        );
        let ashore = MoveIntent {
            wish: Vec3::X,
            jump: true,
            ..MoveIntent::default()
        };
        // The wall is one block wide: stop once standing on it.
        let mut ticks = 0;
        while !(body.on_ground && body.position.y >= 107.0) {
            body.step(&world, ashore, 1.0 / 60.0);
            ticks += 1;
            assert!(ticks < 240, "still in the water at {}", body.position);
        }
        assert!(body.position.x > 4.0, "{}", body.position);
        body.step(&world, MoveIntent::default(), 1.0 / 60.0);
        assert_eq!(body.submerged, 0.0);
    }

    #[test]
    fn flying_ignores_gravity() {
        let world = floor();
        let mut body = Body::at(Vec3::new(0.5, 110.0, 0.5)).motor();
        body.flying = true;
        body.step(&world, MoveIntent::default(), 1.0 / 60.0);
        assert_eq!(body.position.y, 110.0);
        let up = MoveIntent {
            jump: true,
            ..MoveIntent::default()
        };
        body.step(&world, up, 0.5);
        assert!((body.position.y - (110.0 + FLY_SPEED * 0.5)).abs() < 1e-3);
    }

    #[test]
    fn crouching_walks_slowly_with_the_eye_lower() {
        let world = floor();
        let mut body = Body::at(Vec3::new(0.5, 101.0, 0.5)).motor();
        body.step(&world, MoveIntent::default(), 1.0 / 60.0);
        let crouch_east = MoveIntent {
            wish: Vec3::X,
            crouch: true,
            ..MoveIntent::default()
        };
        for _ in 0..60 {
            body.step(&world, crouch_east, 1.0 / 60.0);
        }
        let walked = body.position.x - 0.5;
        assert!((walked - CROUCH_SPEED).abs() < 0.05, "{walked}");
        let crouched = Body::of_motor(&body);
        assert!(crouched.crouching);
        assert_eq!(crouched.eye().y, 101.0 + CROUCH_EYE_HEIGHT);
        body.step(&world, MoveIntent::default(), 1.0 / 60.0);
        assert!(!body.crouching, "stands up in the open");
    }

    #[test]
    fn a_fall_at_terminal_speed_lands_on_a_one_block_floor() {
        let mut world = World::new(5);
        let top = world.terrain().surface_height(0, 0) + 20;
        world
            .set_block(IVec3::new(0, top, 0), BlockType::Stone)
            .unwrap();
        let mut body = Body::at(Vec3::new(0.5, top as f32 + 100.0, 0.5)).motor();
        body.velocity.y = -TERMINAL_SPEED;
        // One coarse step moves 6 blocks: the whole path is checked.
        for _ in 0..40 {
            body.step(&world, MoveIntent::default(), 0.1);
        }
        assert!(body.on_ground);
        let floor = top as f32 + 1.0;
        assert!(
            (body.position.y - floor).abs() < 0.01,
            "{}",
            body.position.y
        );
    }
}
