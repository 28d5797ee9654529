//! A kinematic character that walks, runs, crouches, jumps, falls, swims
//! and flies. In a world of real shapes (a physics world) it is an upright
//! capsule that climbs slopes and steps, snaps to the ground on the way
//! down and slides along walls; in a world of boxes it is a box that never
//! enters a solid box however fast it moves, with no slopes or steps.

use glam::Vec3;

use super::swim::{Stroke, swim_velocity};
use super::{
    Aabb, CharacterMoved, CharacterSweep, CharacterTouch, CollisionQuery, SwimSettings, submersion,
};
use crate::GameObject;

/// The body's size and how it moves (metres, seconds). The defaults are a
/// human in a voxel world: 0.6 m wide, 1.8 m tall, a jump of about 1.25 m.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MotorSettings {
    /// Half the body's width (its footprint is square).
    pub half_width: f32,
    /// Standing height.
    pub height: f32,
    /// Crouching height.
    pub crouch_height: f32,
    /// Eye height above the feet when standing.
    pub eye_height: f32,
    /// Eye height when crouching.
    pub crouch_eye_height: f32,
    /// Walking speed.
    pub walk_speed: f32,
    /// Running speed.
    pub run_speed: f32,
    /// Crouching speed.
    pub crouch_speed: f32,
    /// Flying speed (running doubles it).
    pub fly_speed: f32,
    /// Upward speed a jump starts with.
    pub jump_speed: f32,
    /// Downward acceleration.
    pub gravity: f32,
    /// The fastest fall.
    pub terminal_speed: f32,
    /// The steepest floor it walks up, radians from level (default 45
    /// degrees); steeper slopes stop it and it slides down them. Needs a
    /// world of real shapes ([`CollisionQuery::move_character`]).
    pub max_slope: f32,
    /// The highest ledge it walks onto without jumping, metres (default
    /// 0.35); 0 turns stepping off. Needs a world of real shapes.
    pub step_height: f32,
    /// How far down it is pulled to stay on the ground walking down steps
    /// and slopes, metres (default 0.4); 0 lets it leave the ground at every
    /// edge. Needs a world of real shapes.
    pub snap_distance: f32,
}

impl Default for MotorSettings {
    fn default() -> Self {
        Self {
            half_width: 0.3,
            height: 1.8,
            crouch_height: 1.3,
            eye_height: 1.62,
            crouch_eye_height: 1.15,
            walk_speed: 4.3,
            run_speed: 5.6,
            crouch_speed: 1.3,
            fly_speed: 10.8,
            jump_speed: 8.4,
            gravity: 28.0,
            terminal_speed: 60.0,
            max_slope: std::f32::consts::FRAC_PI_4,
            step_height: 0.35,
            snap_distance: 0.4,
        }
    }
}

/// One step's intent.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct MoveIntent {
    /// Desired horizontal direction in world space (y is ignored; longer than
    /// 1 is shortened).
    pub wish: Vec3,
    /// Jump (on the ground), or rise when flying.
    pub jump: bool,
    /// Run.
    pub run: bool,
    /// Crouch, or sink when flying.
    pub crouch: bool,
}

/// Keeps the box this far off faces it touches, so a step never starts inside one.
const SKIN: f32 = 1e-3;

/// The character's state: feet position (bottom centre of its body),
/// velocity, ground contact, flying, crouching and swimming.
/// [`step`](Self::step) advances it.
///
/// Each step asks the world to move it
/// ([`CollisionQuery::move_character`]): a physics world moves an upright
/// capsule (radius [`half_width`](MotorSettings::half_width), the current
/// height) with rapier's kinematic character controller, so it climbs
/// slopes up to [`max_slope`](MotorSettings::max_slope) and ledges up to
/// [`step_height`](MotorSettings::step_height), snaps down to the ground
/// and collides with every collider shape. A world of boxes (a voxel world,
/// a [`BoxWorld`](super::BoxWorld)) declines, and the motor sweeps its box
/// axis by axis instead: no slopes and no steps there (a ramp is a wall).
#[derive(Debug, Clone, PartialEq)]
pub struct CharacterMotor {
    /// Feet position.
    pub position: Vec3,
    /// Velocity, metres per second.
    pub velocity: Vec3,
    /// Standing on something (set by the last step).
    pub on_ground: bool,
    /// Flying: no gravity, vertical control.
    pub flying: bool,
    /// Crouching: lower, slower (stays crouched under a low ceiling).
    pub crouching: bool,
    /// Size and speeds.
    pub settings: MotorSettings,
    /// How it swims where the world reports fluid
    /// ([`CollisionQuery::is_fluid`]).
    pub swim: SwimSettings,
    /// How much of the body was in fluid at the start of the last step, 0 to
    /// 1 ([`submersion`]); above 0 it swam.
    pub submerged: f32,
    /// The object it moves, set by its controller: that object's own
    /// colliders are not obstacles in a physics world.
    pub object: Option<GameObject>,
    against_wall: bool,
    intended: Vec3,
    moved: CharacterMoved,
    scratch: Vec<Aabb>,
}

impl CharacterMotor {
    /// A character standing at `feet` with `settings`.
    #[must_use]
    pub fn new(feet: Vec3, settings: MotorSettings) -> Self {
        Self {
            position: if feet.is_finite() { feet } else { Vec3::ZERO },
            velocity: Vec3::ZERO,
            on_ground: false,
            flying: false,
            crouching: false,
            settings,
            swim: SwimSettings::default(),
            submerged: 0.0,
            object: None,
            against_wall: false,
            intended: Vec3::ZERO,
            moved: CharacterMoved::default(),
            scratch: Vec::new(),
        }
    }

    /// The current height (standing or crouching).
    #[must_use]
    pub fn height(&self) -> f32 {
        if self.crouching {
            self.settings.crouch_height
        } else {
            self.settings.height
        }
    }

    /// The eye height above the feet now.
    #[must_use]
    pub fn eye_height(&self) -> f32 {
        if self.crouching {
            self.settings.crouch_eye_height
        } else {
            self.settings.eye_height
        }
    }

    /// The body's box at `feet` with `height`.
    #[must_use]
    fn box_at(&self, feet: Vec3, height: f32) -> Aabb {
        let w = self.settings.half_width;
        Aabb {
            min: feet - Vec3::new(w, 0.0, w),
            max: feet + Vec3::new(w, height, w),
        }
    }

    /// True when the last step's horizontal motion stopped at a solid face
    /// (walking into a wall, or into a body a game pushes).
    #[must_use]
    pub fn against_wall(&self) -> bool {
        self.against_wall
    }

    /// The horizontal velocity the last step asked for: the direction and
    /// speed the player wants, before walls and crates cut it short (walking
    /// into a crate it is the walking speed while [`velocity`](Self::velocity)
    /// is near 0). Drive animation with it.
    #[must_use]
    pub fn intended_velocity(&self) -> Vec3 {
        self.intended
    }

    /// The length of [`intended_velocity`](Self::intended_velocity).
    #[must_use]
    pub fn intended_speed(&self) -> f32 {
        self.intended.length()
    }

    /// What the last step hit, when a world of real shapes moved it (empty
    /// in a world of boxes): each obstacle and its face's normal. A
    /// controller pushes the dynamic bodies among them.
    #[must_use]
    pub fn touched(&self) -> &[CharacterTouch] {
        &self.moved.touched
    }

    /// True when the last step was sliding down a slope too steep to stand on.
    #[must_use]
    pub fn sliding(&self) -> bool {
        self.moved.sliding
    }

    /// The body's box now.
    #[must_use]
    pub fn bounds(&self) -> Aabb {
        self.box_at(self.position, self.height())
    }

    /// Advances `dt` seconds with `intent`, moving axis by axis (vertical
    /// first, so landing and ledges behave) and stopping at the first solid
    /// face on each axis. The whole step's path is checked, so no speed
    /// passes through a wall. A non-finite or non-positive `dt` does nothing.
    pub fn step(&mut self, world: &dyn CollisionQuery, intent: MoveIntent, dt: f32) {
        if !dt.is_finite() || dt <= 0.0 {
            return;
        }
        let s = self.settings;
        let wish = Vec3::new(intent.wish.x, 0.0, intent.wish.z);
        let wish = if wish.is_finite() {
            wish.clamp_length_max(1.0)
        } else {
            Vec3::ZERO
        };
        self.submerged = if self.flying {
            0.0
        } else {
            submersion(world, &self.bounds())
        };
        let swimming = self.submerged > 0.0;
        // In water, crouch dives instead.
        self.update_crouch(world, intent.crouch && !self.flying && !swimming);
        if self.flying {
            let vertical = f32::from(u8::from(intent.jump)) - f32::from(u8::from(intent.crouch));
            let speed = if intent.run {
                s.fly_speed * 2.0
            } else {
                s.fly_speed
            };
            self.velocity = (wish + Vec3::Y * vertical) * speed;
            self.intended = wish * speed;
        } else if swimming {
            let stroke = Stroke {
                wish,
                jump: intent.jump,
                run: intent.run,
                crouch: intent.crouch,
                on_ground: self.on_ground,
                against_wall: self.against_wall,
            };
            self.velocity = swim_velocity(
                self.velocity,
                stroke,
                self.submerged,
                &self.swim,
                s.gravity,
                s.jump_speed,
                dt,
            );
            self.velocity.y = self.velocity.y.max(-s.terminal_speed);
            self.intended = wish * self.swim.speed;
        } else {
            let speed = if self.crouching {
                s.crouch_speed
            } else if intent.run {
                s.run_speed
            } else {
                s.walk_speed
            };
            self.velocity.x = wish.x * speed;
            self.velocity.z = wish.z * speed;
            self.intended = wish * speed;
            if intent.jump && self.on_ground && !self.crouching {
                self.velocity.y = s.jump_speed;
            }
            self.velocity.y = (self.velocity.y - s.gravity * dt).max(-s.terminal_speed);
        }
        if !self.velocity.is_finite() {
            self.velocity = Vec3::ZERO;
        }
        let motion = self.velocity * dt;
        // Standing on the ground, gravity's pull is the snap's job: pressing
        // into the floor every step would sink the capsule into it.
        let mut wanted = motion;
        if self.on_ground && !self.flying && wanted.y < 0.0 {
            wanted.y = 0.0;
        }
        let sweep = CharacterSweep {
            object: self.object,
            feet: self.position,
            radius: s.half_width,
            height: self.height(),
            motion: wanted,
            dt,
            max_slope: s.max_slope,
            step_height: if self.flying { 0.0 } else { s.step_height },
            snap_distance: if self.flying || swimming || self.velocity.y > 0.0 {
                0.0
            } else {
                s.snap_distance
            },
        };
        self.moved.clear();
        if world.move_character(&sweep, &mut self.moved) {
            self.apply_moved(dt);
            return;
        }
        self.moved.clear();
        let body = self.bounds();
        let region = body.union(&body.translated(motion));
        let mut solids = std::mem::take(&mut self.scratch);
        solids.clear();
        world.solids(region, &mut solids);
        self.on_ground = false;
        self.against_wall = false;
        for axis in [1, 0, 2] {
            let moved = sweep_axis(&self.bounds(), axis, motion[axis], &solids);
            if moved != motion[axis] {
                if axis == 1 && motion[axis] < 0.0 {
                    self.on_ground = true;
                }
                if axis != 1 {
                    self.against_wall = true;
                }
                self.velocity[axis] = 0.0;
            }
            self.position[axis] += moved;
        }
        self.scratch = solids;
    }

    /// Takes a world's move (from [`CollisionQuery::move_character`]):
    /// ground, walls and ceilings stop the velocity that ran into them.
    fn apply_moved(&mut self, dt: f32) {
        let translation = self.moved.translation;
        if !translation.is_finite() {
            self.moved.clear();
            self.velocity = Vec3::ZERO;
            return;
        }
        self.position += translation;
        self.on_ground = self.moved.grounded && self.velocity.y <= 0.0;
        if self.on_ground {
            self.velocity.y = 0.0;
        }
        let touched = &self.moved.touched;
        if self.velocity.y > 0.0 && touched.iter().any(|t| t.normal.y < -0.5) {
            self.velocity.y = 0.0;
        }
        self.against_wall = touched.iter().any(|t| t.normal.y.abs() < 0.5);
        if self.against_wall {
            // What it actually covered along the ground.
            self.velocity.x = translation.x / dt;
            self.velocity.z = translation.z / dt;
        }
    }

    /// Crouches when asked; stands back up only where there is headroom.
    fn update_crouch(&mut self, world: &dyn CollisionQuery, want: bool) {
        if want {
            self.crouching = true;
            return;
        }
        if self.crouching {
            let s = self.settings;
            if let Some(fits) =
                world.capsule_fits(self.object, self.position, s.half_width, s.height)
            {
                self.crouching = !fits;
                return;
            }
            let standing = self.box_at(self.position, self.settings.height);
            self.scratch.clear();
            world.solids(standing, &mut self.scratch);
            if !self.scratch.iter().any(|b| b.overlaps(&standing)) {
                self.crouching = false;
            }
        }
    }
}

/// How far `body` can move by `delta` along `axis` before touching a solid
/// face (keeping [`SKIN`] off it). Boxes the body already overlaps are
/// ignored, so a body inside a block can walk out.
fn sweep_axis(body: &Aabb, axis: usize, delta: f32, solids: &[Aabb]) -> f32 {
    if delta == 0.0 {
        return 0.0;
    }
    let (a, b) = ((axis + 1) % 3, (axis + 2) % 3);
    let mut allowed = delta;
    for solid in solids {
        let beside = body.min[a] < solid.max[a]
            && body.max[a] > solid.min[a]
            && body.min[b] < solid.max[b]
            && body.max[b] > solid.min[b];
        if !beside {
            continue;
        }
        if allowed > 0.0 && solid.min[axis] >= body.max[axis] - SKIN * 0.5 {
            allowed = allowed.min((solid.min[axis] - body.max[axis] - SKIN).max(0.0));
        } else if allowed < 0.0 && solid.max[axis] <= body.min[axis] + SKIN * 0.5 {
            allowed = allowed.max((solid.max[axis] - body.min[axis] + SKIN).min(0.0));
        }
    }
    allowed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::controllers::BoxWorld;

    fn floor() -> BoxWorld {
        BoxWorld(vec![Aabb::new(
            Vec3::new(-50.0, -1.0, -50.0),
            Vec3::new(50.0, 0.0, 50.0),
        )])
    }

    #[test]
    fn falls_and_lands_on_the_floor() {
        let world = floor();
        let mut motor = CharacterMotor::new(Vec3::new(0.0, 3.0, 0.0), MotorSettings::default());
        for _ in 0..120 {
            motor.step(&world, MoveIntent::default(), 1.0 / 60.0);
        }
        assert!(motor.on_ground);
        assert!(
            motor.position.y >= 0.0 && motor.position.y < 0.01,
            "{}",
            motor.position.y
        );
    }

    #[test]
    fn a_jump_rises_as_high_as_the_settings_say() {
        let world = floor();
        let s = MotorSettings::default();
        let mut motor = CharacterMotor::new(Vec3::new(0.0, 0.0, 0.0), s);
        motor.step(&world, MoveIntent::default(), 1.0 / 120.0);
        let jump = MoveIntent {
            jump: true,
            ..MoveIntent::default()
        };
        let mut peak = 0.0f32;
        for _ in 0..240 {
            motor.step(&world, jump, 1.0 / 120.0);
            peak = peak.max(motor.position.y);
            if motor.velocity.y < 0.0 {
                break;
            }
        }
        let expected = s.jump_speed * s.jump_speed / (2.0 * s.gravity);
        assert!(
            (peak - expected).abs() < 0.05 * expected,
            "{peak} vs {expected}"
        );
    }

    #[test]
    fn cannot_stand_up_under_a_low_ceiling() {
        let mut world = floor();
        world.0.push(Aabb::new(
            Vec3::new(-2.0, 1.5, -2.0),
            Vec3::new(2.0, 2.5, 2.0),
        ));
        let mut motor = CharacterMotor::new(Vec3::ZERO, MotorSettings::default());
        let crouch = MoveIntent {
            crouch: true,
            ..MoveIntent::default()
        };
        motor.step(&world, crouch, 1.0 / 60.0);
        assert!(motor.crouching);
        motor.step(&world, MoveIntent::default(), 1.0 / 60.0);
        assert!(motor.crouching, "no headroom");
        motor.position.x = 5.0;
        motor.step(&world, MoveIntent::default(), 1.0 / 60.0);
        assert!(!motor.crouching, "stands up in the open");
    }

    /// A pool: a floor at y = 0, water up to y = `depth` for |x| < 4, and a
    /// bank (solid up to y = `depth` + 1) beyond x = 4.
    struct Pool {
        boxes: BoxWorld,
        depth: f32,
    }

    impl CollisionQuery for Pool {
        fn solids(&self, region: Aabb, out: &mut Vec<Aabb>) {
            self.boxes.solids(region, out);
        }
        fn is_fluid(&self, p: Vec3) -> bool {
            p.x.abs() < 4.0 && p.y >= 0.0 && p.y < self.depth
        }
    }

    fn pool(depth: f32) -> Pool {
        let mut boxes = floor();
        boxes.0.push(Aabb::new(
            Vec3::new(4.0, 0.0, -50.0),
            Vec3::new(50.0, depth + 1.0, 50.0),
        ));
        Pool { boxes, depth }
    }

    #[test]
    fn a_still_swimmer_floats_with_its_eyes_at_the_surface() {
        let water = pool(6.0);
        let mut motor = CharacterMotor::new(Vec3::new(0.0, 8.0, 0.0), MotorSettings::default());
        let mut lowest = f32::MAX;
        for _ in 0..600 {
            motor.step(&water, MoveIntent::default(), 1.0 / 60.0);
            lowest = lowest.min(motor.position.y);
        }
        assert!(lowest > 1.0, "sank to {lowest}: it walks on the bottom");
        assert!(!motor.on_ground);
        let eye = motor.position.y + motor.eye_height();
        assert!((eye - 6.0).abs() < 0.3, "eye at {eye}, surface at 6");
        assert!(motor.submerged > 0.5 && motor.submerged < 1.0);
    }

    #[test]
    fn swimming_is_slower_than_walking_and_dives_and_rises() {
        let water = pool(6.0);
        let s = MotorSettings::default();
        let mut motor = CharacterMotor::new(Vec3::new(-3.0, 2.0, 0.0), s);
        let east = MoveIntent {
            wish: Vec3::X,
            ..MoveIntent::default()
        };
        motor.step(&water, east, 1.0 / 60.0);
        assert!(motor.submerged > 0.0);
        assert!((motor.velocity.x - motor.swim.speed).abs() < 1e-5);
        assert!(motor.swim.speed < s.walk_speed);
        let dive = MoveIntent {
            crouch: true,
            ..MoveIntent::default()
        };
        for _ in 0..120 {
            motor.step(&water, dive, 1.0 / 60.0);
        }
        assert!(motor.on_ground, "dived to the bottom");
        assert!(!motor.crouching, "crouch dives in water");
        let rise = MoveIntent {
            jump: true,
            ..MoveIntent::default()
        };
        for _ in 0..180 {
            motor.step(&water, rise, 1.0 / 60.0);
        }
        assert!(
            motor.position.y + motor.eye_height() > 6.0,
            "back at the surface"
        );
    }

    #[test]
    fn swimming_into_the_bank_with_jump_climbs_out() {
        let water = pool(6.0);
        let mut motor = CharacterMotor::new(Vec3::new(0.0, 4.0, 0.0), MotorSettings::default());
        let ashore = MoveIntent {
            wish: Vec3::X,
            jump: true,
            ..MoveIntent::default()
        };
        for _ in 0..240 {
            motor.step(&water, ashore, 1.0 / 60.0);
        }
        for _ in 0..60 {
            motor.step(&water, MoveIntent::default(), 1.0 / 60.0);
        }
        assert!(
            motor.position.x > 4.5,
            "still in the water at {}",
            motor.position
        );
        assert!((motor.position.y - 7.0).abs() < 0.01, "{}", motor.position);
        assert_eq!(motor.submerged, 0.0);
    }

    #[test]
    fn a_fall_into_deep_water_is_slowed_before_the_bottom() {
        let water = pool(20.0);
        let mut motor = CharacterMotor::new(Vec3::new(0.0, 60.0, 0.0), MotorSettings::default());
        let mut landed_at = None;
        for tick in 0..600 {
            motor.step(&water, MoveIntent::default(), 1.0 / 60.0);
            if motor.on_ground {
                landed_at = Some(tick);
                break;
            }
        }
        assert_eq!(landed_at, None, "hit the bottom of 20 blocks of water");
    }

    #[test]
    fn bad_numbers_do_not_move_it() {
        let world = floor();
        let mut motor = CharacterMotor::new(Vec3::ZERO, MotorSettings::default());
        let before = motor.position;
        motor.step(&world, MoveIntent::default(), f32::NAN);
        motor.step(
            &world,
            MoveIntent {
                wish: Vec3::NAN,
                ..MoveIntent::default()
            },
            1.0 / 60.0,
        );
        assert!(motor.position.is_finite());
        assert_eq!(motor.position.x, before.x);
    }
}
