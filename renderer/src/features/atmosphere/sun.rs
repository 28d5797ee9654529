//! Where the sky's sun is: the frame's sun light, or a default.

use glam::Vec3;

use crate::frame::SunLight;

/// Elevation of the sun the sky shows when the frame has no sun light:
/// 30 degrees above the horizon, a mid-morning sky.
pub(crate) const DEFAULT_SUN_ELEVATION_DEGREES: f32 = 30.0;

/// The unit world-space direction towards the sun (+Y up).
///
/// A [`SunLight`]'s `direction` is the way its light travels, so the sun
/// lies the opposite way. With no sun, or a direction that is zero or not
/// finite, the sun stands [`DEFAULT_SUN_ELEVATION_DEGREES`] above the
/// horizon towards -Z (in front of a camera with the default orientation).
#[must_use]
pub(crate) fn direction_towards_sun(sun: Option<&SunLight>) -> Vec3 {
    sun.and_then(|sun| (-sun.direction).try_normalize())
        .unwrap_or_else(default_direction)
}

fn default_direction() -> Vec3 {
    let elevation = DEFAULT_SUN_ELEVATION_DEGREES.to_radians();
    Vec3::new(0.0, elevation.sin(), -elevation.cos())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frame::CascadeSettings;

    fn sun(direction: Vec3) -> SunLight {
        SunLight {
            direction,
            color: Vec3::ONE,
            intensity: 1.0,
            cast_shadows: false,
            cascades: CascadeSettings::default(),
        }
    }

    #[test]
    fn the_sun_lies_against_its_light() {
        let towards = direction_towards_sun(Some(&sun(Vec3::new(0.0, -2.0, 0.0))));
        assert_eq!(towards, Vec3::Y);
    }

    #[test]
    fn no_sun_or_a_broken_one_stands_at_the_default_elevation() {
        let expected = DEFAULT_SUN_ELEVATION_DEGREES.to_radians().sin();
        for towards in [
            direction_towards_sun(None),
            direction_towards_sun(Some(&sun(Vec3::ZERO))),
            direction_towards_sun(Some(&sun(Vec3::new(f32::NAN, -1.0, 0.0)))),
        ] {
            assert!((towards.y - expected).abs() < 1e-6, "{towards}");
            assert!((towards.length() - 1.0).abs() < 1e-6);
        }
    }
}
