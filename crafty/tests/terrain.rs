//! Terrain determinism: the same seed gives the same blocks on every run and
//! platform. The hashes below were recorded once; a change to the generator
//! that alters any block fails here (update them only for a deliberate
//! world-format change, which breaks every saved world's edits).

use crafty::world::{BlockType, ChunkPos, SEA_LEVEL, Terrain, World};
use glam::IVec3;

const GOLDEN: [(u64, ChunkPos, u64); 5] = [
    (42, ChunkPos::new(0, 1, 0), GOLDEN_42_0_1_0),
    (42, ChunkPos::new(2, 2, 2), GOLDEN_42_2_2_2),
    (42, ChunkPos::new(-3, 1, 5), GOLDEN_42_M3_1_5),
    (7, ChunkPos::new(1, 1, -1), GOLDEN_7_1_1_M1),
    (
        123_456_789,
        ChunkPos::new(10, 2, -10),
        GOLDEN_123456789_10_2_M10,
    ),
];

const GOLDEN_42_0_1_0: u64 = 0x0cb4_cd07_6b43_9fee;
const GOLDEN_42_2_2_2: u64 = 0x66d0_eed9_1a77_3f62;
const GOLDEN_42_M3_1_5: u64 = 0xce69_83bd_aa8a_d723;
const GOLDEN_7_1_1_M1: u64 = 0x0aaa_4542_bbbc_a325;
const GOLDEN_123456789_10_2_M10: u64 = 0x3793_4fb1_c629_cc93;

#[test]
fn chunks_hash_to_their_recorded_values() {
    let mut report = String::new();
    let mut mismatches = 0;
    for (seed, pos, expected) in GOLDEN {
        let hash = Terrain::new(seed).generate(pos).content_hash();
        report += &format!("seed {seed} chunk {:?}: {hash:#018x}\n", pos.0);
        if hash != expected {
            mismatches += 1;
        }
    }
    assert_eq!(mismatches, 0, "terrain changed:\n{report}");
}

#[test]
fn generation_is_repeatable_and_seed_dependent() {
    let pos = ChunkPos::new(1, 1, 1);
    let a = Terrain::new(99).generate(pos);
    assert_eq!(a, Terrain::new(99).generate(pos));
    assert_ne!(
        a.content_hash(),
        Terrain::new(100).generate(pos).content_hash()
    );
}

#[test]
fn the_world_has_every_kind_of_ground() {
    let mut world = World::new(42);
    world.load_around(IVec3::ZERO, 4);
    let mut seen = std::collections::HashSet::new();
    for pos in world.loaded_chunks().collect::<Vec<_>>() {
        seen.extend(world.chunk(pos).unwrap().blocks().iter().copied());
    }
    for block in [
        BlockType::Stone,
        BlockType::Dirt,
        BlockType::Grass,
        BlockType::Sand,
        BlockType::Water,
        BlockType::Log,
        BlockType::Leaves,
    ] {
        assert!(
            seen.contains(&block),
            "no {block:?} in 9x9 chunks of seed 42"
        );
    }
    // Water never floats above sea level.
    for pos in world.loaded_chunks().collect::<Vec<_>>() {
        let chunk = world.chunk(pos).unwrap();
        for (i, &block) in chunk.blocks().iter().enumerate() {
            if block == BlockType::Water {
                let y = pos.origin().y + (i / (32 * 32)) as i32;
                assert!(y <= SEA_LEVEL);
            }
        }
    }
}

#[test]
fn edits_replayed_over_the_seed_equal_the_edited_world() {
    let mut edited = World::new(5);
    edited.load_around(IVec3::ZERO, 1);
    let mut edits = 0;
    for i in 0..200 {
        let pos = IVec3::new(i * 7 % 60 - 30, 40 + i % 50, i * 13 % 60 - 30);
        let block = BlockType::ALL[(i as usize) % BlockType::ALL.len()];
        edited.set_block(pos, block).unwrap();
        edits += 1;
    }
    assert_eq!(edited.edits().len(), edits);
    let mut replayed = World::with_edits(5, edited.edits().iter().copied());
    replayed.load_around(IVec3::ZERO, 1);
    let mut positions: Vec<_> = edited.loaded_chunks().collect();
    positions.sort_by_key(|p| p.0.to_array());
    for pos in positions {
        assert_eq!(
            edited.chunk(pos).unwrap().content_hash(),
            replayed.chunk(pos).unwrap().content_hash(),
            "chunk {:?} differs",
            pos.0
        );
    }
}
