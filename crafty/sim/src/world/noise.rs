//! Seeded value noise built from integer hashing and IEEE arithmetic only
//! (no `sin`, `exp` or platform math), so the same seed gives bit-identical
//! terrain on every platform.

/// A 64-bit mix (SplitMix64's finaliser) of a lattice point, a seed and a salt.
#[must_use]
pub(crate) fn hash3(x: i64, z: i64, seed: u64, salt: u64) -> u64 {
    let mut h = seed
        ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (x as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
        ^ (z as u64).wrapping_mul(0x1656_67B1_9E37_79F9);
    h = (h ^ (h >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    h ^ (h >> 31)
}

/// A hash turned into a uniform value in `[0, 1)`.
#[must_use]
pub(crate) fn unit(hash: u64) -> f64 {
    (hash >> 11) as f64 / (1u64 << 53) as f64
}

fn smooth(t: f64) -> f64 {
    t * t * (3.0 - 2.0 * t)
}

/// Value noise in `[0, 1)` at `(x, z)` with lattice spacing `scale` blocks.
#[must_use]
pub(crate) fn value2(x: f64, z: f64, scale: f64, seed: u64, salt: u64) -> f64 {
    let (fx, fz) = (x / scale, z / scale);
    let (x0, z0) = (fx.floor(), fz.floor());
    let (tx, tz) = (smooth(fx - x0), smooth(fz - z0));
    let (ix, iz) = (x0 as i64, z0 as i64);
    let corner = |dx: i64, dz: i64| unit(hash3(ix + dx, iz + dz, seed, salt));
    let top = corner(0, 0) + (corner(1, 0) - corner(0, 0)) * tx;
    let bottom = corner(0, 1) + (corner(1, 1) - corner(0, 1)) * tx;
    top + (bottom - top) * tz
}

/// Fractal value noise: `octaves` layers, each half the scale and amplitude
/// of the last, normalised to `[0, 1)`.
#[must_use]
pub(crate) fn fractal2(x: f64, z: f64, scale: f64, octaves: u32, seed: u64, salt: u64) -> f64 {
    let (mut sum, mut norm, mut amp, mut s) = (0.0, 0.0, 1.0, scale);
    for octave in 0..octaves {
        sum += value2(x, z, s, seed, salt.wrapping_add(u64::from(octave))) * amp;
        norm += amp;
        amp *= 0.5;
        s *= 0.5;
    }
    sum / norm
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_is_in_range_and_continuous() {
        for i in 0..1000 {
            let x = f64::from(i) * 0.37 - 150.0;
            let v = fractal2(x, -x * 0.5, 64.0, 4, 7, 1);
            assert!((0.0..1.0).contains(&v));
            let next = fractal2(x + 0.01, -x * 0.5, 64.0, 4, 7, 1);
            assert!((v - next).abs() < 0.01, "jump at {x}");
        }
    }

    #[test]
    fn seeds_differ() {
        assert_ne!(
            value2(10.5, 3.25, 16.0, 1, 0),
            value2(10.5, 3.25, 16.0, 2, 0)
        );
    }
}
