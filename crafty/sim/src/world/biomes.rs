//! The biome generator's climate and columns: temperature and humidity
//! fields pick plains, forest, desert or snowy land, and each biome's own
//! relief is blended by climate weights, so borders are smooth slopes, not
//! cliffs.

use fastnoise_lite::{FastNoiseLite, FractalType, NoiseType};

use super::noise::{hash3, unit};
use super::{SEA_LEVEL, WORLD_HEIGHT};

/// A region of the world with its own ground, relief and trees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Biome {
    /// Gentle grassland with a few trees.
    Plains,
    /// Rolling grassland under dense trees.
    Forest,
    /// Sand dunes, no trees.
    Desert,
    /// Snow-covered hills and mountains with sparse trees.
    Snowy,
}

impl Biome {
    /// Every biome.
    pub const ALL: [Self; 4] = [Self::Plains, Self::Forest, Self::Desert, Self::Snowy];

    /// A display name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Plains => "Plains",
            Self::Forest => "Forest",
            Self::Desert => "Desert",
            Self::Snowy => "Snowy",
        }
    }

    /// The chance that a column of this biome grows a tree.
    pub(super) const fn tree_chance(self) -> f64 {
        match self {
            Self::Plains => 0.004,
            Self::Forest => 0.04,
            Self::Desert => 0.0,
            Self::Snowy => 0.008,
        }
    }
}

/// One column of biome terrain: where its ground ends and what covers it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct BiomeColumn {
    pub(super) surface: i32,
    pub(super) biome: Biome,
}

const SALT_CONTINENT: i32 = 0x0b10_0001;
const SALT_RELIEF: i32 = 0x0b10_0002;
const SALT_TEMPERATURE: i32 = 0x0b10_0003;
const SALT_HUMIDITY: i32 = 0x0b10_0004;
const SALT_RIDGES: i32 = 0x0b10_0005;
const SALT_BORDER: u64 = 0x0b10_0006;

/// An fBm OpenSimplex2 field for `seed` (folded to 32 bits with `salt`).
pub(super) fn field(seed: u64, salt: i32, frequency: f32, octaves: i32) -> FastNoiseLite {
    let folded = (seed ^ (seed >> 32)) as i32;
    let mut noise = FastNoiseLite::with_seed(folded.wrapping_mul(31).wrapping_add(salt));
    noise.set_noise_type(Some(NoiseType::OpenSimplex2));
    noise.set_frequency(Some(frequency));
    noise.set_fractal_type(Some(FractalType::FBm));
    noise.set_fractal_octaves(Some(octaves));
    noise
}

fn smoothstep(edge0: f64, edge1: f64, x: f64) -> f64 {
    let t = ((x - edge0) / (edge1 - edge0)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// The noise fields of one seed's biome terrain. Cheap to build; build one
/// per chunk (or per query) and ask it about many columns.
pub(super) struct BiomeNoise {
    seed: u64,
    continent: FastNoiseLite,
    relief: FastNoiseLite,
    ridges: FastNoiseLite,
    temperature: FastNoiseLite,
    humidity: FastNoiseLite,
}

impl BiomeNoise {
    pub(super) fn new(seed: u64) -> Self {
        Self {
            seed,
            continent: field(seed, SALT_CONTINENT, 1.0 / 320.0, 3),
            relief: field(seed, SALT_RELIEF, 1.0 / 56.0, 3),
            ridges: field(seed, SALT_RIDGES, 1.0 / 90.0, 2),
            temperature: field(seed, SALT_TEMPERATURE, 1.0 / 700.0, 2),
            humidity: field(seed, SALT_HUMIDITY, 1.0 / 560.0, 2),
        }
    }

    /// The climate weights of column `(x, z)`: plains, forest, desert, snowy,
    /// summing to 1.
    fn weights(&self, x: f64, z: f64) -> [f64; 4] {
        let temperature = f64::from(self.temperature.get_noise_2d(x, z)) * 0.5 + 0.5;
        let humidity = f64::from(self.humidity.get_noise_2d(x, z)) * 0.5 + 0.5;
        let snowy = smoothstep(0.40, 0.32, temperature);
        let desert = smoothstep(0.58, 0.66, temperature) * smoothstep(0.52, 0.44, humidity);
        let forest = smoothstep(0.50, 0.58, humidity) * (1.0 - snowy) * (1.0 - desert);
        let plains = (1.0 - snowy - desert - forest).max(0.0);
        let total = plains + forest + desert + snowy;
        [
            plains / total,
            forest / total,
            desert / total,
            snowy / total,
        ]
    }

    /// Column `(x, z)`: its surface height, blended across biome borders,
    /// and the biome that covers it.
    pub(super) fn column(&self, x: i32, z: i32) -> BiomeColumn {
        let (fx, fz) = (f64::from(x), f64::from(z));
        let continent = f64::from(self.continent.get_noise_2d(fx, fz)) * 0.5 + 0.5;
        let relief = f64::from(self.relief.get_noise_2d(fx, fz)) * 0.5 + 0.5;
        let ridge = 1.0 - f64::from(self.ridges.get_noise_2d(fx, fz)).abs();
        let weights = self.weights(fx, fz);
        // Each biome's relief over the shared continent: flat plains,
        // rolling forest, low dunes, high snowy mountains.
        let relief_of = [
            relief * 10.0,
            relief * 18.0,
            ridge * ridge * 7.0,
            relief * 30.0 + ridge * ridge * ridge * 26.0,
        ];
        let blended: f64 = weights.iter().zip(relief_of).map(|(w, r)| w * r).sum();
        let inland = ((continent - 0.3) * 3.0).clamp(0.0, 1.0);
        let height = 53.0 + continent * 26.0 + blended * inland;
        let surface = (height.floor() as i32).clamp(1, WORLD_HEIGHT - 8);
        // The cover follows the strongest climate, with a little jitter so a
        // border frays instead of running in a smooth line.
        let jitter = unit(hash3(i64::from(x), i64::from(z), self.seed, SALT_BORDER)) * 0.16 - 0.08;
        let strongest = weights
            .iter()
            .enumerate()
            .map(|(i, w)| (i, if i == 0 { *w } else { w + jitter }))
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map_or(0, |(i, _)| i);
        let biome = Biome::ALL[strongest];
        // High ground under snow in any biome.
        let biome = if surface > SEA_LEVEL + 40 {
            Biome::Snowy
        } else {
            biome
        };
        BiomeColumn { surface, biome }
    }
}
