//! Weather: clear skies, rain, snow and thunderstorms, in spells whose kind
//! and length follow from the world's seed alone.
//!
//! The simulation side lives here: [`Weather`] advances with game time in
//! the fixed tick, is part of the state checksum, and is saved with the world
//! as a [`WeatherState`]. What a frame shows of it (darker sky, lightning,
//! wet blocks, falling particles) is decided from it by [`Weather::view`]
//! and [`weather_sky`], then handed to the pipeline; the pipeline never
//! decides the weather itself.
//!
//! Spell `n` of a world has a kind and a length hashed from `(seed, n)`, so
//! two players on the same seed see the same sequence. Precipitation fades
//! in over the first [`FADE_SECONDS`] of a spell and out over its last.

mod columns;
mod sky;

pub use columns::{PRECIPITATION_MAP_SIZE, PrecipitationMap, SNOWY_TOP, WATER_TOP};
pub use sky::weather_sky;

use serde::{Deserialize, Serialize};

use crate::world::noise::{hash3, unit};

/// Seconds over which precipitation builds up at the start of a spell and
/// dies away at its end.
pub const FADE_SECONDS: f32 = 30.0;
/// The shortest spell, seconds of game time.
pub const MIN_SPELL_SECONDS: f32 = 240.0;
/// The longest spell, seconds of game time.
pub const MAX_SPELL_SECONDS: f32 = 720.0;
/// Seconds for soaked blocks to dry (or dry ones to soak).
const WETTING_SECONDS: f32 = 40.0;
/// Lightning strikes per second of full storm, on average.
const STRIKES_PER_SECOND: f64 = 0.07;
/// How fast a flash fades (per second).
const FLASH_DECAY: f32 = 9.0;

const SALT_KIND: u64 = 101;
const SALT_LENGTH: u64 = 103;
const SALT_STRIKE: u64 = 107;
const SALT_STRIKE_AT: u64 = 109;

/// What falls from the sky.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WeatherKind {
    /// Nothing: sun and blue sky.
    #[default]
    Clear,
    /// Rain (snow above the snow line and in cold places).
    Rain,
    /// Snow everywhere.
    Snow,
    /// Heavy rain under a dark sky, with lightning.
    Storm,
}

impl WeatherKind {
    /// Every kind, in the order the command line lists them.
    pub const ALL: [Self; 4] = [Self::Clear, Self::Rain, Self::Snow, Self::Storm];

    /// The lowercase name (`clear`, `rain`, `snow`, `storm`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Clear => "clear",
            Self::Rain => "rain",
            Self::Snow => "snow",
            Self::Storm => "storm",
        }
    }

    /// The kind called `name` (any case), if there is one.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|kind| kind.name().eq_ignore_ascii_case(name.trim()))
    }

    /// How much the sky is covered at full strength, 0 to 1.
    #[must_use]
    pub const fn overcast(self) -> f32 {
        match self {
            Self::Clear => 0.0,
            Self::Rain => 0.65,
            Self::Snow => 0.55,
            Self::Storm => 0.9,
        }
    }

    /// Whether it leaves blocks wet.
    #[must_use]
    pub const fn is_wet(self) -> bool {
        matches!(self, Self::Rain | Self::Storm)
    }

    /// The kind of spell `spell` of world `seed`: a new world starts clear;
    /// after that half the spells are clear, a quarter rain, and storm and
    /// snow share the rest.
    fn of_spell(seed: u64, spell: u32) -> Self {
        if spell == 0 {
            return Self::Clear;
        }
        let roll = unit(hash3(i64::from(spell), 0, seed, SALT_KIND));
        match roll {
            r if r < 0.5 => Self::Clear,
            r if r < 0.75 => Self::Rain,
            r if r < 0.88 => Self::Storm,
            _ => Self::Snow,
        }
    }
}

impl std::fmt::Display for WeatherKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The weather as saved with a world (JSON, in the world record).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WeatherState {
    /// Which spell of the seed's sequence is on.
    pub spell: u32,
    /// Seconds since it began.
    pub elapsed: f32,
    /// A kind chosen for this spell instead of the seed's (`--weather`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forced: Option<WeatherKind>,
    /// How wet exposed blocks are, 0 to 1.
    #[serde(default)]
    pub wetness: f32,
}

/// What one frame shows of the weather.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct WeatherView {
    /// What falls.
    pub kind: WeatherKind,
    /// How much falls, 0 (nothing) to 1 (a downpour).
    pub intensity: f32,
    /// How much of the sky is covered, 0 to 1.
    pub overcast: f32,
    /// How wet exposed blocks look, 0 to 1.
    pub wetness: f32,
    /// A lightning flash's brightness, 0 (none) to 1.
    pub lightning: f32,
}

/// The weather of one world, advanced by game time.
#[derive(Debug, Clone, PartialEq)]
pub struct Weather {
    seed: u64,
    state: WeatherState,
}

impl Weather {
    /// The weather of world `seed` from its first spell.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        Self::restore(seed, WeatherState::default())
    }

    /// The weather of world `seed` as it was saved (values out of range, or
    /// not numbers, are pulled back in).
    #[must_use]
    pub fn restore(seed: u64, saved: WeatherState) -> Self {
        let clean = |v: f32, max: f32| {
            if v.is_finite() {
                v.clamp(0.0, max)
            } else {
                0.0
            }
        };
        let mut weather = Self {
            seed,
            state: WeatherState {
                spell: saved.spell,
                elapsed: clean(saved.elapsed, MAX_SPELL_SECONDS),
                forced: saved.forced,
                wetness: clean(saved.wetness, 1.0),
            },
        };
        // A damaged elapsed time beyond this spell's end moves on.
        weather.advance(0.0);
        weather
    }

    /// What to save.
    #[must_use]
    pub const fn state(&self) -> WeatherState {
        self.state
    }

    /// The kind of the current spell.
    #[must_use]
    pub fn kind(&self) -> WeatherKind {
        self.state
            .forced
            .unwrap_or_else(|| WeatherKind::of_spell(self.seed, self.state.spell))
    }

    /// Seconds the current spell lasts.
    #[must_use]
    pub fn spell_seconds(&self) -> f32 {
        spell_length(self.seed, self.state.spell)
    }

    /// Makes the current spell `kind`, at full strength from now until the
    /// spell ends; then the seed's sequence goes on.
    pub fn force(&mut self, kind: WeatherKind) {
        self.state.forced = Some(kind);
        self.state.elapsed = FADE_SECONDS;
        if kind.is_wet() {
            self.state.wetness = 1.0;
        }
    }

    /// Advances by `dt` seconds of game time (non-finite or negative `dt`
    /// does nothing).
    pub fn advance(&mut self, dt: f32) {
        if dt.is_finite() && dt > 0.0 {
            self.state.elapsed += dt;
            let target = if self.kind().is_wet() {
                self.intensity()
            } else {
                0.0
            };
            let step = dt / WETTING_SECONDS;
            let wetness = self.state.wetness;
            self.state.wetness = if target > wetness {
                (wetness + step).min(target)
            } else {
                (wetness - step).max(target)
            };
        }
        while self.state.elapsed >= self.spell_seconds() {
            self.state.elapsed -= self.spell_seconds();
            self.state.spell = self.state.spell.wrapping_add(1);
            self.state.forced = None;
        }
    }

    /// How much falls now, 0 to 1: rising over the spell's first
    /// [`FADE_SECONDS`], falling over its last; always 0 when clear.
    #[must_use]
    pub fn intensity(&self) -> f32 {
        if self.kind() == WeatherKind::Clear {
            return 0.0;
        }
        let t = self.state.elapsed;
        let to_end = self.spell_seconds() - t;
        smoothstep(0.0, FADE_SECONDS, t.min(to_end))
    }

    /// Brightness of a lightning flash now, 0 to 1. Strikes come only in
    /// storms, at moments hashed from the seed, spell and second.
    #[must_use]
    pub fn lightning(&self) -> f32 {
        if self.kind() != WeatherKind::Storm {
            return 0.0;
        }
        let elapsed = self.state.elapsed;
        // The flash of this second, or the tail of the last one's.
        let second = elapsed.floor();
        [second, second - 1.0]
            .into_iter()
            .filter_map(|s| self.strike_in(s))
            .map(|start| {
                let since = elapsed - start;
                // A bright stroke, then a weaker return stroke.
                flash(since).max(0.6 * flash(since - 0.18))
            })
            .fold(0.0_f32, f32::max)
    }

    /// When lightning strikes within whole second `second` of the current
    /// spell (seconds since the spell began), if it does.
    fn strike_in(&self, second: f32) -> Option<f32> {
        if second < 0.0 || self.kind() != WeatherKind::Storm {
            return None;
        }
        let key = (i64::from(self.state.spell) << 20) | second as i64;
        let roll = unit(hash3(key, 1, self.seed, SALT_STRIKE));
        let chance = STRIKES_PER_SECOND * f64::from(self.intensity());
        (roll < chance).then(|| second + unit(hash3(key, 2, self.seed, SALT_STRIKE_AT)) as f32)
    }

    /// Seconds of game time until just after the next lightning strike
    /// (when [`lightning`](Self::lightning) is near its brightest), looking
    /// at most `within` seconds ahead; `None` when none comes by then.
    #[must_use]
    pub fn next_lightning(&self, within: f32) -> Option<f32> {
        let mut probe = self.clone();
        let mut waited = 0.0;
        while waited <= within {
            let now = probe.state.elapsed;
            let second = now.floor();
            if let Some(start) = probe.strike_in(second).filter(|start| *start >= now) {
                return Some(waited + (start - now) + 0.002);
            }
            let step = second + 1.0 - now;
            probe.advance(step);
            waited += step;
        }
        None
    }

    /// What a frame shows of the weather now.
    #[must_use]
    pub fn view(&self) -> WeatherView {
        let kind = self.kind();
        let intensity = self.intensity();
        WeatherView {
            kind,
            intensity,
            overcast: kind.overcast() * intensity,
            wetness: self.state.wetness,
            lightning: self.lightning(),
        }
    }
}

fn spell_length(seed: u64, spell: u32) -> f32 {
    let roll = unit(hash3(i64::from(spell), 0, seed, SALT_LENGTH)) as f32;
    MIN_SPELL_SECONDS + roll * (MAX_SPELL_SECONDS - MIN_SPELL_SECONDS)
}

fn flash(since: f32) -> f32 {
    if (0.0..1.0).contains(&since) {
        (-since * FLASH_DECAY).exp()
    } else {
        0.0
    }
}

fn smoothstep(edge0: f32, edge1: f32, x: f32) -> f32 {
    let t = ((x - edge0) / (edge1 - edge0)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sequence(seed: u64, seconds: u32) -> Vec<(u32, WeatherKind)> {
        let mut weather = Weather::new(seed);
        let mut seen = Vec::new();
        for _ in 0..seconds {
            weather.advance(1.0);
            let now = (weather.state().spell, weather.kind());
            if seen.last() != Some(&now) {
                seen.push(now);
            }
        }
        seen
    }

    #[test]
    fn the_same_seed_gives_the_same_weather_and_every_kind_comes() {
        let a = sequence(42, 40_000);
        assert_eq!(a, sequence(42, 40_000));
        assert_ne!(a, sequence(43, 40_000), "another seed, another sequence");
        for kind in WeatherKind::ALL {
            assert!(a.iter().any(|(_, k)| *k == kind), "{kind} never came");
        }
    }

    #[test]
    fn precipitation_fades_in_and_out_and_clear_has_none() {
        let mut weather = Weather::new(5);
        weather.force(WeatherKind::Rain);
        assert_eq!(weather.intensity(), 1.0);
        let length = weather.spell_seconds();
        weather.advance(length - FADE_SECONDS - 1.0 - weather.state().elapsed);
        assert_eq!(weather.intensity(), 1.0);
        weather.advance(FADE_SECONDS * 0.5);
        assert!((0.1..0.9).contains(&weather.intensity()));
        weather.force(WeatherKind::Clear);
        assert_eq!(weather.intensity(), 0.0);
        assert_eq!(weather.view().overcast, 0.0);
    }

    #[test]
    fn a_forced_kind_lasts_until_its_spell_ends() {
        let mut weather = Weather::new(9);
        let spell = weather.state().spell;
        weather.force(WeatherKind::Snow);
        weather.advance(10.0);
        assert_eq!(weather.kind(), WeatherKind::Snow);
        weather.advance(MAX_SPELL_SECONDS);
        assert_ne!(weather.state().spell, spell);
        assert_eq!(weather.state().forced, None);
    }

    #[test]
    fn rain_wets_blocks_slowly_and_they_dry_again() {
        let mut weather = Weather::new(1);
        weather.force(WeatherKind::Rain);
        weather.state.wetness = 0.0;
        weather.advance(WETTING_SECONDS * 0.5);
        assert!((0.4..0.6).contains(&weather.view().wetness));
        weather.advance(WETTING_SECONDS);
        assert_eq!(weather.view().wetness, 1.0);
        weather.force(WeatherKind::Clear);
        weather.advance(WETTING_SECONDS * 0.25);
        assert!((0.7..0.8).contains(&weather.view().wetness));
    }

    #[test]
    fn storms_flash_and_other_weather_never_does() {
        let mut storm = Weather::new(3);
        storm.force(WeatherKind::Storm);
        let wait = storm.next_lightning(200.0).expect("a strike within 200 s");
        storm.advance(wait);
        assert!(storm.lightning() > 0.95);
        storm.advance(1.5);
        assert!(storm.lightning() < 0.5, "the flash fades");
        let mut rain = Weather::new(3);
        rain.force(WeatherKind::Rain);
        assert_eq!(rain.next_lightning(300.0), None);
    }

    #[test]
    fn saved_weather_restores_and_damaged_values_are_pulled_in() {
        let mut weather = Weather::new(11);
        weather.advance(1234.5);
        let saved = weather.state();
        let json = serde_json::to_string(&saved).unwrap();
        let back: WeatherState = serde_json::from_str(&json).unwrap();
        assert_eq!(Weather::restore(11, back), weather);
        let damaged = WeatherState {
            spell: 2,
            elapsed: f32::NAN,
            forced: None,
            wetness: 7.0,
        };
        let restored = Weather::restore(11, damaged);
        assert_eq!(restored.state().elapsed, 0.0);
        assert_eq!(restored.state().wetness, 1.0);
    }

    #[test]
    fn a_new_world_starts_clear() {
        for seed in 0..50 {
            assert_eq!(Weather::new(seed).kind(), WeatherKind::Clear);
        }
    }

    #[test]
    fn kinds_parse_from_their_names() {
        for kind in WeatherKind::ALL {
            assert_eq!(
                WeatherKind::from_name(&kind.name().to_uppercase()),
                Some(kind)
            );
        }
        assert_eq!(WeatherKind::from_name("hail"), None);
    }
}
