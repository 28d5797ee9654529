//! Values over a particle's life: [`Curve`] (one number) and [`Gradient`]
//! (a colour), piecewise linear between keys at life fractions `0..1`.
//!
//! The draw shader (the same on both simulation paths) reads both as
//! [`CURVE_SAMPLES`] evenly spaced samples, blended linearly.

use glam::Vec3;

/// Samples a curve is baked to for the shaders.
pub const CURVE_SAMPLES: usize = 16;

/// A number over life: keys `(t, value)` with `t` in `0..1`, in any
/// order; between keys the value runs linearly, beyond them it holds.
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    keys: Vec<(f32, f32)>,
}

impl Curve {
    /// Always `value`.
    #[must_use]
    pub fn constant(value: f32) -> Self {
        Self {
            keys: vec![(0.0, value)],
        }
    }

    /// From `start` at birth to `end` at death.
    #[must_use]
    pub fn linear(start: f32, end: f32) -> Self {
        Self {
            keys: vec![(0.0, start), (1.0, end)],
        }
    }

    /// Through `keys` (`(t, value)` pairs; an empty list is 0).
    #[must_use]
    pub fn from_keys(keys: impl IntoIterator<Item = (f32, f32)>) -> Self {
        let mut keys: Vec<(f32, f32)> = keys.into_iter().collect();
        keys.sort_by(|a, b| a.0.total_cmp(&b.0));
        Self { keys }
    }

    /// The keys, in order of `t`.
    #[must_use]
    pub fn keys(&self) -> &[(f32, f32)] {
        &self.keys
    }

    /// The value at `t` (clamped to `0..1`).
    #[must_use]
    pub fn sample(&self, t: f32) -> f32 {
        sample_keys(&self.keys, t, |a, b, f| a + (b - a) * f).unwrap_or(0.0)
    }

    /// The curve as [`CURVE_SAMPLES`] samples from `t = 0` to `t = 1`.
    #[must_use]
    pub fn baked(&self) -> [f32; CURVE_SAMPLES] {
        std::array::from_fn(|i| self.sample(i as f32 / (CURVE_SAMPLES - 1) as f32))
    }

    pub(super) fn is_finite(&self) -> bool {
        self.keys
            .iter()
            .all(|(t, v)| t.is_finite() && v.is_finite())
    }

    /// Without keys whose time or value is not finite.
    pub(super) fn sanitized(&self) -> Self {
        Self {
            keys: self
                .keys
                .iter()
                .copied()
                .filter(|(t, v)| t.is_finite() && v.is_finite())
                .collect(),
        }
    }
}

/// A colour over life: keys `(t, linear RGB)`, as [`Curve`].
#[derive(Debug, Clone, PartialEq)]
pub struct Gradient {
    keys: Vec<(f32, Vec3)>,
}

impl Gradient {
    /// Always `color`.
    #[must_use]
    pub fn constant(color: Vec3) -> Self {
        Self {
            keys: vec![(0.0, color)],
        }
    }

    /// From `start` at birth to `end` at death.
    #[must_use]
    pub fn linear(start: Vec3, end: Vec3) -> Self {
        Self {
            keys: vec![(0.0, start), (1.0, end)],
        }
    }

    /// Through `keys` (`(t, colour)` pairs; an empty list is black).
    #[must_use]
    pub fn from_keys(keys: impl IntoIterator<Item = (f32, Vec3)>) -> Self {
        let mut keys: Vec<(f32, Vec3)> = keys.into_iter().collect();
        keys.sort_by(|a, b| a.0.total_cmp(&b.0));
        Self { keys }
    }

    /// The colour at `t` (clamped to `0..1`).
    #[must_use]
    pub fn sample(&self, t: f32) -> Vec3 {
        sample_keys(&self.keys, t, |a, b, f| a.lerp(b, f)).unwrap_or(Vec3::ZERO)
    }

    pub(super) fn is_finite(&self) -> bool {
        self.keys
            .iter()
            .all(|(t, c)| t.is_finite() && c.is_finite())
    }

    pub(super) fn sanitized(&self) -> Self {
        Self {
            keys: self
                .keys
                .iter()
                .copied()
                .filter(|(t, c)| t.is_finite() && c.is_finite())
                .collect(),
        }
    }
}

/// The value of sorted `keys` at `t`, or `None` without keys.
fn sample_keys<T: Copy>(keys: &[(f32, T)], t: f32, lerp: impl Fn(T, T, f32) -> T) -> Option<T> {
    let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
    let (first, last) = (keys.first()?, keys.last()?);
    if t <= first.0 {
        return Some(first.1);
    }
    if t >= last.0 {
        return Some(last.1);
    }
    let next = keys.partition_point(|(key, _)| *key <= t);
    let (a, b) = (keys[next - 1], keys[next]);
    let span = b.0 - a.0;
    let f = if span > 0.0 { (t - a.0) / span } else { 1.0 };
    Some(lerp(a.1, b.1, f))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn curves_run_linearly_between_keys_and_hold_beyond() {
        let curve = Curve::from_keys([(0.5, 2.0), (0.25, 0.0), (1.0, 2.0)]);
        assert_eq!(curve.sample(0.0), 0.0);
        assert!((curve.sample(0.375) - 1.0).abs() < 1e-6);
        assert_eq!(curve.sample(0.75), 2.0);
        assert_eq!(curve.sample(f32::NAN), 0.0);
        assert_eq!(Curve::from_keys([]).sample(0.5), 0.0);
        let baked = Curve::linear(1.0, 0.0).baked();
        assert!((baked[3] - 0.8).abs() < 1e-5, "{baked:?}");
        let gradient = Gradient::linear(Vec3::ZERO, Vec3::ONE);
        assert!((gradient.sample(0.5) - Vec3::splat(0.5)).length() < 1e-6);
    }

    #[test]
    fn non_finite_keys_are_dropped() {
        let curve = Curve::from_keys([(0.0, f32::NAN), (1.0, 3.0)]);
        assert!(!curve.is_finite());
        assert_eq!(curve.sanitized().sample(0.0), 3.0);
    }
}
