//! Saved worlds against damage, newer builds and hostile records: nothing
//! is deleted on load, a newer world is left untouched, the storage key is
//! the world's identity, and counts from a record never size an allocation
//! or let an append overwrite a live segment.

mod raw_store;
use raw_store::{raw_get, raw_put};

use crafty_sim::inventory::GameMode;
use crafty_sim::save::{
    LoadWarning, PlaySnapshot, SEGMENTS_STORE, SaveError, SaveSession, SavedWorld, SegmentError,
    WORLDS_STORE, WorldStore, encode_segment, quarantine_key, segment_key,
};
use crafty_sim::world::{BlockEdit, BlockType, World};
use glam::IVec3;
use serde_json::Value;
use taos_storage::{Database, MemoryBackend, Transaction, TransactionMode, block_on};

type Store = WorldStore<MemoryBackend>;

fn everything(store: &Store) -> Vec<(String, Vec<u8>)> {
    let mut all = Vec::new();
    for name in [WORLDS_STORE, SEGMENTS_STORE] {
        let rows = block_on(store.database().transaction(
            &[name],
            TransactionMode::ReadOnly,
            async |tx| tx.get_all_raw(name).await,
        ))
        .unwrap();
        all.extend(rows.into_iter().map(|(k, v)| (format!("{name}:{k}"), v)));
    }
    all
}

/// A world with three segments of 10, 20 and 5 edits.
fn three_segments(store: &Store) -> (String, World) {
    let record = SavedWorld::create("Damaged", 5, GameMode::Creative, 0);
    let id = record.id.clone();
    block_on(store.save(&record)).unwrap();
    let mut world = World::with_terrain(record.terrain());
    let mut session = SaveSession::new(record);
    let snapshot = PlaySnapshot::of(session.record());
    for (start, count) in [(0, 10), (10, 20), (30, 5)] {
        for i in start..start + count {
            world
                .set_block(IVec3::new(i, 90, 0), BlockType::Planks)
                .unwrap();
        }
        block_on(session.autosave(store, &world, &snapshot, start as u64)).unwrap();
    }
    (id, world)
}

/// Rewrites the stored record's `data` with `edit`.
fn edit_record(store: &Store, key: &str, edit: impl FnOnce(&mut Value)) {
    let bytes = raw_get(store, WORLDS_STORE, key).unwrap();
    let mut envelope: Value = serde_json::from_slice(&bytes).unwrap();
    edit(&mut envelope["data"]);
    raw_put(
        store,
        WORLDS_STORE,
        key,
        &serde_json::to_vec(&envelope).unwrap(),
    );
}

#[test]
fn a_damaged_segment_is_moved_aside_not_deleted() {
    let store = Store::open_blocking();
    let (id, world) = three_segments(&store);
    let key = segment_key(&id, 1);
    let mut bytes = raw_get(&store, SEGMENTS_STORE, &key).unwrap();
    bytes[40] ^= 0x08;
    raw_put(&store, SEGMENTS_STORE, &key, &bytes);

    let loaded = block_on(store.load(&id)).unwrap();
    let mut expected = world.edits()[..10].to_vec();
    expected.extend_from_slice(&world.edits()[30..]);
    assert_eq!(loaded.edits, expected);
    assert!(matches!(
        loaded.warnings[..],
        [LoadWarning::SegmentDropped { segment: 1, .. }]
    ));
    // The bytes are kept aside, out of the log.
    assert_eq!(raw_get(&store, SEGMENTS_STORE, &key), None);
    assert_eq!(
        raw_get(&store, SEGMENTS_STORE, &quarantine_key(&id, 1)),
        Some(bytes)
    );
    // The next load is clean; deleting the world removes the quarantine too.
    assert!(block_on(store.load(&id)).unwrap().warnings.is_empty());
    block_on(store.delete(&id)).unwrap();
    assert!(everything(&store).is_empty(), "{:?}", everything(&store));
}

#[test]
fn a_world_from_a_newer_build_is_refused_and_left_untouched() {
    let newer_encoding = |bytes: &mut Vec<u8>| bytes[4] = 2;
    // A block byte this build does not know, in a segment whose checksum
    // holds: what a newer build with more blocks writes.
    let unknown_block = |bytes: &mut Vec<u8>| {
        let edits = [BlockEdit::new(IVec3::new(1, 2, 3), BlockType::Stone)];
        let mut segment = encode_segment(&edits);
        let last = segment.len() - 1;
        segment[last] = 250;
        let crc = crc32(&segment[13..]);
        segment[9..13].copy_from_slice(&crc.to_le_bytes());
        *bytes = segment;
    };
    for (what, damage) in [
        ("newer encoding", &newer_encoding as &dyn Fn(&mut Vec<u8>)),
        ("unknown block", &unknown_block),
    ] {
        let store = Store::open_blocking();
        let (id, _) = three_segments(&store);
        let key = segment_key(&id, 2);
        let mut bytes = raw_get(&store, SEGMENTS_STORE, &key).unwrap();
        damage(&mut bytes);
        raw_put(&store, SEGMENTS_STORE, &key, &bytes);
        if what == "unknown block" {
            edit_record(&store, &id, |data| {
                data["editLog"]["segments"][2]["edits"] = 1.into()
            });
        }
        let before = everything(&store);
        let error = block_on(store.load(&id)).unwrap_err();
        let SaveError::NewerSegment {
            segment: 2, reason, ..
        } = &error
        else {
            panic!("{what}: {error}");
        };
        assert!(reason.is_from_newer_build(), "{what}: {reason}");
        assert!(error.to_string().contains("newer crafty"), "{error}");
        assert_eq!(everything(&store), before, "{what}: the world was modified");
    }
}

fn crc32(bytes: &[u8]) -> u32 {
    // CRC-32 (IEEE), bit by bit: the test does not trust the code it checks.
    let mut crc = !0_u32;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[test]
fn the_storage_key_is_the_identity_of_a_copied_world() {
    let store = Store::open_blocking();
    let (original, world) = three_segments(&store);
    // A copy under a new key, as `taos-db import` of an export makes it: the
    // record still names the original's id.
    let copy = "copy-of-damaged";
    let record = raw_get(&store, WORLDS_STORE, &original).unwrap();
    raw_put(&store, WORLDS_STORE, copy, &record);
    for n in 0..3 {
        let bytes = raw_get(&store, SEGMENTS_STORE, &segment_key(&original, n)).unwrap();
        raw_put(&store, SEGMENTS_STORE, &segment_key(copy, n), &bytes);
    }
    let listing = block_on(store.list()).unwrap();
    let mut ids: Vec<_> = listing.worlds.iter().map(|w| w.id.clone()).collect();
    ids.sort();
    let mut expected = vec![original.clone(), copy.to_owned()];
    expected.sort();
    assert_eq!(ids, expected);
    let loaded = block_on(store.load(copy)).unwrap();
    assert_eq!(loaded.record.id, copy);

    // Playing and deleting the copy leaves the original whole.
    let (live, mut session) = SaveSession::start(loaded);
    let snapshot = PlaySnapshot::of(session.record());
    block_on(session.autosave(&store, &live, &snapshot, 50)).unwrap();
    block_on(store.delete(copy)).unwrap();
    let left = block_on(store.load(&original)).unwrap();
    assert_eq!(left.edits, world.edits());
    assert_eq!(left.record.id, original);
}

#[test]
fn a_record_claiming_four_billion_edits_loads_what_is_there() {
    let store = Store::open_blocking();
    let (id, world) = three_segments(&store);
    edit_record(&store, &id, |data| {
        data["editLog"]["segments"][1]["edits"] = u32::MAX.into();
    });
    // No allocation from the count: the claim is checked against the bytes.
    let loaded = block_on(store.load(&id)).unwrap();
    assert!(matches!(
        loaded.warnings[..],
        [LoadWarning::SegmentDropped {
            segment: 1,
            reason: SegmentError::CountMismatch { .. },
            ..
        }]
    ));
    assert_eq!(loaded.edits.len(), world.edits().len() - 20);
}

#[test]
fn an_append_never_overwrites_a_listed_segment() {
    let store = Store::open_blocking();
    let (id, world) = three_segments(&store);
    // A record whose next index points back at its own first segment.
    edit_record(&store, &id, |data| {
        data["editLog"]["nextSegment"] = 0.into()
    });
    let loaded = block_on(store.load(&id)).unwrap();
    let (mut live, mut session) = SaveSession::start(loaded);
    live.set_block(IVec3::new(0, 95, 0), BlockType::Glass)
        .unwrap();
    let snapshot = PlaySnapshot::of(session.record());
    block_on(session.autosave(&store, &live, &snapshot, 60)).unwrap();
    let again = block_on(store.load(&id)).unwrap();
    assert_eq!(again.edits.len(), world.edits().len() + 1);
    assert!(again.warnings.is_empty());

    // A record at the last index refuses the append instead of wrapping.
    edit_record(&store, &id, |data| {
        data["editLog"]["segments"][0]["index"] = u32::MAX.into();
    });
    let key = segment_key(&id, u32::MAX);
    let first = raw_get(&store, SEGMENTS_STORE, &segment_key(&id, 0)).unwrap();
    raw_put(&store, SEGMENTS_STORE, &key, &first);
    let loaded = block_on(store.load(&id)).unwrap();
    let (mut live, mut session) = SaveSession::start(loaded);
    live.set_block(IVec3::new(1, 95, 0), BlockType::Glass)
        .unwrap();
    let snapshot = PlaySnapshot::of(session.record());
    let error = block_on(session.autosave(&store, &live, &snapshot, 70)).unwrap_err();
    assert!(matches!(error, SaveError::Corrupt { .. }), "{error}");
}

trait OpenBlocking {
    fn open_blocking() -> Self;
}

impl OpenBlocking for Store {
    fn open_blocking() -> Self {
        block_on(WorldStore::open(&MemoryBackend::new())).unwrap()
    }
}

#[test]
fn a_huge_or_bad_thumbnail_is_refused_before_decoding() {
    use crafty_sim::save::{MAX_THUMBNAIL_SIZE, decode_thumbnail};
    // 65000x8 pixels: a few hundred bytes of JPEG.
    let wide = image::RgbImage::from_pixel(65_000, 8, image::Rgb([9, 9, 9]));
    let mut jpeg = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, 10)
        .encode_image(&wide)
        .unwrap();
    let error = decode_thumbnail(&jpeg).unwrap_err();
    assert!(
        matches!(
            error,
            SaveError::ThumbnailTooLarge {
                width: 65_000,
                height: 8
            }
        ),
        "{error}"
    );
    assert!(decode_thumbnail(b"not a jpeg").is_err());
    let (w, h) = MAX_THUMBNAIL_SIZE;
    let largest = image::RgbImage::from_pixel(w, h, image::Rgb([1, 2, 3]));
    let mut jpeg = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, 50)
        .encode_image(&largest)
        .unwrap();
    assert_eq!(decode_thumbnail(&jpeg).unwrap().dimensions(), (w, h));
}
