//! Morph targets: per-primitive attribute displacements, blended by the mesh's weights.

use glam::Vec3;

use crate::accessor::{Buffers, Encoding, read_floats};
use crate::error::AccessorProblem;

/// One morph target of a primitive: displacements added to the base attributes, each scaled
/// by the target's weight (glTF 2.0 3.7.2.2). Every present list has one entry per vertex of
/// the primitive.
#[derive(Debug, Clone, PartialEq)]
pub struct MorphTarget {
    /// POSITION displacements (dequantised when `KHR_mesh_quantization` stores them as
    /// integers).
    pub positions: Option<Vec<Vec3>>,
    /// NORMAL displacements.
    pub normals: Option<Vec<Vec3>>,
    /// TANGENT displacements (xyz only: the bitangent sign is not morphed).
    pub tangents: Option<Vec<Vec3>>,
}

impl MorphTarget {
    /// The target with every list reordered by `indices` (when a primitive is unwelded).
    pub(crate) fn unweld(&self, indices: &[u32]) -> Self {
        let unweld = |v: &Option<Vec<Vec3>>| {
            v.as_ref()
                .map(|v| indices.iter().map(|&i| v[i as usize]).collect())
        };
        Self {
            positions: unweld(&self.positions),
            normals: unweld(&self.normals),
            tangents: unweld(&self.tangents),
        }
    }
}

/// A morph target accessor that failed: `target 1 POSITION`, the accessor and the problem.
pub(crate) type MorphAccessorError = (String, usize, AccessorProblem);

/// Reads a primitive's morph targets, checking each accessor's count against `vertex_count`.
/// `quantized`: the file uses `KHR_mesh_quantization`, which allows (normalized) 8- and 16-bit
/// integer displacements.
pub(crate) fn read_morph_targets(
    prim: &gltf::Primitive<'_>,
    buffers: &Buffers<'_>,
    vertex_count: usize,
    quantized: bool,
) -> Result<Vec<MorphTarget>, MorphAccessorError> {
    let (encoding, expected) = if quantized {
        (
            Encoding::Quantized,
            "VEC3 of f32, i8 or i16 (KHR_mesh_quantization)",
        )
    } else {
        (Encoding::Float, "VEC3 of f32")
    };
    let read = |t: usize, label: &str, acc: Option<gltf::Accessor<'_>>| match acc {
        None => Ok(None),
        Some(acc) => {
            let err = |p| (format!("target {t} {label}"), acc.index(), p);
            let values = read_floats::<3>(&acc, buffers, expected, encoding).map_err(err)?;
            if values.len() != vertex_count {
                return Err(err(AccessorProblem::CountMismatch {
                    found: values.len(),
                    expected: vertex_count,
                }));
            }
            Ok(Some(values.into_iter().map(Vec3::from_array).collect()))
        }
    };
    prim.morph_targets()
        .enumerate()
        .map(|(t, target)| {
            Ok(MorphTarget {
                positions: read(t, "POSITION", target.positions())?,
                normals: read(t, "NORMAL", target.normals())?,
                tangents: read(t, "TANGENT", target.tangents())?,
            })
        })
        .collect()
}
