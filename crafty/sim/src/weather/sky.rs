//! How the weather changes a moment's sky and light: clouds grey the sky
//! and dim the sun, lightning lights everything for an instant.

use glam::Vec3;

use super::WeatherView;
use crate::time_of_day::SkyLighting;

/// The colour of a lightning flash (linear).
const FLASH: Vec3 = Vec3::new(0.85, 0.9, 1.2);

fn luminance(c: Vec3) -> f32 {
    c.dot(Vec3::new(0.2126, 0.7152, 0.0722))
}

/// `sky` under `weather`: the sky and its glow turn grey and darker with the
/// overcast, the sun and moon discs and the direct light fade behind the
/// clouds, the ambient light greys; a lightning flash brightens the sky and
/// the ambient light. Clear weather returns `sky` unchanged.
#[must_use]
pub fn weather_sky(sky: SkyLighting, weather: &WeatherView) -> SkyLighting {
    let overcast = weather.overcast.clamp(0.0, 1.0);
    let flash = weather.lightning.clamp(0.0, 1.0);
    if overcast == 0.0 && flash == 0.0 {
        return sky;
    }
    let grey = |c: Vec3, dim: f32| {
        let flat = Vec3::splat(luminance(c)) * (1.0 - dim * overcast);
        c.lerp(flat, overcast)
    };
    let hidden = (1.0 - overcast).powi(2);
    SkyLighting {
        light_color: sky.light_color * (1.0 - 0.85 * overcast),
        ambient: grey(sky.ambient, 0.35) + FLASH * (1.6 * flash),
        zenith: grey(sky.zenith, 0.55) + FLASH * (0.9 * flash),
        horizon: grey(sky.horizon, 0.45) + FLASH * (0.7 * flash),
        glow: sky.glow * (1.0 - overcast),
        sun_disc: sky.sun_disc * hidden,
        moon_disc: sky.moon_disc * hidden,
        ..sky
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time_of_day::sky_lighting;
    use crate::weather::WeatherKind;

    fn view(kind: WeatherKind, lightning: f32) -> WeatherView {
        WeatherView {
            kind,
            intensity: 1.0,
            overcast: kind.overcast(),
            wetness: 0.0,
            lightning,
        }
    }

    #[test]
    fn clear_weather_changes_nothing() {
        let noon = sky_lighting(std::f32::consts::FRAC_PI_2, 0.5);
        assert_eq!(weather_sky(noon, &WeatherView::default()), noon);
    }

    #[test]
    fn storms_darken_and_lightning_lights_up() {
        let noon = sky_lighting(std::f32::consts::FRAC_PI_2, 0.5);
        let rain = weather_sky(noon, &view(WeatherKind::Rain, 0.0));
        let storm = weather_sky(noon, &view(WeatherKind::Storm, 0.0));
        assert!(rain.light_color.length() < 0.6 * noon.light_color.length());
        assert!(storm.light_color.length() < rain.light_color.length());
        assert!(storm.zenith.length() < rain.zenith.length());
        let blue = |c: Vec3| c.z - c.x;
        assert!(
            blue(storm.zenith) < 0.2 * blue(noon.zenith),
            "grey, not blue"
        );
        assert!(storm.sun_disc.length() < 0.05 * noon.sun_disc.length());
        let flash = weather_sky(noon, &view(WeatherKind::Storm, 1.0));
        assert!(flash.ambient.length() > 2.0 * storm.ambient.length());
        assert_eq!(flash.light_direction, noon.light_direction);
    }
}
