//! The player: a body with collision, the view (yaw and pitch), targeting,
//! breaking and placing, and what it carries.

mod actions;
mod body;
mod controls;
mod raycast;

pub use crate::inventory::{
    GameMode, HOTBAR_SLOTS, Hotbar, Inventory, inventory_state, restore_inventory,
};
pub use body::{
    Body, EYE_HEIGHT, FLY_SPEED, GRAVITY, HALF_WIDTH, HEIGHT, JUMP_SPEED, MoveIntent, SPRINT_SPEED,
    WALK_SPEED,
};
pub use controls::{CraftyAction, CraftyMapper, default_bindings, touch_layout};
pub use raycast::{RayHit, raycast};

pub use actions::{
    ActionFlagsExt, Buttons, Movement, Pitch, PlayerActions, Yaw, quantize_yaw, yaw_radians,
};
use glam::{IVec3, Vec3};

use crate::world::{BlockType, ChunkPos, World};

/// How far the player reaches to break or place, in blocks.
pub const REACH: f32 = 5.0;
/// Keyboard turning speed, radians per tick.
const TURN_PER_TICK: f32 = 0.05;
/// How far up or down the player can look.
const PITCH_LIMIT: f32 = 1.55;

/// The player: body, view, mode and belongings.
#[derive(Debug, Clone, PartialEq)]
pub struct Player {
    /// Position, velocity, ground contact, flying.
    pub body: Body,
    /// Heading in radians; 0 looks down -z, increasing turns left (towards -x).
    pub yaw: f32,
    /// Radians above the horizon, within ±1.55.
    pub pitch: f32,
    /// Creative or survival.
    pub mode: GameMode,
    /// Survival: what was gathered.
    pub inventory: Inventory,
    /// The hotbar.
    pub hotbar: Hotbar,
}

/// What one tick of play changed in the world.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TickOutcome {
    /// Chunks whose meshes the tick's edits changed.
    pub dirty_chunks: Vec<ChunkPos>,
    /// Blocks broken this tick.
    pub broken: Option<IVec3>,
    /// Blocks placed this tick.
    pub placed: Option<IVec3>,
}

impl Player {
    /// A player standing at `position` in `mode` (creative gets the full bar).
    #[must_use]
    pub fn new(position: Vec3, yaw: f32, pitch: f32, mode: GameMode) -> Self {
        Self {
            body: Body::at(position),
            yaw: if yaw.is_finite() {
                yaw.rem_euclid(std::f32::consts::TAU)
            } else {
                0.0
            },
            pitch: if pitch.is_finite() {
                pitch.clamp(-PITCH_LIMIT, PITCH_LIMIT)
            } else {
                0.0
            },
            mode,
            inventory: Inventory::default(),
            hotbar: match mode {
                GameMode::Creative => Hotbar::creative(),
                GameMode::Survival => Hotbar::empty(),
            },
        }
    }

    /// The unit view direction.
    #[must_use]
    pub fn look_direction(&self) -> Vec3 {
        let (sy, cy) = self.yaw.sin_cos();
        let (sp, cp) = self.pitch.sin_cos();
        Vec3::new(-sy * cp, sp, -cy * cp)
    }

    /// Turns the view by mouse motion (radians); non-finite input is ignored.
    pub fn look(&mut self, yaw_delta: f32, pitch_delta: f32) {
        if yaw_delta.is_finite() && pitch_delta.is_finite() {
            self.yaw = (self.yaw + yaw_delta).rem_euclid(std::f32::consts::TAU);
            self.pitch = (self.pitch + pitch_delta).clamp(-PITCH_LIMIT, PITCH_LIMIT);
        }
    }

    /// The block the player looks at, within reach.
    #[must_use]
    pub fn target(&self, world: &World) -> Option<RayHit> {
        raycast(world, self.body.eye(), self.look_direction(), REACH)
    }

    /// One tick: look, move, then break or place on button edges.
    /// `previous` is the last tick's actions (for edges).
    pub fn tick(
        &mut self,
        world: &mut World,
        now: &PlayerActions,
        previous: &PlayerActions,
        dt: f32,
    ) -> TickOutcome {
        self.turn(now);
        let buttons = now.buttons;
        let before = previous.buttons;
        if buttons.toggle_map && self.mode == GameMode::Creative {
            self.body.flying = !self.body.flying;
        }
        if self.mode == GameMode::Survival {
            self.body.flying = false;
        }
        if buttons.next_weapon {
            self.hotbar.scroll(1);
        }
        if buttons.previous_weapon {
            self.hotbar.scroll(-1);
        }
        self.body.step(world, self.intent(now), dt);

        let mut outcome = TickOutcome::default();
        if buttons.primary && !before.primary {
            self.break_block(world, &mut outcome);
        } else if buttons.secondary && !before.secondary {
            self.place_block(world, &mut outcome);
        }
        outcome
    }

    fn turn(&mut self, now: &PlayerActions) {
        if let Yaw::Relative {
            turn_left,
            turn_right,
            ..
        } = now.yaw
        {
            let turn = f32::from(u8::from(turn_left)) - f32::from(u8::from(turn_right));
            self.look(turn * TURN_PER_TICK, 0.0);
        }
        if let Pitch::Relative {
            look_up, look_down, ..
        } = now.pitch
        {
            let tilt = f32::from(u8::from(look_up)) - f32::from(u8::from(look_down));
            self.look(0.0, tilt * TURN_PER_TICK);
        }
    }

    fn intent(&self, now: &PlayerActions) -> MoveIntent {
        let (forward, backward, run, down) = match now.movement {
            Movement::Relative {
                forward,
                backward,
                run,
                look_dont_turn,
            } => (forward, backward, run, look_dont_turn),
            Movement::Absolute(_) => (false, false, false, false),
        };
        let axis = |plus: bool, minus: bool| f32::from(u8::from(plus)) - f32::from(u8::from(minus));
        let (sy, cy) = self.yaw.sin_cos();
        let ahead = Vec3::new(-sy, 0.0, -cy);
        let right = Vec3::new(cy, 0.0, -sy);
        let wish = ahead * axis(forward, backward)
            + right * axis(now.buttons.sidestep_right, now.buttons.sidestep_left);
        MoveIntent {
            wish: wish.normalize_or_zero(),
            up: now.buttons.swim,
            down,
            sprint: run,
        }
    }

    fn break_block(&mut self, world: &mut World, outcome: &mut TickOutcome) {
        let Some(hit) = self.target(world) else {
            return;
        };
        // The bottom layer is bedrock: nobody digs out of the world.
        if hit.block.y <= 0 {
            return;
        }
        let block = world.block(hit.block);
        let Ok(dirty) = world.set_block(hit.block, BlockType::Air) else {
            return;
        };
        if self.mode == GameMode::Survival
            && let Some(drop) = block.drop()
        {
            self.inventory.add(drop, 1);
            self.hotbar.assign_if_new(drop);
        }
        outcome.dirty_chunks.extend(dirty);
        outcome.broken = Some(hit.block);
    }

    fn place_block(&mut self, world: &mut World, outcome: &mut TickOutcome) {
        let (Some(hit), Some(block)) = (self.target(world), self.hotbar.selected_block()) else {
            return;
        };
        let pos = hit.place_position();
        if hit.normal == IVec3::ZERO
            || !World::contains(pos)
            || self.body.overlaps_block(pos)
            || world.block(pos).is_solid()
        {
            return;
        }
        if self.mode == GameMode::Survival {
            if !self.inventory.take_one(block) {
                return;
            }
            self.hotbar.clear_missing(&self.inventory);
        }
        if let Ok(dirty) = world.set_block(pos, block) {
            outcome.dirty_chunks.extend(dirty);
            outcome.placed = Some(pos);
        }
    }
}
