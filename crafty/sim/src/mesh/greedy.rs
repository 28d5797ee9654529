//! The binary greedy mesher: face culling on `u64` row masks, ambient
//! occlusion computed a row at a time for exposed faces only, and greedy
//! merging over per-layer bit planes.

use crate::world::{BlockType, Face};

use super::{ChunkMesh, MAX_MESH_SIZE, PackedQuad, PaddedChunk};

/// Per block type and face: the atlas tile (the low byte of a merge key).
const fn face_keys() -> [[u16; 6]; 16] {
    let mut out = [[0u16; 6]; 16];
    let mut i = 0;
    while i < BlockType::ALL.len() {
        let block = BlockType::ALL[i];
        let mut f = 0;
        while f < 6 {
            out[block as usize][f] = block.tile(Face::from_index(f)) as u16;
            f += 1;
        }
        i += 1;
    }
    out
}

/// Per atlas tile: drawn in the transparent pass. Panics at compile time if
/// an opaque and a transparent block ever share a tile.
const fn transparent_tiles() -> [bool; 256] {
    let mut out = [false; 256];
    let mut opaque = [false; 256];
    let mut i = 0;
    while i < BlockType::ALL.len() {
        let block = BlockType::ALL[i];
        let mut f = 0;
        while f < 6 {
            let tile = block.tile(Face::from_index(f)) as usize;
            if block.is_transparent() {
                out[tile] = true;
            } else if !block.is_air() {
                opaque[tile] = true;
            }
            assert!(
                !(out[tile] && opaque[tile]),
                "a tile is both opaque and transparent"
            );
            f += 1;
        }
        i += 1;
    }
    out
}

const TRANSPARENT_TILES: [bool; 256] = transparent_tiles();

const FACE_KEYS: [[u16; 6]; 16] = face_keys();

/// Packed AO of the four corners from the 3×3 opaque neighbourhood in front
/// of a face: bit `3 * (dv + 1) + (du + 1)` of the index is the block at
/// `(du, dv)` in (u, v).
const fn ao_table() -> [u8; 512] {
    let mut out = [0u8; 512];
    let mut idx = 0;
    while idx < 512 {
        let corners = [(-1, -1), (1, -1), (1, 1), (-1, 1)];
        let mut packed = 0u8;
        let mut c = 0;
        while c < 4 {
            let (du, dv) = corners[c];
            let (s1, s2, k) = (occ(idx, du, 0), occ(idx, 0, dv), occ(idx, du, dv));
            let ao = if s1 == 1 && s2 == 1 {
                0
            } else {
                3 - (s1 + s2 + k)
            };
            packed |= ao << (2 * c);
            c += 1;
        }
        out[idx] = packed;
        idx += 1;
    }
    out
}

const AO_TABLE: [u8; 512] = ao_table();

/// Whether bit `(du, dv)` of an AO table index is set.
const fn occ(idx: usize, du: i32, dv: i32) -> u8 {
    ((idx >> (3 * (dv + 1) + (du + 1))) & 1) as u8
}

/// Turns padded chunks into [`ChunkMesh`]es.
///
/// Its scratch space (about 1 MiB, sized for the largest chunk) is
/// allocated once in [`new`](Self::new) and reused: meshing allocates
/// nothing beyond growing the output lists, and with a reused
/// [`ChunkMesh`] not even that once they have grown.
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
///
/// How: each face direction is a stack of layers; a layer is `n` rows of
/// `u64` face bits along the face's u axis, culled with whole-row mask
/// operations (the x faces use the input's transposed masks, so every
/// direction works on rows along u). Only exposed faces get a merge key
/// (tile, pass, AO from a 512-entry table, or "all open" when a row test
/// finds no occluder near them), then each layer is merged greedily over
/// its bit rows.
#[derive(Clone)]
pub struct Mesher {
    /// Face bits per (layer, v) row, bits along u, for two directions (one
    /// per half): one layer's rows, or for the x faces every layer's at
    /// `layer * n + v`.
    planes: Vec<u64>,
    /// Merge key per face at `(layer * n + v) * 64 + u` (one layer's at
    /// `v * 64 + u` for the y and z faces), for two directions.
    keys: Vec<u16>,
}

impl std::fmt::Debug for Mesher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mesher").finish_non_exhaustive()
    }
}

impl Default for Mesher {
    fn default() -> Self {
        Self::new()
    }
}

impl Mesher {
    /// A mesher; its scratch space is allocated once, here.
    #[must_use]
    pub fn new() -> Self {
        Self {
            planes: vec![0; 2 * PLANES],
            keys: vec![0; 2 * KEYS],
        }
    }

    /// Meshes `input` into `out`, replacing what `out` held (its capacity is
    /// kept).
    pub fn mesh(&mut self, input: &PaddedChunk, out: &mut ChunkMesh) {
        out.clear();
        self.mesh_pair::<0, 1>(input, out);
        self.mesh_pair::<2, 3>(input, out);
        self.mesh_pair::<4, 5>(input, out);
    }

    /// Meshes `input` into a fresh [`ChunkMesh`].
    #[must_use]
    pub fn mesh_new(&mut self, input: &PaddedChunk) -> ChunkMesh {
        let mut out = ChunkMesh::default();
        self.mesh(input, &mut out);
        out
    }

    /// The two opposite face directions `A` and `B` ([`Face`] indices) of
    /// one axis, culled row by row together so each row of blocks is read
    /// from memory once for both.
    fn mesh_pair<const A: usize, const B: usize>(
        &mut self,
        input: &PaddedChunk,
        out: &mut ChunkMesh,
    ) {
        let n = input.size();
        let (cull_a, cull_b) = (Cull::<A>::new(input), Cull::<B>::new(input));
        let (planes_a, planes_b) = self.planes.split_at_mut(PLANES);
        let (keys_a, keys_b) = self.keys.split_at_mut(KEYS);
        if A < 2 {
            // x faces: layer x, v = y, u = z. Their blocks sit `p` bytes
            // apart along u, so walk y outermost (one y slice of blocks stays
            // in cache) and keep every layer's rows and keys until merging.
            for v in 0..n {
                for layer in 0..n {
                    let at = layer * n + v;
                    let keys = at * 64..at * 64 + 64;
                    planes_a[at] = cull_a.row(layer, v, &mut keys_a[keys.clone()]);
                    planes_b[at] = cull_b.row(layer, v, &mut keys_b[keys]);
                }
            }
            for layer in 0..n {
                let rows = layer * n..(layer + 1) * n;
                let keys = layer * n * 64..(layer + 1) * n * 64;
                if planes_a[rows.clone()].iter().any(|&r| r != 0) {
                    merge_layer(
                        &mut planes_a[rows.clone()],
                        &keys_a[keys.clone()],
                        |u, v, w, h, key| {
                            emit::<A>(out, layer, u, v, w, h, key);
                        },
                    );
                }
                if planes_b[rows.clone()].iter().any(|&r| r != 0) {
                    merge_layer(&mut planes_b[rows], &keys_b[keys], |u, v, w, h, key| {
                        emit::<B>(out, layer, u, v, w, h, key);
                    });
                }
            }
        } else {
            for layer in 0..n {
                let (mut any_a, mut any_b) = (0u64, 0u64);
                for v in 0..n {
                    let keys = v * 64..v * 64 + 64;
                    let row_a = cull_a.row(layer, v, &mut keys_a[keys.clone()]);
                    let row_b = cull_b.row(layer, v, &mut keys_b[keys]);
                    planes_a[v] = row_a;
                    planes_b[v] = row_b;
                    any_a |= row_a;
                    any_b |= row_b;
                }
                if any_a != 0 {
                    merge_layer(&mut planes_a[..n], &keys_a[..n * 64], |u, v, w, h, key| {
                        emit::<A>(out, layer, u, v, w, h, key);
                    });
                }
                if any_b != 0 {
                    merge_layer(&mut planes_b[..n], &keys_b[..n * 64], |u, v, w, h, key| {
                        emit::<B>(out, layer, u, v, w, h, key);
                    });
                }
            }
        }
    }
}

/// Rows of one direction's scratch: every layer's, for the largest chunk.
const PLANES: usize = MAX_MESH_SIZE * MAX_MESH_SIZE;
/// Keys of one direction's scratch: 64 per row.
const KEYS: usize = PLANES * 64;

/// Pushes one merged rectangle of face `F`.
#[inline]
#[allow(clippy::too_many_arguments)] // reason: a hot inlined helper, not an API
fn emit<const F: usize>(
    out: &mut ChunkMesh,
    layer: usize,
    u: usize,
    v: usize,
    w: usize,
    h: usize,
    key: u16,
) {
    let pos = match F {
        0 | 1 => [layer, v, u],
        2 | 3 => [u, layer, v],
        _ => [u, v, layer],
    };
    // The key holds the tile (bits 0-7) and the AO (bits 8-15) in the order
    // PackedQuad wants them.
    let quad = PackedQuad {
        lo: pos[0] as u32
            | (pos[1] as u32) << 6
            | (pos[2] as u32) << 12
            | (w as u32) << 18
            | (h as u32) << 24,
        hi: F as u32 | u32::from(key & 0xFF) << 3 | u32::from(key >> 8) << 11,
    };
    if TRANSPARENT_TILES[usize::from(key & 0xFF)] {
        out.transparent.push(quad);
    } else {
        out.opaque.push(quad);
    }
}

/// Face culling and merge keys for face direction `F`, a row at a time.
struct Cull<'a, const F: usize> {
    n: usize,
    p: usize,
    inner: u64,
    solid: &'a [u64],
    opaque: &'a [u64],
    water: &'a [u64],
    glass: &'a [u64],
    blocks: &'a [BlockType],
    /// Water-water and glass-glass culling only matters when there is some.
    clear_pairs: bool,
}

impl<'a, const F: usize> Cull<'a, F> {
    fn new(input: &'a PaddedChunk) -> Self {
        let n = input.size();
        // Rows are (y, z) with bits x, or for the x faces (y, x) with bits z.
        let (solid, opaque, water, glass) = if F < 2 {
            (
                &input.solid_t[..],
                &input.opaque_t[..],
                &input.water_t[..],
                &input.glass_t[..],
            )
        } else {
            (
                &input.solid[..],
                &input.opaque[..],
                &input.water[..],
                &input.glass[..],
            )
        };
        Self {
            n,
            p: n + 2,
            inner: ((1u64 << n) - 1) << 1,
            solid,
            opaque,
            water,
            glass,
            blocks: input.blocks(),
            clear_pairs: input.has_water_or_glass(),
        }
    }

    /// The visible faces of row `v` of `layer` as bits along u (unpadded),
    /// with each one's merge key written to `row_keys[u]`.
    #[inline]
    fn row(&self, layer: usize, v: usize, row_keys: &mut [u16]) -> u64 {
        let p = self.p;
        // Row steps to the next layer, the next v, and across the face.
        let (layer_step, v_step) = if F == 2 || F == 3 { (p, 1) } else { (1, p) };
        let front = if F == 2 || F == 3 { p } else { 1 };
        let i = (layer + 1) * layer_step + (v + 1) * v_step;
        let here = self.solid[i] & self.inner;
        if here == 0 {
            return 0;
        }
        let j = if F.is_multiple_of(2) {
            i + front
        } else {
            i - front
        };
        let mut faces = here & !self.opaque[j];
        if self.clear_pairs {
            faces &= !(self.water[i] & self.water[j]) & !(self.glass[i] & self.glass[j]);
        }
        if faces == 0 {
            return 0;
        }
        // The opaque rows in front of the face, at v - 1, v, v + 1.
        let (r0, r1, r2) = (
            self.opaque[j - v_step],
            self.opaque[j],
            self.opaque[j + v_step],
        );
        // Block index of bit b: base + b * stride.
        let (base, stride) = if F < 2 {
            ((v + 1) * p * p + layer + 1, p)
        } else {
            (i * p, 1)
        };
        let mut bits = faces;
        while bits != 0 {
            let b = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let block = self.blocks[base + b * stride] as usize;
            // Branch-free: with no opaque block around, the index is 0 and
            // the table says "all open".
            let s = b - 1;
            let idx = (r0 >> s & 7) | (r1 >> s & 7) << 3 | (r2 >> s & 7) << 6;
            let ao = u16::from(AO_TABLE[idx as usize]);
            row_keys[s] = FACE_KEYS[block][F] | ao << 8;
        }
        debug_assert!(self.n < 64);
        faces >> 1
    }
}

/// Greedy merge of one layer: `rows[v]` has bit u set for each face, keyed by
/// `keys[v * 64 + u]`. Calls `emit(u, v, w, h, key)` per rectangle. `rows`
/// is consumed (cleared as faces are taken).
#[inline]
fn merge_layer(
    rows: &mut [u64],
    keys: &[u16],
    mut emit: impl FnMut(usize, usize, usize, usize, u16),
) {
    let n = rows.len();
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
