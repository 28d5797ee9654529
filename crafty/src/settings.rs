//! The player's settings: mouse sensitivity, field of view, view distance,
//! shadows and light shafts, volumes, touch controls and key bindings, kept in the saves database's
//! [`SETTINGS_STORE`] (so they travel with the worlds, natively and in the
//! browser).
//!
//! A settings or bindings record that cannot be read (corrupt, from a newer
//! crafty) gives the defaults and a warning the game shows; it never stops
//! the game. A corrupt record is replaced when the player saves new
//! settings; one from a newer crafty never is: the save is refused
//! ([`StorageError::NewerRecord`]) and nothing is written, so going back to
//! an older build does not lose the newer build's settings.
//!
//! ```
//! use crafty::player::CraftyAction;
//! use crafty::save::WorldStore;
//! use crafty::settings::{PlayerSettings, Settings};
//! use taos_engine::game_loop::Key;
//! use taos_engine::storage::{MemoryBackend, block_on};
//!
//! let store = block_on(WorldStore::open(&MemoryBackend::new()))?;
//! let mut settings = block_on(PlayerSettings::load(&store))?;
//! settings.settings.fov_degrees = 90.0;
//! settings.bindings.set_keys(CraftyAction::Jump, &[Key::J]);
//! block_on(settings.save(&store))?;
//!
//! let back = block_on(PlayerSettings::load(&store))?;
//! assert_eq!(back.settings.fov_degrees, 90.0);
//! assert_eq!(back.bindings.keys_for(CraftyAction::Jump).collect::<Vec<_>>(), [Key::J]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use serde::{Deserialize, Serialize};
use taos_engine::audio::Volumes;
use taos_engine::game_loop::Bindings;
use taos_engine::storage::{
    Database, Record, StorageBackend, StorageError, Transaction, TransactionMode, record_version,
};

use crate::particles::ParticleLevel;
use crate::player::{CraftyAction, default_bindings};
use crate::render::{Godrays, Shadows};
use crate::save::{SETTINGS_STORE, WorldStore};
use crate::servers::KnownServers;

/// The key of the [`Settings`] record.
const SETTINGS_KEY: &str = "player";
/// The key of the bindings record.
const BINDINGS_KEY: &str = "bindings";

/// Radians of view turn per pixel of mouse motion at sensitivity 1.
pub const LOOK_RADIANS_PER_PIXEL: f32 = 0.0025;

/// When the on-screen touch controls show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum TouchMode {
    /// Once the screen is touched.
    #[default]
    Auto,
    /// Never.
    Off,
}

/// How the sun and moon cast shadows: more cascades, sharper and further
/// shadows, more drawing each frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum ShadowQuality {
    /// No shadow maps: only cover overhead darkens.
    Off,
    /// Two cascades of 512 texels out to 64 blocks.
    Low,
    /// Three cascades of 1024 texels out to 96 blocks.
    #[default]
    Medium,
    /// Four cascades of 2048 texels out to 160 blocks.
    High,
}

impl ShadowQuality {
    /// Every quality, lowest first.
    pub const ALL: [Self; 4] = [Self::Off, Self::Low, Self::Medium, Self::High];

    /// What the pipeline draws for this quality.
    #[must_use]
    pub fn shadows(self) -> Shadows {
        let (cascades, resolution, distance) = match self {
            Self::Off => return Shadows::OFF,
            Self::Low => (2, 512, 64.0),
            Self::Medium => (3, 1024, 96.0),
            Self::High => (4, 2048, 160.0),
        };
        Shadows {
            cascades,
            distance,
            resolution,
        }
    }

    /// Its name on the settings screen.
    #[must_use]
    pub fn label(self) -> &'static str {
        match self {
            Self::Off => "Off",
            Self::Low => "Low",
            Self::Medium => "Medium",
            Self::High => "High",
        }
    }
}

/// Everything on the settings screen except the bindings. Missing fields
/// (a record from an older crafty) take their defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Mouse and touch look speed, a multiple of [`LOOK_RADIANS_PER_PIXEL`]
    /// (0.1 to 5).
    pub mouse_sensitivity: f32,
    /// Vertical field of view in degrees (50 to 110).
    pub fov_degrees: f32,
    /// Overall volume, 0 to 1.
    pub master_volume: f32,
    /// Footsteps, blocks and ambience, 0 to 1.
    pub effects_volume: f32,
    /// Whether the touch controls show.
    pub touch: TouchMode,
    /// Chunks drawn around the player in each direction
    /// ([`VIEW_DISTANCES`], 2 to 64, 32 in the browser): loaded in full out
    /// to [`NEAR_CHUNKS`](crate::session::NEAR_CHUNKS), level-of-detail
    /// terrain beyond.
    pub view_distance: i32,
    /// Sun and moon shadows.
    pub shadows: ShadowQuality,
    /// Light shafts from the sun and moon.
    pub light_shafts: bool,
    /// Block debris, rain splashes and snow puffs.
    pub particles: ParticleLevel,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            mouse_sensitivity: 1.0,
            fov_degrees: crate::view::FOV_DEGREES,
            master_volume: 0.8,
            effects_volume: 1.0,
            touch: TouchMode::Auto,
            view_distance: crate::game::DEFAULT_VIEW_RADIUS,
            shadows: ShadowQuality::default(),
            light_shafts: true,
            particles: ParticleLevel::default(),
        }
    }
}

impl Record for Settings {}

/// The view distances a player can choose, in chunks.
pub const VIEW_DISTANCES: std::ops::RangeInclusive<i32> =
    *crate::game::VIEW_RADII.start()..=crate::session::MAX_VIEW_DISTANCE;

impl Settings {
    /// The allowed range of [`mouse_sensitivity`](Self::mouse_sensitivity).
    pub const SENSITIVITY: std::ops::RangeInclusive<f32> = 0.1..=5.0;
    /// The allowed range of [`fov_degrees`](Self::fov_degrees).
    pub const FOV: std::ops::RangeInclusive<f32> = 50.0..=110.0;

    /// The settings with every value in its range (NaN takes the default).
    #[must_use]
    pub fn sanitized(self) -> Self {
        let defaults = Self::default();
        let fit = |value: f32, range: std::ops::RangeInclusive<f32>, default: f32| {
            if value.is_finite() {
                value.clamp(*range.start(), *range.end())
            } else {
                default
            }
        };
        Self {
            mouse_sensitivity: fit(
                self.mouse_sensitivity,
                Self::SENSITIVITY,
                defaults.mouse_sensitivity,
            ),
            fov_degrees: fit(self.fov_degrees, Self::FOV, defaults.fov_degrees),
            master_volume: fit(self.master_volume, 0.0..=1.0, defaults.master_volume),
            effects_volume: fit(self.effects_volume, 0.0..=1.0, defaults.effects_volume),
            touch: self.touch,
            view_distance: self
                .view_distance
                .clamp(*VIEW_DISTANCES.start(), *VIEW_DISTANCES.end()),
            shadows: self.shadows,
            light_shafts: self.light_shafts,
            particles: self.particles,
        }
    }

    /// Radians of turn per pixel of mouse or finger motion.
    #[must_use]
    pub fn look_radians_per_pixel(&self) -> f32 {
        LOOK_RADIANS_PER_PIXEL * self.mouse_sensitivity
    }

    /// The light shafts the pipeline draws.
    #[must_use]
    pub fn godrays(&self) -> Godrays {
        if self.light_shafts {
            Godrays::default()
        } else {
            Godrays::OFF
        }
    }

    /// The mixer's bus volumes.
    #[must_use]
    pub fn volumes(&self) -> Volumes {
        Volumes {
            master: self.master_volume,
            game: self.effects_volume,
            ui: 1.0,
        }
    }
}

/// The settings and the key bindings, loaded and saved together.
#[derive(Debug, Clone)]
pub struct PlayerSettings {
    /// Sensitivity, field of view, volumes, touch.
    pub settings: Settings,
    /// The key, mouse and gamepad bindings.
    pub bindings: Bindings<CraftyAction>,
    /// The servers joined, with their tokens (stored on their own when a
    /// server gives a token: [`KnownServers::save`]).
    pub servers: KnownServers,
    /// Why something could not be read (the defaults were used instead).
    pub warnings: Vec<String>,
}

impl Default for PlayerSettings {
    fn default() -> Self {
        Self {
            settings: Settings::default(),
            bindings: default_bindings(),
            servers: KnownServers::default(),
            warnings: Vec::new(),
        }
    }
}

impl PlayerSettings {
    /// Reads the saved settings; what is missing or unreadable takes its
    /// defaults (unreadable adds a warning).
    ///
    /// # Errors
    /// Storage failures other than an unreadable record (the database
    /// could not be read at all).
    pub async fn load<B: StorageBackend>(store: &WorldStore<B>) -> Result<Self, StorageError> {
        let db = store.database();
        let mut warnings = Vec::new();
        let mut unreadable = |what: &str, error: &dyn std::fmt::Display| {
            let warning = format!("saved {what} ignored, using the defaults: {error}");
            log::warn!("{warning}");
            warnings.push(warning);
        };
        let settings = match db.get::<Settings>(SETTINGS_STORE, SETTINGS_KEY).await {
            Ok(found) => found.unwrap_or_default().sanitized(),
            // A version no upgrade starts from (0, from a damaged file) is
            // as unreadable as a garbled one: the game starts on defaults.
            Err(
                error @ (StorageError::Decode { .. }
                | StorageError::NewerRecord { .. }
                | StorageError::Migration { .. }),
            ) => {
                unreadable("settings", &error);
                Settings::default()
            }
            Err(error) => return Err(error),
        };
        let bindings = match db.get::<Vec<u8>>(SETTINGS_STORE, BINDINGS_KEY).await {
            Ok(None) => default_bindings(),
            Ok(Some(record)) => {
                Bindings::from_record(&record, &CraftyAction::ALL).unwrap_or_else(|error| {
                    unreadable("key bindings", &error);
                    default_bindings()
                })
            }
            Err(
                error @ (StorageError::Decode { .. }
                | StorageError::NewerRecord { .. }
                | StorageError::Migration { .. }),
            ) => {
                unreadable("key bindings", &error);
                default_bindings()
            }
            Err(error) => return Err(error),
        };
        let servers = KnownServers::load(store).await?;
        Ok(Self {
            settings,
            bindings,
            servers,
            warnings,
        })
    }

    /// Saves the settings and the bindings together, in one transaction.
    ///
    /// # Errors
    /// [`StorageError::NewerRecord`] if a stored settings or bindings record
    /// is from a newer crafty (it is left untouched, nothing is written);
    /// storage failures (a full disk, a quota). What was saved before stays.
    pub async fn save<B: StorageBackend>(&self, store: &WorldStore<B>) -> Result<(), StorageError> {
        let settings = self.settings.clone().sanitized();
        let bindings = self.bindings.to_record();
        store
            .database()
            .transaction(&[SETTINGS_STORE], TransactionMode::ReadWrite, async |tx| {
                if let Some(stored) = tx.get_raw(SETTINGS_STORE, SETTINGS_KEY).await? {
                    refuse_newer(SETTINGS_KEY, &stored, Settings::VERSION)?;
                }
                if let Some(stored) = tx.get_raw(SETTINGS_STORE, BINDINGS_KEY).await? {
                    refuse_newer(BINDINGS_KEY, &stored, <Vec<u8> as Record>::VERSION)?;
                    refuse_newer_bindings(&stored, &bindings)?;
                }
                tx.put(SETTINGS_STORE, SETTINGS_KEY, &settings).await?;
                tx.put(SETTINGS_STORE, BINDINGS_KEY, &bindings).await
            })
            .await
    }
}

/// Refuses a stored record whose envelope is newer than `supported`. A record
/// that is not an envelope at all (corrupt) may be replaced.
fn refuse_newer(key: &str, stored: &[u8], supported: u32) -> Result<(), StorageError> {
    match record_version(SETTINGS_STORE, key, stored) {
        Ok(found) if found > supported => Err(StorageError::NewerRecord {
            store: SETTINGS_STORE.to_owned(),
            key: key.to_owned(),
            found,
            supported,
        }),
        _ => Ok(()),
    }
}

/// Refuses stored bindings in a newer bindings format than the one `ours`
/// (this build's record) is in: `TBND`, then the format version byte.
fn refuse_newer_bindings(stored: &[u8], ours: &[u8]) -> Result<(), StorageError> {
    const VERSION_AT: usize = 4;
    let Ok(stored) = serde_json::from_slice::<StoredBindings>(stored) else {
        return Ok(());
    };
    let format = |record: &[u8]| {
        record
            .starts_with(b"TBND")
            .then(|| record.get(VERSION_AT).copied())
            .flatten()
    };
    match (format(&stored.data), format(ours)) {
        (Some(found), Some(supported)) if found > supported => Err(StorageError::NewerRecord {
            store: SETTINGS_STORE.to_owned(),
            key: BINDINGS_KEY.to_owned(),
            found: found.into(),
            supported: supported.into(),
        }),
        _ => Ok(()),
    }
}

/// The bindings record's envelope, read only for its bytes.
#[derive(Deserialize)]
struct StoredBindings {
    data: Vec<u8>,
}

#[cfg(test)]
mod decode_props;

#[cfg(test)]
mod tests {
    use taos_engine::storage::{MemoryBackend, block_on};

    use super::*;

    #[test]
    fn out_of_range_and_nan_values_are_brought_back() {
        let wild = Settings {
            mouse_sensitivity: 100.0,
            fov_degrees: f32::NAN,
            master_volume: -1.0,
            effects_volume: 2.0,
            touch: TouchMode::Off,
            view_distance: 99,
            shadows: ShadowQuality::High,
            light_shafts: false,
            particles: ParticleLevel::Reduced,
        }
        .sanitized();
        assert_eq!(
            (wild.shadows, wild.light_shafts, wild.particles),
            (ShadowQuality::High, false, ParticleLevel::Reduced)
        );
        assert_eq!(wild.mouse_sensitivity, 5.0);
        assert_eq!(wild.view_distance, crate::session::MAX_VIEW_DISTANCE);
        assert_eq!(wild.fov_degrees, crate::view::FOV_DEGREES);
        assert_eq!((wild.master_volume, wild.effects_volume), (0.0, 1.0));
        assert_eq!(wild.touch, TouchMode::Off);
        // Stored as the record's JSON: the particle level comes back.
        let stored: Settings =
            serde_json::from_str(&serde_json::to_string(&wild).unwrap()).unwrap();
        assert_eq!(stored, wild);
    }

    #[test]
    fn older_records_without_the_graphics_settings_get_their_defaults() {
        let old = r#"{"mouse_sensitivity":2.0,"fov_degrees":80.0,"master_volume":0.5,"effects_volume":1.0,"touch":"Auto","view_distance":8}"#;
        let settings: Settings = serde_json::from_str(old).unwrap();
        assert_eq!(settings.view_distance, 8);
        assert_eq!(settings.shadows, ShadowQuality::Medium);
        assert!(settings.light_shafts);
        assert_eq!(settings.particles, ParticleLevel::On);
        assert_eq!(settings.godrays(), Godrays::default());
        assert_eq!(ShadowQuality::Off.shadows(), Shadows::OFF);
        let qualities = ShadowQuality::ALL.map(|q| q.shadows());
        assert!(
            qualities
                .windows(2)
                .all(|w| w[0].cascades < w[1].cascades && w[0].distance <= w[1].distance),
            "each quality draws more than the one below: {qualities:?}"
        );
    }

    #[test]
    fn corrupt_records_give_defaults_and_warnings_and_stay_until_replaced() {
        let store = block_on(WorldStore::open(&MemoryBackend::new())).unwrap();
        let db = store.database();
        let put_raw = |bytes: &'static [u8]| {
            block_on(
                db.transaction(&[SETTINGS_STORE], TransactionMode::ReadWrite, async |tx| {
                    tx.put_raw(SETTINGS_STORE, SETTINGS_KEY, bytes).await
                }),
            )
            .unwrap();
        };
        put_raw(b"{ not json");
        block_on(db.put(SETTINGS_STORE, BINDINGS_KEY, &b"TBND\x01\x00\x00".to_vec())).unwrap();
        let loaded = block_on(PlayerSettings::load(&store)).unwrap();
        assert_eq!(loaded.settings, Settings::default());
        assert_eq!(loaded.bindings.to_record(), default_bindings().to_record());
        assert_eq!(loaded.warnings.len(), 2, "{:?}", loaded.warnings);
        assert!(
            loaded.warnings[1].contains("truncated"),
            "{:?}",
            loaded.warnings
        );
        // Loading wrote nothing over them.
        let kept = block_on(db.transaction(
            &[SETTINGS_STORE],
            TransactionMode::ReadOnly,
            async |tx| tx.get_raw(SETTINGS_STORE, SETTINGS_KEY).await,
        ))
        .unwrap();
        assert_eq!(kept.as_deref(), Some(&b"{ not json"[..]));
    }

    /// The raw bytes stored under `key`.
    fn stored(store: &WorldStore<MemoryBackend>, key: &str) -> Option<Vec<u8>> {
        block_on(store.database().transaction(
            &[SETTINGS_STORE],
            TransactionMode::ReadOnly,
            async |tx| tx.get_raw(SETTINGS_STORE, key).await,
        ))
        .unwrap()
    }

    fn put_raw(store: &WorldStore<MemoryBackend>, key: &str, bytes: &[u8]) {
        block_on(store.database().transaction(
            &[SETTINGS_STORE],
            TransactionMode::ReadWrite,
            async |tx| tx.put_raw(SETTINGS_STORE, key, bytes).await,
        ))
        .unwrap();
    }

    #[test]
    fn records_of_a_version_no_upgrade_starts_from_load_as_defaults() {
        // Version 0 never existed: a damaged envelope (found by the
        // property test below). Loading must not fail the game's start.
        let store = block_on(WorldStore::open(&MemoryBackend::new())).unwrap();
        put_raw(
            &store,
            SETTINGS_KEY,
            br#"{"version":0,"data":{"fov_degrees":80.0}}"#,
        );
        put_raw(
            &store,
            BINDINGS_KEY,
            br#"{"version":0,"data":[84,66,78,68,1]}"#,
        );
        let loaded = block_on(PlayerSettings::load(&store)).unwrap();
        assert_eq!(loaded.settings, Settings::default());
        assert_eq!(loaded.warnings.len(), 2, "{:?}", loaded.warnings);
        block_on(loaded.save(&store)).unwrap();
    }

    #[test]
    fn a_newer_settings_record_is_kept_and_a_save_over_it_refused() {
        let store = block_on(WorldStore::open(&MemoryBackend::new())).unwrap();
        let newer = br#"{"version":7,"data":{"mouse_sensitivity":3.0,"hologram":true}}"#;
        put_raw(&store, SETTINGS_KEY, newer);
        let bindings_before = stored(&store, BINDINGS_KEY);
        let mut loaded = block_on(PlayerSettings::load(&store)).unwrap();
        assert_eq!(
            loaded.settings,
            Settings::default(),
            "defaults this session"
        );
        assert!(
            loaded.warnings.iter().any(|w| w.contains("version 7")),
            "{:?}",
            loaded.warnings
        );
        loaded.settings.fov_degrees = 90.0;
        let error = block_on(loaded.save(&store)).unwrap_err();
        assert!(
            matches!(error, StorageError::NewerRecord { found: 7, .. }),
            "{error}"
        );
        assert!(error.to_string().contains("left untouched"), "{error}");
        assert_eq!(stored(&store, SETTINGS_KEY).as_deref(), Some(&newer[..]));
        assert_eq!(
            stored(&store, BINDINGS_KEY),
            bindings_before,
            "nothing saved"
        );
    }

    #[test]
    fn newer_key_bindings_are_kept_and_a_save_over_them_refused() {
        let store = block_on(WorldStore::open(&MemoryBackend::new())).unwrap();
        // A newer envelope, and a newer bindings format in a current envelope.
        let newer_envelope = br#"{"version":2,"data":[84,66,78,68,1]}"#.to_vec();
        let newer_format = br#"{"version":1,"data":[84,66,78,68,9,0,0,4]}"#.to_vec();
        for newer in [newer_envelope, newer_format] {
            put_raw(&store, BINDINGS_KEY, &newer);
            let mut loaded = block_on(PlayerSettings::load(&store)).unwrap();
            assert_eq!(loaded.warnings.len(), 1, "{:?}", loaded.warnings);
            loaded.settings.fov_degrees = 90.0;
            let error = block_on(loaded.save(&store)).unwrap_err();
            assert!(error.to_string().contains("bindings"), "{error}");
            assert_eq!(stored(&store, BINDINGS_KEY), Some(newer));
            assert_eq!(stored(&store, SETTINGS_KEY), None, "nothing saved");
        }
    }

    #[test]
    fn a_record_from_before_view_distance_loads_with_the_default() {
        let store = block_on(WorldStore::open(&MemoryBackend::new())).unwrap();
        let old = br#"{"version":1,"data":{"mouse_sensitivity":2.0,"fov_degrees":80.0,"master_volume":0.5,"effects_volume":0.5,"touch":"Auto"}}"#;
        block_on(store.database().transaction(
            &[SETTINGS_STORE],
            TransactionMode::ReadWrite,
            async |tx| tx.put_raw(SETTINGS_STORE, SETTINGS_KEY, old).await,
        ))
        .unwrap();
        let loaded = block_on(PlayerSettings::load(&store)).unwrap();
        assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
        assert_eq!(loaded.settings.mouse_sensitivity, 2.0);
        assert_eq!(
            loaded.settings.view_distance,
            crate::game::DEFAULT_VIEW_RADIUS
        );
    }
}
