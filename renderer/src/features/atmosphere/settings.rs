//! [`Atmosphere`]: the physical description of a planet's air, and how
//! nonsense values in it are repaired.

use glam::Vec3;

/// An Earth-like atmosphere: what the sky feature renders for
/// [`SkyOption::Atmosphere`](crate::features::SkyOption::Atmosphere).
///
/// Lengths are in kilometres, scattering and absorption coefficients in
/// 1/km (per colour channel: red, green, blue), angles in radians.
/// [`Default`] is a clear day on Earth at sea level.
///
/// Values that make no physical sense (non-finite, negative, an empty
/// atmosphere, a phase anisotropy of ±1) are repaired before rendering by
/// [`sanitized`](Self::sanitized) rather than rejected: a bad field falls
/// back to its default, an out-of-range one is clamped.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Atmosphere {
    /// Radius of the planet's surface, in km (Earth: 6360).
    pub planet_radius: f32,
    /// Thickness of the atmosphere above the surface, in km (Earth: 100).
    pub atmosphere_height: f32,
    /// Rayleigh (air molecule) scattering at sea level, in 1/km.
    pub rayleigh_scattering: Vec3,
    /// Altitude over which the Rayleigh density falls by a factor e, in km.
    pub rayleigh_scale_height: f32,
    /// Mie (aerosol) scattering at sea level, in 1/km.
    pub mie_scattering: Vec3,
    /// Mie (aerosol) absorption at sea level, in 1/km.
    pub mie_absorption: Vec3,
    /// Altitude over which the Mie density falls by a factor e, in km.
    pub mie_scale_height: f32,
    /// Mie phase anisotropy (Cornette-Shanks `g`): 0 scatters evenly,
    /// towards 1 ever more forwards (the glow around the sun). Clamped to
    /// ±0.999.
    pub mie_anisotropy: f32,
    /// Ozone absorption at the peak of its layer, in 1/km.
    pub ozone_absorption: Vec3,
    /// Altitude of the ozone layer's peak density, in km (Earth: 25).
    pub ozone_peak_altitude: f32,
    /// Ozone density falls linearly from the peak to zero over this
    /// distance above and below it (a tent), in km (Earth: 15).
    pub ozone_half_width: f32,
    /// Diffuse reflectance of the ground, 0..1 per channel.
    pub ground_albedo: Vec3,
    /// Angular radius of the sun's disk, in radians (Earth: 0.00467, about
    /// a quarter of a degree). Clamped to at most 0.2.
    pub sun_angular_radius: f32,
    /// Sun illuminance in the HDR target's units: every radiance the sky
    /// produces is proportional to it. The default, 20, puts a clear noon
    /// zenith near 0.3 to 0.5 in the blue channel, a normal blue sky after
    /// the tonemapper at exposure 1 with the ACES curve.
    pub sun_illuminance: f32,
}

impl Default for Atmosphere {
    fn default() -> Self {
        Self {
            planet_radius: 6360.0,
            atmosphere_height: 100.0,
            rayleigh_scattering: Vec3::new(5.802e-3, 13.558e-3, 33.1e-3),
            rayleigh_scale_height: 8.0,
            mie_scattering: Vec3::splat(3.996e-3),
            mie_absorption: Vec3::splat(0.444e-3),
            mie_scale_height: 1.2,
            mie_anisotropy: 0.8,
            ozone_absorption: Vec3::new(0.650e-3, 1.881e-3, 0.085e-3),
            ozone_peak_altitude: 25.0,
            ozone_half_width: 15.0,
            ground_albedo: Vec3::splat(0.3),
            sun_angular_radius: 0.004_67,
            sun_illuminance: 20.0,
        }
    }
}

/// The largest sun disk (angular radius, radians) the sky draws.
const MAX_SUN_ANGULAR_RADIUS: f32 = 0.2;
/// The thinnest layer (atmosphere height, scale heights, ozone half width)
/// the integrators accept, in km: below it their step sizes degenerate.
const MIN_LAYER_KM: f32 = 0.01;
/// The smallest planet, in km.
const MIN_PLANET_RADIUS_KM: f32 = 1.0;
/// The largest Mie anisotropy magnitude: at 1 the phase function is a
/// delta and its normalisation divides by zero.
const MAX_MIE_ANISOTROPY: f32 = 0.999;

impl Atmosphere {
    /// This atmosphere with every field made safe to render:
    ///
    /// - a non-finite field (or channel) takes its [`Default`] value;
    /// - negative coefficients, albedo, illuminance and altitudes take
    ///   their default too (a negative scattering coefficient is a typo,
    ///   not a request for zero);
    /// - lengths that must be positive (planet radius, atmosphere height,
    ///   scale heights, ozone half width) are raised to a small minimum;
    /// - `mie_anisotropy` is clamped to ±0.999, `ground_albedo` to 0..1,
    ///   `sun_angular_radius` to 0..0.2.
    #[must_use]
    pub fn sanitized(self) -> Self {
        let default = Self::default();
        Self {
            planet_radius: non_negative(self.planet_radius, default.planet_radius)
                .max(MIN_PLANET_RADIUS_KM),
            atmosphere_height: non_negative(self.atmosphere_height, default.atmosphere_height)
                .max(MIN_LAYER_KM),
            rayleigh_scattering: non_negative3(
                self.rayleigh_scattering,
                default.rayleigh_scattering,
            ),
            rayleigh_scale_height: non_negative(
                self.rayleigh_scale_height,
                default.rayleigh_scale_height,
            )
            .max(MIN_LAYER_KM),
            mie_scattering: non_negative3(self.mie_scattering, default.mie_scattering),
            mie_absorption: non_negative3(self.mie_absorption, default.mie_absorption),
            mie_scale_height: non_negative(self.mie_scale_height, default.mie_scale_height)
                .max(MIN_LAYER_KM),
            mie_anisotropy: finite(self.mie_anisotropy, default.mie_anisotropy)
                .clamp(-MAX_MIE_ANISOTROPY, MAX_MIE_ANISOTROPY),
            ozone_absorption: non_negative3(self.ozone_absorption, default.ozone_absorption),
            ozone_peak_altitude: non_negative(
                self.ozone_peak_altitude,
                default.ozone_peak_altitude,
            ),
            ozone_half_width: non_negative(self.ozone_half_width, default.ozone_half_width)
                .max(MIN_LAYER_KM),
            ground_albedo: non_negative3(self.ground_albedo, default.ground_albedo).min(Vec3::ONE),
            sun_angular_radius: non_negative(self.sun_angular_radius, default.sun_angular_radius)
                .min(MAX_SUN_ANGULAR_RADIUS),
            sun_illuminance: non_negative(self.sun_illuminance, default.sun_illuminance),
        }
    }
}

fn finite(value: f32, fallback: f32) -> f32 {
    if value.is_finite() { value } else { fallback }
}

fn non_negative(value: f32, fallback: f32) -> f32 {
    if value.is_finite() && value >= 0.0 {
        value
    } else {
        fallback
    }
}

fn non_negative3(value: Vec3, fallback: Vec3) -> Vec3 {
    Vec3::new(
        non_negative(value.x, fallback.x),
        non_negative(value.y, fallback.y),
        non_negative(value.z, fallback.z),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_already_sane() {
        assert_eq!(Atmosphere::default().sanitized(), Atmosphere::default());
    }

    #[test]
    fn non_finite_and_negative_fields_take_their_defaults() {
        let default = Atmosphere::default();
        let bad = Atmosphere {
            planet_radius: f32::NAN,
            atmosphere_height: -5.0,
            rayleigh_scattering: Vec3::new(f32::INFINITY, -1.0, 0.02),
            rayleigh_scale_height: f32::NEG_INFINITY,
            mie_scattering: Vec3::splat(f32::NAN),
            mie_absorption: Vec3::splat(-0.1),
            mie_scale_height: -1.2,
            mie_anisotropy: f32::NAN,
            ozone_absorption: Vec3::new(0.001, f32::NAN, 0.0),
            ozone_peak_altitude: -3.0,
            ozone_half_width: f32::INFINITY,
            ground_albedo: Vec3::new(-0.5, f32::NAN, 0.2),
            sun_angular_radius: f32::NAN,
            sun_illuminance: -20.0,
        };
        let fixed = bad.sanitized();
        assert_eq!(fixed.planet_radius, default.planet_radius);
        assert_eq!(fixed.atmosphere_height, default.atmosphere_height);
        assert_eq!(
            fixed.rayleigh_scattering,
            Vec3::new(
                default.rayleigh_scattering.x,
                default.rayleigh_scattering.y,
                0.02
            )
        );
        assert_eq!(fixed.rayleigh_scale_height, default.rayleigh_scale_height);
        assert_eq!(fixed.mie_scattering, default.mie_scattering);
        assert_eq!(fixed.mie_absorption, default.mie_absorption);
        assert_eq!(fixed.mie_scale_height, default.mie_scale_height);
        assert_eq!(fixed.mie_anisotropy, default.mie_anisotropy);
        assert_eq!(
            fixed.ozone_absorption,
            Vec3::new(0.001, default.ozone_absorption.y, 0.0)
        );
        assert_eq!(fixed.ozone_peak_altitude, default.ozone_peak_altitude);
        assert_eq!(fixed.ozone_half_width, default.ozone_half_width);
        assert_eq!(
            fixed.ground_albedo,
            Vec3::new(default.ground_albedo.x, default.ground_albedo.y, 0.2)
        );
        assert_eq!(fixed.sun_angular_radius, default.sun_angular_radius);
        assert_eq!(fixed.sun_illuminance, default.sun_illuminance);
    }

    #[test]
    fn out_of_range_fields_are_clamped() {
        let fixed = Atmosphere {
            planet_radius: 0.0,
            atmosphere_height: 0.0,
            rayleigh_scale_height: 0.0,
            mie_scale_height: 0.0,
            ozone_half_width: 0.0,
            mie_anisotropy: 1.0,
            ground_albedo: Vec3::splat(4.0),
            sun_angular_radius: 3.0,
            ..Atmosphere::default()
        }
        .sanitized();
        assert_eq!(fixed.planet_radius, MIN_PLANET_RADIUS_KM);
        assert_eq!(fixed.atmosphere_height, MIN_LAYER_KM);
        assert_eq!(fixed.rayleigh_scale_height, MIN_LAYER_KM);
        assert_eq!(fixed.mie_scale_height, MIN_LAYER_KM);
        assert_eq!(fixed.ozone_half_width, MIN_LAYER_KM);
        assert_eq!(fixed.mie_anisotropy, MAX_MIE_ANISOTROPY);
        assert_eq!(fixed.ground_albedo, Vec3::ONE);
        assert_eq!(fixed.sun_angular_radius, MAX_SUN_ANGULAR_RADIUS);
        let fixed = Atmosphere {
            mie_anisotropy: -7.0,
            ..Atmosphere::default()
        }
        .sanitized();
        assert_eq!(fixed.mie_anisotropy, -MAX_MIE_ANISOTROPY);
    }

    #[test]
    fn zero_is_a_valid_coefficient() {
        let clear = Atmosphere {
            mie_scattering: Vec3::ZERO,
            mie_absorption: Vec3::ZERO,
            ozone_absorption: Vec3::ZERO,
            sun_illuminance: 0.0,
            ..Atmosphere::default()
        };
        assert_eq!(clear.sanitized(), clear);
    }
}
