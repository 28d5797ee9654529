//! Counter-based random numbers: the `k`-th number of particle `index` of an
//! emitter seeded `seed` is a pure function of the three, so a particle's
//! start does not depend on frame timing, on the path (CPU or GPU), or on
//! which particles came before it.

/// SplitMix64's finaliser: 64 well-mixed bits from any 64.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A float in `[0, 1)` for `(seed, index, stream)`.
#[must_use]
pub(crate) fn unit(seed: u64, index: u64, stream: u32) -> f32 {
    let bits = mix(seed
        ^ mix(index.wrapping_add(0x9E37_79B9_7F4A_7C15))
        ^ (u64::from(stream) << 56 | u64::from(stream)));
    (bits >> 40) as f32 / (1u64 << 24) as f32
}

/// [`unit`] with seed 0 (fixed patterns, such as a mesh's surface points).
#[must_use]
pub(crate) fn unit_from(index: u64, stream: u32) -> f32 {
    unit(0, index, stream)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_spread_and_independent_of_order() {
        let values: Vec<f32> = (0..10_000).map(|i| unit(42, i, 0)).collect();
        let mean = values.iter().sum::<f32>() / values.len() as f32;
        assert!((mean - 0.5).abs() < 0.02, "{mean}");
        assert!(values.iter().all(|v| (0.0..1.0).contains(v)));
        assert_eq!(unit(42, 77, 3), unit(42, 77, 3));
        assert_ne!(unit(42, 77, 3), unit(43, 77, 3));
        assert_ne!(unit(42, 77, 3), unit(42, 77, 4));
    }
}
