//! Terrain from a seed, by one of two generators:
//! - [`TerrainGenerator::Hills`], the original: rolling hills of grass over
//!   dirt over stone, sand beaches, snow on peaks, and trees. Worlds saved
//!   before biomes keep it, so their edits still sit where they were made.
//! - [`TerrainGenerator::Biomes`], for new worlds: plains, forest, desert
//!   and snowy land with smooth borders, trees by biome, and caves.
//!
//! Both share sea level, layering and tree shapes; both are pure, so the
//! same seed gives the same blocks on every run and platform.

use glam::IVec3;
use serde::{Deserialize, Serialize};

use super::biomes::{Biome, BiomeNoise};
use super::caves::CaveNoise;
use super::noise::{fractal2, hash3, unit};
use super::{BlockType, CHUNK_SIZE, Chunk, ChunkPos, WORLD_HEIGHT};

/// The water surface: columns lower than this fill with water up to it.
pub const SEA_LEVEL: i32 = 62;
/// Surfaces above this height are snow.
const SNOW_LINE: i32 = 96;
/// Dirt above stone, in blocks.
const DIRT_DEPTH: i32 = 3;
/// Sand above stone in deserts, in blocks.
const DESERT_SAND_DEPTH: i32 = 5;
/// Chance that a grass column of the hills generator grows a tree.
const TREE_CHANCE: f64 = 0.012;
/// How far leaves reach from a trunk.
const CANOPY_RADIUS: i32 = 2;
/// How far a tree's leaves reach from its trunk, in blocks.
pub const CANOPY_REACH: i32 = CANOPY_RADIUS;

const SALT_CONTINENT: u64 = 11;
const SALT_HILLS: u64 = 23;
const SALT_TREE: u64 = 37;
const SALT_TREE_HEIGHT: u64 = 41;
const SALT_LEAF: u64 = 43;

/// Which generator makes a world's terrain. Stored with each saved world
/// (as its number) and never changed for it.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Serialize, Deserialize,
)]
#[serde(into = "u8", try_from = "u8")]
#[repr(u8)]
pub enum TerrainGenerator {
    /// The original rolling hills (worlds from before biomes).
    #[default]
    Hills = 1,
    /// Biomes (plains, forest, desert, snowy) and caves.
    Biomes = 2,
}

impl TerrainGenerator {
    /// The generator new worlds get.
    pub const LATEST: Self = Self::Biomes;
}

impl From<TerrainGenerator> for u8 {
    fn from(generator: TerrainGenerator) -> Self {
        generator as u8
    }
}

/// A generator number this build does not know (a world from a newer crafty).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("unknown terrain generator {0} (saved by a newer crafty?)")]
pub struct UnknownGenerator(pub u8);

impl TryFrom<u8> for TerrainGenerator {
    type Error = UnknownGenerator;

    fn try_from(value: u8) -> Result<Self, UnknownGenerator> {
        match value {
            1 => Ok(Self::Hills),
            2 => Ok(Self::Biomes),
            other => Err(UnknownGenerator(other)),
        }
    }
}

/// The bare terrain's block at `pos` in a column whose ground ends at
/// `surface` under `biome`, hollowed by `caves` where they carve.
fn ground_block_in(pos: IVec3, surface: i32, biome: Biome, caves: Option<&CaveNoise>) -> BlockType {
    let block = layer_block(pos.y, surface, biome);
    let hollow = || caves.is_some_and(|caves| caves.is_cave(pos.x, pos.y, pos.z, surface));
    if !block.is_air() && block != BlockType::Water && hollow() {
        return BlockType::Air;
    }
    block
}

/// Columns a [`BareTerrain`] keeps before it starts afresh (1.5 MiB).
const MAX_CACHED_COLUMNS: usize = 1 << 16;

/// The bare terrain (ground and caves, no trees) block by block, exactly
/// as [`Terrain::surface_height`] then [`Terrain::ground_block`] give it,
/// but with the noise built once and each column computed once: the border
/// of a chunk whose neighbour is not loaded, filled on a mesher thread.
pub(crate) struct BareTerrain {
    terrain: Terrain,
    biomes: Option<BiomeNoise>,
    caves: Option<CaveNoise>,
    columns: std::collections::HashMap<(i32, i32), Column>,
}

impl BareTerrain {
    pub(crate) fn new(terrain: Terrain) -> Self {
        let biomes = terrain.biome_noise();
        let caves = biomes.is_some().then(|| CaveNoise::new(terrain.seed));
        Self {
            terrain,
            biomes,
            caves,
            columns: std::collections::HashMap::new(),
        }
    }

    /// The terrain it computes.
    pub(crate) fn terrain(&self) -> Terrain {
        self.terrain
    }

    /// The bare terrain's block at `pos` (inside the world's height).
    pub(crate) fn block(&mut self, pos: IVec3) -> BlockType {
        let Self {
            terrain,
            biomes,
            caves,
            columns,
        } = self;
        // A long-lived one (the world's) forgets its columns now and then.
        if columns.len() >= MAX_CACHED_COLUMNS {
            columns.clear();
        }
        let column = *columns
            .entry((pos.x, pos.z))
            .or_insert_with(|| terrain.column_with(biomes.as_ref(), pos.x, pos.z));
        ground_block_in(pos, column.surface, column.biome, caves.as_ref())
    }
}

/// The bare terrain of columns, the noise built once, for level-of-detail
/// terrain ([`crate::lod`]): each column's surface and layered blocks
/// (no trees, no caves).
pub struct ColumnSampler {
    terrain: Terrain,
    biomes: Option<BiomeNoise>,
}

impl std::fmt::Debug for ColumnSampler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ColumnSampler")
            .field("terrain", &self.terrain)
            .finish_non_exhaustive()
    }
}

impl ColumnSampler {
    /// A sampler of `terrain`'s columns.
    #[must_use]
    pub fn new(terrain: Terrain) -> Self {
        Self {
            terrain,
            biomes: terrain.biome_noise(),
        }
    }

    /// Column `(x, z)`: the height of its top terrain block and its biome.
    #[must_use]
    pub fn column(&self, x: i32, z: i32) -> (i32, Biome) {
        let column = self.terrain.column_with(self.biomes.as_ref(), x, z);
        (column.surface, column.biome)
    }

    /// The trunk height of the tree rooted on column `(x, z)`, if one grows
    /// there (its leaves reach [`CANOPY_REACH`] blocks around the trunk's
    /// top, from two under it to one over it).
    #[must_use]
    pub fn tree(&self, x: i32, z: i32) -> Option<i32> {
        self.terrain.tree_with(self.biomes.as_ref(), x, z)
    }
}

/// The terrain of one column: where the ground ends and what covers it.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Column {
    surface: i32,
    biome: Biome,
}

/// The terrain generator for one seed. Pure: the same seed and chunk give the
/// same blocks on every run and platform.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Terrain {
    seed: u64,
    generator: TerrainGenerator,
}

impl Terrain {
    /// The original hills generator for `seed` (what every world saved
    /// before biomes was made with).
    #[must_use]
    pub const fn new(seed: u64) -> Self {
        Self::with_generator(seed, TerrainGenerator::Hills)
    }

    /// `generator`'s terrain for `seed`.
    #[must_use]
    pub const fn with_generator(seed: u64, generator: TerrainGenerator) -> Self {
        Self { seed, generator }
    }

    /// The seed.
    #[must_use]
    pub const fn seed(&self) -> u64 {
        self.seed
    }

    /// The generator.
    #[must_use]
    pub const fn generator(&self) -> TerrainGenerator {
        self.generator
    }

    fn column_with(&self, biomes: Option<&BiomeNoise>, x: i32, z: i32) -> Column {
        match biomes {
            Some(noise) => {
                let column = noise.column(x, z);
                Column {
                    surface: column.surface,
                    biome: column.biome,
                }
            }
            None => {
                let surface = self.hills_height(x, z);
                let biome = if surface > SNOW_LINE {
                    Biome::Snowy
                } else {
                    Biome::Plains
                };
                Column { surface, biome }
            }
        }
    }

    fn biome_noise(&self) -> Option<BiomeNoise> {
        (self.generator == TerrainGenerator::Biomes).then(|| BiomeNoise::new(self.seed))
    }

    fn column(&self, x: i32, z: i32) -> Column {
        self.column_with(self.biome_noise().as_ref(), x, z)
    }

    fn hills_height(&self, x: i32, z: i32) -> i32 {
        let (fx, fz) = (f64::from(x), f64::from(z));
        let continent = fractal2(fx, fz, 256.0, 3, self.seed, SALT_CONTINENT);
        let hills = fractal2(fx, fz, 48.0, 3, self.seed, SALT_HILLS);
        // Flat lowlands near the sea, sharper hills inland.
        let inland = ((continent - 0.35) * 2.5).clamp(0.0, 1.0);
        let height = 50.0 + continent * 28.0 + hills * 30.0 * inland;
        (height.floor() as i32).clamp(1, WORLD_HEIGHT - 16)
    }

    /// The height of the top terrain block (before trees and caves) of
    /// column `(x, z)`.
    #[must_use]
    pub fn surface_height(&self, x: i32, z: i32) -> i32 {
        self.column(x, z).surface
    }

    /// The biome of column `(x, z)` (the hills generator knows only plains,
    /// and snowy peaks).
    #[must_use]
    pub fn biome_at(&self, x: i32, z: i32) -> Biome {
        self.column(x, z).biome
    }

    /// The block of the bare terrain (no trees) at `pos`, in a column whose
    /// ground ends at `surface`; the biome generator also carves its caves.
    #[must_use]
    pub fn ground_block(&self, pos: IVec3, surface: i32) -> BlockType {
        let biome = self.column(pos.x, pos.z).biome;
        let caves = (self.generator == TerrainGenerator::Biomes).then(|| CaveNoise::new(self.seed));
        ground_block_in(pos, surface, biome, caves.as_ref())
    }

    /// The dry land column nearest `(x, z)` (searched in rings out to 512
    /// blocks, every 4 blocks) with neither a tree nor a cave mouth on it,
    /// and its surface height; `None` in an endless ocean.
    #[must_use]
    pub fn land_near(&self, x: i32, z: i32) -> Option<(i32, i32, i32)> {
        let biomes = self.biome_noise();
        let dry = |cx: i32, cz: i32| {
            let surface = self.column_with(biomes.as_ref(), cx, cz).surface;
            let ground = || self.ground_block(IVec3::new(cx, surface, cz), surface);
            (surface > SEA_LEVEL + 1
                && self.tree_with(biomes.as_ref(), cx, cz).is_none()
                && ground().is_solid())
            .then_some((cx, cz, surface))
        };
        (0..=128).find_map(|ring: i32| {
            let r = ring * 4;
            (-r..=r).step_by(4).find_map(|d| {
                [
                    (x + d, z - r),
                    (x + d, z + r),
                    (x - r, z + d),
                    (x + r, z + d),
                ]
                .into_iter()
                .find_map(|(cx, cz)| dry(cx, cz))
            })
        })
    }

    /// The trunk height of the tree rooted on column `(x, z)`, if one grows there.
    #[must_use]
    pub fn tree_at(&self, x: i32, z: i32) -> Option<i32> {
        self.tree_with(self.biome_noise().as_ref(), x, z)
    }

    fn tree_with(&self, biomes: Option<&BiomeNoise>, x: i32, z: i32) -> Option<i32> {
        let roll = unit(hash3(i64::from(x), i64::from(z), self.seed, SALT_TREE));
        // The densest forest's chance first: most columns stop here without
        // any noise evaluated.
        let most = if biomes.is_some() {
            Biome::Forest.tree_chance()
        } else {
            TREE_CHANCE
        };
        if roll >= most {
            return None;
        }
        let column = self.column_with(biomes, x, z);
        let surface = column.surface;
        if surface <= SEA_LEVEL + 1 || surface > SNOW_LINE {
            return None;
        }
        if biomes.is_some() && roll >= column.biome.tree_chance() {
            return None;
        }
        let extra = (hash3(i64::from(x), i64::from(z), self.seed, SALT_TREE_HEIGHT) % 3) as i32;
        let taller = match (biomes.is_some(), column.biome) {
            (true, Biome::Forest) => 1,
            (true, Biome::Snowy) => 2,
            _ => 0,
        };
        Some(4 + extra + taller)
    }

    /// Generates the chunk at `pos`: ground, water, caves (biome worlds),
    /// then every tree whose canopy reaches into it.
    #[must_use]
    pub fn generate(&self, pos: ChunkPos) -> Chunk {
        let origin = pos.origin();
        let size = CHUNK_SIZE as i32;
        if origin.y >= WORLD_HEIGHT || origin.y + size <= 0 {
            return Chunk::empty();
        }
        let mut chunk = Chunk::unpacked();
        let biomes = self.biome_noise();
        let caves = biomes
            .is_some()
            .then(|| CaveNoise::new(self.seed).lattice(origin));
        for lz in 0..CHUNK_SIZE {
            for lx in 0..CHUNK_SIZE {
                let (x, z) = (origin.x + lx as i32, origin.z + lz as i32);
                let column = self.column_with(biomes.as_ref(), x, z);
                let top = column.surface.max(SEA_LEVEL) - origin.y;
                for ly in 0..(top + 1).clamp(0, size) as usize {
                    let y = origin.y + ly as i32;
                    let block = layer_block(y, column.surface, column.biome);
                    let hollow = || {
                        caves.as_ref().is_some_and(|lattice| {
                            lattice.is_cave(
                                IVec3::new(lx as i32, ly as i32, lz as i32),
                                column.surface,
                            )
                        })
                    };
                    if !block.is_air() && (block == BlockType::Water || !hollow()) {
                        chunk.set(lx, ly, lz, block);
                    }
                }
            }
        }
        self.plant_trees(&mut chunk, origin, biomes.as_ref());
        // Rock deep under the land, or open water, keeps one value; the
        // rest packs into a few bits per block.
        chunk.compact();
        chunk
    }

    fn plant_trees(&self, chunk: &mut Chunk, origin: IVec3, biomes: Option<&BiomeNoise>) {
        let size = CHUNK_SIZE as i32;
        let reach = CANOPY_RADIUS;
        for z in origin.z - reach..origin.z + size + reach {
            for x in origin.x - reach..origin.x + size + reach {
                let Some(trunk) = self.tree_with(biomes, x, z) else {
                    continue;
                };
                let base = self.column_with(biomes, x, z).surface + 1;
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

/// The layered ground at height `y` of a column whose ground ends at
/// `surface` in `biome`: water above it up to sea level; sand on beaches
/// and sea floors; grass (snow on peaks) over dirt over stone, or sand in
/// deserts and snow in snowy land.
pub(crate) fn layer_block(y: i32, surface: i32, biome: Biome) -> BlockType {
    if !(0..WORLD_HEIGHT).contains(&y) {
        return BlockType::Air;
    }
    if y > surface {
        return if y <= SEA_LEVEL {
            BlockType::Water
        } else {
            BlockType::Air
        };
    }
    let beach = surface <= SEA_LEVEL + 1;
    let depth = surface - y;
    match biome {
        _ if beach => {
            if depth < DIRT_DEPTH {
                BlockType::Sand
            } else {
                BlockType::Stone
            }
        }
        Biome::Desert if depth < DESERT_SAND_DEPTH => BlockType::Sand,
        _ if depth == 0 && (biome == Biome::Snowy || surface > SNOW_LINE) => BlockType::Snow,
        _ if depth == 0 => BlockType::Grass,
        Biome::Desert => BlockType::Stone,
        _ if depth < DIRT_DEPTH => BlockType::Dirt,
        _ => BlockType::Stone,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terrain_is_layered() {
        for generator in [TerrainGenerator::Hills, TerrainGenerator::Biomes] {
            let terrain = Terrain::with_generator(42, generator);
            for (x, z) in [(0, 0), (100, -50), (-300, 777)] {
                let surface = terrain.surface_height(x, z);
                let above = terrain.ground_block(IVec3::new(x, surface + 1, z), surface);
                assert!(matches!(above, BlockType::Air | BlockType::Water));
                let deep = layer_block(surface - 10, surface, terrain.biome_at(x, z));
                assert_eq!(deep, BlockType::Stone);
            }
        }
    }

    #[test]
    fn some_trees_grow() {
        for generator in [TerrainGenerator::Hills, TerrainGenerator::Biomes] {
            let terrain = Terrain::with_generator(42, generator);
            let trees = (0..200)
                .flat_map(|z| (0..200).map(move |x| (x, z)))
                .filter(|&(x, z)| terrain.tree_at(x, z).is_some())
                .count();
            assert!(trees > 20, "{generator:?}: {trees} trees in 200x200");
        }
    }

    #[test]
    fn generator_numbers_round_trip_and_unknown_ones_are_refused() {
        for generator in [TerrainGenerator::Hills, TerrainGenerator::Biomes] {
            assert_eq!(
                TerrainGenerator::try_from(u8::from(generator)),
                Ok(generator)
            );
        }
        assert_eq!(TerrainGenerator::try_from(9), Err(UnknownGenerator(9)));
    }
}
