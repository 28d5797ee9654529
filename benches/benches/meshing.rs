//! Chunk meshing: crafty's binary greedy mesher (with per-corner ambient
//! occlusion) side by side with `block-mesh`'s `greedy_quads` and
//! `binary-greedy-meshing` (no AO), on the same volumes in the same run.
//!
//! Cases: a 32³ and a 62³ chunk, each as
//! - `terrain`: heightmap hills (stone, dirt, grass) with water in the valleys,
//! - `sphere`: one stone ball filling the chunk,
//! - `noise50`: every block stone or air at random, half each.
//!
//! Each side gets its own input format, built outside the timed loop:
//! - `crafty`: [`PaddedChunk`] ((n+2)³ blocks plus the row bit masks it
//!   keeps as blocks are written), meshed into reused [`ChunkMesh`] lists.
//!   `crafty+masks` also times loading the (n+2)³ blocks into the input
//!   (which rebuilds its masks) before meshing.
//! - `block-mesh`: `greedy_quads` over a padded (n+2)³ `ConstShape3u32`,
//!   `RIGHT_HANDED_Y_UP_CONFIG` faces, water `Translucent`, reused buffer.
//! - `bgm`: `Mesher::<n>::fast_mesh` (its fastest path) over its padded
//!   (n+2)³ `u16` voxels with its opaque and transparent column masks
//!   precomputed (the crate expects callers to maintain them per chunk),
//!   `clear()` between calls as its own benches do. Version 0.5 is generic
//!   over the chunk edge (`CS + 2 <= 64`), so the 32³ case is a real 34³
//!   input, not a 32³ volume inside a 62³ grid.
//!
//! Also `gather`: snapshotting a padded 32³ input from a [`World`], with all
//! 26 neighbours loaded (the steady state) and with none loaded.
//!
//! Run: `cargo bench -p taos_benches --bench meshing -- --warm-up-time 1 --measurement-time 3`

use std::collections::BTreeSet;
use std::hint::black_box;

use binary_greedy_meshing as bgm;
use block_mesh::ndshape::{ConstShape, ConstShape3u32};
use block_mesh::{
    GreedyQuadsBuffer, MergeVoxel, RIGHT_HANDED_Y_UP_CONFIG, Voxel, VoxelVisibility, greedy_quads,
};
use crafty::mesh::{ChunkMesh, Mesher, PaddedChunk};
use crafty::world::{BlockType, ChunkPos, World};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use glam::IVec3;

/// `block-mesh`'s view of a crafty block.
#[derive(Clone, Copy, PartialEq, Eq)]
struct BmVoxel(BlockType);

impl Voxel for BmVoxel {
    fn get_visibility(&self) -> VoxelVisibility {
        if self.0.is_air() {
            VoxelVisibility::Empty
        } else if self.0.is_opaque() {
            VoxelVisibility::Opaque
        } else {
            VoxelVisibility::Translucent
        }
    }
}

impl MergeVoxel for BmVoxel {
    type MergeValue = u8;

    fn merge_value(&self) -> u8 {
        self.0 as u8
    }
}

fn hash(p: IVec3) -> u32 {
    let mut h = (p.x as u32).wrapping_mul(0x8da6_b343)
        ^ (p.y as u32).wrapping_mul(0xd816_3841)
        ^ (p.z as u32).wrapping_mul(0xcb1a_b31f);
    h ^= h >> 15;
    h = h.wrapping_mul(0x2c1b_3c6d);
    h ^ (h >> 12)
}

/// A volume of edge `n`, as a block at chunk-local `p` (each in `-1..=n`).
fn volume(kind: &str, n: i32) -> impl Fn(IVec3) -> BlockType {
    let kind = kind.to_owned();
    move |p: IVec3| match kind.as_str() {
        "terrain" => {
            let (fx, fz) = (p.x as f32, p.z as f32);
            let height = n as f32 * (0.45 + 0.15 * (fx * 0.19).sin() + 0.12 * (fz * 0.23).cos())
                + 2.0 * ((fx + fz) * 0.5).sin();
            let height = height as i32;
            let water = (n as f32 * 0.4) as i32;
            if p.y > height {
                if p.y <= water {
                    BlockType::Water
                } else {
                    BlockType::Air
                }
            } else if p.y == height {
                BlockType::Grass
            } else if p.y > height - 3 {
                BlockType::Dirt
            } else {
                BlockType::Stone
            }
        }
        "sphere" => {
            let c = (n - 1) as f32 / 2.0;
            let d = p.as_vec3() - glam::Vec3::splat(c);
            if d.length() < n as f32 / 2.0 {
                BlockType::Stone
            } else {
                BlockType::Air
            }
        }
        _ => {
            if hash(p) & 1 == 0 {
                BlockType::Stone
            } else {
                BlockType::Air
            }
        }
    }
}

const KINDS: [&str; 3] = ["terrain", "sphere", "noise50"];

fn bench_size<const N: usize, const P: u32>(c: &mut Criterion) {
    let n = N as i32;
    let p = N + 2;
    let mut group = c.benchmark_group(format!("meshing/{N}"));
    for kind in KINDS {
        let f = volume(kind, n);

        // crafty.
        let input = PaddedChunk::from_fn(N, &f).unwrap();
        let mut mesher = Mesher::new();
        let mut out = ChunkMesh::default();
        mesher.mesh(&input, &mut out);
        let ours = out.opaque.len() + out.transparent.len();
        group.bench_function(BenchmarkId::new("crafty", kind), |b| {
            b.iter(|| {
                mesher.mesh(black_box(&input), &mut out);
                black_box(out.opaque.len());
            });
        });
        let padded: Vec<BlockType> = input.blocks().to_vec();
        let mut reload = PaddedChunk::new(N).unwrap();
        group.bench_function(BenchmarkId::new("crafty+masks", kind), |b| {
            b.iter(|| {
                reload.load_padded(black_box(&padded)).unwrap();
                mesher.mesh(&reload, &mut out);
                black_box(out.opaque.len());
            });
        });

        // block-mesh: ndshape linearizes x fastest, then y, then z.
        let shape = ConstShape3u32::<P, P, P>;
        let mut voxels = vec![BmVoxel(BlockType::Air); ConstShape3u32::<P, P, P>::SIZE as usize];
        for (i, voxel) in voxels.iter_mut().enumerate() {
            let [x, y, z] = ConstShape3u32::<P, P, P>::delinearize(i as u32);
            *voxel = BmVoxel(f(IVec3::new(x as i32 - 1, y as i32 - 1, z as i32 - 1)));
        }
        let mut buffer = GreedyQuadsBuffer::new(voxels.len());
        let max = [P - 1; 3];
        greedy_quads(
            &voxels,
            &shape,
            [0; 3],
            max,
            &RIGHT_HANDED_Y_UP_CONFIG.faces,
            &mut buffer,
        );
        let theirs = buffer.quads.num_quads();
        group.bench_function(BenchmarkId::new("block-mesh", kind), |b| {
            b.iter(|| {
                greedy_quads(
                    black_box(&voxels),
                    &shape,
                    [0; 3],
                    max,
                    &RIGHT_HANDED_Y_UP_CONFIG.faces,
                    &mut buffer,
                );
                black_box(buffer.quads.num_quads());
            });
        });

        // binary-greedy-meshing: z fastest, then x, then y.
        let mut bgm_voxels = vec![0u16; p * p * p];
        for y in 0..p {
            for x in 0..p {
                for z in 0..p {
                    let block = f(IVec3::new(x as i32 - 1, y as i32 - 1, z as i32 - 1));
                    bgm_voxels[z + x * p + y * p * p] = u16::from(u8::from(block));
                }
            }
        }
        let transparent = BTreeSet::from([u16::from(u8::from(BlockType::Water))]);
        let opaque_mask = bgm::compute_opaque_mask::<N>(&bgm_voxels, &transparent);
        let trans_mask = bgm::compute_transparent_mask::<N>(&bgm_voxels, &transparent);
        let mut bgm_mesher = bgm::Mesher::<N>::new();
        bgm_mesher.fast_mesh(&bgm_voxels, &opaque_mask, &trans_mask);
        let bgm_quads: usize = bgm_mesher.quads.iter().map(Vec::len).sum();
        group.bench_function(BenchmarkId::new("bgm", kind), |b| {
            b.iter(|| {
                bgm_mesher.clear();
                bgm_mesher.fast_mesh(black_box(&bgm_voxels), &opaque_mask, &trans_mask);
                black_box(bgm_mesher.quads[0].len());
            });
        });
        eprintln!(
            "meshing/{N}/{kind}: quads crafty {ours} (with AO), block-mesh {theirs}, bgm {bgm_quads}"
        );
    }
    group.finish();
}

fn meshing(c: &mut Criterion) {
    bench_size::<32, 34>(c);
    bench_size::<62, 64>(c);
}

fn gather(c: &mut Criterion) {
    let mut group = c.benchmark_group("meshing/gather32");
    let pos = ChunkPos::new(0, 2, 0);
    let mut input = PaddedChunk::new(32).unwrap();
    let mut lone = World::new(1);
    lone.ensure_chunk(pos);
    group.bench_function("no_neighbours_loaded", |b| {
        b.iter(|| input.gather_into(black_box(&lone), pos));
    });
    let mut world = World::new(1);
    world.load_around(IVec3::new(16, 64, 16), 1);
    group.bench_function("all_neighbours_loaded", |b| {
        b.iter(|| input.gather_into(black_box(&world), pos));
    });
    group.finish();
}

criterion_group!(benches, meshing, gather);
criterion_main!(benches);
