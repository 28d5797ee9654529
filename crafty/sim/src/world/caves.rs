//! Caves of the biome generator: winding tunnels where two 3D noise fields
//! both cross zero, and wider caverns deep down where a third is high.
//!
//! The fields are sampled on a lattice every [`LATTICE`] blocks and blended
//! in between (smooth walls, an eighth of the noise work); one block asked on
//! its own and a whole chunk carved at once give the same answer.

use fastnoise_lite::{FastNoiseLite, FractalType};

use super::biomes::field;
use super::{CHUNK_SIZE, SEA_LEVEL};

/// Spacing of the noise lattice, blocks.
const LATTICE: i32 = 4;
/// Cells of the lattice along a chunk's edge.
const CELLS: usize = CHUNK_SIZE / LATTICE as usize;
/// How close to zero both tunnel fields must be.
const TUNNEL_WIDTH: f32 = 0.075;
/// Cavern field above this is hollow.
const CAVERN_LEVEL: f32 = 0.5;
/// Caves never cut below this height (a solid floor).
const FLOOR: i32 = 4;
/// Caverns stay this far under the surface (tunnels may break through).
const CAVERN_COVER: i32 = 10;
/// Vertical squash: tunnels run more sideways than up and down.
const Y_STRETCH: f64 = 1.7;

const SALT_TUNNEL_A: i32 = 0x0cae_0001;
const SALT_TUNNEL_B: i32 = 0x0cae_0002;
const SALT_CAVERN: i32 = 0x0cae_0003;

type Sample = [f32; 3];

/// The cave fields of one seed.
pub(super) struct CaveNoise {
    tunnel_a: FastNoiseLite,
    tunnel_b: FastNoiseLite,
    cavern: FastNoiseLite,
}

/// The lattice samples around one chunk: `CELLS + 1` points along each edge.
pub(super) struct CaveLattice {
    origin: glam::IVec3,
    samples: Vec<Sample>,
}

impl CaveNoise {
    pub(super) fn new(seed: u64) -> Self {
        let single = |salt, frequency| {
            let mut noise = field(seed, salt, frequency, 1);
            noise.set_fractal_type(Some(FractalType::None));
            noise
        };
        Self {
            tunnel_a: single(SALT_TUNNEL_A, 1.0 / 48.0),
            tunnel_b: single(SALT_TUNNEL_B, 1.0 / 48.0),
            cavern: field(seed, SALT_CAVERN, 1.0 / 70.0, 2),
        }
    }

    fn sample(&self, x: i32, y: i32, z: i32) -> Sample {
        let (fx, fy, fz) = (f64::from(x), f64::from(y) * Y_STRETCH, f64::from(z));
        [
            self.tunnel_a.get_noise_3d(fx, fy, fz),
            self.tunnel_b.get_noise_3d(fx, fy, fz),
            self.cavern.get_noise_3d(fx, fy, fz),
        ]
    }

    /// The lattice over the chunk whose first block is `origin`.
    pub(super) fn lattice(&self, origin: glam::IVec3) -> CaveLattice {
        let side = CELLS + 1;
        let mut samples = Vec::with_capacity(side * side * side);
        for cy in 0..side as i32 {
            for cz in 0..side as i32 {
                for cx in 0..side as i32 {
                    let p = origin + glam::IVec3::new(cx, cy, cz) * LATTICE;
                    samples.push(self.sample(p.x, p.y, p.z));
                }
            }
        }
        CaveLattice { origin, samples }
    }

    /// Whether block `(x, y, z)` of a column whose ground ends at `surface`
    /// is hollowed out.
    pub(super) fn is_cave(&self, x: i32, y: i32, z: i32, surface: i32) -> bool {
        if !may_carve(y, surface) {
            return false;
        }
        let cell = glam::IVec3::new(x, y, z).div_euclid(glam::IVec3::splat(LATTICE)) * LATTICE;
        let corners = corner_offsets().map(|o| {
            let p = cell + o * LATTICE;
            self.sample(p.x, p.y, p.z)
        });
        carved(
            blend(&corners, glam::IVec3::new(x, y, z) - cell),
            y,
            surface,
        )
    }
}

impl CaveLattice {
    /// Whether chunk-local block `local` of a column whose ground ends at
    /// `surface` is hollowed out (the same answer as
    /// [`CaveNoise::is_cave`]).
    pub(super) fn is_cave(&self, local: glam::IVec3, surface: i32) -> bool {
        let y = self.origin.y + local.y;
        if !may_carve(y, surface) {
            return false;
        }
        let cell = local.div_euclid(glam::IVec3::splat(LATTICE));
        let side = CELLS as i32 + 1;
        let corners = corner_offsets().map(|o| {
            let c = cell + o;
            self.samples[((c.y * side + c.z) * side + c.x) as usize]
        });
        carved(blend(&corners, local - cell * LATTICE), y, surface)
    }
}

fn may_carve(y: i32, surface: i32) -> bool {
    // Only under dry land, so no sea pours into a cave.
    surface > SEA_LEVEL + 1 && (FLOOR..=surface).contains(&y)
}

fn corner_offsets() -> [glam::IVec3; 8] {
    std::array::from_fn(|i| glam::IVec3::new((i & 1) as i32, (i >> 1 & 1) as i32, (i >> 2) as i32))
}

/// Trilinear blend of the eight corners at `offset` blocks into the cell.
fn blend(corners: &[Sample; 8], offset: glam::IVec3) -> Sample {
    let t = offset.as_vec3() / LATTICE as f32;
    let lerp = |a: Sample, b: Sample, t: f32| std::array::from_fn(|i| a[i] + (b[i] - a[i]) * t);
    let x0 = lerp(corners[0], corners[1], t.x);
    let x1 = lerp(corners[2], corners[3], t.x);
    let x2 = lerp(corners[4], corners[5], t.x);
    let x3 = lerp(corners[6], corners[7], t.x);
    let y0 = lerp(x0, x1, t.y);
    let y1 = lerp(x2, x3, t.y);
    lerp(y0, y1, t.z)
}

fn carved(sample: Sample, y: i32, surface: i32) -> bool {
    let [a, b, cavern] = sample;
    let tunnel = a.abs() < TUNNEL_WIDTH && b.abs() < TUNNEL_WIDTH;
    tunnel || (cavern > CAVERN_LEVEL && y < surface - CAVERN_COVER)
}
