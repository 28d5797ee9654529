//! Per-vertex joint influences of skinned primitives (JOINTS_n / WEIGHTS_n).

use glam::Vec4;

use crate::accessor::{Buffers, Encoding, read_floats, read_joints};
use crate::error::AccessorProblem;

/// Each vertex's four joint influences: indices into the skin's
/// [`joints`](crate::Skin::joints) and their weights.
///
/// Import rules, applied per vertex:
/// - `JOINTS_0`/`WEIGHTS_0` and `JOINTS_1`/`WEIGHTS_1` are read (later sets are ignored with a
///   warning); with two sets, the four influences with the largest weights are kept (ties keep
///   the earlier set and slot), so a vertex always has exactly four.
/// - Negative weights count as 0. Weights are then divided by their sum, so they sum to 1
///   (within float rounding).
/// - A vertex whose weights are all 0 is bound fully to joint 0 of the skin: joints
///   `[0, 0, 0, 0]`, weights `(1, 0, 0, 0)`.
/// - Unused slots have weight 0 and joint 0.
///
/// Every joint index is checked against the joint count of each skin the mesh is drawn with.
#[derive(Debug, Clone, PartialEq)]
pub struct JointInfluences {
    /// Joint indices into the skin's joint list, one `[u16; 4]` per vertex.
    pub joints: Vec<[u16; 4]>,
    /// Weights matching `joints`: non-negative, summing to 1.
    pub weights: Vec<Vec4>,
}

impl JointInfluences {
    /// The largest joint index any vertex uses with a non-zero weight (`None` if no vertex).
    #[must_use]
    pub fn max_joint(&self) -> Option<u16> {
        self.joints
            .iter()
            .zip(&self.weights)
            .flat_map(|(j, w)| (0..4).filter(|&k| w[k] > 0.0).map(move |k| j[k]))
            .max()
    }

    /// The influences reordered by `indices` (when a primitive is unwelded).
    pub(crate) fn unweld(&self, indices: &[u32]) -> Self {
        Self {
            joints: indices.iter().map(|&i| self.joints[i as usize]).collect(),
            weights: indices.iter().map(|&i| self.weights[i as usize]).collect(),
        }
    }
}

/// An influence accessor that failed: `attribute JOINTS_0`, the accessor and the problem.
pub(crate) type InfluenceAccessorError = (String, usize, AccessorProblem);

/// One JOINTS_n/WEIGHTS_n set as read: joint indices and raw weights per vertex.
type InfluenceSet = (Vec<[u16; 4]>, Vec<[f32; 4]>);

/// Reads one set's JOINTS_n and WEIGHTS_n, checking both counts against `vertex_count`.
fn read_set(
    joints: &gltf::Accessor<'_>,
    weights: &gltf::Accessor<'_>,
    set: u32,
    buffers: &Buffers<'_>,
    vertex_count: usize,
) -> Result<InfluenceSet, InfluenceAccessorError> {
    let count_error = |label: &str, acc: &gltf::Accessor<'_>, found: usize| {
        (
            format!("attribute {label}_{set}"),
            acc.index(),
            AccessorProblem::CountMismatch {
                found,
                expected: vertex_count,
            },
        )
    };
    let j = read_joints(joints, buffers)
        .map_err(|p| (format!("attribute JOINTS_{set}"), joints.index(), p))?;
    if j.len() != vertex_count {
        return Err(count_error("JOINTS", joints, j.len()));
    }
    let w = read_floats::<4>(
        weights,
        buffers,
        "VEC4 of f32, normalized u8 or normalized u16",
        Encoding::Normalized,
    )
    .map_err(|p| (format!("attribute WEIGHTS_{set}"), weights.index(), p))?;
    if w.len() != vertex_count {
        return Err(count_error("WEIGHTS", weights, w.len()));
    }
    Ok((j, w))
}

/// Reads the primitive's joint influences from its JOINTS_0/1 and WEIGHTS_0/1 sets (see
/// [`JointInfluences`] for the rules); `None` without a complete set 0. `warn` receives
/// messages about sets that are ignored.
pub(crate) fn read_influences(
    prim: &gltf::Primitive<'_>,
    buffers: &Buffers<'_>,
    vertex_count: usize,
    warn: &mut dyn FnMut(String),
) -> Result<Option<JointInfluences>, InfluenceAccessorError> {
    use gltf::mesh::Semantic;
    let mut sets = Vec::new();
    for set in 0.. {
        let joints = prim.get(&Semantic::Joints(set));
        let weights = prim.get(&Semantic::Weights(set));
        match (joints, weights) {
            (None, None) => break,
            (Some(j), Some(w)) if set < 2 => {
                sets.push(read_set(&j, &w, set, buffers, vertex_count)?);
            }
            (Some(_), Some(_)) => warn(format!(
                "JOINTS_{set}/WEIGHTS_{set} are ignored (at most two sets are imported)"
            )),
            _ => warn(format!(
                "JOINTS_{set} and WEIGHTS_{set} must come together; set {set} is ignored"
            )),
        }
    }
    if sets.is_empty() {
        return Ok(None);
    }
    let mut out = JointInfluences {
        joints: Vec::with_capacity(vertex_count),
        weights: Vec::with_capacity(vertex_count),
    };
    for v in 0..vertex_count {
        let candidates = sets
            .iter()
            .flat_map(|(j, w)| (0..4).map(move |k| (j[v][k], w[v][k])));
        let (joints, weights) = strongest_four(candidates);
        out.joints.push(joints);
        out.weights.push(weights);
    }
    Ok(Some(out))
}

/// Keeps the four largest weights (stable on ties), clamps negatives to 0 and renormalises; all
/// zero binds to joint 0 with weight 1.
fn strongest_four(candidates: impl Iterator<Item = (u16, f32)>) -> ([u16; 4], Vec4) {
    let mut all: Vec<(u16, f32)> = candidates.map(|(j, w)| (j, w.max(0.0))).collect();
    all.sort_by(|a, b| b.1.total_cmp(&a.1));
    let mut joints = [0u16; 4];
    let mut weights = [0.0f32; 4];
    for (slot, &(j, w)) in all.iter().take(4).enumerate() {
        if w > 0.0 {
            joints[slot] = j;
            weights[slot] = w;
        }
    }
    let sum: f32 = weights.iter().sum();
    if sum > 0.0 {
        (joints, Vec4::from_array(weights) / sum)
    } else {
        ([0; 4], Vec4::X)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_are_renormalised_and_zero_binds_to_joint_zero() {
        let (j, w) = strongest_four([(3, 0.5), (4, 0.25), (5, 0.0), (6, 0.0)].into_iter());
        assert_eq!(j, [3, 4, 0, 0]);
        assert!(
            (w - Vec4::new(2.0 / 3.0, 1.0 / 3.0, 0.0, 0.0))
                .abs()
                .max_element()
                < 1e-6
        );
        assert_eq!(
            strongest_four([(7, 0.0), (8, -1.0), (9, 0.0), (1, 0.0)].into_iter()),
            ([0; 4], Vec4::X)
        );
    }

    #[test]
    fn two_sets_fold_to_the_four_largest() {
        let set0 = [(1, 0.1), (2, 0.3), (3, 0.05), (4, 0.05)];
        let set1 = [(5, 0.2), (6, 0.2), (7, 0.05), (8, 0.05)];
        let (j, w) = strongest_four(set0.into_iter().chain(set1));
        assert_eq!(j, [2, 5, 6, 1]);
        assert!((w.element_sum() - 1.0).abs() < 1e-6);
        assert!((w.x - 0.375).abs() < 1e-6);
    }
}
