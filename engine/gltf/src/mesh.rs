//! Meshes and their primitives: vertex attributes read, validated, triangulated, completed.

use glam::{Vec2, Vec3, Vec4};
use gltf::mesh::{Mode, Semantic};

use crate::accessor::{Buffers, Encoding, read_floats, read_indices};
use crate::error::{AccessorProblem, ElementName, GltfError, PrimitiveProblem};
use crate::index::MaterialIndex;
use crate::influences::{JointInfluences, read_influences};
use crate::material::Material;
use crate::morph::{MorphTarget, read_morph_targets};
use crate::tangents::generate_tangents;

/// A glTF mesh: a list of triangle primitives drawn with the same node transform.
#[derive(Debug, Clone, PartialEq)]
pub struct Mesh {
    /// The mesh's `name`.
    pub name: Option<String>,
    /// Its triangle primitives. Point and line primitives are skipped (with a warning), so
    /// [`Primitive::source_index`] may differ from the position in this list.
    pub primitives: Vec<Primitive>,
    /// Default morph target weights, one per morph target (every primitive has the same
    /// number of targets): the file's `weights` (a value too large for f32 reads as 0), or
    /// zeros when it has none. Empty without morph targets.
    pub weights: Vec<f32>,
}

impl Mesh {
    /// How many morph targets each of its primitives has.
    #[must_use]
    pub fn morph_target_count(&self) -> usize {
        self.weights.len()
    }
}

/// An axis-aligned box.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Aabb {
    /// Smallest corner.
    pub min: Vec3,
    /// Largest corner.
    pub max: Vec3,
}

impl Aabb {
    /// The smallest box holding `points`; a zero box at the origin when empty.
    #[must_use]
    pub fn from_points(points: &[Vec3]) -> Self {
        let Some(first) = points.first() else {
            return Self {
                min: Vec3::ZERO,
                max: Vec3::ZERO,
            };
        };
        points.iter().fold(
            Self {
                min: *first,
                max: *first,
            },
            |b, p| Self {
                min: b.min.min(*p),
                max: b.max.max(*p),
            },
        )
    }
}

/// One triangle list with per-vertex attributes, all of the same length as `positions`.
///
/// Winding is glTF's: counter-clockwise front faces, right-handed, +Y up.
#[derive(Debug, Clone, PartialEq)]
pub struct Primitive {
    /// The primitive's index in the glTF mesh (for messages; skipped primitives leave gaps).
    pub source_index: usize,
    /// POSITION.
    pub positions: Vec<Vec3>,
    /// NORMAL; generated flat (one normal per triangle, vertices unwelded) when absent, as the
    /// glTF spec asks (see [`Primitive::normals_generated`]).
    pub normals: Vec<Vec3>,
    /// TANGENT: xyz unit tangent, w = ±1 bitangent sign. When absent, generated with MikkTSpace
    /// if the material has a normal texture and the primitive has that texture's UV set;
    /// otherwise `None`.
    pub tangents: Option<Vec<Vec4>>,
    /// TEXCOORD_0, dequantised to f32 (glTF UV space: origin top-left, v down).
    pub tex_coords_0: Option<Vec<Vec2>>,
    /// TEXCOORD_1, dequantised to f32.
    pub tex_coords_1: Option<Vec<Vec2>>,
    /// COLOR_0 as linear RGBA f32 (alpha 1 for VEC3 colours).
    pub colors: Option<Vec<Vec4>>,
    /// Triangle list indices (strips and fans are converted; `0..n` when the file has none).
    pub indices: Vec<u32>,
    /// The material; `None` means the glTF default material ([`Material::default`]).
    pub material: Option<MaterialIndex>,
    /// The normals were generated (the file had none).
    pub normals_generated: bool,
    /// The tangents were generated (the file had none).
    pub tangents_generated: bool,
    /// Bounds of `positions` (of the base shape, before morphing and skinning).
    pub bounds: Aabb,
    /// Joint influences from JOINTS_0/1 and WEIGHTS_0/1, for a node with a skin.
    pub influences: Option<JointInfluences>,
    /// Morph targets, in file order (as many as the mesh's [`Mesh::weights`]).
    pub morph_targets: Vec<MorphTarget>,
}

impl Primitive {
    /// The UV set with this index (0 or 1), if present.
    #[must_use]
    pub fn tex_coords(&self, set: u32) -> Option<&[Vec2]> {
        match set {
            0 => self.tex_coords_0.as_deref(),
            1 => self.tex_coords_1.as_deref(),
            _ => None,
        }
    }
}

/// Reads every mesh. `warnings` collects skipped primitives and ignored data.
pub(crate) fn import_meshes(
    doc: &gltf::Document,
    buffers: &Buffers<'_>,
    materials: &[Material],
    file: &str,
    warnings: &mut Vec<String>,
    mut progress: impl FnMut(usize),
) -> Result<Vec<Mesh>, GltfError> {
    let quantized = doc
        .extensions_used()
        .any(|e| e == crate::model::MESH_QUANTIZATION);
    let context = PrimitiveContext {
        buffers,
        materials,
        file,
        quantized,
    };
    doc.meshes()
        .enumerate()
        .map(|(i, mesh)| {
            let name = ElementName::new(crate::ElementKind::Mesh, mesh.index(), mesh.name());
            let weights = default_weights(&mesh, &name, file)?;
            let mut primitives = Vec::new();
            for prim in mesh.primitives() {
                if let Some(p) = import_primitive(&prim, &name, &context, warnings)? {
                    primitives.push(p);
                }
            }
            progress(i + 1);
            Ok(Mesh {
                name: mesh.name().map(str::to_owned),
                primitives,
                weights,
            })
        })
        .collect()
}

/// The mesh's default morph weights, after checking that every primitive has as many targets
/// as the first (and as the file's `weights`, when given).
fn default_weights(
    mesh: &gltf::Mesh<'_>,
    name: &ElementName,
    file: &str,
) -> Result<Vec<f32>, GltfError> {
    let targets = mesh
        .primitives()
        .next()
        .map_or(0, |p| p.morph_targets().len());
    let weights = mesh.weights().map(<[f32]>::to_vec);
    let expected = weights.as_ref().map_or(targets, Vec::len);
    for prim in mesh.primitives() {
        let found = prim.morph_targets().len();
        if found != expected {
            return Err(GltfError::Primitive {
                file: file.to_owned(),
                mesh: name.clone(),
                primitive: prim.index(),
                problem: PrimitiveProblem::MorphTargetCount { found, expected },
            });
        }
    }
    // A weight too large for f32 reads as 0 rather than failing the load.
    Ok(weights.map_or_else(
        || vec![0.0; targets],
        |w| {
            w.into_iter()
                .map(|w| if w.is_finite() { w } else { 0.0 })
                .collect()
        },
    ))
}

/// What every primitive of a load shares.
struct PrimitiveContext<'a, 'b> {
    buffers: &'a Buffers<'b>,
    materials: &'a [Material],
    file: &'a str,
    /// The file uses `KHR_mesh_quantization`: 8- and 16-bit integer attributes are allowed.
    quantized: bool,
}

fn import_primitive(
    prim: &gltf::Primitive<'_>,
    mesh: &ElementName,
    context: &PrimitiveContext<'_, '_>,
    warnings: &mut Vec<String>,
) -> Result<Option<Primitive>, GltfError> {
    let PrimitiveContext {
        buffers,
        materials,
        file,
        quantized,
    } = *context;
    let here = format!("{mesh} primitive {}", prim.index());
    let mode = prim.mode();
    if !matches!(
        mode,
        Mode::Triangles | Mode::TriangleStrip | Mode::TriangleFan
    ) {
        warn(
            warnings,
            format!("{file}: {here}: mode {mode:?} is not supported (triangles only); skipped"),
        );
        return Ok(None);
    }
    let accessor_error =
        |usage: String, accessor: usize, problem: AccessorProblem| GltfError::Accessor {
            file: file.to_owned(),
            element: here.clone(),
            usage,
            accessor,
            problem,
        };
    let Some(pos_acc) = prim.get(&Semantic::Positions) else {
        return Err(GltfError::Primitive {
            file: file.to_owned(),
            mesh: mesh.clone(),
            primitive: prim.index(),
            problem: PrimitiveProblem::MissingPositions,
        });
    };
    // KHR_mesh_quantization: positions and texture coordinates may be (normalized) 8/16-bit
    // integers, normals and tangents normalized i8/i16.
    let (position_encoding, position_types, direction_encoding, uv_encoding) = if quantized {
        (
            Encoding::Quantized,
            "VEC3 of f32, i8, u8, i16 or u16 (KHR_mesh_quantization)",
            Encoding::Normalized,
            Encoding::Quantized,
        )
    } else {
        (
            Encoding::Float,
            "VEC3 of f32",
            Encoding::Float,
            Encoding::Normalized,
        )
    };
    let positions: Vec<Vec3> =
        read_floats::<3>(&pos_acc, buffers, position_types, position_encoding)
            .map_err(|p| accessor_error("attribute POSITION".into(), pos_acc.index(), p))?
            .into_iter()
            .map(Vec3::from_array)
            .collect();
    let n = positions.len();

    // Reads an optional attribute, checking its count against POSITION.
    macro_rules! attribute {
        ($semantic:expr, $label:literal, $n:literal, $expected:expr, $norm:expr, $map:expr) => {
            match prim.get(&$semantic) {
                None => None,
                Some(acc) => {
                    let err =
                        |p| accessor_error(concat!("attribute ", $label).into(), acc.index(), p);
                    let values = read_floats::<$n>(&acc, buffers, $expected, $norm).map_err(err)?;
                    if values.len() != n {
                        return Err(err(AccessorProblem::CountMismatch {
                            found: values.len(),
                            expected: n,
                        }));
                    }
                    Some(values.into_iter().map($map).collect::<Vec<_>>())
                }
            }
        };
    }
    let normals = attribute!(
        Semantic::Normals,
        "NORMAL",
        3,
        "VEC3 of f32 (or normalized i8/i16 with KHR_mesh_quantization)",
        direction_encoding,
        |n: [f32; 3]| if quantized {
            Vec3::from_array(n).normalize_or(Vec3::Z)
        } else {
            Vec3::from_array(n)
        }
    );
    let tangents = attribute!(
        Semantic::Tangents,
        "TANGENT",
        4,
        "VEC4 of f32 (or normalized i8/i16 with KHR_mesh_quantization)",
        direction_encoding,
        Vec4::from_array
    );
    const UV_TYPES: &str = "VEC2 of f32, normalized u8 or normalized u16 (any 8/16-bit integer with KHR_mesh_quantization)";
    let mut tex_coords_0 = attribute!(
        Semantic::TexCoords(0),
        "TEXCOORD_0",
        2,
        UV_TYPES,
        uv_encoding,
        Vec2::from_array
    );
    let mut tex_coords_1 = attribute!(
        Semantic::TexCoords(1),
        "TEXCOORD_1",
        2,
        UV_TYPES,
        uv_encoding,
        Vec2::from_array
    );
    let colors = match prim.get(&Semantic::Colors(0)) {
        Some(acc) if acc.dimensions() == gltf::accessor::Dimensions::Vec3 => {
            attribute!(
                Semantic::Colors(0),
                "COLOR_0",
                3,
                "VEC3/VEC4 of f32, normalized u8 or normalized u16",
                Encoding::Normalized,
                |c: [f32; 3]| Vec3::from_array(c).extend(1.0)
            )
        }
        _ => attribute!(
            Semantic::Colors(0),
            "COLOR_0",
            4,
            "VEC3/VEC4 of f32, normalized u8 or normalized u16",
            Encoding::Normalized,
            Vec4::from_array
        ),
    };
    let mut influences = read_influences(prim, buffers, n, &mut |message| {
        warn(warnings, format!("{file}: {here}: {message}"));
    })
    .map_err(|(usage, accessor, problem)| accessor_error(usage, accessor, problem))?;
    let mut morph_targets = read_morph_targets(prim, buffers, n, quantized)
        .map_err(|(usage, accessor, problem)| accessor_error(usage, accessor, problem))?;
    for (semantic, _) in prim.attributes() {
        if matches!(semantic, Semantic::TexCoords(2..) | Semantic::Colors(1..)) {
            warn(
                warnings,
                format!("{file}: {here}: attribute {semantic:?} is ignored"),
            );
        }
    }

    let raw_indices = match prim.indices() {
        Some(acc) => {
            let indices = read_indices(&acc, buffers)
                .map_err(|p| accessor_error("indices".into(), acc.index(), p))?;
            if let Some((position, &value)) =
                indices.iter().enumerate().find(|(_, i)| **i as usize >= n)
            {
                return Err(accessor_error(
                    "indices".into(),
                    acc.index(),
                    AccessorProblem::IndexOutOfRange {
                        value,
                        position,
                        vertex_count: n,
                    },
                ));
            }
            indices
        }
        // n came from a bounds-checked accessor, so it fits in u32 for any real buffer.
        None => (0..u32::try_from(n).unwrap_or(u32::MAX)).collect(),
    };
    let too_large = |(needed, remaining)| GltfError::Primitive {
        file: file.to_owned(),
        mesh: mesh.clone(),
        primitive: prim.index(),
        problem: PrimitiveProblem::TooLarge { needed, remaining },
    };
    // Strips and fans triple their index count.
    if mode != Mode::Triangles {
        buffers
            .charge(raw_indices.len() as u64 * 12)
            .map_err(too_large)?;
    }
    let (mut indices, dropped) = triangulate(mode, &raw_indices);
    if dropped > 0 {
        warn(
            warnings,
            format!("{file}: {here}: {dropped} trailing indices do not make a triangle; ignored"),
        );
    }

    let material = prim.material().index().map(MaterialIndex);
    let mut positions = positions;
    let mut tangents = tangents;
    let mut colors = colors;
    let normals_generated = normals.is_none();
    let normals = match normals {
        Some(normals) => normals,
        None => {
            // Flat normals: every triangle gets its own three vertices (at most 64 bytes each:
            // position, normal, two UV sets, colour, tangent; 24 more for joint influences
            // and 36 per morph target).
            let per_vertex = 64 + 24 + 36 * morph_targets.len() as u64;
            buffers
                .charge((indices.len() as u64).saturating_mul(per_vertex))
                .map_err(too_large)?;
            positions = unweld(&positions, &indices);
            tex_coords_0 = tex_coords_0.map(|v| unweld(&v, &indices));
            tex_coords_1 = tex_coords_1.map(|v| unweld(&v, &indices));
            colors = colors.map(|v| unweld(&v, &indices));
            tangents = tangents.map(|v| unweld(&v, &indices));
            influences = influences.map(|v| v.unweld(&indices));
            morph_targets = morph_targets.iter().map(|t| t.unweld(&indices)).collect();
            indices = (0..u32::try_from(positions.len()).unwrap_or(u32::MAX)).collect();
            flat_normals(&positions)
        }
    };

    let mut tangents_generated = false;
    if tangents.is_none() {
        let normal_texture = material
            .and_then(|m| materials.get(m.0))
            .and_then(|m| m.normal_texture.as_ref());
        if let Some(texture) = normal_texture {
            let uvs = match texture.tex_coord {
                0 => tex_coords_0.as_deref(),
                _ => tex_coords_1.as_deref(),
            };
            match uvs {
                Some(uvs) => {
                    tangents = Some(generate_tangents(&positions, &normals, uvs, &indices));
                    tangents_generated = true;
                }
                None => warn(
                    warnings,
                    format!(
                        "{file}: {here}: the material's normal texture uses TEXCOORD_{} but the primitive has none; no tangents",
                        texture.tex_coord
                    ),
                ),
            }
        }
    }

    Ok(Some(Primitive {
        source_index: prim.index(),
        bounds: Aabb::from_points(&positions),
        positions,
        normals,
        tangents,
        tex_coords_0,
        tex_coords_1,
        colors,
        indices,
        material,
        normals_generated,
        tangents_generated,
        influences,
        morph_targets,
    }))
}

fn warn(warnings: &mut Vec<String>, message: String) {
    log::warn!("{message}");
    warnings.push(message);
}

/// Converts strip and fan indices to a triangle list (glTF spec 3.7.2.1 orders); returns the
/// list and how many trailing indices of a `Triangles` list were dropped.
fn triangulate(mode: Mode, indices: &[u32]) -> (Vec<u32>, usize) {
    match mode {
        Mode::TriangleStrip => {
            let tris = indices.len().saturating_sub(2);
            let mut out = Vec::with_capacity(tris * 3);
            for i in 0..tris {
                // p_i = {v_i, v_{i+(1+i%2)}, v_{i+(2-i%2)}} keeps the winding of every triangle.
                out.extend_from_slice(&[
                    indices[i],
                    indices[i + 1 + i % 2],
                    indices[i + 2 - i % 2],
                ]);
            }
            (out, 0)
        }
        Mode::TriangleFan => {
            let tris = indices.len().saturating_sub(2);
            let mut out = Vec::with_capacity(tris * 3);
            for i in 0..tris {
                // p_i = {v_{i+1}, v_{i+2}, v_0}
                out.extend_from_slice(&[indices[i + 1], indices[i + 2], indices[0]]);
            }
            (out, 0)
        }
        _ => {
            let whole = indices.len() / 3 * 3;
            (indices[..whole].to_vec(), indices.len() - whole)
        }
    }
}

fn unweld<T: Copy>(values: &[T], indices: &[u32]) -> Vec<T> {
    indices.iter().map(|&i| values[i as usize]).collect()
}

/// One normal per triangle of an unwelded triangle list; degenerate triangles get +Z.
fn flat_normals(positions: &[Vec3]) -> Vec<Vec3> {
    let mut normals = Vec::with_capacity(positions.len());
    for tri in positions.chunks_exact(3) {
        let n = (tri[1] - tri[0])
            .cross(tri[2] - tri[0])
            .normalize_or(Vec3::Z);
        normals.extend_from_slice(&[n, n, n]);
    }
    normals
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_and_fans_become_lists_with_the_spec_winding() {
        assert_eq!(
            triangulate(Mode::TriangleStrip, &[0, 1, 2, 3, 4]).0,
            vec![0, 1, 2, 1, 3, 2, 2, 3, 4]
        );
        assert_eq!(
            triangulate(Mode::TriangleFan, &[0, 1, 2, 3]).0,
            vec![1, 2, 0, 2, 3, 0]
        );
        assert_eq!(
            triangulate(Mode::Triangles, &[0, 1, 2, 3]),
            (vec![0, 1, 2], 1)
        );
        assert!(triangulate(Mode::TriangleStrip, &[0, 1]).0.is_empty());
    }

    #[test]
    fn flat_normals_follow_counter_clockwise_winding() {
        let n = flat_normals(&[Vec3::ZERO, Vec3::X, Vec3::Y]);
        assert_eq!(n, vec![Vec3::Z; 3]);
        assert_eq!(
            flat_normals(&[Vec3::ZERO, Vec3::X, Vec3::X * 2.0])[0],
            Vec3::Z
        );
    }
}
