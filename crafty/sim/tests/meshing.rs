//! The mesher against a brute-force per-block face enumeration, and the
//! scheduler against synchronous meshing.

use std::collections::BTreeMap;

use crafty_sim::mesh::{ChunkMesh, MeshScheduler, Mesher, PackedQuad, PaddedChunk, mesh_now};
use crafty_sim::world::{BlockType, CHUNK_SIZE, ChunkPos, Face, World};
use glam::{IVec3, Vec3};
use proptest::prelude::*;

/// (block, face index) -> (tile, transparent pass, AO of the 4 corners).
type Faces = BTreeMap<([i32; 3], u8), (u32, bool, [u8; 4])>;

fn axis(i: usize) -> IVec3 {
    IVec3::AXES[i]
}

/// Every face the rules say is visible, with its AO, one block at a time.
fn brute_force(input: &PaddedChunk) -> Faces {
    let n = input.size() as i32;
    let at = |p: IVec3| input.get(p).unwrap_or(BlockType::Air);
    let mut out = Faces::new();
    for y in 0..n {
        for z in 0..n {
            for x in 0..n {
                let p = IVec3::new(x, y, z);
                let block = at(p);
                if block.is_air() {
                    continue;
                }
                for face in Face::ALL {
                    let front = p + face.normal();
                    let next = at(front);
                    let same_clear =
                        next == block && matches!(block, BlockType::Water | BlockType::Glass);
                    if next.is_opaque() || same_clear {
                        continue;
                    }
                    let (ua, va) = PackedQuad::face_axes(face);
                    let occ = |du: i32, dv: i32| -> u8 {
                        u8::from(at(front + axis(ua) * du + axis(va) * dv).is_opaque())
                    };
                    let ao = [(-1, -1), (1, -1), (1, 1), (-1, 1)].map(|(du, dv)| {
                        let (s1, s2, c) = (occ(du, 0), occ(0, dv), occ(du, dv));
                        if s1 == 1 && s2 == 1 {
                            0
                        } else {
                            3 - (s1 + s2 + c)
                        }
                    });
                    out.insert(
                        (p.to_array(), face as u8),
                        (block.tile(face), block.is_transparent(), ao),
                    );
                }
            }
        }
    }
    out
}

/// The mesh expanded back into unit faces; panics on overlapping quads.
fn unit_faces(mesh: &ChunkMesh) -> Faces {
    let mut out = Faces::new();
    for (quads, transparent) in [(&mesh.opaque, false), (&mesh.transparent, true)] {
        for quad in quads {
            let [w, h] = quad.size();
            assert!(w >= 1 && h >= 1, "empty quad {quad:?}");
            for block in quad.blocks() {
                let key = (block.map(|c| c as i32), quad.face() as u8);
                let value = (quad.tile(), transparent, quad.ao());
                assert!(out.insert(key, value).is_none(), "face {key:?} twice");
            }
        }
    }
    out
}

fn check(input: &PaddedChunk) -> ChunkMesh {
    let mesh = Mesher::new().mesh_new(input);
    let got = unit_faces(&mesh);
    let want = brute_force(input);
    if got != want {
        let missing: Vec<_> = want
            .iter()
            .filter(|(k, v)| got.get(*k) != Some(v))
            .take(5)
            .collect();
        let extra: Vec<_> = got
            .iter()
            .filter(|(k, v)| want.get(*k) != Some(v))
            .take(5)
            .collect();
        panic!("mesh differs from brute force: missing/wrong {missing:?}, extra/wrong {extra:?}");
    }
    for quad in mesh.opaque.iter().chain(&mesh.transparent) {
        assert!(quad.ao().iter().all(|&a| a <= 3));
    }
    mesh
}

fn random_volume(size: usize, seed: u64, air_percent: u64) -> PaddedChunk {
    let mut state = seed | 1;
    PaddedChunk::from_fn(size, |_| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        if state % 100 < air_percent {
            BlockType::Air
        } else {
            BlockType::ALL[1 + (state >> 8) as usize % (BlockType::ALL.len() - 1)]
        }
    })
    .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_volumes_match_brute_force(
        size in prop_oneof![1usize..=8, Just(32usize), Just(62usize)],
        seed in any::<u64>(),
        air in 0u64..=100,
    ) {
        check(&random_volume(size, seed, air));
    }
}

#[test]
fn random_volumes_of_few_kinds_merge_and_match() {
    // Few block kinds and mostly solid: long merges, lots of AO variety.
    for seed in 0..8u64 {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let input = PaddedChunk::from_fn(32, |p| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            match state % 10 {
                0..=3 if p.y < 16 => BlockType::Stone,
                4 => BlockType::Water,
                5 if p.y < 20 => BlockType::Dirt,
                _ => BlockType::Air,
            }
        })
        .unwrap();
        check(&input);
    }
}

#[test]
fn terrain_chunks_match_brute_force() {
    let mut world = World::new(7);
    world.load_around(IVec3::new(16, 64, 16), 1);
    let mut faces = 0;
    for y in 0..4 {
        for (x, z) in [(0, 0), (1, -1), (-1, 1)] {
            let pos = ChunkPos::new(x, y, z);
            let input = PaddedChunk::gather(&world, pos);
            faces += unit_faces(&check(&input)).len();
        }
    }
    assert!(faces > 1000, "terrain shows {faces} faces");
}

#[test]
fn gather_reads_neighbours_and_falls_back_to_terrain() {
    let mut world = World::new(11);
    let pos = ChunkPos::new(0, 1, 0);
    world.ensure_chunk(pos);
    world.ensure_chunk(ChunkPos::new(1, 1, 0));
    let input = PaddedChunk::gather(&world, pos);
    let n = CHUNK_SIZE as i32;
    for y in -1..=n {
        for z in -1..=n {
            for x in -1..=n {
                let local = IVec3::new(x, y, z);
                assert_eq!(input.get(local), Some(world.block(pos.origin() + local)));
            }
        }
    }
    assert_eq!(input.get(IVec3::splat(n + 1)), None);
}

#[test]
fn no_face_between_two_opaque_blocks() {
    let mut input = PaddedChunk::new(4).unwrap();
    input.set(IVec3::new(1, 1, 1), BlockType::Stone);
    input.set(IVec3::new(2, 1, 1), BlockType::Dirt);
    let faces = unit_faces(&check(&input));
    assert_eq!(faces.len(), 10);
    assert!(!faces.contains_key(&([1, 1, 1], Face::East as u8)));
    assert!(!faces.contains_key(&([2, 1, 1], Face::West as u8)));
}

#[test]
fn water_next_to_water_is_hidden_but_shows_to_air() {
    let mut input = PaddedChunk::new(4).unwrap();
    input.set(IVec3::new(1, 1, 1), BlockType::Water);
    input.set(IVec3::new(2, 1, 1), BlockType::Water);
    let mesh = check(&input);
    assert!(mesh.opaque.is_empty());
    let faces = unit_faces(&mesh);
    assert_eq!(faces.len(), 10);
    assert!(!faces.contains_key(&([1, 1, 1], Face::East as u8)));
    // Two water blocks in a row merge into one quad per side.
    assert_eq!(mesh.transparent.len(), 6);
}

#[test]
fn opaque_next_to_transparent_shows_only_the_opaque_face() {
    let mut input = PaddedChunk::new(4).unwrap();
    input.set(IVec3::new(1, 1, 1), BlockType::Stone);
    input.set(IVec3::new(2, 1, 1), BlockType::Glass);
    let mesh = check(&input);
    let faces = unit_faces(&mesh);
    assert!(!faces[&([1, 1, 1], Face::East as u8)].1);
    assert!(!faces.contains_key(&([2, 1, 1], Face::West as u8)));
    assert_eq!(mesh.opaque.len(), 6);
    assert_eq!(mesh.transparent.len(), 5);
}

#[test]
fn leaves_next_to_leaves_keep_their_faces() {
    let mut input = PaddedChunk::new(4).unwrap();
    input.set(IVec3::new(1, 1, 1), BlockType::Leaves);
    input.set(IVec3::new(2, 1, 1), BlockType::Leaves);
    let faces = unit_faces(&check(&input));
    assert_eq!(faces.len(), 12);
    assert!(faces.contains_key(&([1, 1, 1], Face::East as u8)));
}

#[test]
fn a_flat_floor_is_one_quad_per_side_and_ao_darkens_at_a_wall() {
    let n = 32;
    let mut input = PaddedChunk::from_fn(n, |p| {
        if p.y == 0 {
            BlockType::Stone
        } else {
            BlockType::Air
        }
    })
    .unwrap();
    let mesh = check(&input);
    // Top and bottom; the sides are hidden by the border (stone there too).
    assert_eq!(mesh.opaque.len(), 2);
    let top = mesh.opaque.iter().find(|q| q.face() == Face::Top).unwrap();
    assert_eq!(top.size(), [32, 32]);
    assert_eq!(top.ao(), [3; 4]);
    // A wall along z = 10 on top of the floor: the floor rows next to it get
    // AO 1 on the corners touching the wall (one side and one corner block).
    for x in 0..n as i32 {
        input.set(IVec3::new(x, 1, 10), BlockType::Stone);
    }
    let faces = unit_faces(&check(&input));
    assert_eq!(faces[&([5, 0, 9], Face::Top as u8)].2, [3, 3, 1, 1]);
    assert_eq!(faces[&([5, 0, 11], Face::Top as u8)].2, [1, 1, 3, 3]);
}

#[test]
fn a_mesher_reused_across_sizes_gives_the_same_meshes() {
    let mut mesher = Mesher::new();
    let mut out = ChunkMesh::default();
    let inputs = [
        random_volume(32, 1, 50),
        random_volume(7, 2, 30),
        random_volume(62, 3, 70),
    ];
    for input in inputs.iter().chain(inputs.iter()) {
        mesher.mesh(input, &mut out);
        assert_eq!(out, Mesher::new().mesh_new(input));
    }
}

fn drain(scheduler: &mut MeshScheduler) -> BTreeMap<[i32; 3], ChunkMesh> {
    let mut out = BTreeMap::new();
    while !scheduler.is_idle() {
        for (pos, mesh) in scheduler.wait_finished(usize::MAX) {
            assert!(out.insert(pos.0.to_array(), mesh).is_none());
        }
    }
    out
}

#[test]
fn scheduler_meshes_match_mesh_now_and_respect_budgets() {
    let mut world = World::new(5);
    let fresh = world.load_around(IVec3::new(16, 64, 16), 1);
    assert_eq!(fresh.len(), 36);
    let mut scheduler = MeshScheduler::with_threads(2);
    scheduler.request_all(fresh.iter().copied());
    let player = Vec3::new(16.0, 70.0, 16.0);
    assert_eq!(scheduler.gather_jobs(&world, player, 4), 4);
    assert_eq!(scheduler.pending(), 32);
    let first = scheduler.wait_finished(1);
    assert_eq!(first.len(), 1);
    // The nearest chunk to the player was snapshotted and handed out first.
    assert_eq!(first[0].0, ChunkPos::new(0, 2, 0));
    assert_eq!(first[0].1, mesh_now(&world, first[0].0));
    let mut seen = 1;
    while !scheduler.is_idle() {
        assert!(scheduler.gather_jobs(&world, player, 4) <= 4);
        let batch = scheduler.wait_finished(3);
        assert!(batch.len() <= 3);
        for (pos, mesh) in batch {
            assert_eq!(mesh, mesh_now(&world, pos), "{pos:?}");
            seen += 1;
        }
    }
    assert_eq!(seen, 36);
}

#[test]
fn an_edit_remeshes_its_chunk_and_a_border_edit_its_neighbour() {
    let mut world = World::new(5);
    world.load_around(IVec3::new(16, 64, 16), 1);
    let before: BTreeMap<_, _> = world
        .loaded_chunks()
        .map(|pos| (pos.0.to_array(), mesh_now(&world, pos)))
        .collect();
    let mut scheduler = MeshScheduler::with_threads(1);
    let player = Vec3::new(16.0, 70.0, 16.0);

    // Inside chunk (0, 2, 0): only it changes.
    let inner = world
        .set_block(IVec3::new(10, 70, 10), BlockType::Glass)
        .unwrap();
    assert_eq!(inner, vec![ChunkPos::new(0, 2, 0)]);
    scheduler.request_all(inner);
    scheduler.gather_jobs(&world, player, usize::MAX);
    let meshes = drain(&mut scheduler);
    assert_eq!(meshes.keys().copied().collect::<Vec<_>>(), vec![[0, 2, 0]]);
    assert_ne!(meshes[&[0, 2, 0]], before[&[0, 2, 0]]);
    for pos in world.loaded_chunks() {
        let now = mesh_now(&world, pos);
        if let Some(mesh) = meshes.get(&pos.0.to_array()) {
            assert_eq!(*mesh, now);
        } else {
            assert_eq!(now, before[&pos.0.to_array()], "{pos:?} changed");
        }
    }

    // On the +x border of chunk (0, 2, 0): its neighbour (1, 2, 0) changes too.
    let border = IVec3::new(31, 80, 5);
    let affected = world.set_block(border, BlockType::Stone).unwrap();
    let (own, _) = ChunkPos::of_block(border);
    assert_eq!(affected, vec![own, own.offset(IVec3::X)]);
    let mut expected: Vec<[i32; 3]> = affected.iter().map(|p| p.0.to_array()).collect();
    expected.sort_unstable();
    scheduler.request_all(affected);
    scheduler.gather_jobs(&world, player, usize::MAX);
    let meshes = drain(&mut scheduler);
    assert_eq!(meshes.keys().copied().collect::<Vec<_>>(), expected);
    for (pos, mesh) in &meshes {
        let pos = ChunkPos::new(pos[0], pos[1], pos[2]);
        assert_eq!(*mesh, mesh_now(&world, pos));
    }
}

#[test]
fn stale_results_are_dropped() {
    let mut world = World::new(5);
    world.load_around(IVec3::new(16, 64, 16), 0);
    let pos = ChunkPos::new(0, 2, 0);
    let mut scheduler = MeshScheduler::with_threads(1);
    scheduler.request(pos);
    assert_eq!(scheduler.gather_jobs(&world, Vec3::ZERO, 8), 1);
    let old = mesh_now(&world, pos);
    // The chunk changes after its snapshot was taken.
    let changed = world
        .set_block(IVec3::new(8, 80, 8), BlockType::Planks)
        .unwrap();
    scheduler.request_all(changed);
    let new = mesh_now(&world, pos);
    assert_ne!(old, new);
    // The old snapshot's result is dropped...
    assert!(scheduler.wait_finished(usize::MAX).is_empty());
    assert_eq!(scheduler.in_flight(), 0);
    assert_eq!(scheduler.pending(), 1);
    // ...and the fresh request delivers the current mesh.
    assert_eq!(scheduler.gather_jobs(&world, Vec3::ZERO, 8), 1);
    let results = scheduler.wait_finished(usize::MAX);
    assert_eq!(results, vec![(pos, new)]);
    assert!(scheduler.is_idle());

    // Forgetting a chunk (unloaded) drops its work too.
    scheduler.request(pos);
    scheduler.gather_jobs(&world, Vec3::ZERO, 8);
    scheduler.forget(pos);
    assert!(scheduler.wait_finished(usize::MAX).is_empty());
    assert!(scheduler.is_idle());
}

#[test]
fn meshing_again_into_the_same_lists_does_not_reallocate() {
    let input = random_volume(32, 9, 60);
    let mut mesher = Mesher::new();
    let mut out = ChunkMesh::default();
    mesher.mesh(&input, &mut out);
    let (opaque, transparent) = (out.opaque.as_ptr(), out.transparent.as_ptr());
    let capacity = (out.opaque.capacity(), out.transparent.capacity());
    mesher.mesh(&input, &mut out);
    assert_eq!(
        (out.opaque.as_ptr(), out.transparent.as_ptr()),
        (opaque, transparent)
    );
    assert_eq!(
        (out.opaque.capacity(), out.transparent.capacity()),
        capacity
    );
}
