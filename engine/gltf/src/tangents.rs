//! Tangent generation with MikkTSpace (the `bevy_mikktspace` crate: safe Rust, no dependencies).

use glam::{Vec2, Vec3, Vec4};

struct Geometry<'a> {
    positions: &'a [Vec3],
    normals: &'a [Vec3],
    uvs: &'a [Vec2],
    indices: &'a [u32],
    tangents: Vec<Vec4>,
}

impl Geometry<'_> {
    fn vertex(&self, face: usize, vert: usize) -> usize {
        self.indices[face * 3 + vert] as usize
    }
}

impl bevy_mikktspace::Geometry for Geometry<'_> {
    fn num_faces(&self) -> usize {
        self.indices.len() / 3
    }

    fn num_vertices_of_face(&self, _face: usize) -> usize {
        3
    }

    fn position(&self, face: usize, vert: usize) -> [f32; 3] {
        self.positions[self.vertex(face, vert)].to_array()
    }

    fn normal(&self, face: usize, vert: usize) -> [f32; 3] {
        self.normals[self.vertex(face, vert)].to_array()
    }

    fn tex_coord(&self, face: usize, vert: usize) -> [f32; 2] {
        self.uvs[self.vertex(face, vert)].to_array()
    }

    fn set_tangent(
        &mut self,
        tangent_space: Option<bevy_mikktspace::TangentSpace>,
        face: usize,
        vert: usize,
    ) {
        let v = self.vertex(face, vert);
        if let Some(t) = tangent_space {
            self.tangents[v] = Vec4::from_array(t.tangent_encoded());
        }
    }
}

/// MikkTSpace tangents (xyz unit tangent, w = ±1 bitangent sign) for an indexed triangle list.
///
/// The inputs must have equal lengths and every index must be in range (the importer checks
/// both). A vertex shared by faces that MikkTSpace would split keeps the last face's tangent;
/// a vertex MikkTSpace gives no tangent (degenerate, isolated) gets `(1, 0, 0, 1)`.
#[must_use]
pub fn generate_tangents(
    positions: &[Vec3],
    normals: &[Vec3],
    uvs: &[Vec2],
    indices: &[u32],
) -> Vec<Vec4> {
    let mut geometry = Geometry {
        positions,
        normals,
        uvs,
        indices,
        tangents: vec![Vec4::new(1.0, 0.0, 0.0, 1.0); positions.len()],
    };
    // The error type has no variants: generation cannot fail.
    let _ = bevy_mikktspace::generate_tangents(&mut geometry);
    geometry.tangents
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quad_in_xy_with_uvs_along_x_gets_plus_x_tangents() {
        let positions = [Vec3::ZERO, Vec3::X, Vec3::new(1.0, 1.0, 0.0), Vec3::Y];
        let normals = [Vec3::Z; 4];
        let uvs = [
            Vec2::new(0.0, 1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(1.0, 0.0),
            Vec2::ZERO,
        ];
        let t = generate_tangents(&positions, &normals, &uvs, &[0, 1, 2, 0, 2, 3]);
        for t in t {
            assert!((t.truncate() - Vec3::X).length() < 1e-5, "{t}");
            assert!(t.w.abs() == 1.0);
        }
    }
}
