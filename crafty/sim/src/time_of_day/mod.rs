//! The day: a sun angle that advances with game time, a moon phase, and
//! the [sky and lights](sky_lighting) they make.

mod sky;

pub use sky::{SkyLighting, moon_illumination, sky_lighting, sun_direction};

/// Seconds of game time in one day (a full turn of the sun).
pub const DAY_SECONDS: f32 = 1200.0;
/// Days in one moon cycle (new to new).
pub const LUNAR_DAYS: f32 = 8.0;
/// Minutes on the wall clock in one day ([`TimeOfDay::at_clock`]).
pub const MINUTES_PER_DAY: u16 = 24 * 60;

/// Sun angle and moon phase.
///
/// The sun angle is in radians: 0 at sunrise (east, +x), π/2 at noon, π at
/// sunset, 3π/2 at midnight. The moon phase is in `[0, 1)`: 0 new, 0.5 full.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeOfDay {
    /// The sun's angle, in `[0, 2π)`.
    pub sun_angle: f32,
    /// The moon's phase, in `[0, 1)`.
    pub moon_phase: f32,
}

impl Default for TimeOfDay {
    fn default() -> Self {
        Self::new(std::f32::consts::PI * 0.3, 0.0)
    }
}

impl TimeOfDay {
    /// At this angle and phase (wrapped into range; NaN becomes 0).
    #[must_use]
    pub fn new(sun_angle: f32, moon_phase: f32) -> Self {
        let clean = |v: f32| if v.is_finite() { v } else { 0.0 };
        Self {
            sun_angle: clean(sun_angle).rem_euclid(std::f32::consts::TAU),
            moon_phase: clean(moon_phase).rem_euclid(1.0),
        }
    }

    /// This day's sun at a wall-clock time, `minutes` after midnight (sunrise
    /// at 06:00, noon at 12:00, sunset at 18:00); the moon phase is kept.
    #[must_use]
    pub fn at_clock(self, minutes: u16) -> Self {
        let from_sunrise = f32::from(minutes % MINUTES_PER_DAY) - 6.0 * 60.0;
        let turn = from_sunrise / f32::from(MINUTES_PER_DAY);
        Self::new(turn * std::f32::consts::TAU, self.moon_phase)
    }

    /// The wall-clock time of this sun angle, minutes after midnight.
    #[must_use]
    pub fn clock_minutes(&self) -> u16 {
        let turn = self.sun_angle / std::f32::consts::TAU;
        let minutes = (turn * f32::from(MINUTES_PER_DAY)).round() as i32 + 6 * 60;
        minutes.rem_euclid(i32::from(MINUTES_PER_DAY)) as u16
    }

    /// Advances by `dt` seconds of game time. The moon phase moves on by
    /// `1 / LUNAR_DAYS` each day.
    pub fn advance(&mut self, dt: f32) {
        if !dt.is_finite() || dt <= 0.0 {
            return;
        }
        let days = dt / DAY_SECONDS;
        *self = Self::new(
            self.sun_angle + days * std::f32::consts::TAU,
            self.moon_phase + days / LUNAR_DAYS,
        );
    }

    /// The sky's colours and the light that shades blocks at this moment.
    #[must_use]
    pub fn sky(&self) -> SkyLighting {
        sky_lighting(self.sun_angle, self.moon_phase)
    }

    /// True while the sun is above the horizon.
    #[must_use]
    pub fn is_day(&self) -> bool {
        self.sun_angle < std::f32::consts::PI
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f32::consts::{PI, TAU};

    #[test]
    fn a_day_turns_the_sun_once_and_the_moon_an_eighth() {
        let mut time = TimeOfDay::new(0.0, 0.0);
        time.advance(DAY_SECONDS / 4.0);
        assert!((time.sun_angle - PI / 2.0).abs() < 1e-4);
        assert!(time.is_day());
        time.advance(DAY_SECONDS / 2.0);
        assert!(!time.is_day());
        time.advance(DAY_SECONDS / 4.0);
        assert!(time.sun_angle < 1e-3 || (TAU - time.sun_angle) < 1e-3);
        assert!((time.moon_phase - 1.0 / LUNAR_DAYS).abs() < 1e-4);
    }

    #[test]
    fn bad_values_are_wrapped_or_zeroed() {
        let time = TimeOfDay::new(f32::NAN, 1.25);
        assert_eq!(time.sun_angle, 0.0);
        assert!((time.moon_phase - 0.25).abs() < 1e-6);
    }

    #[test]
    fn the_clock_maps_sunrise_noon_sunset_and_midnight() {
        use std::f32::consts::{FRAC_PI_2, PI};
        let day = TimeOfDay::new(1.0, 0.25);
        for (minutes, angle) in [
            (6 * 60, 0.0),
            (12 * 60, FRAC_PI_2),
            (18 * 60, PI),
            (0, 3.0 * FRAC_PI_2),
        ] {
            let at = day.at_clock(minutes);
            assert!(
                (at.sun_angle - angle).abs() < 1e-5,
                "{minutes}: {}",
                at.sun_angle
            );
            assert_eq!(at.moon_phase, 0.25, "the moon keeps its phase");
            assert_eq!(at.clock_minutes(), minutes);
        }
        for minutes in (0..MINUTES_PER_DAY).step_by(7) {
            assert_eq!(day.at_clock(minutes).clock_minutes(), minutes);
        }
    }
}
