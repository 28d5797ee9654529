//! [`PrecipitationMap`]: where rain and snow stop around the camera (the
//! highest block of every column: ground, roofs, leaves, water), and which
//! columns are cold enough for snow.

use glam::{IVec2, IVec3};

use crate::world::{BlockType, World};

/// The second byte of a column whose top block is snow.
pub const SNOWY_TOP: u8 = 255;
/// The second byte of a column whose top block is water.
pub const WATER_TOP: u8 = 64;

/// Columns along each side of the map, centred on the camera. Particles
/// fall within this square.
pub const PRECIPITATION_MAP_SIZE: u32 = 64;
/// How far (in columns) the camera may move from the map's centre before
/// the map is rebuilt.
const RECENTRE_DISTANCE: i32 = 8;

/// Highest blocks of the columns around a point, as the pipeline's
/// precipitation texture wants them: two bytes per column, row by row in
/// +z, each row in +x: the height where falling stops (top block + 1),
/// then what the top block is: [`SNOWY_TOP`] where the column is snowy
/// (snow falls there whatever the height), [`WATER_TOP`] where it is water
/// (light fades with depth under it), else 0.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrecipitationMap {
    origin: IVec2,
    texels: Vec<u8>,
}

impl PrecipitationMap {
    /// The map of the columns around `center` in `world`.
    #[must_use]
    pub fn around(world: &World, center: IVec3) -> Self {
        let half = PRECIPITATION_MAP_SIZE as i32 / 2;
        let origin = IVec2::new(center.x - half, center.z - half);
        let side = PRECIPITATION_MAP_SIZE as usize;
        let mut texels = Vec::with_capacity(side * side * 2);
        for dz in 0..side as i32 {
            for dx in 0..side as i32 {
                let (top, kind) = match world.column_top(origin.x + dx, origin.y + dz) {
                    Some((y, BlockType::Snow)) => (y + 1, SNOWY_TOP),
                    Some((y, BlockType::Water)) => (y + 1, WATER_TOP),
                    Some((y, _)) => (y + 1, 0),
                    None => (0, 0),
                };
                texels.push(top.clamp(0, 255) as u8);
                texels.push(kind);
            }
        }
        Self { origin, texels }
    }

    /// World `(x, z)` of the first column.
    #[must_use]
    pub const fn origin(&self) -> IVec2 {
        self.origin
    }

    /// The bytes, as described on the type.
    #[must_use]
    pub fn texels(&self) -> &[u8] {
        &self.texels
    }

    /// Height where falling stops in column `(x, z)`, if it is on the map.
    #[must_use]
    pub fn stop_height(&self, x: i32, z: i32) -> Option<u8> {
        let side = PRECIPITATION_MAP_SIZE as i32;
        let (dx, dz) = (x - self.origin.x, z - self.origin.y);
        ((0..side).contains(&dx) && (0..side).contains(&dz))
            .then(|| self.texels[((dz * side + dx) * 2) as usize])
    }

    /// Whether the camera at `center` has moved far enough from the map's
    /// centre that it should be rebuilt.
    #[must_use]
    pub fn is_stale_for(&self, center: IVec3) -> bool {
        let half = PRECIPITATION_MAP_SIZE as i32 / 2;
        let mid = self.origin + IVec2::splat(half);
        (center.x - mid.x).abs() > RECENTRE_DISTANCE || (center.z - mid.y).abs() > RECENTRE_DISTANCE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rain_stops_on_the_ground_and_on_a_roof() {
        let mut world = World::new(42);
        let center = IVec3::new(10, 70, 10);
        world.load_around(center, 2);
        let ground = world.column_top(10, 10).expect("terrain").0;
        let map = PrecipitationMap::around(&world, center);
        assert_eq!(map.stop_height(10, 10), Some((ground + 1) as u8));
        world
            .set_block(IVec3::new(10, ground + 5, 10), BlockType::Planks)
            .unwrap();
        let roofed = PrecipitationMap::around(&world, center);
        assert_eq!(roofed.stop_height(10, 10), Some((ground + 6) as u8));
        assert_eq!(roofed.stop_height(10 + 40, 10), None, "off the map");
        assert!(!roofed.is_stale_for(center + IVec3::new(8, 0, -8)));
        assert!(roofed.is_stale_for(center + IVec3::new(9, 0, 0)));
    }

    #[test]
    fn the_map_says_which_columns_are_topped_by_snow_or_water() {
        let mut world = World::new(42);
        let center = IVec3::new(10, 70, 10);
        world.load_around(center, 2);
        let kind = |map: &PrecipitationMap, x: i32, z: i32| {
            let (dx, dz) = (x - map.origin().x, z - map.origin().y);
            map.texels()[((dz * PRECIPITATION_MAP_SIZE as i32 + dx) * 2 + 1) as usize]
        };
        for (block, expected) in [
            (BlockType::Water, WATER_TOP),
            (BlockType::Snow, SNOWY_TOP),
            (BlockType::Stone, 0),
        ] {
            let top = world.column_top(12, 12).expect("terrain").0;
            world.set_block(IVec3::new(12, top + 1, 12), block).unwrap();
            let map = PrecipitationMap::around(&world, center);
            assert_eq!(kind(&map, 12, 12), expected, "{block:?}");
        }
    }
}
