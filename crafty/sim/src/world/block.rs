//! Block types and the faces of a block.

use glam::IVec3;
use serde::{Deserialize, Serialize};

/// What fills one voxel. Stored as one byte; the discriminants are part of
/// the save format and never change meaning.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
#[serde(into = "u8", try_from = "u8")]
#[repr(u8)]
pub enum BlockType {
    /// Nothing.
    #[default]
    Air = 0,
    /// Bedrock-grey stone, under the dirt.
    Stone = 1,
    /// Dirt, under the grass.
    Dirt = 2,
    /// Grass-topped dirt, the surface of hills.
    Grass = 3,
    /// Sand, on beaches and under water.
    Sand = 4,
    /// Still water, at and below sea level.
    Water = 5,
    /// Tree trunk.
    Log = 6,
    /// Tree leaves.
    Leaves = 7,
    /// Clear glass.
    Glass = 8,
    /// Wooden planks.
    Planks = 9,
    /// Cobblestone, what stone drops.
    Cobblestone = 10,
    /// Snow, on the highest peaks.
    Snow = 11,
}

/// A block's six faces, in the order the mesher and atlas use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Face {
    /// +X.
    East = 0,
    /// -X.
    West = 1,
    /// +Y.
    Top = 2,
    /// -Y.
    Bottom = 3,
    /// +Z.
    South = 4,
    /// -Z.
    North = 5,
}

impl Face {
    /// All six, in index order.
    pub const ALL: [Self; 6] = [
        Self::East,
        Self::West,
        Self::Top,
        Self::Bottom,
        Self::South,
        Self::North,
    ];

    /// The outward unit normal.
    #[must_use]
    pub const fn normal(self) -> IVec3 {
        match self {
            Self::East => IVec3::X,
            Self::West => IVec3::NEG_X,
            Self::Top => IVec3::Y,
            Self::Bottom => IVec3::NEG_Y,
            Self::South => IVec3::Z,
            Self::North => IVec3::NEG_Z,
        }
    }

    /// The face from an index 0..6 (wraps).
    #[must_use]
    pub const fn from_index(index: usize) -> Self {
        Self::ALL[index % 6]
    }
}

/// Number of tiles in the block texture atlas.
pub const TILE_COUNT: u32 = 14;

impl BlockType {
    /// Every block type, `Air` first.
    pub const ALL: [Self; 12] = [
        Self::Air,
        Self::Stone,
        Self::Dirt,
        Self::Grass,
        Self::Sand,
        Self::Water,
        Self::Log,
        Self::Leaves,
        Self::Glass,
        Self::Planks,
        Self::Cobblestone,
        Self::Snow,
    ];

    /// Block types a player can hold and place (everything but air and water).
    pub const PLACEABLE: [Self; 10] = [
        Self::Stone,
        Self::Dirt,
        Self::Grass,
        Self::Sand,
        Self::Log,
        Self::Leaves,
        Self::Glass,
        Self::Planks,
        Self::Cobblestone,
        Self::Snow,
    ];

    /// Nothing there.
    #[must_use]
    pub const fn is_air(self) -> bool {
        matches!(self, Self::Air)
    }

    /// Hides the faces of its neighbours and is drawn in the opaque pass.
    #[must_use]
    pub const fn is_opaque(self) -> bool {
        !matches!(self, Self::Air | Self::Water | Self::Glass | Self::Leaves)
    }

    /// Drawn in the transparent (blended) pass: water, glass, leaves.
    #[must_use]
    pub const fn is_transparent(self) -> bool {
        matches!(self, Self::Water | Self::Glass | Self::Leaves)
    }

    /// Blocks movement (everything but air and water).
    #[must_use]
    pub const fn is_solid(self) -> bool {
        !matches!(self, Self::Air | Self::Water)
    }

    /// A raycast can target it (everything but air and water).
    #[must_use]
    pub const fn is_targetable(self) -> bool {
        self.is_solid()
    }

    /// What breaking it yields in survival (stone gives cobblestone, grass
    /// gives dirt); `None` for air and water.
    #[must_use]
    pub const fn drop(self) -> Option<Self> {
        match self {
            Self::Air | Self::Water => None,
            Self::Stone => Some(Self::Cobblestone),
            Self::Grass => Some(Self::Dirt),
            other => Some(other),
        }
    }

    /// The atlas tile drawn on `face`.
    #[must_use]
    pub const fn tile(self, face: Face) -> u32 {
        match (self, face) {
            (Self::Air, _) => 0,
            (Self::Stone, _) => 0,
            (Self::Dirt, _) | (Self::Grass, Face::Bottom) => 1,
            (Self::Grass, Face::Top) => 2,
            (Self::Grass, _) => 3,
            (Self::Sand, _) => 4,
            (Self::Water, _) => 5,
            (Self::Log, Face::Top | Face::Bottom) => 7,
            (Self::Log, _) => 6,
            (Self::Leaves, _) => 8,
            (Self::Glass, _) => 9,
            (Self::Planks, _) => 10,
            (Self::Cobblestone, _) => 11,
            (Self::Snow, Face::Top) => 12,
            (Self::Snow, _) => 13,
        }
    }

    /// A display name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Air => "Air",
            Self::Stone => "Stone",
            Self::Dirt => "Dirt",
            Self::Grass => "Grass",
            Self::Sand => "Sand",
            Self::Water => "Water",
            Self::Log => "Log",
            Self::Leaves => "Leaves",
            Self::Glass => "Glass",
            Self::Planks => "Planks",
            Self::Cobblestone => "Cobblestone",
            Self::Snow => "Snow",
        }
    }
}

impl From<BlockType> for u8 {
    fn from(block: BlockType) -> Self {
        block as u8
    }
}

/// A byte that names no block type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("unknown block type {0}")]
pub struct UnknownBlock(pub u8);

impl TryFrom<u8> for BlockType {
    type Error = UnknownBlock;

    fn try_from(value: u8) -> Result<Self, UnknownBlock> {
        Self::ALL
            .get(usize::from(value))
            .copied()
            .ok_or(UnknownBlock(value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip_and_unknown_bytes_are_refused() {
        for block in BlockType::ALL {
            assert_eq!(BlockType::try_from(u8::from(block)), Ok(block));
        }
        assert_eq!(BlockType::try_from(200), Err(UnknownBlock(200)));
    }

    #[test]
    fn every_tile_is_in_the_atlas() {
        for block in BlockType::ALL {
            for face in Face::ALL {
                assert!(block.tile(face) < TILE_COUNT);
            }
        }
    }
}
