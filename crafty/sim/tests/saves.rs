//! Saved worlds end to end: round trips, migration, damage, autosave, redb.

mod raw_store;
use raw_store::{raw_get, raw_put};

use std::collections::HashSet;

use crafty_sim::inventory::{GameMode, HOTBAR_SLOTS, InventoryState, ItemStack};
use crafty_sim::save::{
    AUTOSAVE_DELAY_MS, AutosaveTimer, CURRENT_VERSION, LoadWarning, MAX_SEGMENTS, PlaySnapshot,
    PlayerState, SEGMENTS_STORE, SPAWN, START_SUN_ANGLE, SaveError, SaveSession, SavedWorld,
    SegmentError, THUMBNAIL_HEIGHT, THUMBNAIL_WIDTH, THUMBNAILS_STORE, WORLDS_STORE, WorldStore,
    decode_thumbnail, encode_thumbnail, segment_key, segment_len,
};
use crafty_sim::world::{BlockType, ChunkPos, World};
use glam::IVec3;
use serde_json::{Value, json};
use taos_storage::{
    Database, MemoryBackend, RedbBackend, StorageBackend, StorageError, Transaction,
    TransactionMode, block_on,
};

fn open(backend: &MemoryBackend) -> WorldStore<MemoryBackend> {
    block_on(WorldStore::open(backend)).unwrap()
}

fn raw_keys<B: StorageBackend>(store: &WorldStore<B>, name: &str) -> Vec<String> {
    block_on(
        store
            .database()
            .transaction(&[name], TransactionMode::ReadOnly, async |tx| {
                tx.keys(name).await
            }),
    )
    .unwrap()
}

/// The stored record's `data`, as JSON.
fn raw_record<B: StorageBackend>(store: &WorldStore<B>, id: &str) -> Value {
    let bytes = raw_get(store, WORLDS_STORE, id).expect("record stored");
    let envelope: Value = serde_json::from_slice(&bytes).unwrap();
    assert_eq!(envelope["version"], json!(CURRENT_VERSION));
    envelope["data"].clone()
}

/// Edits `count` blocks spread over a few chunks, deterministically.
fn play(world: &mut World, start: usize, count: usize) {
    const BLOCKS: [BlockType; 4] = [
        BlockType::Glass,
        BlockType::Planks,
        BlockType::Air,
        BlockType::Cobblestone,
    ];
    for i in start..start + count {
        let i32i = i32::try_from(i).unwrap();
        let pos = IVec3::new(
            (i32i * 7) % 90 - 45,
            40 + (i32i * 3) % 60,
            (i32i * 13) % 70 - 35,
        );
        world.set_block(pos, BLOCKS[i % BLOCKS.len()]).unwrap();
    }
}

fn survival_snapshot() -> PlaySnapshot {
    let mut hotbar = [None; HOTBAR_SLOTS];
    hotbar[0] = Some(BlockType::Cobblestone);
    hotbar[3] = Some(BlockType::Dirt);
    hotbar[8] = Some(BlockType::Log);
    PlaySnapshot {
        player: PlayerState {
            x: 10.5,
            y: 71.25,
            z: -3.75,
            yaw: 1.25,
            pitch: -0.5,
        },
        sun_angle: 2.0,
        moon_phase: Some(0.5),
        game_mode: GameMode::Survival,
        inventory: Some(InventoryState {
            stacks: vec![
                ItemStack {
                    block_type: BlockType::Dirt,
                    count: 12,
                },
                ItemStack {
                    block_type: BlockType::Cobblestone,
                    count: 3,
                },
                ItemStack {
                    block_type: BlockType::Log,
                    count: 64,
                },
            ],
            hotbar,
        }),
    }
}

fn frame(width: u32, height: u32, color: impl Fn(u32, u32) -> [u8; 4]) -> Vec<u8> {
    let mut rgba = Vec::with_capacity((width * height * 4) as usize);
    for y in 0..height {
        for x in 0..width {
            rgba.extend_from_slice(&color(x, y));
        }
    }
    rgba
}

#[test]
fn new_worlds_get_the_reference_defaults() {
    let world = SavedWorld::create("Fresh", 7, GameMode::Creative, 1_234);
    assert_eq!(world.player, SPAWN);
    assert_eq!(
        (world.player.x, world.player.y, world.player.z),
        (64.0, 80.0, 64.0)
    );
    assert_eq!((world.player.yaw, world.player.pitch), (0.0, 0.0));
    assert!((world.sun_angle - 0.3 * std::f32::consts::PI).abs() < 1e-6);
    assert_eq!(world.sun_angle, START_SUN_ANGLE);
    assert_eq!(world.game_mode, Some(GameMode::Creative));
    assert_eq!((world.created_at, world.last_played_at), (1_234, 1_234));
    assert_eq!(world.version, CURRENT_VERSION);
    assert_eq!(world.inventory, None);
    assert_eq!(world.edit_count(), 0);
    let survival = SavedWorld::create("Hard", 7, GameMode::Survival, 0);
    assert_eq!(survival.inventory, Some(InventoryState::default()));
    assert_ne!(world.id, survival.id);
}

#[test]
fn save_quit_and_load_round_trips_every_field() {
    let backend = MemoryBackend::new();
    let store = open(&backend);
    let seed = (1 << 60) + 17; // above 2^53: stored as a string
    let record = SavedWorld::create("Survival home", seed, GameMode::Survival, 1_000);
    let id = record.id.clone();
    block_on(store.save(&record)).unwrap();

    let mut world = World::new(seed);
    let mut session = SaveSession::new(record);
    play(&mut world, 0, 40);
    let snapshot = survival_snapshot();
    block_on(session.autosave(&store, &world, &snapshot, 5_000)).unwrap();
    play(&mut world, 40, 10);
    block_on(session.autosave(&store, &world, &snapshot, 9_000)).unwrap(); // quit
    let jpeg =
        encode_thumbnail(&frame(320, 180, |x, _| [x as u8, 90, 200, 255]), 320, 180).unwrap();
    block_on(store.set_thumbnail(&id, Some(&jpeg))).unwrap();
    drop(store);

    let store = open(&backend);
    let loaded = block_on(store.load(&id)).unwrap();
    assert!(loaded.warnings.is_empty());
    let back = &loaded.record;
    assert_eq!(back.id, id);
    assert_eq!(back.name, "Survival home");
    assert_eq!(back.seed, seed);
    assert_eq!(back.created_at, 1_000);
    assert_eq!(back.last_played_at, 9_000);
    assert_eq!(back.player, snapshot.player);
    assert_eq!(back.sun_angle, 2.0);
    assert_eq!(back.game_mode, Some(GameMode::Survival));
    assert_eq!(back.inventory, snapshot.inventory);
    let hotbar = back.inventory.as_ref().unwrap().hotbar;
    assert_eq!(hotbar[0], Some(BlockType::Cobblestone));
    assert_eq!(hotbar[1], None);
    assert_eq!(hotbar[3], Some(BlockType::Dirt));
    assert_eq!(hotbar[8], Some(BlockType::Log));
    assert_eq!(back.moon_phase, Some(0.5));
    assert_eq!(back.screenshot.as_deref(), Some(jpeg.as_slice()));
    assert_eq!(back.version, CURRENT_VERSION);
    assert_eq!(back.edit_count(), 50);
    assert_eq!(loaded.edits, world.edits());
    assert_eq!(PlaySnapshot::of(back), snapshot);
    assert_eq!(raw_record(&store, &id)["seed"], json!(seed.to_string()));
    // The session picks up where it left off.
    let (live, session) = SaveSession::start(loaded);
    assert_eq!(session.persisted_edits(), 50);
    assert_eq!(session.unsaved_edits(&live), 0);
}

#[test]
fn creative_worlds_store_no_inventory() {
    let backend = MemoryBackend::new();
    let store = open(&backend);
    let record = SavedWorld::create("Creative", 3, GameMode::Survival, 0);
    let id = record.id.clone();
    let world = World::new(3);
    let mut session = SaveSession::new(record);
    let mut snapshot = survival_snapshot();
    block_on(session.autosave(&store, &world, &snapshot, 10)).unwrap();
    assert!(raw_record(&store, &id)["inventory"].is_object());

    // Toggled to creative: a stale inventory must not be kept.
    snapshot.game_mode = GameMode::Creative;
    block_on(session.autosave(&store, &world, &snapshot, 20)).unwrap();
    let data = raw_record(&store, &id);
    assert_eq!(data["gameMode"], json!("creative"));
    assert!(data.get("inventory").is_none(), "{data}");
    assert!(data.get("screenshot").is_none());
    assert_eq!(block_on(store.load(&id)).unwrap().record.inventory, None);
}

#[test]
fn version_zero_record_loads_as_creative_and_is_migrated() {
    let store = open(&MemoryBackend::new());
    // A record of the original game: no version, no game mode, edits inline.
    let legacy = json!({
        "id": "old-world",
        "name": "Before survival",
        "seed": 12345,
        "createdAt": 100,
        "lastPlayedAt": 200,
        "edits": [
            {"x": 1, "y": 70, "z": 2, "blockType": 8},
            {"x": -40, "y": 65, "z": 33, "blockType": 0},
            {"x": 1, "y": 70, "z": 2, "blockType": 9}
        ],
        "player": {"x": 1.5, "y": 70, "z": 2.5, "yaw": 0.25, "pitch": 0},
        "sunAngle": 1.0
    });
    raw_put(
        &store,
        WORLDS_STORE,
        "old-world",
        &serde_json::to_vec(&legacy).unwrap(),
    );

    let listed = block_on(store.list()).unwrap();
    assert_eq!(listed.worlds.len(), 1);
    assert_eq!(listed.worlds[0].mode(), GameMode::Creative);

    let loaded = block_on(store.load("old-world")).unwrap();
    assert!(loaded.warnings.is_empty());
    assert_eq!(loaded.record.mode(), GameMode::Creative);
    assert_eq!(loaded.record.game_mode, Some(GameMode::Creative));
    assert_eq!(loaded.record.version, CURRENT_VERSION);
    assert_eq!(loaded.record.inventory, None);
    assert_eq!(loaded.record.moon_phase, None);
    assert_eq!(loaded.record.player.yaw, 0.25);
    assert_eq!(
        loaded.edits.iter().map(|e| e.block).collect::<Vec<_>>(),
        [BlockType::Glass, BlockType::Air, BlockType::Planks]
    );

    // Rewritten at the current version, edits moved to a segment.
    let data = raw_record(&store, "old-world");
    assert_eq!(data["version"], json!(CURRENT_VERSION));
    assert_eq!(data["gameMode"], json!("creative"));
    assert!(data.get("edits").is_none());
    assert_eq!(raw_keys(&store, SEGMENTS_STORE).len(), 1);
    let again = block_on(store.load("old-world")).unwrap();
    assert_eq!(again.edits, loaded.edits);
    assert_eq!(again.record, loaded.record);
}

#[test]
fn a_record_from_a_newer_version_is_refused_and_left_untouched() {
    let store = open(&MemoryBackend::new());
    let future = br#"{"version":99,"data":{"id":"new","name":"From the future","seed":1,"createdAt":1,"lastPlayedAt":1,"hologram":true}}"#;
    raw_put(&store, WORLDS_STORE, "new", future);

    let error = block_on(store.load("new")).unwrap_err();
    assert!(
        matches!(
            error,
            SaveError::NewerVersion {
                ref id,
                found: 99,
                supported: CURRENT_VERSION
            } if id == "new"
        ),
        "{error}"
    );
    let message = error.to_string();
    assert!(
        message.contains("\"new\"") && message.contains("99"),
        "{message}"
    );

    // Nothing that writes touches it either.
    assert!(matches!(
        block_on(store.rename("new", "Renamed")),
        Err(SaveError::NewerVersion { .. })
    ));
    let mut overwrite = SavedWorld::create("x", 1, GameMode::Creative, 0);
    overwrite.id = "new".to_owned();
    assert!(block_on(store.save(&overwrite)).is_err());
    assert_eq!(
        raw_get(&store, WORLDS_STORE, "new").as_deref(),
        Some(&future[..])
    );

    let listing = block_on(store.list()).unwrap();
    assert!(listing.worlds.is_empty());
    assert_eq!(listing.unreadable.len(), 1);
    assert_eq!(listing.unreadable[0].id, "new");
}

#[test]
fn replayed_edits_rebuild_the_edited_world() {
    let backend = MemoryBackend::new();
    let store = open(&backend);
    let record = SavedWorld::create("Builder", 99, GameMode::Creative, 0);
    let id = record.id.clone();
    let mut world = World::new(99);
    let mut session = SaveSession::new(record);
    let snapshot = PlaySnapshot::of(session.record());
    for round in 0..5 {
        play(&mut world, round * 300, 300);
        block_on(session.autosave(&store, &world, &snapshot, round as u64)).unwrap();
    }

    let loaded = block_on(store.load(&id)).unwrap();
    assert_eq!(loaded.edits.len(), 1_500);
    let mut rebuilt = loaded.world();
    let chunks: HashSet<ChunkPos> = world
        .edits()
        .iter()
        .flat_map(|e| {
            let (chunk, _) = ChunkPos::of_block(e.pos());
            [chunk, chunk.offset(IVec3::X), chunk.offset(IVec3::NEG_Z)]
        })
        .collect();
    assert!(chunks.len() > 10);
    for pos in chunks {
        let expected = world.ensure_chunk(pos).content_hash();
        rebuilt.ensure_chunk(pos);
        assert_eq!(
            rebuilt.chunk(pos).unwrap().content_hash(),
            expected,
            "{pos:?}"
        );
    }
    // And the edits really changed something.
    let fresh_hash = World::new(99)
        .ensure_chunk(ChunkPos::of_block(world.edits()[0].pos()).0)
        .content_hash();
    let (first, _) = ChunkPos::of_block(world.edits()[0].pos());
    assert_ne!(rebuilt.chunk(first).unwrap().content_hash(), fresh_hash);
}

/// A world saved in three autosaves (10, 20 and 5 edits).
fn three_segments(store: &WorldStore<MemoryBackend>) -> (String, World) {
    let record = SavedWorld::create("Torn", 5, GameMode::Creative, 0);
    let id = record.id.clone();
    let mut world = World::new(5);
    let mut session = SaveSession::new(record);
    let snapshot = PlaySnapshot::of(session.record());
    for (start, count) in [(0, 10), (10, 20), (30, 5)] {
        play(&mut world, start, count);
        block_on(session.autosave(store, &world, &snapshot, start as u64)).unwrap();
    }
    (id, world)
}

#[test]
fn a_torn_last_segment_is_dropped_with_a_warning() {
    for damage in ["truncated", "garbage", "bit flip", "missing"] {
        let store = open(&MemoryBackend::new());
        let (id, world) = three_segments(&store);
        let last = segment_key(&id, 2);
        let bytes = raw_get(&store, SEGMENTS_STORE, &last).unwrap();
        match damage {
            "truncated" => raw_put(&store, SEGMENTS_STORE, &last, &bytes[..bytes.len() - 7]),
            "garbage" => raw_put(
                &store,
                SEGMENTS_STORE,
                &last,
                b"\x00\xffnot a segment at all",
            ),
            "bit flip" => {
                let mut flipped = bytes.clone();
                flipped[30] ^= 0x10;
                raw_put(&store, SEGMENTS_STORE, &last, &flipped);
            }
            _ => block_on(store.database().transaction(
                &[SEGMENTS_STORE],
                TransactionMode::ReadWrite,
                async |tx| tx.delete(SEGMENTS_STORE, &last).await,
            ))
            .unwrap(),
        }

        let loaded = block_on(store.load(&id)).unwrap();
        assert_eq!(loaded.edits, world.edits()[..30], "{damage}");
        assert_eq!(loaded.warnings.len(), 1, "{damage}");
        let LoadWarning::SegmentDropped {
            segment,
            edits,
            reason,
            ..
        } = &loaded.warnings[0]
        else {
            panic!("unexpected warning {:?}", loaded.warnings[0]);
        };
        assert_eq!((*segment, *edits), (2, 5), "{damage}");
        match damage {
            "truncated" => assert!(matches!(reason, SegmentError::Truncated { .. })),
            "garbage" => assert_eq!(reason, &SegmentError::BadHeader),
            "bit flip" => assert!(matches!(reason, SegmentError::Checksum { .. })),
            _ => assert_eq!(reason, &SegmentError::Missing),
        }
        assert!(loaded.warnings[0].to_string().contains("segment 2"));

        // The damage is repaired away: the next load is clean, and play goes on.
        let (mut live, mut session) = SaveSession::start(loaded);
        play(&mut live, 100, 3);
        let snapshot = PlaySnapshot::of(session.record());
        block_on(session.autosave(&store, &live, &snapshot, 99)).unwrap();
        let again = block_on(store.load(&id)).unwrap();
        assert!(again.warnings.is_empty(), "{damage}: {:?}", again.warnings);
        assert_eq!(again.edits, live.edits(), "{damage}");
    }
}

#[test]
fn an_autosave_writes_only_the_new_edits() {
    let store = open(&MemoryBackend::new());
    let record = SavedWorld::create("Big", 11, GameMode::Creative, 0);
    let id = record.id.clone();
    let mut world = World::new(11);
    let mut session = SaveSession::new(record);
    let snapshot = PlaySnapshot::of(session.record());
    play(&mut world, 0, 2_000);
    let first = block_on(session.autosave(&store, &world, &snapshot, 1)).unwrap();
    assert_eq!(first.new_edits, 2_000);
    assert_eq!(first.segment_bytes, segment_len(2_000));
    let history = raw_get(&store, SEGMENTS_STORE, &segment_key(&id, 0)).unwrap();

    play(&mut world, 2_000, 1);
    let report = block_on(session.autosave(&store, &world, &snapshot, 2)).unwrap();
    assert_eq!(report.new_edits, 1);
    assert_eq!(report.segment_bytes, segment_len(1));
    assert_eq!(report.segments_merged, 0);
    assert_eq!(report.segments, 2);
    assert_eq!(raw_keys(&store, SEGMENTS_STORE).len(), 2);
    assert_eq!(
        raw_get(&store, SEGMENTS_STORE, &segment_key(&id, 0)).unwrap(),
        history
    );
    // The record lists segments, not edits: it stays small.
    assert!(raw_get(&store, WORLDS_STORE, &id).unwrap().len() < 1_000);

    // Nothing new: no segment, only the record.
    let idle = block_on(session.autosave(&store, &world, &snapshot, 3)).unwrap();
    assert_eq!((idle.new_edits, idle.segment_bytes), (0, 0));
    assert_eq!(raw_keys(&store, SEGMENTS_STORE).len(), 2);
}

#[test]
fn many_small_segments_are_compacted() {
    let store = open(&MemoryBackend::new());
    let record = SavedWorld::create("Busy", 12, GameMode::Creative, 0);
    let id = record.id.clone();
    let mut world = World::new(12);
    let mut session = SaveSession::new(record);
    let snapshot = PlaySnapshot::of(session.record());
    play(&mut world, 0, 500);
    block_on(session.autosave(&store, &world, &snapshot, 0)).unwrap();
    let mut merged = 0;
    for i in 0..200 {
        play(&mut world, 500 + i, 1);
        let report = block_on(session.autosave(&store, &world, &snapshot, i as u64)).unwrap();
        assert!(report.segments <= MAX_SEGMENTS);
        merged += report.segments_merged;
    }
    assert!(merged > 0);
    let keys = raw_keys(&store, SEGMENTS_STORE);
    assert_eq!(keys.len(), session.record().edit_log.segments.len());
    assert!(keys.len() <= MAX_SEGMENTS);
    // The big first segment was never rewritten.
    assert_eq!(session.record().edit_log.segments[0].edits, 500);
    let loaded = block_on(store.load(&id)).unwrap();
    assert!(loaded.warnings.is_empty());
    assert_eq!(loaded.edits, world.edits());
}

#[test]
fn list_puts_the_most_recently_played_first() {
    let store = open(&MemoryBackend::new());
    for (name, played) in [("Middle", 2_000), ("Oldest", 1_000), ("Newest", 3_000)] {
        let mut world = SavedWorld::create(name, 1, GameMode::Creative, 500);
        world.last_played_at = played;
        if name == "Newest" {
            world.screenshot = Some(vec![0xFF, 0xD8, 1, 2, 3]);
        }
        block_on(store.save(&world)).unwrap();
    }
    let listing = block_on(store.list()).unwrap();
    assert!(listing.unreadable.is_empty());
    let names: Vec<&str> = listing.worlds.iter().map(|w| w.name.as_str()).collect();
    assert_eq!(names, ["Newest", "Middle", "Oldest"]);
    assert_eq!(
        listing.worlds[0].screenshot.as_deref(),
        Some(&[0xFF, 0xD8, 1, 2, 3][..])
    );
    assert_eq!(listing.worlds[1].screenshot, None);
}

#[test]
fn rename_and_delete() {
    let store = open(&MemoryBackend::new());
    let mut ids = Vec::new();
    for name in ["Keep", "Doomed"] {
        let record = SavedWorld::create(name, 2, GameMode::Creative, 0);
        ids.push(record.id.clone());
        let mut world = World::new(2);
        let mut session = SaveSession::new(record);
        let snapshot = PlaySnapshot::of(session.record());
        for round in 0..3 {
            play(&mut world, round * 4, 4);
            block_on(session.autosave(&store, &world, &snapshot, 1)).unwrap();
        }
        block_on(store.set_thumbnail(&ids[ids.len() - 1], Some(b"jpeg"))).unwrap();
    }
    let (keep, doomed) = (&ids[0], &ids[1]);

    block_on(store.rename(keep, "Kept")).unwrap();
    let loaded = block_on(store.load(keep)).unwrap();
    assert_eq!(loaded.record.name, "Kept");
    assert_eq!(loaded.edits.len(), 12);
    assert!(matches!(
        block_on(store.rename("nope", "x")),
        Err(SaveError::NotFound { .. })
    ));

    assert_eq!(raw_keys(&store, SEGMENTS_STORE).len(), 6);
    block_on(store.delete(doomed)).unwrap();
    assert!(raw_get(&store, WORLDS_STORE, doomed).is_none());
    assert!(raw_get(&store, THUMBNAILS_STORE, doomed).is_none());
    let segments = raw_keys(&store, SEGMENTS_STORE);
    assert_eq!(segments.len(), 3);
    assert!(segments.iter().all(|k| k.starts_with(keep.as_str())));
    assert!(matches!(
        block_on(store.load(doomed)),
        Err(SaveError::NotFound { .. })
    ));
    // The survivor is whole.
    assert_eq!(block_on(store.load(keep)).unwrap().edits.len(), 12);
    assert!(raw_get(&store, THUMBNAILS_STORE, keep).is_some());
    block_on(store.delete(doomed)).unwrap();
    assert_eq!(block_on(store.list()).unwrap().worlds.len(), 1);
}

#[test]
fn autosave_is_debounced_but_not_postponed_forever() {
    let mut timer = AutosaveTimer::default();
    assert!(!timer.is_dirty());
    assert!(!timer.due(1_000_000));
    timer.note_change(10_000);
    assert!(!timer.due(10_000 + AUTOSAVE_DELAY_MS - 1));
    // Edits every 100 ms do not push the save back.
    for t in (10_100..15_000).step_by(100) {
        timer.note_change(t);
        assert!(!timer.due(t));
    }
    assert!(timer.due(10_000 + AUTOSAVE_DELAY_MS));
    assert_eq!(timer.due_at(), Some(15_000));
    timer.mark_saved();
    assert!(!timer.due(20_000));
    timer.note_change(20_000);
    assert!(timer.due(25_000));

    // The session drives the same timer.
    let store = open(&MemoryBackend::new());
    let record = SavedWorld::create("Timer", 4, GameMode::Creative, 0);
    let mut world = World::new(4);
    let mut session = SaveSession::new(record);
    let snapshot = PlaySnapshot::of(session.record());
    assert_eq!(
        block_on(session.autosave_if_due(&store, &world, &snapshot, 100_000)).unwrap(),
        None
    );
    play(&mut world, 0, 2);
    session.note_change(1_000);
    assert_eq!(
        block_on(session.autosave_if_due(&store, &world, &snapshot, 5_999)).unwrap(),
        None
    );
    let report = block_on(session.autosave_if_due(&store, &world, &snapshot, 6_000))
        .unwrap()
        .unwrap();
    assert_eq!(report.new_edits, 2);
    assert!(!session.timer().is_dirty());
    // Quitting saves whatever is left, due or not.
    play(&mut world, 2, 1);
    session.note_change(6_500);
    assert!(!session.due(6_600));
    block_on(session.autosave(&store, &world, &snapshot, 6_600)).unwrap();
    assert_eq!(session.unsaved_edits(&world), 0);
    let loaded = block_on(store.load(&session.record().id)).unwrap();
    assert_eq!(loaded.edits, world.edits());
    assert_eq!(loaded.record.last_played_at, 6_600);
}

#[test]
fn a_session_refuses_a_world_that_is_not_its_own() {
    let store = open(&MemoryBackend::new());
    let record = SavedWorld::create("Mine", 4, GameMode::Creative, 0);
    let mut world = World::new(4);
    play(&mut world, 0, 5);
    let mut session = SaveSession::resume(record, &world);
    let snapshot = PlaySnapshot::of(session.record());
    assert!(matches!(
        block_on(session.autosave(&store, &World::new(4), &snapshot, 0)),
        Err(SaveError::HistoryMismatch {
            saved: 5,
            live: 0,
            ..
        })
    ));
    assert!(matches!(
        block_on(session.autosave(&store, &World::new(5), &snapshot, 0)),
        Err(SaveError::SeedMismatch { .. })
    ));
}

#[test]
fn redb_round_trip_on_disk() {
    let dir = tempfile::tempdir().unwrap();
    let record = SavedWorld::create("On disk", 77, GameMode::Survival, 10);
    let id = record.id.clone();
    let mut world = World::new(77);
    {
        let backend = RedbBackend::new(dir.path());
        let store = block_on(WorldStore::open(&backend)).unwrap();
        let mut session = SaveSession::new(record);
        let snapshot = survival_snapshot();
        for round in 0..3 {
            play(&mut world, round * 50, 50);
            block_on(session.autosave(&store, &world, &snapshot, 100 + round as u64)).unwrap();
        }
        block_on(store.set_thumbnail(&id, Some(b"thumb"))).unwrap();
    }
    assert!(dir.path().join("crafty.redb").exists());

    let backend = RedbBackend::new(dir.path());
    let store = block_on(WorldStore::open(&backend)).unwrap();
    let loaded = block_on(store.load(&id)).unwrap();
    assert!(loaded.warnings.is_empty());
    assert_eq!(loaded.edits, world.edits());
    assert_eq!(loaded.record.inventory, survival_snapshot().inventory);
    assert_eq!(loaded.record.last_played_at, 102);
    assert_eq!(loaded.record.screenshot.as_deref(), Some(&b"thumb"[..]));
    assert_eq!(loaded.record.edit_log.segments.len(), 3);

    // A torn segment on disk behaves as in memory.
    raw_put(&store, SEGMENTS_STORE, &segment_key(&id, 2), b"CEDS\x01");
    let torn = block_on(store.load(&id)).unwrap();
    assert_eq!(torn.warnings.len(), 1);
    assert_eq!(torn.edits, world.edits()[..100]);
}

#[test]
fn thumbnails_are_160_by_90_and_cover_cropped() {
    // A wide frame: red | green | blue thirds. Cover-cropping to 16:9 keeps the middle.
    let (w, h) = (480, 90);
    let rgba = frame(w, h, |x, _| match x {
        0..160 => [255, 0, 0, 255],
        160..320 => [0, 255, 0, 255],
        _ => [0, 0, 255, 255],
    });
    let jpeg = encode_thumbnail(&rgba, w, h).unwrap();
    assert_eq!(&jpeg[..2], &[0xFF, 0xD8]);
    let image = decode_thumbnail(&jpeg).unwrap();
    assert_eq!(image.dimensions(), (THUMBNAIL_WIDTH, THUMBNAIL_HEIGHT));
    for x in [4, 80, 155] {
        let [r, g, b, _] = image.get_pixel(x, 45).0;
        assert!(g > 200 && r < 60 && b < 60, "pixel {x}: {r},{g},{b}");
    }
    // A tall frame keeps its vertical middle.
    let rgba = frame(160, 400, |_, y| {
        if (150..250).contains(&y) {
            [255; 4]
        } else {
            [0, 0, 0, 255]
        }
    });
    let image = decode_thumbnail(&encode_thumbnail(&rgba, 160, 400).unwrap()).unwrap();
    assert!(image.get_pixel(80, 5).0[0] > 200);
    assert!(image.get_pixel(80, 85).0[0] > 200);

    assert!(matches!(
        encode_thumbnail(&[0; 10], 4, 4),
        Err(SaveError::PixelCount {
            expected: 64,
            found: 10,
            ..
        })
    ));
    assert!(matches!(
        decode_thumbnail(b"not a jpeg"),
        Err(SaveError::Image(_))
    ));
}

#[test]
fn storage_errors_pass_through() {
    // A store opened at a newer schema than this build knows is refused.
    let backend = MemoryBackend::new();
    block_on(backend.open("crafty", 9, |_| Ok(()))).unwrap();
    let error = block_on(WorldStore::open(&backend)).unwrap_err();
    assert!(matches!(
        error,
        SaveError::Storage(StorageError::VersionTooOld { .. })
    ));
}

#[test]
fn the_record_stays_small_however_long_the_history() {
    let store = open(&MemoryBackend::new());
    let record = SavedWorld::create("Sizes", 8, GameMode::Survival, 0);
    let id = record.id.clone();
    let mut world = World::new(8);
    let mut session = SaveSession::new(record);
    play(&mut world, 0, 20_000);
    block_on(session.autosave(&store, &world, &survival_snapshot(), 1)).unwrap();
    let bytes = raw_get(&store, WORLDS_STORE, &id).unwrap();
    assert!(bytes.len() < 700, "{}", String::from_utf8_lossy(&bytes));
}

#[test]
fn a_version_one_survival_record_keeps_its_mode_and_inventory() {
    let store = open(&MemoryBackend::new());
    // The original game's current format: versioned, survival, edits inline.
    let record = json!({
        "id": "v1",
        "name": "Survivor",
        "seed": 4242,
        "createdAt": 1,
        "lastPlayedAt": 2,
        "edits": [{"x": 3, "y": 60, "z": 4, "blockType": 10}],
        "player": {"x": 64, "y": 80, "z": 64, "yaw": 0, "pitch": 0},
        "sunAngle": 0.9,
        "gameMode": "survival",
        "inventory": {
            "stacks": [{"blockType": 2, "count": 5}, {"blockType": 10, "count": 1}],
            "hotbar": [10, null, null, 2, null, null, null, null, null]
        },
        "moonPhase": 0.25,
        "version": 1
    });
    raw_put(
        &store,
        WORLDS_STORE,
        "v1",
        &serde_json::to_vec(&record).unwrap(),
    );
    let loaded = block_on(store.load("v1")).unwrap();
    assert_eq!(loaded.record.mode(), GameMode::Survival);
    assert_eq!(loaded.record.moon_phase, Some(0.25));
    let inventory = loaded.record.inventory.clone().unwrap();
    assert_eq!(
        inventory.stacks,
        [
            ItemStack {
                block_type: BlockType::Dirt,
                count: 5
            },
            ItemStack {
                block_type: BlockType::Cobblestone,
                count: 1
            }
        ]
    );
    assert_eq!(inventory.hotbar[0], Some(BlockType::Cobblestone));
    assert_eq!(inventory.hotbar[3], Some(BlockType::Dirt));
    assert_eq!(inventory.hotbar.iter().flatten().count(), 2);
    assert_eq!(loaded.edits.len(), 1);
    let data = raw_record(&store, "v1");
    assert_eq!(data["gameMode"], json!("survival"));
    assert_eq!(data["inventory"]["hotbar"][0], json!(10));
}
