//! [`SavedWorld`]: the metadata record of one saved world, its defaults,
//! its format versions and the upgrade steps between them.

use std::f32::consts::PI;
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicU64, Ordering};

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Value, json};
use taos_storage::Record;

use crate::inventory::{GameMode, InventoryState};
use crate::weather::WeatherState;
use crate::world::{Terrain, TerrainGenerator};

/// The format version this build writes.
///
/// - 0: records from before versioning (no `version`, no `gameMode`, edits inline).
/// - 1: versioned records with a game mode, edits still inline in the record.
/// - 2: the edit log lives in checksummed segments beside the record.
pub const CURRENT_VERSION: u32 = 2;

/// Where a new world puts its player.
pub const SPAWN: PlayerState = PlayerState {
    x: 64.0,
    y: 80.0,
    z: 64.0,
    yaw: 0.0,
    pitch: 0.0,
};

/// The sun angle of a new world (radians): morning.
pub const START_SUN_ANGLE: f32 = 0.3 * PI;

/// The player's position (feet, world units) and view angles (radians).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PlayerState {
    /// World x.
    pub x: f32,
    /// World y.
    pub y: f32,
    /// World z.
    pub z: f32,
    /// Heading.
    pub yaw: f32,
    /// Look up (positive) or down.
    pub pitch: f32,
}

impl Default for PlayerState {
    fn default() -> Self {
        SPAWN
    }
}

/// One stored segment of the edit log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SegmentInfo {
    /// Its index, part of its key; later segments have larger indices.
    pub index: u32,
    /// Edits it holds.
    pub edits: u32,
}

/// Where a world's edit log is: the segments, oldest first. Maintained by
/// [`WorldStore`](super::WorldStore); read it, do not edit it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EditLog {
    /// Segments in replay order: by index, each index once (a stored log
    /// that lists one twice or out of order is read that way).
    #[serde(deserialize_with = "segments_in_order")]
    pub segments: Vec<SegmentInfo>,
    /// The index the next segment gets.
    pub next_segment: u32,
}

/// Reads a log's segments in index order, each index once: the store
/// only ever appends larger indices, so a record that lists one twice or
/// out of order is damaged, and replaying it as listed would repeat edits
/// or put newer edits under older ones. The first listing of an index wins.
fn segments_in_order<'de, D: Deserializer<'de>>(input: D) -> Result<Vec<SegmentInfo>, D::Error> {
    let mut segments = Vec::<SegmentInfo>::deserialize(input)?;
    segments.sort_by_key(|s| s.index);
    segments.dedup_by_key(|s| s.index);
    Ok(segments)
}

impl EditLog {
    /// Edits in all segments.
    #[must_use]
    pub fn edit_count(&self) -> u64 {
        self.segments.iter().map(|s| u64::from(s.edits)).sum()
    }
}

/// One saved world: everything but its edits and, in storage, its thumbnail.
///
/// The world's blocks are its `seed` plus the edit log; the log is stored in
/// segments beside this record (see [`WorldStore`](super::WorldStore)), and
/// the record lists them in [`edit_log`](SavedWorld::edit_log).
///
/// Stored as JSON with the field names of the original TypeScript game
/// (`createdAt`, `sunAngle`, `gameMode`, ...), so its records migrate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SavedWorld {
    /// Random UUID-shaped id; the record's key.
    #[serde(default)]
    pub id: String,
    /// Name shown in the launcher.
    pub name: String,
    /// Terrain seed. Stored as a JSON number up to 2⁵³ − 1 (exact in
    /// JavaScript), as a decimal string above.
    #[serde(with = "seed_format")]
    pub seed: u64,
    /// Creation time, milliseconds since the Unix epoch.
    pub created_at: u64,
    /// Last time played, milliseconds since the Unix epoch.
    pub last_played_at: u64,
    /// Where the player stands and looks.
    #[serde(default, deserialize_with = "finite_player")]
    pub player: PlayerState,
    /// Time of day as the sun's angle (radians).
    #[serde(default = "start_sun_angle", deserialize_with = "finite_sun_angle")]
    pub sun_angle: f32,
    /// The game mode; `None` (saves from before modes) means creative.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_mode: Option<GameMode>,
    /// Survival inventory and hotbar layout; always `None` in creative.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inventory: Option<InventoryState>,
    /// Moon phase in `[0, 1]`: 0 and 1 new, 0.5 full.
    #[serde(
        default,
        deserialize_with = "finite_f32",
        skip_serializing_if = "Option::is_none"
    )]
    pub moon_phase: Option<f32>,
    /// JPEG thumbnail (about 160×90). Kept in its own store, not in the
    /// record, so autosaves never rewrite it.
    #[serde(skip)]
    pub screenshot: Option<Vec<u8>>,
    /// The terrain generator; `None` (saves from before biomes) is the
    /// original hills generator, which the world keeps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generator: Option<TerrainGenerator>,
    /// The weather when last saved; `None` (saves from before weather)
    /// starts the seed's weather from its first spell.
    #[serde(
        default,
        deserialize_with = "finite_weather",
        skip_serializing_if = "Option::is_none"
    )]
    pub weather: Option<WeatherState>,
    /// Format version; records read from storage are upgraded to
    /// [`CURRENT_VERSION`] before you see them.
    #[serde(default)]
    pub version: u32,
    /// The stored edit log's segments (managed by the store).
    #[serde(default)]
    pub edit_log: EditLog,
}

fn start_sun_angle() -> f32 {
    START_SUN_ANGLE
}

/// A float of the record, `None` when it is not a finite `f32`: a number
/// beyond `f32` reads as infinite, and an infinite float is written back as
/// `null`, which would make the next load refuse the whole world. Such a
/// value reads as if it were missing.
fn finite_f32<'de, D: Deserializer<'de>>(input: D) -> Result<Option<f32>, D::Error> {
    Ok(Option::<f32>::deserialize(input)?.filter(|v| v.is_finite()))
}

fn finite_sun_angle<'de, D: Deserializer<'de>>(input: D) -> Result<f32, D::Error> {
    Ok(finite_f32(input)?.unwrap_or(START_SUN_ANGLE))
}

/// The weather, `None` (the seed's first spell) when its times are not
/// finite, read like [`finite_f32`].
fn finite_weather<'de, D: Deserializer<'de>>(input: D) -> Result<Option<WeatherState>, D::Error> {
    Ok(Option::<WeatherState>::deserialize(input)?
        .filter(|w| w.elapsed.is_finite() && w.wetness.is_finite()))
}

/// The player, read like [`finite_f32`]: a position that is not finite is
/// the spawn point, an angle that is not finite is 0.
fn finite_player<'de, D: Deserializer<'de>>(input: D) -> Result<PlayerState, D::Error> {
    #[derive(Deserialize)]
    struct Raw {
        #[serde(deserialize_with = "finite_f32")]
        x: Option<f32>,
        #[serde(deserialize_with = "finite_f32")]
        y: Option<f32>,
        #[serde(deserialize_with = "finite_f32")]
        z: Option<f32>,
        #[serde(deserialize_with = "finite_f32")]
        yaw: Option<f32>,
        #[serde(deserialize_with = "finite_f32")]
        pitch: Option<f32>,
    }
    let Some(raw) = Option::<Raw>::deserialize(input)? else {
        return Ok(SPAWN);
    };
    let (x, y, z) = match (raw.x, raw.y, raw.z) {
        (Some(x), Some(y), Some(z)) => (x, y, z),
        _ => (SPAWN.x, SPAWN.y, SPAWN.z),
    };
    Ok(PlayerState {
        x,
        y,
        z,
        yaw: raw.yaw.unwrap_or(0.0),
        pitch: raw.pitch.unwrap_or(0.0),
    })
}

impl SavedWorld {
    /// A new world with the defaults of a fresh game: a random id, created
    /// and last played at `now_ms`, the player at [`SPAWN`], the sun at
    /// [`START_SUN_ANGLE`], no edits, no thumbnail, (in survival) an empty
    /// inventory, and the original hills terrain, which
    /// [`World::new`](crate::world::World::new) also makes; choose biomes
    /// with [`with_generator`](Self::with_generator).
    #[must_use]
    pub fn create(name: impl Into<String>, seed: u64, mode: GameMode, now_ms: u64) -> Self {
        Self {
            id: random_id(now_ms),
            name: name.into(),
            seed,
            created_at: now_ms,
            last_played_at: now_ms,
            player: SPAWN,
            sun_angle: START_SUN_ANGLE,
            game_mode: Some(mode),
            inventory: (mode == GameMode::Survival).then(InventoryState::default),
            moon_phase: None,
            weather: None,
            generator: None,
            screenshot: None,
            version: CURRENT_VERSION,
            edit_log: EditLog::default(),
        }
    }

    /// This record with its terrain made by `generator` (what the launcher
    /// and `--world new:SEED` do for a new world, with
    /// [`TerrainGenerator::LATEST`]). Hills is stored as no generator at all,
    /// like every save from before biomes.
    #[must_use]
    pub fn with_generator(mut self, generator: TerrainGenerator) -> Self {
        self.generator = (generator != TerrainGenerator::Hills).then_some(generator);
        self
    }

    /// The world's terrain: its seed by its generator (the original hills
    /// for saves from before biomes).
    #[must_use]
    pub fn terrain(&self) -> Terrain {
        Terrain::with_generator(self.seed, self.generator.unwrap_or_default())
    }

    /// The game mode (creative for saves from before modes).
    #[must_use]
    pub fn mode(&self) -> GameMode {
        self.game_mode.unwrap_or_default()
    }

    /// Edits stored for this world.
    #[must_use]
    pub fn edit_count(&self) -> u64 {
        self.edit_log.edit_count()
    }
}

impl Record for SavedWorld {
    const VERSION: u32 = CURRENT_VERSION;

    fn upgrade(from: u32, mut data: Value) -> Result<Value, String> {
        let Some(map) = data.as_object_mut() else {
            return Err("a world record must be a JSON object".to_owned());
        };
        match from {
            // Before game modes every world was creative.
            0 => {
                if map.get("gameMode").is_none_or(Value::is_null) {
                    map.insert("gameMode".to_owned(), json!("creative"));
                }
            }
            // Inline edits (`edits`) are moved into segments by the store,
            // which sees them next to the upgraded record.
            1 => {
                map.entry("editLog").or_insert_with(|| {
                    serde_json::to_value(EditLog::default()).unwrap_or_default()
                });
            }
            _ => return Err(format!("no upgrade step from version {from}")),
        }
        map.insert("version".to_owned(), json!(from + 1));
        Ok(data)
    }
}

/// A random id shaped like a version-4 UUID.
///
/// The bits come from the standard library's randomly keyed hasher (keyed
/// from the OS natively), mixed with `now_ms` and a process-wide counter, so
/// ids stay unique within a process even where the platform offers no
/// randomness (`wasm32-unknown-unknown`, where they depend on time and count).
#[must_use]
pub fn random_id(now_ms: u64) -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let count = COUNTER.fetch_add(1, Ordering::Relaxed);
    let word =
        |lane: u8| std::collections::hash_map::RandomState::new().hash_one((lane, now_ms, count));
    let bits = (u128::from(word(0)) << 64) | u128::from(word(1));
    // Version 4, RFC 4122 variant.
    let bits = (bits & !(0xF << 76) & !(0x3 << 62)) | (0x4 << 76) | (0x2 << 62);
    let hex = format!("{bits:032x}");
    format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    )
}

/// Seeds as JavaScript-safe JSON: numbers while exact in a double, strings
/// above. Reads numbers (negative ones wrap to u64, integral floats are
/// accepted) and decimal strings.
mod seed_format {
    use super::{Deserialize, Deserializer, Serializer};

    const MAX_SAFE: u64 = (1 << 53) - 1;

    pub(super) fn serialize<S: Serializer>(seed: &u64, out: S) -> Result<S::Ok, S::Error> {
        if *seed <= MAX_SAFE {
            out.serialize_u64(*seed)
        } else {
            out.collect_str(seed)
        }
    }

    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        Unsigned(u64),
        Signed(i64),
        Float(f64),
        Text(String),
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(input: D) -> Result<u64, D::Error> {
        use serde::de::Error;
        match Raw::deserialize(input)? {
            Raw::Unsigned(seed) => Ok(seed),
            Raw::Signed(seed) => Ok(seed.cast_unsigned()),
            Raw::Float(seed) if seed.is_finite() && seed.fract() == 0.0 && seed.abs() < 2e19 =>
            {
                #[allow(
                    clippy::cast_possible_truncation,
                    reason = "integral and in range, checked above"
                )]
                Ok(if seed < 0.0 {
                    (seed as i64).cast_unsigned()
                } else {
                    seed as u64
                })
            }
            Raw::Float(seed) => Err(D::Error::custom(format!("seed {seed} is not an integer"))),
            Raw::Text(text) => text
                .parse::<u64>()
                .or_else(|_| text.parse::<i64>().map(i64::cast_unsigned))
                .map_err(|_| D::Error::custom(format!("seed {text:?} is not an integer"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_stay_exact_in_javascript() {
        for seed in [0, 42, (1 << 53) - 1, 1 << 53, u64::MAX] {
            let world = SavedWorld::create("w", seed, GameMode::Creative, 0);
            let json = serde_json::to_value(&world).unwrap();
            if seed < 1 << 53 {
                assert!(json["seed"].is_u64());
            } else {
                assert!(json["seed"].is_string());
            }
            let back: SavedWorld = serde_json::from_value(json).unwrap();
            assert_eq!(back.seed, seed);
        }
        let mut json =
            serde_json::to_value(SavedWorld::create("w", 1, GameMode::Creative, 0)).unwrap();
        json["seed"] = json!(-7);
        assert_eq!(
            serde_json::from_value::<SavedWorld>(json.clone())
                .unwrap()
                .seed,
            (-7_i64).cast_unsigned()
        );
        json["seed"] = json!(12345.0);
        assert_eq!(
            serde_json::from_value::<SavedWorld>(json).unwrap().seed,
            12345
        );
    }

    #[test]
    fn ids_are_uuid_shaped_and_distinct() {
        let a = random_id(5);
        let b = random_id(5);
        assert_ne!(a, b);
        assert_eq!(a.len(), 36);
        assert_eq!(&a[14..15], "4");
        assert!(matches!(&a[19..20], "8" | "9" | "a" | "b"));
    }
}
