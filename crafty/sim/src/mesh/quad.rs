//! The mesher's output: one packed quad per merged face rectangle.
//!
//! A quad is 8 bytes. The GPU expands each into two triangles in the vertex
//! shader (one instance per quad), so chunk geometry is uploaded as these
//! quads and never as vertices.

use crate::world::Face;

/// One rectangle of block faces, packed into two `u32`s.
///
/// | word | bits | field |
/// | --- | --- | --- |
/// | `lo` | 0-5, 6-11, 12-17 | x, y, z: the first covered block, chunk-local |
/// | `lo` | 18-23, 24-29 | w, h: extent along the face's u and v axes (1..=62) |
/// | `hi` | 0-2 | face ([`Face`] index) |
/// | `hi` | 3-10 | atlas tile |
/// | `hi` | 11-18 | ambient occlusion of corners (0,0), (1,0), (1,1), (0,1) in (u, v), 2 bits each, 3 = unoccluded |
///
/// The (u, v) axes per face: East/West u = z, v = y; Top/Bottom u = x, v = z;
/// South/North u = x, v = y.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, bytemuck::Pod, bytemuck::Zeroable)]
pub struct PackedQuad {
    /// Position and size.
    pub lo: u32,
    /// Face, tile, ambient occlusion.
    pub hi: u32,
}

impl PackedQuad {
    /// Packs a quad. Coordinates and sizes are masked to 6 bits.
    #[must_use]
    pub const fn new(pos: [u32; 3], size: [u32; 2], face: Face, tile: u32, ao: [u8; 4]) -> Self {
        let lo = (pos[0] & 63)
            | (pos[1] & 63) << 6
            | (pos[2] & 63) << 12
            | (size[0] & 63) << 18
            | (size[1] & 63) << 24;
        let ao_bits = (ao[0] as u32 & 3)
            | (ao[1] as u32 & 3) << 2
            | (ao[2] as u32 & 3) << 4
            | (ao[3] as u32 & 3) << 6;
        let hi = (face as u32) | (tile & 0xFF) << 3 | ao_bits << 11;
        Self { lo, hi }
    }

    /// The first covered block, chunk-local.
    #[must_use]
    pub const fn pos(self) -> [u32; 3] {
        [self.lo & 63, (self.lo >> 6) & 63, (self.lo >> 12) & 63]
    }

    /// Extent along u and v.
    #[must_use]
    pub const fn size(self) -> [u32; 2] {
        [(self.lo >> 18) & 63, (self.lo >> 24) & 63]
    }

    /// The face.
    #[must_use]
    pub const fn face(self) -> Face {
        Face::from_index((self.hi & 7) as usize)
    }

    /// The atlas tile.
    #[must_use]
    pub const fn tile(self) -> u32 {
        (self.hi >> 3) & 0xFF
    }

    /// The chunk-local axes `(u, v)` of `face`: 0 = x, 1 = y, 2 = z.
    #[must_use]
    pub const fn face_axes(face: Face) -> (usize, usize) {
        match face {
            Face::East | Face::West => (2, 1),
            Face::Top | Face::Bottom => (0, 2),
            Face::South | Face::North => (0, 1),
        }
    }

    /// The chunk-local block behind every unit face the quad covers, in
    /// `v`-major order.
    pub fn blocks(self) -> impl Iterator<Item = [u32; 3]> {
        let (ua, va) = Self::face_axes(self.face());
        let pos = self.pos();
        let [w, h] = self.size();
        (0..h).flat_map(move |dv| {
            (0..w).map(move |du| {
                let mut p = pos;
                p[ua] += du;
                p[va] += dv;
                p
            })
        })
    }

    /// Ambient occlusion per corner, 0 (darkest) to 3 (open).
    #[must_use]
    pub const fn ao(self) -> [u8; 4] {
        let bits = self.hi >> 11;
        [
            (bits & 3) as u8,
            ((bits >> 2) & 3) as u8,
            ((bits >> 4) & 3) as u8,
            ((bits >> 6) & 3) as u8,
        ]
    }
}

/// A chunk's geometry: opaque quads (depth-tested, written) and transparent
/// quads (water, glass, leaves; blended after the opaque pass).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChunkMesh {
    /// Opaque faces.
    pub opaque: Vec<PackedQuad>,
    /// Water, glass and leaf faces.
    pub transparent: Vec<PackedQuad>,
}

impl ChunkMesh {
    /// No faces at all.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.opaque.is_empty() && self.transparent.is_empty()
    }

    /// Empties both lists, keeping their capacity.
    pub fn clear(&mut self) {
        self.opaque.clear();
        self.transparent.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_round_trip() {
        let quad = PackedQuad::new([61, 0, 33], [62, 1], Face::South, 13, [3, 0, 2, 1]);
        assert_eq!(quad.pos(), [61, 0, 33]);
        assert_eq!(quad.size(), [62, 1]);
        assert_eq!(quad.face(), Face::South);
        assert_eq!(quad.tile(), 13);
        assert_eq!(quad.ao(), [3, 0, 2, 1]);
    }
}
