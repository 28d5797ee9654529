//! One player edit: a block set at a position.

use glam::IVec3;
use serde::{Deserialize, Serialize};

use super::BlockType;

/// A block placed (or, with [`BlockType::Air`], broken) at a world position.
/// The world is its seed plus the ordered list of these.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BlockEdit {
    /// World x.
    pub x: i32,
    /// World y.
    pub y: i32,
    /// World z.
    pub z: i32,
    /// What is there now.
    #[serde(rename = "blockType")]
    pub block: BlockType,
}

impl BlockEdit {
    /// `block` at `pos`.
    #[must_use]
    pub const fn new(pos: IVec3, block: BlockType) -> Self {
        Self {
            x: pos.x,
            y: pos.y,
            z: pos.z,
            block,
        }
    }

    /// The edited position.
    #[must_use]
    pub const fn pos(&self) -> IVec3 {
        IVec3::new(self.x, self.y, self.z)
    }
}
