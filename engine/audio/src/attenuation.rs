//! How an emitter's gain falls with its distance from the listener.

/// A distance attenuation curve. Within an emitter's minimum distance the gain is
/// 1; beyond it the curve applies, and the maximum distance ends it: [`Linear`]
/// reaches silence there, the others stop attenuating there (the gain holds
/// at its value at the maximum distance, as in Web Audio and most engines).
///
/// [`Linear`]: Attenuation::Linear
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Attenuation {
    /// No attenuation: the same gain at any distance.
    None,
    /// From 1 at the minimum distance straight down to 0 at the maximum.
    Linear,
    /// `min / (min + rolloff * (d - min))`: the physical 1/d falloff for `rolloff` 1.
    Inverse {
        /// How fast the gain falls (1 is physical).
        rolloff: f32,
    },
    /// `(d / min) ^ -rolloff`.
    Exponential {
        /// The exponent (1 is like inverse, 2 is inverse-square).
        rolloff: f32,
    },
}

impl Default for Attenuation {
    /// Inverse distance with rolloff 1, the physical falloff.
    fn default() -> Self {
        Self::Inverse { rolloff: 1.0 }
    }
}

impl Attenuation {
    /// The gain (0..=1) at `distance` for an emitter heard at full volume up to
    /// `min_distance` and attenuated up to `max_distance`. Non-finite or
    /// negative inputs are treated as the nearest sensible value (a NaN
    /// distance is heard at full volume, never as a NaN gain).
    #[must_use]
    pub fn gain(self, distance: f32, min_distance: f32, max_distance: f32) -> f32 {
        let min = if min_distance.is_finite() {
            min_distance.max(1e-3)
        } else {
            1.0
        };
        let max = if max_distance.is_finite() {
            max_distance.max(min)
        } else {
            f32::MAX
        };
        let d = if distance.is_nan() {
            min
        } else {
            distance.clamp(min, max)
        };
        let gain = match self {
            Self::None => 1.0,
            Self::Linear if max > min => 1.0 - (d - min) / (max - min),
            Self::Linear => 1.0,
            Self::Inverse { rolloff } => min / (min + rolloff.max(0.0) * (d - min)),
            Self::Exponential { rolloff } => (d / min).powf(-rolloff.max(0.0)),
        };
        if gain.is_finite() {
            gain.clamp(0.0, 1.0)
        } else {
            0.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Attenuation;

    #[test]
    fn full_volume_inside_min_distance() {
        for curve in [
            Attenuation::Linear,
            Attenuation::default(),
            Attenuation::Exponential { rolloff: 2.0 },
        ] {
            assert_eq!(curve.gain(0.0, 2.0, 20.0), 1.0);
            assert_eq!(curve.gain(2.0, 2.0, 20.0), 1.0);
        }
    }

    #[test]
    fn linear_reaches_silence_at_max() {
        let curve = Attenuation::Linear;
        assert!((curve.gain(11.0, 2.0, 20.0) - 0.5).abs() < 1e-6);
        assert_eq!(curve.gain(20.0, 2.0, 20.0), 0.0);
        assert_eq!(curve.gain(500.0, 2.0, 20.0), 0.0);
    }

    #[test]
    fn inverse_halves_at_twice_min_and_holds_past_max() {
        let curve = Attenuation::Inverse { rolloff: 1.0 };
        assert!((curve.gain(4.0, 2.0, 20.0) - 0.5).abs() < 1e-6);
        assert_eq!(curve.gain(20.0, 2.0, 20.0), curve.gain(80.0, 2.0, 20.0));
    }

    #[test]
    fn bad_numbers_never_give_nan() {
        let curve = Attenuation::Exponential { rolloff: 1.0 };
        for (d, min, max) in [
            (f32::NAN, 1.0, 10.0),
            (5.0, f32::NAN, 10.0),
            (5.0, 1.0, f32::NAN),
            (-3.0, 0.0, 0.0),
            (f32::INFINITY, 1.0, f32::INFINITY),
        ] {
            let gain = curve.gain(d, min, max);
            assert!((0.0..=1.0).contains(&gain), "{d} {min} {max} -> {gain}");
        }
    }
}
