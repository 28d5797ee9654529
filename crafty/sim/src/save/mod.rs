//! Saved worlds: records, edit logs, thumbnails and autosave.
//!
//! A world is stored as its seed plus the ordered edits the player made,
//! through the engine's [storage traits](taos_storage) (redb natively,
//! IndexedDB in the browser, memory in tests), in three stores of one database
//! (a fourth, [`SETTINGS_STORE`], holds the player's settings):
//!
//! | store | key | value |
//! | --- | --- | --- |
//! | [`WORLDS_STORE`] | world id | [`SavedWorld`]: metadata and the list of edit segments (JSON) |
//! | [`SEGMENTS_STORE`] | [`segment_key`]`(id, n)` | a run of edits, binary, length and CRC-32 checked |
//! | [`THUMBNAILS_STORE`] | world id | a 160×90 JPEG |
//!
//! The edit log is append-only: each autosave writes the edits made since
//! the last one as one new segment, together with the updated record, in one
//! transaction, so saving costs the new edits, not the whole history. When a
//! world has more than [`MAX_SEGMENTS`] segments the newest small ones are
//! merged. On load a segment that is missing, torn or fails its checksum is
//! moved aside (to its [`quarantine_key`], never deleted) with a
//! [`LoadWarning`] and the rest of the world loads; a segment written by a
//! newer build makes the load refuse the world, untouched.
//!
//! Records carry a format version ([`CURRENT_VERSION`]); older ones (the
//! original game's, with no version or game mode and inline edits) are
//! upgraded on load and written back, newer ones are refused untouched.
//!
//! ```
//! use crafty_sim::inventory::GameMode;
//! use crafty_sim::save::{PlaySnapshot, SaveSession, SavedWorld, WorldStore};
//! use crafty_sim::world::{BlockType, World};
//! use glam::IVec3;
//! use taos_storage::{MemoryBackend, block_on};
//!
//! let store = block_on(WorldStore::open(&MemoryBackend::new()))?;
//! let record = SavedWorld::create("Home", 42, GameMode::Creative, 1_000);
//! let id = record.id.clone();
//! let mut world = World::with_terrain(record.terrain());
//! let mut session = SaveSession::new(record);
//!
//! world.set_block(IVec3::new(1, 70, 2), BlockType::Glass).unwrap();
//! session.note_change(2_000);
//! let snapshot = PlaySnapshot::of(session.record());
//! assert!(!session.due(6_999));
//! assert!(block_on(session.autosave_if_due(&store, &world, &snapshot, 7_000))?.is_some());
//!
//! let loaded = block_on(store.load(&id))?;
//! assert_eq!(loaded.edits, world.edits());
//! # Ok::<(), crafty_sim::save::SaveError>(())
//! ```

mod autosave;
mod record;
mod segment;
mod store;
mod thumbnail;
mod unsaved;

pub use autosave::{
    AUTOSAVE_DELAY_MS, AutosaveTimer, CompletedSave, PendingSave, PlaySnapshot, SaveSession,
};
pub use record::{
    CURRENT_VERSION, EditLog, PlayerState, SPAWN, START_SUN_ANGLE, SavedWorld, SegmentInfo,
    random_id,
};
pub use segment::{
    EDIT_BYTES, SEGMENT_HEADER_BYTES, SegmentError, decode_segment_into, encode_segment,
    segment_len,
};
pub use store::{
    AppendReport, DATABASE, LoadWarning, LoadedWorld, MAX_SEGMENT_EDITS, MAX_SEGMENTS,
    SCHEMA_VERSION, SEGMENTS_STORE, SETTINGS_STORE, SaveError, THUMBNAILS_STORE, UnreadableWorld,
    WORLDS_STORE, WorldListing, WorldStore, quarantine_key, segment_key,
};
pub use thumbnail::{
    MAX_THUMBNAIL_SIZE, THUMBNAIL_HEIGHT, THUMBNAIL_QUALITY, THUMBNAIL_WIDTH, decode_thumbnail,
    encode_thumbnail,
};
pub use unsaved::{UNSAVED_EDITS_FORMAT, UnsavedEdits};
