//! The sun, the moon and the sky's colours as pure functions of the time of
//! day. The game decides them each tick from game time; the render pipeline
//! only draws what it is handed (the frame's data flows one way).
//!
//! The sun turns in the x-y plane: it rises in +x at angle 0, stands overhead
//! at π/2 and sets in -x at π; from π to 2π it is below the horizon and the
//! moon, always opposite the sun, lights the world.

use glam::Vec3;
use std::f32::consts::TAU;

/// Everything the pipeline needs to light one moment of the day.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SkyLighting {
    /// Unit vector towards the sun.
    pub sun_direction: Vec3,
    /// Unit vector towards the moon (`-sun_direction`).
    pub moon_direction: Vec3,
    /// Unit vector towards the light that shades blocks: the sun while it is
    /// up, the moon otherwise.
    pub light_direction: Vec3,
    /// Linear radiance of that direct light (zero around the horizon
    /// crossing, warm at sunset, dim blue by moonlight).
    pub light_color: Vec3,
    /// Linear light every surface gets from the sky, whatever its facing.
    pub ambient: Vec3,
    /// Sky colour straight up.
    pub zenith: Vec3,
    /// Sky colour at the horizon (also the fog colour away from the sun).
    pub horizon: Vec3,
    /// Sunset/sunrise glow added around the sun near the horizon.
    pub glow: Vec3,
    /// Radiance of the sun disc (zero once it has set).
    pub sun_disc: Vec3,
    /// Radiance of the moon disc's lit part.
    pub moon_disc: Vec3,
    /// The moon's phase in `[0, 1)`: 0 new, 0.5 full (which side is lit).
    pub moon_phase: f32,
    /// Lit fraction of the moon, 0 (new) to 1 (full).
    pub moon_illumination: f32,
    /// 0 at night, 1 in full day.
    pub daylight: f32,
}

/// Direction towards the sun at `angle` radians (see the module docs).
#[must_use]
pub fn sun_direction(angle: f32) -> Vec3 {
    let angle = if angle.is_finite() { angle } else { 0.0 };
    Vec3::new(angle.cos(), angle.sin(), 0.0)
}

/// Lit fraction of the moon's disc at `phase`: 0 and 1 are new moon, 0.5 is
/// full. Phases outside [0, 1] wrap; non-finite ones count as new moon.
#[must_use]
pub fn moon_illumination(phase: f32) -> f32 {
    if !phase.is_finite() {
        return 0.0;
    }
    let phase = phase.rem_euclid(1.0);
    (0.5 - 0.5 * (TAU * phase).cos()).clamp(0.0, 1.0)
}

fn smoothstep(edge0: f32, edge1: f32, x: f32) -> f32 {
    let t = ((x - edge0) / (edge1 - edge0)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// The sky's colours and the lights at `sun_angle` radians with the moon at
/// `moon_phase` (0/1 new, 0.5 full).
#[must_use]
pub fn sky_lighting(sun_angle: f32, moon_phase: f32) -> SkyLighting {
    let sun = sun_direction(sun_angle);
    let moon = -sun;
    let elevation = sun.y;
    let illumination = moon_illumination(moon_phase);
    let daylight = smoothstep(-0.15, 0.25, elevation);
    // Strongest with the sun on the horizon, gone by 25 degrees up and,
    // faster, by 8 degrees down.
    let width = if elevation >= 0.0 { 0.2 } else { 0.06 };
    let sunset = (-(elevation / width).powi(2)).exp();

    let night_zenith = Vec3::new(0.004, 0.006, 0.02);
    let day_zenith = Vec3::new(0.07, 0.22, 0.75);
    let night_horizon = Vec3::new(0.012, 0.016, 0.035);
    let day_horizon = Vec3::new(0.42, 0.6, 0.86);
    let orange = Vec3::new(1.0, 0.42, 0.12);

    let zenith = night_zenith.lerp(day_zenith, daylight);
    let horizon = night_horizon
        .lerp(day_horizon, daylight)
        .lerp(orange * 0.9, sunset * 0.75);
    let glow = orange * (1.2 * sunset);

    // Both direct lights fade to zero at the horizon, so the switch from sun
    // to moon is seamless.
    let sun_up = smoothstep(0.0, 0.12, elevation);
    let sun_tint = Vec3::new(1.0, 0.95, 0.88).lerp(Vec3::new(1.0, 0.55, 0.25), sunset);
    let sun_light = sun_tint * (1.7 * sun_up);
    let moon_up = smoothstep(0.0, 0.12, -elevation);
    let moon_light = Vec3::new(0.35, 0.45, 0.7) * (0.12 + 0.28 * illumination) * moon_up;

    let (light_direction, light_color) = if elevation >= 0.0 {
        (sun, sun_light)
    } else {
        (moon, moon_light)
    };
    let night_ambient = Vec3::new(0.035, 0.045, 0.08) * (1.0 + 0.6 * illumination);
    let ambient = night_ambient.lerp(Vec3::new(0.42, 0.48, 0.6), daylight);

    SkyLighting {
        sun_direction: sun,
        moon_direction: moon,
        light_direction,
        light_color,
        ambient,
        zenith,
        horizon,
        glow,
        sun_disc: sun_tint * (30.0 * smoothstep(-0.06, 0.02, elevation)),
        moon_disc: Vec3::new(0.9, 0.92, 1.0) * (1.6 * smoothstep(-0.06, 0.02, -elevation)),
        moon_phase: if moon_phase.is_finite() {
            moon_phase.rem_euclid(1.0)
        } else {
            0.0
        },
        moon_illumination: illumination,
        daylight,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f32::consts::{FRAC_PI_2, PI};

    #[test]
    fn noon_sun_is_overhead_and_bright() {
        let noon = sky_lighting(FRAC_PI_2, 0.5);
        assert!(noon.sun_direction.abs_diff_eq(Vec3::Y, 1e-6));
        assert!(noon.light_direction.abs_diff_eq(Vec3::Y, 1e-6));
        assert!(noon.light_color.min_element() > 1.0);
        assert_eq!(noon.daylight, 1.0);
        assert!(noon.zenith.z > noon.zenith.x, "day sky is blue");
    }

    #[test]
    fn sun_rises_east_and_sets_west() {
        assert!(sun_direction(0.0).abs_diff_eq(Vec3::X, 1e-6));
        assert!(sun_direction(PI).abs_diff_eq(Vec3::NEG_X, 1e-6));
    }

    #[test]
    fn midnight_sun_is_below_the_horizon_and_the_moon_lights() {
        let midnight = sky_lighting(PI + FRAC_PI_2, 0.5);
        assert!(midnight.sun_direction.y < -0.99);
        assert!(midnight.moon_direction.y > 0.99);
        assert_eq!(midnight.light_direction, midnight.moon_direction);
        assert_eq!(midnight.daylight, 0.0);
        assert_eq!(midnight.sun_disc, Vec3::ZERO);
        let noon = sky_lighting(FRAC_PI_2, 0.5);
        assert!(midnight.light_color.length() < 0.2 * noon.light_color.length());
        assert!(midnight.ambient.length() < 0.3 * noon.ambient.length());
        assert!(midnight.zenith.length() < 0.05);
    }

    #[test]
    fn sunset_is_orange() {
        let sunset = sky_lighting(PI - 0.02, 0.0);
        assert!(sunset.horizon.x > sunset.horizon.z);
        assert!(sunset.glow.x > 0.5);
        assert!(sky_lighting(FRAC_PI_2, 0.0).glow.x < 0.01);
    }

    #[test]
    fn moon_phase_bounds() {
        assert_eq!(moon_illumination(0.0), 0.0);
        assert!(moon_illumination(1.0) < 1e-6);
        assert!((moon_illumination(0.5) - 1.0).abs() < 1e-6);
        assert!((moon_illumination(0.25) - 0.5).abs() < 1e-6);
        assert!((moon_illumination(1.25) - 0.5).abs() < 1e-5, "wraps");
        assert_eq!(moon_illumination(f32::NAN), 0.0);
        for i in -20..=40 {
            let lit = moon_illumination(i as f32 * 0.05);
            assert!((0.0..=1.0).contains(&lit));
        }
        let full = sky_lighting(PI + FRAC_PI_2, 0.5);
        let new = sky_lighting(PI + FRAC_PI_2, 0.0);
        assert!(full.light_color.length() > new.light_color.length());
    }

    #[test]
    fn direct_light_is_continuous_across_the_horizon() {
        for angle in [0.0, PI] {
            let before = sky_lighting(angle - 1e-3, 0.5);
            let after = sky_lighting(angle + 1e-3, 0.5);
            assert!(before.light_color.length() < 0.01);
            assert!(after.light_color.length() < 0.01);
        }
    }

    #[test]
    fn light_is_finite_for_any_angle() {
        for angle in [f32::NAN, f32::INFINITY, -7.0, 0.0, 100.0] {
            let light = sky_lighting(angle, f32::NAN);
            assert!(light.light_color.is_finite() && light.light_direction.is_normalized());
        }
    }
}
