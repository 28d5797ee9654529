//! The binary greedy mesher: face culling on `u64` row masks, ambient
//! occlusion computed a row at a time for exposed faces only, and greedy
//! merging over per-layer bit planes.

use crate::world::{BlockType, Face};

use super::{ChunkMesh, PackedQuad, PaddedChunk};

/// Per block type and face: the atlas tile, with bit 8 set for the
/// transparent pass.
const fn face_keys() -> [[u32; 6]; 16] {
    let mut out = [[0u32; 6]; 16];
    let mut i = 0;
    while i < BlockType::ALL.len() {
        let block = BlockType::ALL[i];
        let mut f = 0;
        while f < 6 {
            let transparent = if block.is_transparent() { 1 << 8 } else { 0 };
            out[block as usize][f] = block.tile(Face::from_index(f)) | transparent;
            f += 1;
        }
        i += 1;
    }
    out
}

const FACE_KEYS: [[u32; 6]; 16] = face_keys();

/// All four corners open (AO 3 each), packed 2 bits a corner.
const AO_OPEN: u32 = 0xFF;

/// Turns padded chunks into [`ChunkMesh`]es.
///
/// Keeps its scratch space between calls: after the first chunk of a size,
/// meshing allocates nothing (beyond growing the output lists).
///
/// What it emits, per face of every non-air block:
/// - nothing when the neighbour across it is opaque;
/// - nothing between two water blocks or two glass blocks;
/// - a face otherwise. Leaves next to leaves *do* get their faces: leaves
///   are cut-out foliage you see through, so the inner faces show.
///
/// Opaque blocks' faces go to [`ChunkMesh::opaque`], water, glass and leaf
/// faces to [`ChunkMesh::transparent`]. Every face carries per-corner
/// ambient occlusion from the opaque blocks in the plane in front of it,
/// and coplanar faces with the same tile and the same four AO values are
/// merged into rectangles.
#[derive(Debug, Clone, Default)]
pub struct Mesher {
    /// Face bits per (layer, v) row, bits along u.
    planes: Vec<u64>,
    /// Merge key per visible face at `(layer * n + v) * 64 + u`.
    keys: Vec<u32>,
}

/// How one face direction maps padded `(x, y, z)` rows onto layers.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Axis {
    /// East / West: layer x, u = z, v = y.
    X,
    /// Top / Bottom: layer y, u = x, v = z.
    Y,
    /// South / North: layer z, u = x, v = y.
    Z,
}

impl Mesher {
    /// A mesher with no scratch space yet.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Meshes `input` into `out`, replacing what `out` held (its capacity is
    /// kept).
    pub fn mesh(&mut self, input: &PaddedChunk, out: &mut ChunkMesh) {
        out.clear();
        let n = input.size();
        self.planes.resize(n * n, 0);
        self.keys.resize(n * n * 64, 0);
        for face in Face::ALL {
            self.mesh_face(input, face, out);
        }
    }

    /// Meshes `input` into a fresh [`ChunkMesh`].
    #[must_use]
    pub fn mesh_new(&mut self, input: &PaddedChunk) -> ChunkMesh {
        let mut out = ChunkMesh::default();
        self.mesh(input, &mut out);
        out
    }

    fn mesh_face(&mut self, input: &PaddedChunk, face: Face, out: &mut ChunkMesh) {
        let n = input.size();
        let p = n + 2;
        let inner: u64 = ((1u64 << n) - 1) << 1;
        let axis = match face {
            Face::East | Face::West => Axis::X,
            Face::Top | Face::Bottom => Axis::Y,
            Face::South | Face::North => Axis::Z,
        };
        let fi = face as usize;
        self.planes.fill(0);
        let blocks = input.blocks();
        let (solid, opaque, water, glass) =
            (&input.solid, &input.opaque, &input.water, &input.glass);
        let mut any = false;
        for y in 1..=n {
            for z in 1..=n {
                let i = y * p + z;
                let here = solid[i] & inner;
                if here == 0 {
                    continue;
                }
                // The neighbour row across the face, aligned to bit x.
                let nb = |m: &[u64]| -> u64 {
                    match face {
                        Face::East => m[i] >> 1,
                        Face::West => m[i] << 1,
                        Face::Top => m[i + p],
                        Face::Bottom => m[i - p],
                        Face::South => m[i + 1],
                        Face::North => m[i - 1],
                    }
                };
                let faces = here & !nb(opaque) & !(water[i] & nb(water)) & !(glass[i] & nb(glass));
                if faces == 0 {
                    continue;
                }
                any = true;
                // g[dv + 1][du + 1]: bit x set when the block at (du, dv) in
                // the plane in front of the face at x is opaque.
                let g = ao_grid(opaque, face, i, p);
                let occluded = faces
                    & (g[0][0]
                        | g[0][1]
                        | g[0][2]
                        | g[1][0]
                        | g[1][2]
                        | g[2][0]
                        | g[2][1]
                        | g[2][2]);
                let ao_planes = if occluded != 0 { ao_bits(&g) } else { [0; 8] };
                let row_base = (y * p + z) * p;
                let mut bits = faces;
                while bits != 0 {
                    let x = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let block = blocks[row_base + x] as usize;
                    let ao = if occluded >> x & 1 == 0 {
                        AO_OPEN
                    } else {
                        let mut ao = 0u32;
                        for (k, plane) in ao_planes.iter().enumerate() {
                            ao |= ((plane >> x & 1) as u32) << k;
                        }
                        ao
                    };
                    let key = FACE_KEYS[block][fi] | ao << 9;
                    let (layer, v, u) = match axis {
                        Axis::X => (x - 1, y - 1, z - 1),
                        Axis::Y => (y - 1, z - 1, x - 1),
                        Axis::Z => (z - 1, y - 1, x - 1),
                    };
                    self.keys[(layer * n + v) * 64 + u] = key;
                    if axis == Axis::X {
                        self.planes[layer * n + v] |= 1 << u;
                    }
                }
                match axis {
                    Axis::X => {}
                    Axis::Y => self.planes[(y - 1) * n + (z - 1)] = faces >> 1,
                    Axis::Z => self.planes[(z - 1) * n + (y - 1)] = faces >> 1,
                }
            }
        }
        if !any {
            return;
        }
        for layer in 0..n {
            let rows = &mut self.planes[layer * n..(layer + 1) * n];
            if rows.iter().all(|&r| r == 0) {
                continue;
            }
            let keys = &self.keys[layer * n * 64..(layer + 1) * n * 64];
            merge_layer(rows, keys, n, |u, v, w, h, key| {
                let pos = match axis {
                    Axis::X => [layer, v, u],
                    Axis::Y => [u, layer, v],
                    Axis::Z => [u, v, layer],
                };
                let ao = key >> 9;
                let quad = PackedQuad::new(
                    [pos[0] as u32, pos[1] as u32, pos[2] as u32],
                    [w as u32, h as u32],
                    face,
                    key & 0xFF,
                    [
                        (ao & 3) as u8,
                        (ao >> 2 & 3) as u8,
                        (ao >> 4 & 3) as u8,
                        (ao >> 6 & 3) as u8,
                    ],
                );
                if key & (1 << 8) != 0 {
                    out.transparent.push(quad);
                } else {
                    out.opaque.push(quad);
                }
            });
        }
    }
}

/// The 3×3 opaque neighbourhood in front of every face of row `i`, as
/// masks aligned to the face's bit x: `g[dv + 1][du + 1]`.
#[inline]
fn ao_grid(opaque: &[u64], face: Face, i: usize, p: usize) -> [[u64; 3]; 3] {
    // Shift so that bit x holds the block at x + du.
    let sh = |r: u64, du: usize| -> u64 {
        match du {
            0 => r << 1,
            1 => r,
            _ => r >> 1,
        }
    };
    let mut g = [[0u64; 3]; 3];
    for (dv, row) in g.iter_mut().enumerate() {
        for (du, cell) in row.iter_mut().enumerate() {
            *cell = match face {
                // u = x, v = z, plane y ± 1.
                Face::Top => sh(opaque[i + p + dv - 1], du),
                Face::Bottom => sh(opaque[i - p + dv - 1], du),
                // u = x, v = y, plane z ± 1.
                Face::South => sh(opaque[i + 1 + dv * p - p], du),
                Face::North => sh(opaque[i - 1 + dv * p - p], du),
                // u = z, v = y, plane x ± 1.
                Face::East => opaque[i + dv * p - p + du - 1] >> 1,
                Face::West => opaque[i + dv * p - p + du - 1] << 1,
            };
        }
    }
    g
}

/// Bit planes of the packed 8-bit AO: plane `2c` is the low bit of corner
/// `c`, plane `2c + 1` the high bit. Corners (0,0), (1,0), (1,1), (0,1).
#[inline]
fn ao_bits(g: &[[u64; 3]; 3]) -> [u64; 8] {
    // (du, dv) signs of the corners, as grid indices.
    const CORNERS: [(usize, usize); 4] = [(0, 0), (2, 0), (2, 2), (0, 2)];
    let mut out = [0u64; 8];
    for (c, &(du, dv)) in CORNERS.iter().enumerate() {
        let side1 = g[1][du];
        let side2 = g[dv][1];
        let corner = g[dv][du];
        // count = side1 + side2 + corner, as two bit planes.
        let lo = side1 ^ side2 ^ corner;
        let hi = (side1 & side2) | (corner & (side1 ^ side2));
        // AO = 3 - count, or 0 when both sides are occluded (then count >= 2
        // and the high bit of 3 - count is already clear).
        out[2 * c] = !lo & !(side1 & side2);
        out[2 * c + 1] = !hi;
    }
    out
}

/// Greedy merge of one layer: `rows[v]` has bit u set for each face, keyed by
/// `keys[v * 64 + u]`. Calls `emit(u, v, w, h, key)` per rectangle. `rows`
/// is consumed (cleared as faces are taken).
#[inline]
fn merge_layer(
    rows: &mut [u64],
    keys: &[u32],
    n: usize,
    mut emit: impl FnMut(usize, usize, usize, usize, u32),
) {
    for v in 0..n {
        let mut bits = rows[v];
        while bits != 0 {
            let u0 = bits.trailing_zeros() as usize;
            let row_keys = &keys[v * 64..v * 64 + 64];
            let key = row_keys[u0];
            // Run of set bits from u0 with the same key.
            let run = (!(bits >> u0)).trailing_zeros() as usize;
            let mut w = 1;
            while w < run && row_keys[u0 + w] == key {
                w += 1;
            }
            let span = if w == 64 {
                u64::MAX
            } else {
                ((1u64 << w) - 1) << u0
            };
            bits &= !span;
            let mut h = 1;
            while v + h < n && rows[v + h] & span == span {
                let next = &keys[(v + h) * 64 + u0..(v + h) * 64 + u0 + w];
                if next.iter().any(|&k| k != key) {
                    break;
                }
                rows[v + h] &= !span;
                h += 1;
            }
            emit(u0, v, w, h, key);
        }
    }
}
