//! Level-of-detail terrain for the far view: the land beyond the near,
//! fully loaded chunks, as coarse voxel columns meshed by the same
//! [`Mesher`](crate::mesh::Mesher) into the same packed quads.
//!
//! - [`LodTile`]: a square of chunk columns at one level. Level `L` covers
//!   `2^L × 2^L` chunk columns with 32 × 32 cells of `2^L` blocks, each
//!   [`cell_height`](LodTile::cell_height) blocks tall (at most 4): the
//!   same 32-cell grid at every level, so a tile is one to four 32³
//!   sections for the mesher.
//! - [`plan`]: which tiles cover the view around the camera: a quadtree
//!   split finer near the camera, nearest and most in front first.
//! - [`build_tile`]: one tile's meshes from the seed and the world's edits
//!   (an edit far away changes the far mesh): each cell is the sampled
//!   column's block at the cell's middle height, its top cell showing the
//!   column's top block; blocks placed anywhere in a cell fill it. A tile's
//!   edge cells get walls down to the bottom of the world (skirts), so no
//!   crack opens between tiles of different levels.
//! - [`LodBuilder`]: tiles built on worker threads (inline on wasm32).
//!
//! A far tile holds only its quads (8 bytes each), never its blocks: the
//! voxel data stays within the near chunks. Its terrain is the seed's
//! ground with the edits over it, and the seed's trees in tiles of cells up
//! to 4 blocks; caves are not in the far view.

mod build;
mod builder;
mod plan;

pub use build::{LodMesh, LodSection, build_tile};
pub use builder::LodBuilder;
pub use plan::{LOD_SPREAD, LodView, MAX_LOD_LEVEL, plan, view_blocks};

use glam::{IVec2, IVec3, Vec3};

use crate::world::{CHUNK_SIZE, WORLD_HEIGHT};

/// Cells along a tile's edge at every level.
pub const TILE_CELLS: i32 = CHUNK_SIZE as i32;

/// A square of chunk columns drawn at one level of detail.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LodTile {
    /// `0` (cells of one block) to [`MAX_LOD_LEVEL`] (cells of `2^level`).
    pub level: u8,
    /// The tile's x in tiles of its level: it covers chunk columns
    /// `x * 2^level .. (x + 1) * 2^level`.
    pub x: i32,
    /// The tile's z, like `x`.
    pub z: i32,
}

impl LodTile {
    /// The tile of `level` holding chunk column `column`.
    #[must_use]
    pub fn containing(level: u8, column: IVec2) -> Self {
        let size = 1 << level;
        Self {
            level,
            x: column.x.div_euclid(size),
            z: column.y.div_euclid(size),
        }
    }

    /// Chunk columns along its edge: `2^level`.
    #[must_use]
    pub const fn chunks(self) -> i32 {
        1 << self.level
    }

    /// Blocks along a cell's edge (x and z): `2^level`.
    #[must_use]
    pub const fn cell_width(self) -> i32 {
        1 << self.level
    }

    /// Blocks in a cell's height: `2^level`, at most 4 (the land keeps its
    /// shape in the distance even where the cells are wide).
    #[must_use]
    pub const fn cell_height(self) -> i32 {
        let width = self.cell_width();
        if width < 4 { width } else { 4 }
    }

    /// Cells in the world's height.
    #[must_use]
    pub const fn cells_high(self) -> i32 {
        WORLD_HEIGHT / self.cell_height()
    }

    /// 32³ sections in the world's height (1, 2 or 4).
    #[must_use]
    pub const fn sections(self) -> i32 {
        self.cells_high() / TILE_CELLS
    }

    /// The first chunk column it covers.
    #[must_use]
    pub const fn first_column(self) -> IVec2 {
        IVec2::new(self.x * self.chunks(), self.z * self.chunks())
    }

    /// World position of its block `(0, 0, 0)` corner.
    #[must_use]
    pub fn origin(self) -> IVec3 {
        let column = self.first_column() * CHUNK_SIZE as i32;
        IVec3::new(column.x, 0, column.y)
    }

    /// The world position of section `section`'s corner, and the size of a
    /// cell in blocks: a quad's cell coordinates `c` are at
    /// `corner + c * scale` in the world.
    #[must_use]
    pub fn section_transform(self, section: i32) -> (Vec3, Vec3) {
        let scale = Vec3::new(
            self.cell_width() as f32,
            self.cell_height() as f32,
            self.cell_width() as f32,
        );
        let corner =
            self.origin().as_vec3() + Vec3::Y * (section * TILE_CELLS * self.cell_height()) as f32;
        (corner, scale)
    }

    /// Whether it covers chunk column `column`.
    #[must_use]
    pub fn covers(self, column: IVec2) -> bool {
        let first = self.first_column();
        let rel = column - first;
        rel.cmpge(IVec2::ZERO).all() && rel.cmplt(IVec2::splat(self.chunks())).all()
    }

    /// Whether its columns and `other`'s overlap.
    #[must_use]
    pub fn overlaps(self, other: Self) -> bool {
        let (a, b) = (self.first_column(), other.first_column());
        let (ea, eb) = (a + self.chunks(), b + other.chunks());
        a.x < eb.x && b.x < ea.x && a.y < eb.y && b.y < ea.y
    }

    /// The Chebyshev distance, in chunk columns, from `column` to its
    /// nearest column (0 when it covers `column`).
    #[must_use]
    pub fn distance(self, column: IVec2) -> i32 {
        let first = self.first_column();
        let last = first + IVec2::splat(self.chunks() - 1);
        let dx = (first.x - column.x).max(column.x - last.x).max(0);
        let dz = (first.y - column.y).max(column.y - last.y).max(0);
        dx.max(dz)
    }

    /// Its four children one level down (`None` at level 0).
    #[must_use]
    pub fn children(self) -> Option<[Self; 4]> {
        let level = self.level.checked_sub(1)?;
        let (x, z) = (self.x * 2, self.z * 2);
        Some([(0, 0), (1, 0), (0, 1), (1, 1)].map(|(dx, dz)| Self {
            level,
            x: x + dx,
            z: z + dz,
        }))
    }

    /// Its centre in world blocks (x and z).
    #[must_use]
    pub fn center(self) -> glam::Vec2 {
        let side = (self.chunks() * CHUNK_SIZE as i32) as f32;
        let origin = self.origin();
        glam::Vec2::new(origin.x as f32, origin.z as f32) + glam::Vec2::splat(side * 0.5)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_cover_their_columns_at_every_level() {
        for level in 0..=MAX_LOD_LEVEL {
            let tile = LodTile::containing(level, IVec2::new(-5, 37));
            assert!(tile.covers(IVec2::new(-5, 37)), "{tile:?}");
            assert_eq!(tile.distance(IVec2::new(-5, 37)), 0);
            assert_eq!(
                tile.sections() * TILE_CELLS * tile.cell_height(),
                WORLD_HEIGHT
            );
            if let Some(children) = tile.children() {
                let inside = children
                    .iter()
                    .filter(|c| c.covers(IVec2::new(-5, 37)))
                    .count();
                assert_eq!(inside, 1);
                assert!(children.iter().all(|c| c.overlaps(tile)));
            }
        }
        let tile = LodTile {
            level: 2,
            x: 0,
            z: 0,
        };
        assert_eq!(tile.distance(IVec2::new(10, -1)), 7);
        assert_eq!(tile.section_transform(0).1, Vec3::new(4.0, 4.0, 4.0));
        assert_eq!(
            LodTile {
                level: 4,
                x: 1,
                z: 0
            }
            .section_transform(0),
            (Vec3::new(512.0, 0.0, 0.0), Vec3::new(16.0, 4.0, 16.0))
        );
    }
}
