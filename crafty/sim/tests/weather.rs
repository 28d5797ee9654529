//! Weather without a session: the sequence a seed gives, the same on every
//! run, and the same after being saved and restored half way.

use crafty_sim::game::TICK_HZ;
use crafty_sim::weather::{Weather, WeatherState};

/// The kinds and spells `seed` goes through in `seconds` of game time,
/// advanced in ticks as the game does.
fn sequence(mut weather: Weather, seconds: u32) -> Vec<WeatherState> {
    let dt = 1.0 / TICK_HZ as f32;
    let mut states = Vec::new();
    for tick in 0..seconds * TICK_HZ {
        weather.advance(dt);
        if tick % TICK_HZ == 0 {
            states.push(weather.state());
        }
    }
    states
}

#[test]
fn a_seed_always_gives_the_same_weather() {
    let hour = 3600;
    let first = sequence(Weather::new(42), hour);
    assert_eq!(first, sequence(Weather::new(42), hour));
    assert_ne!(first, sequence(Weather::new(7), hour));
    let spells: std::collections::BTreeSet<u32> = first.iter().map(|s| s.spell).collect();
    assert!(
        spells.len() >= 5,
        "an hour holds several spells: {spells:?}"
    );

    // Stopped half way, saved as JSON and restored, it goes on the same.
    let mut half = Weather::new(42);
    let dt = 1.0 / TICK_HZ as f32;
    for _ in 0..hour / 2 * TICK_HZ {
        half.advance(dt);
    }
    let saved = serde_json::to_string(&half.state()).unwrap();
    let restored = Weather::restore(42, serde_json::from_str(&saved).unwrap());
    let rest = sequence(restored, hour / 2);
    assert_eq!(rest[..], first[hour as usize / 2..]);
}
