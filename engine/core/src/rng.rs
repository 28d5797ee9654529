//! A seeded, portable random number generator for simulations that must replay.

use bevy_ecs::resource::Resource;

/// SplitMix64: tiny, fast, and the same sequence on every platform and build.
/// A scene resource seeded from the run's seed, so recorded sessions replay.
///
/// ```
/// use taos_core::game_loop::GameRng;
///
/// let (mut a, mut b) = (GameRng::new(7), GameRng::new(7));
/// assert_eq!(a.next_u64(), b.next_u64());
/// let x = a.range_f32(-1.0, 1.0);
/// assert!((-1.0..1.0).contains(&x));
/// ```
#[derive(Resource, Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GameRng {
    state: u64,
}

impl GameRng {
    /// A generator seeded with `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A float in `[0, 1)` with 24 random bits.
    pub fn next_f32(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }

    /// A float in `[low, high)`.
    pub fn range_f32(&mut self, low: f32, high: f32) -> f32 {
        low + (high - low) * self.next_f32()
    }

    /// An integer in `[0, n)`; 0 when `n` is 0.
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next_u64() % n }
    }

    /// `true` with probability `p`.
    pub fn chance(&mut self, p: f32) -> bool {
        self.next_f32() < p
    }
}

impl GameRng {
    /// The generator's whole state (what checksums hash).
    pub(crate) fn state(&self) -> u64 {
        self.state
    }
}
