//! Where rain and snow land near the player: the top of a random column,
//! and whether rain or snow lands there.

use glam::{IVec3, Vec3};

use crate::render::SNOW_ALTITUDE;
use crate::weather::WeatherKind;
use crate::world::{BlockType, World};

/// Columns within this many metres of the player get splashes.
pub const LANDING_RADIUS: f32 = 16.0;

/// What lands on a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Landing {
    /// A rain drop: a splash.
    Rain,
    /// A snow flake: a puff.
    Snow,
}

/// A well-mixed 64-bit hash (splitmix64's finaliser).
#[must_use]
pub(super) fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// A number in `0..1` from a hash.
fn unit(hash: u64) -> f32 {
    (hash >> 40) as f32 / (1u64 << 24) as f32
}

/// The landing spot `roll` picks within [`LANDING_RADIUS`] of `around`:
/// the middle of the top face of the column's highest block, when that
/// block is solid (rain on water, or on a column not loaded yet, makes
/// no splash), and what lands there in `weather`.
#[must_use]
pub fn landing_spot(
    world: &World,
    around: Vec3,
    roll: u64,
    weather: WeatherKind,
) -> Option<(Vec3, Landing)> {
    if weather == WeatherKind::Clear || !around.is_finite() {
        return None;
    }
    // Uniform over the disc.
    let (a, b) = (unit(mix(roll)), unit(mix(roll ^ 0x5DEE_CE66)));
    let distance = a.sqrt() * LANDING_RADIUS;
    let turn = b * std::f32::consts::TAU;
    let x = (around.x + turn.cos() * distance).floor() as i32;
    let z = (around.z + turn.sin() * distance).floor() as i32;
    let (top, block) = world.column_top(x, z)?;
    let at = IVec3::new(x, top, z);
    // The estimate of an unloaded column is not a block one can stand on.
    if !block.is_solid() || world.block(at) != block {
        return None;
    }
    let surface = top + 1;
    let landing = if weather == WeatherKind::Snow
        || block == BlockType::Snow
        || surface as f32 > SNOW_ALTITUDE
    {
        Landing::Snow
    } else {
        Landing::Rain
    };
    let spot = Vec3::new(x as f32 + 0.5, surface as f32 + 0.02, z as f32 + 0.5);
    Some((spot, landing))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spots_lie_on_solid_tops_near_the_player_and_none_in_clear_weather() {
        let mut world = World::new(42);
        let center = IVec3::new(10, 70, 10);
        world.load_around(center, 2);
        let around = center.as_vec3();
        let mut found = 0;
        for roll in 0..200 {
            assert_eq!(landing_spot(&world, around, roll, WeatherKind::Clear), None);
            let Some((spot, landing)) = landing_spot(&world, around, roll, WeatherKind::Rain)
            else {
                continue;
            };
            found += 1;
            let below = (spot - Vec3::Y * 0.5).floor().as_ivec3();
            assert!(world.block(below).is_solid(), "{spot} over {below}");
            assert!(world.block(below + IVec3::Y).is_air(), "open above {spot}");
            assert!(spot.with_y(0.0).distance(around.with_y(0.0)) <= LANDING_RADIUS + 1.5);
            if spot.y < SNOW_ALTITUDE - 1.0 && world.block(below) != BlockType::Snow {
                assert_eq!(landing, Landing::Rain);
            }
            let (_, snow) = landing_spot(&world, around, roll, WeatherKind::Snow).unwrap();
            assert_eq!(snow, Landing::Snow);
        }
        assert!(found > 100, "most rolls land on ground: {found}");
    }
}
