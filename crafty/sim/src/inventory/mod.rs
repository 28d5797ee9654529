//! The inventory, in one place: the game mode, the saved shapes shared by
//! gameplay and saved worlds (the counted survival inventory and the
//! nine-slot hotbar layout), and the live [`Inventory`] and [`Hotbar`] a
//! player holds.
//!
//! Picking up, placing and selecting blocks is gameplay's business (the
//! `player` module); this module keeps the counts and slots.

mod held;

use serde::{Deserialize, Serialize};

pub use held::{Hotbar, Inventory, inventory_state, restore_inventory};

use crate::world::BlockType;

/// Slots on the hotbar.
pub const HOTBAR_SLOTS: usize = 9;

/// How a world is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameMode {
    /// Every block is unlimited; nothing is gathered. Worlds saved before
    /// game modes existed are creative.
    #[default]
    Creative,
    /// Blocks are gathered by breaking them and spent by placing them.
    Survival,
}

/// `count` blocks of one type in the survival inventory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ItemStack {
    /// What the stack holds.
    #[serde(rename = "blockType")]
    pub block_type: BlockType,
    /// How many.
    pub count: u32,
}

/// What a survival player carries: the stacks in the order their block types
/// were first acquired, and which block type sits in each hotbar slot.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct InventoryState {
    /// Counted stacks, in acquisition order (one per block type).
    pub stacks: Vec<ItemStack>,
    /// The block type in each hotbar slot, left to right; `None` is an empty slot.
    pub hotbar: [Option<BlockType>; HOTBAR_SLOTS],
}
