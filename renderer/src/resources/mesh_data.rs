//! Mesh geometry on the CPU: the built-in shapes and validated user data.

use glam::{Vec2, Vec3, Vec4};

/// One vertex (72 bytes): position, normal, texture coordinates, tangent,
/// a second set of texture coordinates and a colour.
///
/// [`Vertex::new`] fills the extra attributes with neutral values: no
/// tangent (the shaders then derive one from the texture coordinates'
/// screen-space derivatives), `uv1` equal to `uv`, white.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Vertex {
    /// Object-space position.
    pub position: [f32; 3],
    /// Unit normal.
    pub normal: [f32; 3],
    /// Texture coordinates (set 0), (0, 0) top-left.
    pub uv: [f32; 2],
    /// Unit tangent along increasing `u`, and in `w` the handedness (+1 or
    /// -1): the bitangent is `cross(normal, tangent.xyz) * w` (glTF's
    /// convention). All zero: none given.
    pub tangent: [f32; 4],
    /// Texture coordinates, set 1 (light or occlusion maps).
    pub uv1: [f32; 2],
    /// Linear RGBA vertex colour, multiplied into the base colour.
    pub color: [f32; 4],
}

impl Vertex {
    /// The vertex buffer layout shaders see: locations 0 (position), 1
    /// (normal), 2 (uv), then 13 (tangent), 14 (uv1) and 15 (colour);
    /// 3-12 are left to per-instance data.
    pub const LAYOUT: wgpu::VertexBufferLayout<'static> = wgpu::VertexBufferLayout {
        array_stride: std::mem::size_of::<Self>() as wgpu::BufferAddress,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &wgpu::vertex_attr_array![
            0 => Float32x3, 1 => Float32x3, 2 => Float32x2,
            13 => Float32x4, 14 => Float32x2, 15 => Float32x4
        ],
    };

    /// A vertex with no tangent, `uv1 = uv` and a white colour.
    #[must_use]
    pub fn new(position: Vec3, normal: Vec3, uv: Vec2) -> Self {
        Self {
            position: position.to_array(),
            normal: normal.to_array(),
            uv: uv.to_array(),
            tangent: [0.0; 4],
            uv1: uv.to_array(),
            color: [1.0; 4],
        }
    }

    /// This vertex with a tangent (`w`: handedness, see [`Vertex::tangent`]).
    #[must_use]
    pub fn with_tangent(mut self, tangent: Vec4) -> Self {
        self.tangent = tangent.to_array();
        self
    }

    /// This vertex with a second set of texture coordinates.
    #[must_use]
    pub fn with_uv1(mut self, uv1: Vec2) -> Self {
        self.uv1 = uv1.to_array();
        self
    }

    /// This vertex with a linear RGBA colour.
    #[must_use]
    pub fn with_color(mut self, color: Vec4) -> Self {
        self.color = color.to_array();
        self
    }

    fn is_finite(&self) -> bool {
        self.position
            .iter()
            .chain(&self.normal)
            .chain(&self.uv)
            .chain(&self.tangent)
            .chain(&self.uv1)
            .chain(&self.color)
            .all(|c| c.is_finite())
    }
}

/// Triangle-list geometry with 32-bit indices, counter-clockwise front faces.
#[derive(Debug, Clone, PartialEq)]
pub struct MeshData {
    vertices: Vec<Vertex>,
    indices: Vec<u32>,
}

/// Geometry that cannot be drawn.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum MeshDataError {
    /// No triangles.
    #[error("a mesh needs at least one triangle")]
    Empty,
    /// The index count is not a multiple of three.
    #[error("{count} indices do not form whole triangles")]
    PartialTriangle {
        /// The index count.
        count: usize,
    },
    /// An index points past the last vertex.
    #[error("index {index} at position {at} is out of range ({vertices} vertices)")]
    IndexOutOfRange {
        /// The bad index.
        index: u32,
        /// Where it is in the index list.
        at: usize,
        /// How many vertices there are.
        vertices: usize,
    },
    /// A vertex holds NaN or infinity.
    #[error("vertex {at} has a non-finite component")]
    NonFinite {
        /// The vertex.
        at: usize,
    },
}

impl MeshData {
    /// Validated user geometry.
    ///
    /// # Errors
    /// [`MeshDataError`] for empty, partial, out-of-range or non-finite data.
    pub fn new(vertices: Vec<Vertex>, indices: Vec<u32>) -> Result<Self, MeshDataError> {
        if indices.is_empty() {
            return Err(MeshDataError::Empty);
        }
        if !indices.len().is_multiple_of(3) {
            return Err(MeshDataError::PartialTriangle {
                count: indices.len(),
            });
        }
        if let Some((at, &index)) = indices
            .iter()
            .enumerate()
            .find(|(_, i)| **i as usize >= vertices.len())
        {
            return Err(MeshDataError::IndexOutOfRange {
                index,
                at,
                vertices: vertices.len(),
            });
        }
        if let Some(at) = vertices.iter().position(|v| !v.is_finite()) {
            return Err(MeshDataError::NonFinite { at });
        }
        Ok(Self { vertices, indices })
    }

    /// A cube of edge `size` centred on the origin, with per-face normals.
    #[must_use]
    pub fn cube(size: f32) -> Self {
        let h = size * 0.5;
        let mut vertices = Vec::with_capacity(24);
        let mut indices = Vec::with_capacity(36);
        for (normal, up) in [
            (Vec3::X, Vec3::Y),
            (Vec3::NEG_X, Vec3::Y),
            (Vec3::Y, Vec3::NEG_Z),
            (Vec3::NEG_Y, Vec3::Z),
            (Vec3::Z, Vec3::Y),
            (Vec3::NEG_Z, Vec3::Y),
        ] {
            let right = up.cross(normal);
            let base = vertices.len() as u32;
            for (u, v) in [(0.0, 1.0), (1.0, 1.0), (1.0, 0.0), (0.0, 0.0)] {
                let position = (normal + right * (u * 2.0 - 1.0) + up * (1.0 - v * 2.0)) * h;
                // u runs along `right`, v against `up`: the bitangent
                // cross(normal, right) = up is the normal map's +Y.
                vertices.push(
                    Vertex::new(position, normal, Vec2::new(u, v)).with_tangent(right.extend(1.0)),
                );
            }
            indices.extend([base, base + 1, base + 2, base, base + 2, base + 3]);
        }
        Self { vertices, indices }
    }

    /// A UV sphere of `radius` with `segments` around and `rings` from pole to
    /// pole (clamped to at least 3 and 2).
    #[must_use]
    pub fn sphere(radius: f32, segments: u32, rings: u32) -> Self {
        let (segments, rings) = (segments.max(3), rings.max(2));
        let mut vertices = Vec::with_capacity(((segments + 1) * (rings + 1)) as usize);
        for ring in 0..=rings {
            let v = ring as f32 / rings as f32;
            let theta = v * std::f32::consts::PI;
            for segment in 0..=segments {
                let u = segment as f32 / segments as f32;
                let phi = u * std::f32::consts::TAU;
                let normal = Vec3::new(
                    theta.sin() * phi.cos(),
                    theta.cos(),
                    -theta.sin() * phi.sin(),
                );
                // Along increasing longitude (u); the bitangent points north.
                let tangent = Vec3::new(-phi.sin(), 0.0, -phi.cos());
                vertices.push(
                    Vertex::new(normal * radius, normal, Vec2::new(u, v))
                        .with_tangent(tangent.extend(1.0)),
                );
            }
        }
        let mut indices = Vec::with_capacity((segments * rings * 6) as usize);
        let row = segments + 1;
        for ring in 0..rings {
            for segment in 0..segments {
                let a = ring * row + segment;
                let b = a + row;
                if ring != 0 {
                    indices.extend([a, b, a + 1]);
                }
                if ring != rings - 1 {
                    indices.extend([a + 1, b, b + 1]);
                }
            }
        }
        Self { vertices, indices }
    }

    /// A flat square of edge `size` in the XZ plane, facing +Y.
    #[must_use]
    pub fn plane(size: f32) -> Self {
        let h = size * 0.5;
        let vertices = [
            (-h, -h, 0.0, 0.0),
            (h, -h, 1.0, 0.0),
            (h, h, 1.0, 1.0),
            (-h, h, 0.0, 1.0),
        ]
        .into_iter()
        .map(|(x, z, u, v)| {
            Vertex::new(Vec3::new(x, 0.0, z), Vec3::Y, Vec2::new(u, v))
                .with_tangent(Vec4::new(1.0, 0.0, 0.0, 1.0))
        })
        .collect();
        Self {
            vertices,
            indices: vec![0, 2, 1, 0, 3, 2],
        }
    }

    /// The vertices.
    #[must_use]
    pub fn vertices(&self) -> &[Vertex] {
        &self.vertices
    }

    /// The triangle-list indices.
    #[must_use]
    pub fn indices(&self) -> &[u32] {
        &self.indices
    }

    /// Axis-aligned bounds `(min, max)` of the positions.
    #[must_use]
    pub fn bounds(&self) -> (Vec3, Vec3) {
        self.vertices.iter().fold(
            (Vec3::splat(f32::INFINITY), Vec3::splat(f32::NEG_INFINITY)),
            |(lo, hi), v| {
                let p = Vec3::from(v.position);
                (lo.min(p), hi.max(p))
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every triangle winds counter-clockwise seen from outside: its geometric
    /// normal points the same way as its vertex normals.
    fn assert_outward_ccw(mesh: &MeshData) {
        for tri in mesh.indices().chunks_exact(3) {
            let [a, b, c] = [0, 1, 2].map(|i| mesh.vertices()[tri[i] as usize]);
            let (pa, pb, pc) = (
                Vec3::from(a.position),
                Vec3::from(b.position),
                Vec3::from(c.position),
            );
            let face = (pb - pa).cross(pc - pa);
            let normal = Vec3::from(a.normal) + Vec3::from(b.normal) + Vec3::from(c.normal);
            assert!(face.dot(normal) > 0.0, "triangle {tri:?} winds inward");
        }
        for v in mesh.vertices() {
            assert!((Vec3::from(v.normal).length() - 1.0).abs() < 1e-4);
        }
    }

    /// Each triangle's tangent runs along increasing u and its bitangent
    /// (cross(normal, tangent) * w) along decreasing v: the normal map's +Y
    /// is "up" in the image, as glTF has it.
    fn assert_tangents_follow_uv(mesh: &MeshData) {
        for tri in mesh.indices().chunks_exact(3) {
            let [a, b, c] = [0, 1, 2].map(|i| mesh.vertices()[tri[i] as usize]);
            let (e1, e2) = (
                Vec3::from(b.position) - Vec3::from(a.position),
                Vec3::from(c.position) - Vec3::from(a.position),
            );
            let (d1, d2) = (
                Vec2::from(b.uv) - Vec2::from(a.uv),
                Vec2::from(c.uv) - Vec2::from(a.uv),
            );
            let det = d1.x * d2.y - d2.x * d1.y;
            if det.abs() < 1e-9 {
                continue; // a pole's degenerate UVs
            }
            let along_u = (e1 * d2.y - e2 * d1.y) / det;
            let along_v = (e2 * d1.x - e1 * d2.x) / det;
            let tangent = Vec4::from(a.tangent);
            let bitangent = Vec3::from(a.normal).cross(tangent.truncate()) * tangent.w;
            assert!(tangent.truncate().dot(along_u) > 0.0, "{tri:?} tangent");
            assert!(bitangent.dot(along_v) < 0.0, "{tri:?} bitangent");
        }
    }

    #[test]
    fn built_in_tangents_follow_the_texture_coordinates() {
        assert_tangents_follow_uv(&MeshData::cube(2.0));
        assert_tangents_follow_uv(&MeshData::sphere(0.5, 16, 8));
        assert_tangents_follow_uv(&MeshData::plane(4.0));
    }

    #[test]
    fn built_in_shapes_are_closed_outward_and_sized() {
        let cube = MeshData::cube(2.0);
        assert_eq!((cube.vertices().len(), cube.indices().len()), (24, 36));
        assert_eq!(cube.bounds(), (Vec3::splat(-1.0), Vec3::splat(1.0)));
        assert_outward_ccw(&cube);
        let sphere = MeshData::sphere(0.5, 16, 8);
        assert_eq!(sphere.indices().len(), 16 * (8 - 1) * 6);
        assert_outward_ccw(&sphere);
        let plane = MeshData::plane(4.0);
        assert_outward_ccw(&plane);
        assert_eq!(plane.bounds().1, Vec3::new(2.0, 0.0, 2.0));
    }

    #[test]
    fn bad_user_data_is_refused() {
        let v = Vertex::new(Vec3::ZERO, Vec3::Y, Vec2::ZERO);
        assert_eq!(MeshData::new(vec![v], vec![]), Err(MeshDataError::Empty));
        assert_eq!(
            MeshData::new(vec![v; 3], vec![0, 1]),
            Err(MeshDataError::PartialTriangle { count: 2 })
        );
        assert!(matches!(
            MeshData::new(vec![v; 3], vec![0, 1, 3]),
            Err(MeshDataError::IndexOutOfRange {
                index: 3,
                at: 2,
                ..
            })
        ));
        let mut nan = v;
        nan.position[1] = f32::NAN;
        assert_eq!(
            MeshData::new(vec![v, v, nan], vec![0, 1, 2]),
            Err(MeshDataError::NonFinite { at: 2 })
        );
        let bad_tangent = v.with_tangent(Vec4::new(f32::INFINITY, 0.0, 0.0, 1.0));
        assert_eq!(
            MeshData::new(vec![v, bad_tangent, v], vec![0, 1, 2]),
            Err(MeshDataError::NonFinite { at: 1 })
        );
        assert!(MeshData::new(vec![v; 3], vec![0, 1, 2]).is_ok());
    }
}
