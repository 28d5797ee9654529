//! Property tests: a saved world whose stored bytes are damaged (its record
//! in `WORLDS_STORE` mutated byte by byte or one JSON value at a time, or one
//! of its edit-log segments mutated in `SEGMENTS_STORE`) never makes
//! `list` or `load` panic. A load that succeeds returns whole segments as
//! they were written, in log order (a damaged segment is dropped whole,
//! never half read), and loading again gives the same world. Segment bytes
//! fed straight to `decode_segment_into` never append more edits than the
//! bytes hold (one per 13 bytes) and append nothing on an error.
//!
//! 256 cases per property (a few seconds in a debug build);
//! `TAOS_FUZZ_CASES=10000` for a deeper run (see `taos_hostile_inputs`).

use std::sync::OnceLock;

use crafty_sim::inventory::GameMode;
use crafty_sim::save::{
    EDIT_BYTES, PlaySnapshot, SEGMENTS_STORE, SaveError, SaveSession, SavedWorld, THUMBNAILS_STORE,
    WORLDS_STORE, WorldStore, decode_segment_into, encode_segment, encode_thumbnail, segment_key,
};
use crafty_sim::world::{BlockEdit, BlockType, World};
use glam::IVec3;
use proptest::prelude::*;
use serde_json::{Value, json};
use taos_hostile_inputs::{apply, config, mutation};
use taos_storage::{Database, MemoryBackend, Transaction, TransactionMode, block_on};

type Store = WorldStore<MemoryBackend>;

const STORES: [&str; 3] = [WORLDS_STORE, SEGMENTS_STORE, THUMBNAILS_STORE];

/// Edits per segment: distinct sizes, so no segment can pass for another.
const SEGMENT_SIZES: [i32; 3] = [4, 9, 2];

/// A world saved by three autosaves, as raw rows, with its id and the
/// edits of each of its segments.
struct Saved {
    id: String,
    rows: Vec<(&'static str, String, Vec<u8>)>,
    segments: Vec<Vec<BlockEdit>>,
}

fn saved() -> &'static Saved {
    static SAVED: OnceLock<Saved> = OnceLock::new();
    SAVED.get_or_init(|| {
        let store = open();
        let record = SavedWorld::create("Fuzzed", 11, GameMode::Survival, 1_000);
        let id = record.id.clone();
        block_on(store.save(&record)).unwrap();
        let mut world = World::with_terrain(record.terrain());
        let mut session = SaveSession::new(record);
        let snapshot = PlaySnapshot::of(session.record());
        let blocks = [BlockType::Planks, BlockType::Glass, BlockType::Air];
        let mut segments = Vec::new();
        let mut x = 0;
        for (n, count) in SEGMENT_SIZES.into_iter().enumerate() {
            let start = world.edits().len();
            for _ in 0..count {
                world
                    .set_block(IVec3::new(x, 80 + n as i32, -x), blocks[n])
                    .unwrap();
                x += 1;
            }
            segments.push(world.edits()[start..].to_vec());
            block_on(session.autosave(&store, &world, &snapshot, 2_000 + n as u64)).unwrap();
        }
        let jpeg = encode_thumbnail(&[40; 16 * 9 * 4], 16, 9).unwrap();
        block_on(store.set_thumbnail(&id, Some(&jpeg))).unwrap();
        let rows = everything(&store);
        assert_eq!(rows.len(), 5, "a record, three segments, a thumbnail");
        Saved { id, rows, segments }
    })
}

fn open() -> Store {
    block_on(WorldStore::open(&MemoryBackend::new())).unwrap()
}

fn everything(store: &Store) -> Vec<(&'static str, String, Vec<u8>)> {
    let mut all = Vec::new();
    for name in STORES {
        let rows = block_on(store.database().transaction(
            &[name],
            TransactionMode::ReadOnly,
            async |tx| tx.get_all_raw(name).await,
        ))
        .unwrap();
        all.extend(rows.into_iter().map(|(k, v)| (name, k, v)));
    }
    all
}

/// A fresh store holding `rows`.
fn store_with(rows: &[(&'static str, String, Vec<u8>)]) -> Store {
    let store = open();
    block_on(
        store
            .database()
            .transaction(&STORES, TransactionMode::ReadWrite, async |tx| {
                for (name, key, bytes) in rows {
                    tx.put_raw(name, key, bytes).await?;
                }
                Ok::<_, SaveError>(())
            }),
    )
    .unwrap();
    store
}

/// The saved rows with the one at `(name, key)` passed through `damage`.
fn damaged_rows(
    name: &str,
    key: &str,
    damage: impl FnOnce(&mut Vec<u8>),
) -> Vec<(&'static str, String, Vec<u8>)> {
    let mut rows = saved().rows.clone();
    let row = rows
        .iter_mut()
        .find(|(n, k, _)| *n == name && k == key)
        .unwrap();
    damage(&mut row.2);
    rows
}

/// Whether `edits` is whole segments of the saved world, each as written,
/// in log order (any of them may be missing).
fn whole_segments_in_order(edits: &[BlockEdit]) -> bool {
    let mut rest = edits;
    for segment in &saved().segments {
        if let Some(after) = rest.strip_prefix(segment.as_slice()) {
            rest = after;
        }
    }
    rest.is_empty()
}

/// Lists and loads the world from `rows`; checks what a damaged world may
/// and may not come back as.
fn list_and_load(rows: &[(&'static str, String, Vec<u8>)]) -> Result<(), TestCaseError> {
    let store = store_with(rows);
    let id = &saved().id;
    let listing = block_on(store.list()).unwrap();
    prop_assert_eq!(listing.worlds.len() + listing.unreadable.len(), 1);
    let before = everything(&store);
    match block_on(store.load(id)) {
        Ok(first) => {
            prop_assert!(
                whole_segments_in_order(&first.edits),
                "edits that are not whole segments: {:?}",
                first.edits
            );
            let second = block_on(store.load(id));
            prop_assert!(second.is_ok(), "loaded once, then {:?}", second.err());
            let second = second.unwrap();
            prop_assert_eq!(&second.edits, &first.edits);
            prop_assert_eq!(&second.record, &first.record);
            prop_assert!(second.warnings.is_empty(), "{:?}", second.warnings);
            // The world it loaded is one the launcher lists.
            let listing = block_on(store.list()).unwrap();
            prop_assert_eq!(listing.worlds.len(), 1);
        }
        // Refused: left exactly as it was.
        Err(
            SaveError::Corrupt { .. }
            | SaveError::NewerVersion { .. }
            | SaveError::NewerSegment { .. }
            | SaveError::Migration { .. },
        ) => prop_assert!(everything(&store) == before, "a refused load wrote"),
        Err(other) => prop_assert!(false, "unexpected error: {other}"),
    }
    Ok(())
}

fn record_len() -> usize {
    let id = &saved().id;
    saved()
        .rows
        .iter()
        .find(|(n, k, _)| *n == WORLDS_STORE && k == id)
        .map_or(0, |row| row.2.len())
}

fn segment_len() -> usize {
    EDIT_BYTES * (SEGMENT_SIZES[1] as usize + 1)
}

/// Numbers and strings a hostile record might hold.
fn hostile_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!(u64::MAX)),
        Just(json!(u32::MAX)),
        Just(json!(u64::from(u32::MAX) + 1)),
        Just(json!(-1)),
        Just(json!(0)),
        Just(json!(1)),
        Just(json!(2)),
        Just(json!(3)),
        Just(json!(1e39)),
        Just(json!(-1e308)),
        Just(json!(0.5)),
        Just(Value::Null),
        Just(json!(true)),
        Just(json!("")),
        Just(json!("18446744073709551615")),
        Just(json!([])),
        Just(json!({})),
        Just(json!({"index": 0, "edits": 4})),
        Just(json!({"index": 4294967295_u32, "edits": 4294967295_u32})),
        any::<u32>().prop_map(|n| json!(n)),
    ]
}

/// A hostile value of `old`'s kind (a number for a number, a string for a
/// string); `None` for arrays and objects.
fn alike_value(old: &Value, pick: prop::sample::Index) -> Option<Value> {
    let choices = match old {
        Value::Number(_) => vec![
            json!(u64::MAX),
            json!(u32::MAX),
            json!(u64::from(u32::MAX) + 1),
            json!(i64::MIN),
            json!(-1),
            json!(0),
            json!(1),
            json!(2),
            json!(3),
            json!(4),
            json!(9),
            json!(1e39),
            json!(-1e39),
            json!(3.4e38),
            json!(1e-45),
            json!(0.5),
        ],
        Value::String(_) => vec![
            json!(""),
            json!("survival"),
            json!("creative"),
            json!("hardcore"),
            json!("-7"),
            json!("18446744073709551616"),
            json!("é".repeat(64)),
        ],
        Value::Bool(b) => vec![json!(!b)],
        Value::Null => vec![json!(0), json!("")],
        Value::Array(_) | Value::Object(_) => return None,
    };
    Some(pick.get(&choices).clone())
}

/// The `n`th node of `value` (pre-order, the root is 0).
fn nth_node(value: &Value, n: usize) -> Option<&Value> {
    if n == 0 {
        return Some(value);
    }
    let mut n = n - 1;
    let children: Vec<&Value> = match value {
        Value::Array(items) => items.iter().collect(),
        Value::Object(map) => map.values().collect(),
        _ => return None,
    };
    for child in children {
        let size = count_nodes(child);
        if n < size {
            return nth_node(child, n);
        }
        n -= size;
    }
    None
}

fn count_nodes(value: &Value) -> usize {
    1 + match value {
        Value::Array(items) => items.iter().map(count_nodes).sum(),
        Value::Object(map) => map.values().map(count_nodes).sum(),
        _ => 0,
    }
}

/// Replaces the `n`th node (pre-order, the root is 0) of `value` with
/// `new`, or removes it from its object or array when `new` is `None`.
fn mutate_nth(value: &mut Value, n: usize, new: Option<&Value>) {
    if n == 0 {
        if let Some(new) = new {
            *value = new.clone();
        }
        return;
    }
    let mut n = n - 1;
    let mut visit = |child: &mut Value, remove: &mut bool| {
        let size = count_nodes(child);
        if n == 0 && new.is_none() {
            *remove = true;
        } else if n < size {
            mutate_nth(child, n, new);
        }
        let found = n < size;
        n = n.saturating_sub(size);
        found
    };
    match value {
        Value::Array(items) => {
            for i in 0..items.len() {
                let mut remove = false;
                if visit(&mut items[i], &mut remove) {
                    if remove {
                        items.remove(i);
                    }
                    return;
                }
            }
        }
        Value::Object(map) => {
            let keys: Vec<String> = map.keys().cloned().collect();
            for key in keys {
                let mut remove = false;
                if visit(map.get_mut(&key).unwrap(), &mut remove) {
                    if remove {
                        map.remove(&key);
                    }
                    return;
                }
            }
        }
        _ => {}
    }
}

/// Recomputes a segment's CRC-32 over its (mutated) payload, so the damage
/// gets past the checksum to the parts behind it.
fn reseal(bytes: &mut [u8]) {
    if bytes.len() >= 13 {
        let crc = crc32fast::hash(&bytes[13..]);
        bytes[9..13].copy_from_slice(&crc.to_le_bytes());
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn a_mutated_record_never_panics_and_loads_whole_segments(
        mutations in proptest::collection::vec(mutation(record_len()), 1..4),
    ) {
        let rows = damaged_rows(WORLDS_STORE, &saved().id, |bytes| {
            *bytes = apply(bytes, &mutations);
        });
        list_and_load(&rows)?;
    }

    #[test]
    fn hostile_record_values_never_panic_and_load_whole_segments(
        targets in proptest::collection::vec(
            (
                any::<prop::sample::Index>(),
                proptest::option::weighted(0.85, hostile_value()),
                proptest::option::weighted(0.6, any::<prop::sample::Index>()),
            ),
            1..3,
        ),
    ) {
        let rows = damaged_rows(WORLDS_STORE, &saved().id, |bytes| {
            let mut value: Value = serde_json::from_slice(bytes).unwrap();
            for (target, new, alike) in &targets {
                let n = target.index(count_nodes(&value));
                // Mostly a value of the node's own kind, so the record
                // still parses and the damage reaches the load.
                let new = match (new, alike) {
                    (Some(new), Some(pick)) => Some(
                        nth_node(&value, n)
                            .and_then(|old| alike_value(old, *pick))
                            .unwrap_or_else(|| new.clone()),
                    ),
                    (new, _) => new.clone(),
                };
                mutate_nth(&mut value, n, new.as_ref());
            }
            *bytes = serde_json::to_vec(&value).unwrap();
        });
        list_and_load(&rows)?;
    }

    #[test]
    fn a_mutated_segment_never_panics_and_is_dropped_whole(
        segment in 0u32..3,
        mutations in proptest::collection::vec(mutation(segment_len()), 1..4),
        sealed in any::<bool>(),
    ) {
        let key = segment_key(&saved().id, segment);
        let rows = damaged_rows(SEGMENTS_STORE, &key, |bytes| {
            *bytes = apply(bytes, &mutations);
            if sealed {
                reseal(bytes);
            }
        });
        // What the load must make of it: the segment as its bytes now
        // decode (against the count the record lists), or dropped whole.
        let bytes = &rows.iter().find(|row| row.1 == key).unwrap().2;
        let listed = saved().segments[segment as usize].len() as u32;
        let mut decoded = Vec::new();
        let verdict = decode_segment_into(bytes, Some(listed), &mut decoded);
        let expected: Vec<BlockEdit> = saved()
            .segments
            .iter()
            .enumerate()
            .flat_map(|(i, edits)| if i == segment as usize { &decoded } else { edits })
            .copied()
            .collect();
        let store = store_with(&rows);
        let before = everything(&store);
        match (block_on(store.load(&saved().id)), verdict) {
            (Ok(loaded), Ok(())) => {
                prop_assert_eq!(&loaded.edits, &expected);
                prop_assert!(loaded.warnings.is_empty());
            }
            (Ok(loaded), Err(reason)) if !reason.is_from_newer_build() => {
                prop_assert_eq!(&loaded.edits, &expected);
                prop_assert_eq!(loaded.warnings.len(), 1);
                let again = block_on(store.load(&saved().id)).unwrap();
                prop_assert_eq!(again.edits, loaded.edits);
                prop_assert!(again.warnings.is_empty());
            }
            (Err(SaveError::NewerSegment { segment: s, .. }), Err(reason))
                if reason.is_from_newer_build() =>
            {
                prop_assert_eq!(s, segment);
                prop_assert!(everything(&store) == before, "a refused load wrote");
            }
            (result, verdict) => prop_assert!(
                false,
                "segment verdict {:?}, load {:?}",
                verdict,
                result.map(|l| l.edits.len())
            ),
        }
    }

    #[test]
    fn decoding_mutated_segment_bytes_appends_whole_segments_only(
        mutations in proptest::collection::vec(mutation(segment_len()), 1..4),
        sealed in any::<bool>(),
        expected in prop_oneof![
            Just(None),
            Just(Some(u32::MAX)),
            Just(Some(SEGMENT_SIZES[1] as u32)),
            any::<u32>().prop_map(Some),
        ],
    ) {
        let mut bytes = apply(&encode_segment(&saved().segments[1]), &mutations);
        if sealed {
            reseal(&mut bytes);
        }
        let first = BlockEdit::new(IVec3::new(7, 7, 7), BlockType::Stone);
        let mut out = vec![first];
        match decode_segment_into(&bytes, expected, &mut out) {
            Ok(()) => {
                let added = out.len() - 1;
                prop_assert!(added <= bytes.len() / EDIT_BYTES);
                prop_assert_eq!(bytes.len(), 13 + EDIT_BYTES * added);
                if let Some(expected) = expected {
                    prop_assert_eq!(added, expected as usize);
                }
            }
            Err(_) => prop_assert_eq!(&out, &vec![first]),
        }
        prop_assert!(out.len() <= 1 + bytes.len() / EDIT_BYTES);
        // What it reserves is sized by the bytes, never by a count.
        let mut empty = Vec::new();
        decode_segment_into(&bytes, expected, &mut empty).ok();
        prop_assert!(empty.capacity() <= (bytes.len() / EDIT_BYTES).max(4));
    }
}

#[test]
fn the_saved_world_loads_whole() {
    let store = store_with(&saved().rows);
    let loaded = block_on(store.load(&saved().id)).unwrap();
    assert_eq!(loaded.edits, saved().segments.concat());
    assert!(loaded.warnings.is_empty());
    assert!(whole_segments_in_order(&loaded.edits));
    assert!(!whole_segments_in_order(&loaded.edits[1..]));
}

/// Edit counts at the top of the range, in the header or the record, with
/// few bytes behind them: refused, nothing allocated or appended.
#[test]
fn hostile_edit_counts_are_refused_before_allocating() {
    let segment = encode_segment(&saved().segments[0]);
    for count in [u32::MAX, u32::MAX - 1, 0x8000_0000, 1 << 28] {
        let mut bytes = segment.clone();
        bytes[5..9].copy_from_slice(&count.to_le_bytes());
        for sealed in [false, true] {
            if sealed {
                reseal(&mut bytes);
            }
            for expected in [None, Some(count), Some(u32::MAX)] {
                let mut out = Vec::new();
                assert!(decode_segment_into(&bytes, expected, &mut out).is_err());
                assert_eq!(out.capacity(), 0, "{count} {expected:?}");
            }
        }
    }
    for cut in 0..segment.len() {
        let mut out = Vec::new();
        assert!(decode_segment_into(&segment[..cut], Some(u32::MAX), &mut out).is_err());
        assert_eq!(out.capacity(), 0);
    }
    // The record claims u32::MAX edits in a segment: dropped, the rest loads.
    let id = &saved().id;
    let rows = damaged_rows(WORLDS_STORE, id, |bytes| {
        let mut value: Value = serde_json::from_slice(bytes).unwrap();
        value["data"]["editLog"]["segments"][1]["edits"] = json!(u32::MAX);
        *bytes = serde_json::to_vec(&value).unwrap();
    });
    let store = store_with(&rows);
    let loaded = block_on(store.load(id)).unwrap();
    let mut expected = saved().segments[0].clone();
    expected.extend_from_slice(&saved().segments[2]);
    assert_eq!(loaded.edits, expected);
    assert_eq!(loaded.warnings.len(), 1);
}

/// A record that lists a segment twice, or its segments out of order,
/// replays each segment once, oldest (lowest index) first: never an edit
/// twice, never a newer edit under an older one.
#[test]
fn a_record_listing_segments_twice_or_out_of_order_replays_each_once_in_order() {
    let id = &saved().id;
    let logs = [
        json!([{"index": 0, "edits": 4}, {"index": 0, "edits": 4}, {"index": 2, "edits": 2}]),
        json!([{"index": 2, "edits": 2}, {"index": 0, "edits": 4}, {"index": 1, "edits": 9}]),
        json!([{"index": 1, "edits": 9}, {"index": 1, "edits": 9}, {"index": 0, "edits": 4}, {"index": 2, "edits": 2}, {"index": 2, "edits": 2}]),
    ];
    for log in logs {
        let rows = damaged_rows(WORLDS_STORE, id, |bytes| {
            let mut value: Value = serde_json::from_slice(bytes).unwrap();
            value["data"]["editLog"]["segments"] = log.clone();
            *bytes = serde_json::to_vec(&value).unwrap();
        });
        let store = store_with(&rows);
        let loaded = block_on(store.load(id)).unwrap();
        let listed: Vec<u32> = loaded
            .record
            .edit_log
            .segments
            .iter()
            .map(|s| s.index)
            .collect();
        let mut indices: Vec<u32> = log
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["index"].as_u64().unwrap() as u32)
            .collect();
        indices.sort_unstable();
        indices.dedup();
        assert_eq!(listed, indices, "{log}");
        let expected: Vec<BlockEdit> = indices
            .iter()
            .flat_map(|&i| saved().segments[i as usize].iter().copied())
            .collect();
        assert_eq!(loaded.edits, expected, "{log}");
        assert!(loaded.warnings.is_empty());
    }
}

/// A float beyond `f32` in the record (the sun's angle, the player, the
/// moon, the weather) in a world whose load writes the record back (here,
/// a segment the record miscounts): it loads, and loads again. Before,
/// the float read as infinite, was written back as `null`, and the next
/// load refused the whole world.
#[test]
fn a_float_beyond_f32_loads_and_loads_again() {
    let id = &saved().id;
    for (key, field) in [
        ("sunAngle", json!(1e39)),
        (
            "player",
            json!({"x": -1e39, "y": 80, "z": 64, "yaw": 0, "pitch": 1e300}),
        ),
        ("moonPhase", json!(1e300)),
        (
            "weather",
            json!({"spell": 2, "elapsed": 1e39, "wetness": 0.5}),
        ),
        (
            "weather",
            json!({"spell": 2, "elapsed": 3.0, "wetness": -1e39}),
        ),
    ] {
        let rows = damaged_rows(WORLDS_STORE, id, |bytes| {
            let mut value: Value = serde_json::from_slice(bytes).unwrap();
            value["data"][key] = field.clone();
            value["data"]["editLog"]["segments"][2]["edits"] = json!(3);
            *bytes = serde_json::to_vec(&value).unwrap();
        });
        let store = store_with(&rows);
        let first = block_on(store.load(id)).unwrap();
        assert_eq!(first.warnings.len(), 1, "{key}");
        let second = block_on(store.load(id));
        assert!(second.is_ok(), "{key}: {second:?}");
        let second = second.unwrap();
        assert_eq!(second.edits, first.edits);
        assert_eq!(second.record, first.record);
        let record = &second.record;
        assert!(record.sun_angle.is_finite());
        assert!(record.moon_phase.is_none_or(f32::is_finite));
        let p = record.player;
        assert!(
            [p.x, p.y, p.z, p.yaw, p.pitch]
                .iter()
                .all(|v| v.is_finite())
        );
        assert!(record.weather.is_none(), "{key}: {:?}", record.weather);
        assert_eq!(block_on(store.list()).unwrap().worlds.len(), 1);
    }
}
