//! The player: a GameObject whose engine
//! [`PlayerController`](taos_core::controllers::PlayerController) walks,
//! jumps, crouches and flies it through crafty's voxel collision, driven by
//! crafty's recorded action flags ([`player_controller`]); and the game's side
//! of it: the body and view as of the last tick, targeting, breaking and
//! placing, and what it carries.

mod actions;
mod body;
mod controls;
mod drive;
mod raycast;

pub use crate::inventory::{
    GameMode, HOTBAR_SLOTS, Hotbar, Inventory, inventory_state, restore_inventory,
};
pub use body::{
    Body, CROUCH_EYE_HEIGHT, CROUCH_HEIGHT, CROUCH_SPEED, EYE_HEIGHT, FLY_SPEED, GRAVITY,
    HALF_WIDTH, HEIGHT, JUMP_SPEED, SPRINT_SPEED, WALK_SPEED, motor_settings,
};
pub use controls::{CraftyAction, CraftyMapper, default_bindings, touch_layout};
pub use drive::{TURN_PER_TICK, command_from_actions, command_from_flags, player_controller};
pub use raycast::{RayHit, raycast};

pub use actions::{
    ActionFlagsExt, Buttons, Movement, Pitch, PlayerActions, Yaw, quantize_yaw, yaw_radians,
};
use glam::{IVec3, Vec3};

use crate::world::{BlockType, ChunkPos, World};

/// How far the player reaches to break or place, in blocks.
pub const REACH: f32 = 5.0;
/// How far up or down the player can look.
const PITCH_LIMIT: f32 = 1.55;

/// The player as the game sees it: body and view as of the last tick (the
/// player object's controller moves them), mode and belongings.
#[derive(Debug, Clone, PartialEq)]
pub struct Player {
    /// Position, velocity, ground contact, flying, crouching.
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
    /// What the broken block was (set with [`broken`](Self::broken)).
    pub broken_block: Option<BlockType>,
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

    /// The block the player looks at, within reach.
    #[must_use]
    pub fn target(&self, world: &World) -> Option<RayHit> {
        raycast(world, self.body.eye(), self.look_direction(), REACH)
    }

    /// The game's part of a tick, after the controller moved the body:
    /// hotbar scrolling, then breaking or placing on button edges.
    /// `previous` is the last tick's actions (for edges).
    pub fn act(
        &mut self,
        world: &mut World,
        now: &PlayerActions,
        previous: &PlayerActions,
    ) -> TickOutcome {
        let buttons = now.buttons;
        let before = previous.buttons;
        if buttons.next_weapon {
            self.hotbar.scroll(1);
        }
        if buttons.previous_weapon {
            self.hotbar.scroll(-1);
        }
        let mut outcome = TickOutcome::default();
        if buttons.primary && !before.primary {
            self.break_block(world, &mut outcome);
        } else if buttons.secondary && !before.secondary {
            self.place_block(world, &mut outcome);
        }
        outcome
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
        outcome.broken_block = Some(block);
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
