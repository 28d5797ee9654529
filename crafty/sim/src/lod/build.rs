//! [`build_tile`]: one level-of-detail tile's meshes, from the seed and the
//! edits over it.

use std::collections::HashMap;

use glam::{IVec2, IVec3};

use super::{LodTile, TILE_CELLS};
use crate::mesh::{ChunkMesh, Mesher, PaddedChunk};
use crate::world::{
    BlockEdit, BlockType, CANOPY_REACH, ColumnSampler, SEA_LEVEL, WORLD_HEIGHT, World, layer_block,
};

/// One 32³ section of a tile's cells, meshed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LodSection {
    /// Which section, from the bottom (`0..tile.sections()`).
    pub index: i32,
    /// Its quads, in cell coordinates (see [`LodTile::section_transform`]).
    pub mesh: ChunkMesh,
}

/// A tile's geometry: its non-empty sections.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LodMesh {
    /// The tile.
    pub tile: LodTile,
    /// Sections with quads, bottom first.
    pub sections: Vec<LodSection>,
}

impl LodMesh {
    /// Quads in every section.
    #[must_use]
    pub fn quads(&self) -> usize {
        self.sections
            .iter()
            .map(|s| s.mesh.opaque.len() + s.mesh.transparent.len())
            .sum()
    }

    /// Bytes its quads take.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.quads() * std::mem::size_of::<crate::mesh::PackedQuad>()
    }
}

/// The cells of one tile: `TILE_CELLS² × cells_high` blocks, one per cell.
struct Cells {
    high: usize,
    blocks: Vec<BlockType>,
}

impl Cells {
    fn index(&self, x: usize, y: usize, z: usize) -> usize {
        (z * TILE_CELLS as usize + x) * self.high + y
    }
}

/// Builds `tile` from `sampler`'s terrain with `edits` (the world's edited
/// blocks in the tile's columns; others are ignored) laid over it, meshing
/// each section with `mesher`.
///
/// A cell is the block of its sampled column (the column at the cell's
/// middle) at the cell's middle height; the top cell of a column shows the
/// highest block in it and the cell above (grass, not the dirt under it).
/// A block placed anywhere in an empty cell fills it, so what players build
/// shows from afar. Edge cells border air (water below sea level), so
/// walls (skirts) close the tile's sides.
#[must_use]
pub fn build_tile(
    sampler: &ColumnSampler,
    tile: LodTile,
    edits: &[BlockEdit],
    mesher: &mut Mesher,
) -> LodMesh {
    let cells = fill_cells(sampler, tile, edits);
    let mut sections = Vec::new();
    for index in 0..tile.sections() {
        let base = index * TILE_CELLS;
        let input = PaddedChunk::from_fn(TILE_CELLS as usize, |local| {
            let y = base + local.y;
            let inside = (0..TILE_CELLS).contains(&local.x) && (0..TILE_CELLS).contains(&local.z);
            if y < 0 {
                // Below the world: solid, so no bottom faces are made.
                BlockType::Stone
            } else if y >= cells.high as i32 {
                BlockType::Air
            } else if inside {
                cells.blocks[cells.index(local.x as usize, y as usize, local.z as usize)]
            } else if (y * tile.cell_height()) + tile.cell_height() / 2 <= SEA_LEVEL {
                BlockType::Water
            } else {
                BlockType::Air
            }
        })
        .unwrap_or_else(|_| unreachable!("32 is a valid mesh size"));
        let mesh = mesher.mesh_new(&input);
        if !mesh.is_empty() {
            sections.push(LodSection { index, mesh });
        }
    }
    LodMesh { tile, sections }
}

/// Levels whose tiles grow the seed's trees (cells of up to 4 blocks, out
/// to about 25 chunks): a far forest keeps its colour; beyond, a cell is
/// wider than a tree.
const TREE_LEVELS: u8 = 2;

/// Puts the seed's trees into `cells`: a log trunk and a canopy of leaves
/// (corners untrimmed), each block in the cell holding it, only into empty
/// cells; a trunk whose root an edit changed is left out.
fn plant_trees(
    sampler: &ColumnSampler,
    tile: LodTile,
    cells: &mut Cells,
    edited: &HashMap<IVec3, BlockType>,
) {
    let (w, h) = (tile.cell_width(), tile.cell_height());
    let origin = tile.origin();
    let side = tile.chunks() * TILE_CELLS;
    let reach = CANOPY_REACH;
    let n = TILE_CELLS;
    let put = |cells: &mut Cells, p: IVec3, block: BlockType| {
        let rel = p - origin;
        let (cx, cz, cy) = (
            rel.x.div_euclid(w),
            rel.z.div_euclid(w),
            rel.y.div_euclid(h),
        );
        if (0..n).contains(&cx) && (0..n).contains(&cz) && (0..cells.high as i32).contains(&cy) {
            let i = cells.index(cx as usize, cy as usize, cz as usize);
            if cells.blocks[i].is_air() {
                cells.blocks[i] = block;
            }
        }
    };
    for z in origin.z - reach..origin.z + side + reach {
        for x in origin.x - reach..origin.x + side + reach {
            let Some(trunk) = sampler.tree(x, z) else {
                continue;
            };
            let (surface, _) = sampler.column(x, z);
            let base = surface + 1;
            if edited.contains_key(&IVec3::new(x, surface, z)) {
                continue;
            }
            let top = base + trunk;
            for y in base..top {
                put(cells, IVec3::new(x, y, z), BlockType::Log);
            }
            for dy in -2..=1 {
                let radius = if dy == 1 { 1 } else { reach };
                for dz in -radius..=radius {
                    for dx in -radius..=radius {
                        put(
                            cells,
                            IVec3::new(x + dx, top + dy, z + dz),
                            BlockType::Leaves,
                        );
                    }
                }
            }
        }
    }
}

fn fill_cells(sampler: &ColumnSampler, tile: LodTile, edits: &[BlockEdit]) -> Cells {
    let (w, h) = (tile.cell_width(), tile.cell_height());
    let high = tile.cells_high() as usize;
    let origin = tile.origin();
    let n = TILE_CELLS as usize;
    let mut cells = Cells {
        high,
        blocks: vec![BlockType::Air; n * n * high],
    };
    let side = tile.chunks() * TILE_CELLS;
    let inside = |e: &BlockEdit| {
        let rel = IVec2::new(e.x - origin.x, e.z - origin.z);
        rel.cmpge(IVec2::ZERO).all()
            && rel.cmplt(IVec2::splat(side)).all()
            && World::contains(e.pos())
    };
    let edits: Vec<&BlockEdit> = edits.iter().filter(|e| inside(e)).collect();
    let mut by_block: HashMap<IVec3, BlockType> = HashMap::new();
    let mut edited_columns: HashMap<(i32, i32), i32> = HashMap::new();
    for edit in &edits {
        by_block.insert(edit.pos(), edit.block);
        let top = edited_columns.entry((edit.x, edit.z)).or_insert(-1);
        if !edit.block.is_air() {
            *top = (*top).max(edit.y);
        }
    }
    let mut column = Vec::with_capacity(WORLD_HEIGHT as usize);
    for cz in 0..n {
        for cx in 0..n {
            let x = origin.x + cx as i32 * w + w / 2;
            let z = origin.z + cz as i32 * w + w / 2;
            let (surface, biome) = sampler.column(x, z);
            let edited_top = edited_columns.get(&(x, z)).copied();
            let top = surface.max(SEA_LEVEL).max(edited_top.unwrap_or(-1));
            // The sampled column, block by block up to its top.
            column.clear();
            column.extend((0..=top.min(WORLD_HEIGHT - 1)).map(|y| {
                let natural = layer_block(y, surface, biome);
                match edited_top {
                    Some(_) => by_block
                        .get(&IVec3::new(x, y, z))
                        .copied()
                        .unwrap_or(natural),
                    None => natural,
                }
            }));
            let at = |y: i32| column.get(y as usize).copied().unwrap_or(BlockType::Air);
            let base = cells.index(cx, 0, cz);
            let stack = &mut cells.blocks[base..base + high];
            for (cy, cell) in stack.iter_mut().enumerate() {
                *cell = at(cy as i32 * h + h / 2);
            }
            // A column's top cell shows its top block: the highest one in
            // it and the (empty) cell above.
            for cy in 0..high {
                let open_above = cy + 1 == high || stack[cy + 1].is_air();
                if !stack[cy].is_air() && open_above {
                    let y0 = cy as i32 * h;
                    if let Some(top) = (y0..y0 + 2 * h).rev().map(at).find(|b| !b.is_air()) {
                        stack[cy] = top;
                    }
                }
            }
        }
    }
    if tile.level <= TREE_LEVELS {
        plant_trees(sampler, tile, &mut cells, &by_block);
    }
    // Blocks placed anywhere in an empty cell fill it.
    for edit in edits.iter().filter(|e| !e.block.is_air()) {
        let (cx, cz) = ((edit.x - origin.x) / w, (edit.z - origin.z) / w);
        let cy = edit.y / h;
        let i = cells.index(cx as usize, cy as usize, cz as usize);
        if cells.blocks[i].is_air() {
            cells.blocks[i] = edit.block;
        }
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::{Terrain, TerrainGenerator};

    fn tile(level: u8, x: i32, z: i32) -> LodTile {
        LodTile { level, x, z }
    }

    #[test]
    fn a_level_zero_tile_follows_the_surface_of_the_seed() {
        let terrain = Terrain::with_generator(42, TerrainGenerator::Biomes);
        let sampler = ColumnSampler::new(terrain);
        let t = tile(0, 3, -2);
        let mesh = build_tile(&sampler, t, &[], &mut Mesher::new());
        assert!(!mesh.sections.is_empty());
        // Every column's top face sits on the seed's surface (or the sea).
        let origin = t.origin();
        let mut tops: HashMap<(u32, u32), u32> = HashMap::new();
        for section in &mesh.sections {
            for quad in section.mesh.opaque.iter().chain(&section.mesh.transparent) {
                if quad.face() != crate::world::Face::Top {
                    continue;
                }
                for [x, y, z] in quad.blocks() {
                    let y = y + (section.index * TILE_CELLS) as u32;
                    let top = tops.entry((x, z)).or_default();
                    *top = (*top).max(y);
                }
            }
        }
        let mut bare = 0;
        for ((x, z), top) in tops {
            let (wx, wz) = (origin.x + x as i32, origin.z + z as i32);
            let surface = terrain.surface_height(wx, wz);
            // Under a canopy the top is a tree's; elsewhere the seed's ground.
            let near_tree =
                (-2..=2).any(|dz| (-2..=2).any(|dx| terrain.tree_at(wx + dx, wz + dz).is_some()));
            if !near_tree {
                assert_eq!(top as i32, surface.max(SEA_LEVEL), "column {x} {z}");
                bare += 1;
            } else {
                assert!(top as i32 >= surface.max(SEA_LEVEL), "column {x} {z}");
            }
        }
        assert!(bare > 100, "{bare} columns without trees");
    }

    #[test]
    fn a_far_edit_changes_the_far_mesh() {
        let terrain = Terrain::with_generator(42, TerrainGenerator::Biomes);
        let sampler = ColumnSampler::new(terrain);
        let t = tile(3, 9, -4);
        let origin = t.origin();
        let before = build_tile(&sampler, t, &[], &mut Mesher::new());
        // A tower of planks in a cell, away from its sampled column.
        let (x, z) = (origin.x + 8 * 5 + 1, origin.z + 8 * 7 + 6);
        let edits: Vec<BlockEdit> = (100..120)
            .map(|y| BlockEdit::new(IVec3::new(x, y, z), BlockType::Planks))
            .collect();
        let after = build_tile(&sampler, t, &edits, &mut Mesher::new());
        assert_ne!(before, after);
        let planks = after
            .sections
            .iter()
            .flat_map(|s| &s.mesh.opaque)
            .filter(|q| q.tile() == BlockType::Planks.tile(crate::world::Face::Top))
            .count();
        assert!(planks > 0);
        // Edits outside the tile change nothing.
        let outside = [BlockEdit::new(
            origin - IVec3::new(1, -100, 0),
            BlockType::Planks,
        )];
        assert_eq!(
            build_tile(&sampler, t, &outside, &mut Mesher::new()),
            before
        );
    }

    #[test]
    fn near_far_tiles_grow_the_seed_s_trees() {
        let terrain = Terrain::with_generator(42, TerrainGenerator::Biomes);
        let sampler = ColumnSampler::new(terrain);
        let leaves = BlockType::Leaves.tile(crate::world::Face::Top);
        let count = |level: u8| {
            let mesh = build_tile(&sampler, tile(level, -7, 2), &[], &mut Mesher::new());
            mesh.sections
                .iter()
                .flat_map(|s| s.mesh.transparent.iter())
                .filter(|q| q.tile() == leaves)
                .count()
        };
        let trees = (-224..-192)
            .flat_map(|x| (64..96).map(move |z| (x, z)))
            .filter(|&(x, z)| terrain.tree_at(x, z).is_some())
            .count();
        assert!(trees > 0, "seed 42 has trees in chunk (-7, 2)");
        assert!(count(0) > 0);
        assert_eq!(count(3), 0, "no trees in cells of 8 blocks");
    }

    #[test]
    fn tiles_have_skirts_and_coarse_tiles_are_small() {
        let terrain = Terrain::with_generator(42, TerrainGenerator::Biomes);
        let sampler = ColumnSampler::new(terrain);
        for level in 0..=super::super::MAX_LOD_LEVEL {
            let mesh = build_tile(&sampler, tile(level, 1, 1), &[], &mut Mesher::new());
            // The west edge (face 1, -x) is closed at every level.
            let west = mesh
                .sections
                .iter()
                .flat_map(|s| s.mesh.opaque.iter().chain(&s.mesh.transparent))
                .filter(|q| {
                    q.face() == crate::world::Face::West && q.blocks().any(|[x, _, _]| x == 0)
                })
                .count();
            assert!(west > 0, "level {level}");
            assert!(
                mesh.bytes() < 256 * 1024,
                "level {level}: {} bytes",
                mesh.bytes()
            );
        }
    }
}
