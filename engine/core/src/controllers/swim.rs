//! Swimming: how deep a body is in fluid, and how that moves it. Buoyancy
//! holds a still swimmer with its eyes at the surface; drag slows every
//! vertical motion; jump rises, crouch dives; swimming against a bank near
//! the surface climbs out.
//!
//! ```
//! use taos_core::controllers::{Aabb, CharacterMotor, CollisionQuery, MotorSettings, MoveIntent};
//! use glam::Vec3;
//!
//! /// A floor at y = 0 under 6 m of water.
//! struct Pool;
//! impl CollisionQuery for Pool {
//!     fn solids(&self, region: Aabb, out: &mut Vec<Aabb>) {
//!         let floor = Aabb::new(Vec3::new(-50.0, -1.0, -50.0), Vec3::new(50.0, 0.0, 50.0));
//!         if floor.overlaps(&region) {
//!             out.push(floor);
//!         }
//!     }
//!     fn is_fluid(&self, point: Vec3) -> bool {
//!         (0.0..6.0).contains(&point.y)
//!     }
//! }
//!
//! let mut swimmer = CharacterMotor::new(Vec3::new(0.0, 8.0, 0.0), MotorSettings::default());
//! for _ in 0..600 {
//!     swimmer.step(&Pool, MoveIntent::default(), 1.0 / 60.0);
//! }
//! assert!(!swimmer.on_ground, "it floats");
//! assert!((swimmer.position.y + swimmer.eye_height() - 6.0).abs() < 0.3);
//! ```

use glam::Vec3;

use super::{Aabb, CollisionQuery};

/// How a [`CharacterMotor`](super::CharacterMotor) moves in fluid (metres,
/// seconds). The defaults suit the default human body: slower than walking,
/// floating with about a fifth of the body above the surface.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SwimSettings {
    /// Horizontal swimming speed.
    pub speed: f32,
    /// Horizontal speed while running.
    pub run_speed: f32,
    /// Upward speed while jump is held.
    pub rise_speed: f32,
    /// Downward speed while crouch is held.
    pub dive_speed: f32,
    /// The fraction of the body's height under the surface where buoyancy
    /// balances gravity (below 1: a still swimmer floats).
    pub float_depth: f32,
    /// How fast vertical motion dies away, per second.
    pub drag: f32,
}

impl Default for SwimSettings {
    fn default() -> Self {
        Self {
            speed: 2.2,
            run_speed: 3.2,
            rise_speed: 3.0,
            dive_speed: 3.0,
            float_depth: 0.8,
            drag: 4.0,
        }
    }
}

/// Points sampled up the body's centre line to measure how deep it is.
const DEPTH_SAMPLES: u32 = 16;

/// How much of `body`'s height is in fluid, 0 (dry) to 1 (under), sampled
/// up its centre line.
#[must_use]
pub fn submersion(world: &dyn CollisionQuery, body: &Aabb) -> f32 {
    let centre = (body.min + body.max) * 0.5;
    let height = body.max.y - body.min.y;
    if !centre.is_finite() || !height.is_finite() || height <= 0.0 {
        return 0.0;
    }
    let wet = (0..DEPTH_SAMPLES)
        .filter(|&i| {
            let y = body.min.y + (i as f32 + 0.5) / DEPTH_SAMPLES as f32 * height;
            world.is_fluid(Vec3::new(centre.x, y, centre.z))
        })
        .count();
    wet as f32 / DEPTH_SAMPLES as f32
}

/// What a swimmer asks for this step.
#[derive(Debug, Clone, Copy)]
pub(super) struct Stroke {
    /// Horizontal direction, at most unit length.
    pub wish: Vec3,
    pub jump: bool,
    pub run: bool,
    pub crouch: bool,
    /// Standing on the bottom.
    pub on_ground: bool,
    /// The last step ran into a wall.
    pub against_wall: bool,
}

/// The swimmer's velocity after `dt` seconds at `depth` (see [`submersion`]):
/// horizontal at swimming speed; vertical pushed by gravity and buoyancy,
/// slowed by drag, then overridden by a rise, a dive, a jump off the bottom
/// or a climb out over a bank.
pub(super) fn swim_velocity(
    velocity: Vec3,
    stroke: Stroke,
    depth: f32,
    swim: &SwimSettings,
    gravity: f32,
    jump_speed: f32,
    dt: f32,
) -> Vec3 {
    let speed = if stroke.run {
        swim.run_speed
    } else {
        swim.speed
    };
    let float_depth = if swim.float_depth.is_finite() && swim.float_depth > 0.0 {
        swim.float_depth
    } else {
        1.0
    };
    let lift = gravity * (depth / float_depth - 1.0);
    let mut vertical = (velocity.y + lift * dt) * (-swim.drag.max(0.0) * dt).exp();
    if stroke.jump {
        let climbing_out = stroke.against_wall && depth < 0.6;
        vertical = if (stroke.on_ground || climbing_out) && !stroke.crouch {
            vertical.max(jump_speed)
        } else {
            vertical.max(swim.rise_speed)
        };
    }
    if stroke.crouch {
        vertical = vertical.min(-swim.dive_speed);
    }
    Vec3::new(stroke.wish.x * speed, vertical, stroke.wish.z * speed)
}
