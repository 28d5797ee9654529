//! Terrain from a seed: rolling hills of grass over dirt over stone, sand
//! beaches and water at sea level, snow on peaks, and trees.

use glam::IVec3;

use super::noise::{fractal2, hash3, unit};
use super::{BlockType, CHUNK_SIZE, Chunk, ChunkPos, WORLD_HEIGHT};

/// The water surface: columns lower than this fill with water up to it.
pub const SEA_LEVEL: i32 = 62;
/// Surfaces above this height are snow.
const SNOW_LINE: i32 = 96;
/// Dirt above stone, in blocks.
const DIRT_DEPTH: i32 = 3;
/// Chance that a grass column grows a tree.
const TREE_CHANCE: f64 = 0.012;
/// How far leaves reach from a trunk.
const CANOPY_RADIUS: i32 = 2;

const SALT_CONTINENT: u64 = 11;
const SALT_HILLS: u64 = 23;
const SALT_TREE: u64 = 37;
const SALT_TREE_HEIGHT: u64 = 41;
const SALT_LEAF: u64 = 43;

/// The terrain generator for one seed. Pure: the same seed and chunk give the
/// same blocks on every run and platform.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Terrain {
    seed: u64,
}

impl Terrain {
    /// The generator for `seed`.
    #[must_use]
    pub const fn new(seed: u64) -> Self {
        Self { seed }
    }

    /// The seed.
    #[must_use]
    pub const fn seed(&self) -> u64 {
        self.seed
    }

    /// The height of the top terrain block (before trees) of column `(x, z)`.
    #[must_use]
    pub fn surface_height(&self, x: i32, z: i32) -> i32 {
        let (fx, fz) = (f64::from(x), f64::from(z));
        let continent = fractal2(fx, fz, 256.0, 3, self.seed, SALT_CONTINENT);
        let hills = fractal2(fx, fz, 48.0, 3, self.seed, SALT_HILLS);
        // Flat lowlands near the sea, sharper hills inland.
        let inland = ((continent - 0.35) * 2.5).clamp(0.0, 1.0);
        let height = 50.0 + continent * 28.0 + hills * 30.0 * inland;
        (height.floor() as i32).clamp(1, WORLD_HEIGHT - 16)
    }

    /// The block of the bare terrain (no trees) at `pos`.
    #[must_use]
    pub fn ground_block(&self, pos: IVec3, surface: i32) -> BlockType {
        let y = pos.y;
        if !(0..WORLD_HEIGHT).contains(&y) {
            return BlockType::Air;
        }
        let beach = surface <= SEA_LEVEL + 1;
        if y > surface {
            return if y <= SEA_LEVEL {
                BlockType::Water
            } else {
                BlockType::Air
            };
        }
        if y == surface {
            return if beach {
                BlockType::Sand
            } else if surface > SNOW_LINE {
                BlockType::Snow
            } else {
                BlockType::Grass
            };
        }
        if y > surface - DIRT_DEPTH {
            if beach {
                BlockType::Sand
            } else {
                BlockType::Dirt
            }
        } else {
            BlockType::Stone
        }
    }

    /// The trunk height of the tree rooted on column `(x, z)`, if one grows there.
    #[must_use]
    pub fn tree_at(&self, x: i32, z: i32) -> Option<i32> {
        let roll = unit(hash3(i64::from(x), i64::from(z), self.seed, SALT_TREE));
        if roll >= TREE_CHANCE {
            return None;
        }
        let surface = self.surface_height(x, z);
        if surface <= SEA_LEVEL + 1 || surface > SNOW_LINE {
            return None;
        }
        let extra = hash3(i64::from(x), i64::from(z), self.seed, SALT_TREE_HEIGHT) % 3;
        Some(4 + extra as i32)
    }

    /// Generates the chunk at `pos`: ground, water, then every tree whose
    /// canopy reaches into it.
    #[must_use]
    pub fn generate(&self, pos: ChunkPos) -> Chunk {
        let mut chunk = Chunk::empty();
        let origin = pos.origin();
        let size = CHUNK_SIZE as i32;
        if origin.y >= WORLD_HEIGHT || origin.y + size <= 0 {
            return chunk;
        }
        for lz in 0..CHUNK_SIZE {
            for lx in 0..CHUNK_SIZE {
                let (x, z) = (origin.x + lx as i32, origin.z + lz as i32);
                let surface = self.surface_height(x, z);
                let top = surface.max(SEA_LEVEL) - origin.y;
                for ly in 0..(top + 1).clamp(0, size) as usize {
                    let block = self.ground_block(IVec3::new(x, origin.y + ly as i32, z), surface);
                    if !block.is_air() {
                        chunk.set(lx, ly, lz, block);
                    }
                }
            }
        }
        self.plant_trees(&mut chunk, origin);
        chunk
    }

    fn plant_trees(&self, chunk: &mut Chunk, origin: IVec3) {
        let size = CHUNK_SIZE as i32;
        let reach = CANOPY_RADIUS;
        for z in origin.z - reach..origin.z + size + reach {
            for x in origin.x - reach..origin.x + size + reach {
                let Some(trunk) = self.tree_at(x, z) else {
                    continue;
                };
                let base = self.surface_height(x, z) + 1;
                let top = base + trunk;
                let mut put = |p: IVec3, block: BlockType, only_air: bool| {
                    let local = p - origin;
                    if let Some(current) = chunk.get_local(local)
                        && (!only_air || current.is_air())
                    {
                        chunk.set(local.x as usize, local.y as usize, local.z as usize, block);
                    }
                };
                for dy in -2..=1 {
                    let radius = if dy == 1 { 1 } else { reach };
                    for dz in -radius..=radius {
                        for dx in -radius..=radius {
                            let corner = dx.abs() == radius && dz.abs() == radius;
                            let p = IVec3::new(x + dx, top + dy, z + dz);
                            let trim = unit(hash3(
                                i64::from(p.x) * 31 + i64::from(p.y),
                                i64::from(p.z),
                                self.seed,
                                SALT_LEAF,
                            ));
                            if corner && trim < 0.5 {
                                continue;
                            }
                            put(p, BlockType::Leaves, true);
                        }
                    }
                }
                for y in base..top {
                    put(IVec3::new(x, y, z), BlockType::Log, false);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terrain_is_layered() {
        let terrain = Terrain::new(42);
        for (x, z) in [(0, 0), (100, -50), (-300, 777)] {
            let surface = terrain.surface_height(x, z);
            let below = terrain.ground_block(IVec3::new(x, surface - 10, z), surface);
            assert_eq!(below, BlockType::Stone);
            let above = terrain.ground_block(IVec3::new(x, surface + 1, z), surface);
            assert!(matches!(above, BlockType::Air | BlockType::Water));
        }
    }

    #[test]
    fn some_trees_grow() {
        let terrain = Terrain::new(42);
        let trees = (0..200)
            .flat_map(|z| (0..200).map(move |x| (x, z)))
            .filter(|&(x, z)| terrain.tree_at(x, z).is_some())
            .count();
        assert!(trees > 20, "{trees} trees in 200x200");
    }
}
