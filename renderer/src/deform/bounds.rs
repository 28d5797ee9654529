//! Culling bounds of a deformed mesh that follow its skeleton: per joint,
//! the box (in bind space) of the vertices it moves, placed each frame by
//! that joint's matrix; the union holds every skinned vertex, because a
//! skinned vertex is a weighted average of its joints' placements. Morph
//! targets widen each box by how far the weighted targets can push a vertex.

use glam::{Mat4, Vec3, Vec4};

use super::DeformableMeshData;

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DeformBounds {
    /// The bind-space box of the vertices each joint influences with a
    /// non-zero weight, for the joints that influence any.
    joint_boxes: Vec<JointBox>,
    /// The bind-pose bounds.
    base: (Vec3, Vec3),
    /// Per morph target, the longest position displacement.
    reaches: Vec<f32>,
}

/// One joint's bind-space box, as its centre and half extent (what placing
/// it reads).
#[derive(Debug, Clone, Copy, PartialEq)]
struct JointBox {
    joint: usize,
    /// The centre, `w` = 1.
    centre: Vec4,
    half: Vec3,
}

impl DeformBounds {
    pub(crate) fn new(data: &DeformableMeshData) -> Self {
        let mut boxes: Vec<Option<(Vec3, Vec3)>> = vec![None; data.joints_needed()];
        if let Some(influences) = data.influences() {
            let pairs = influences.joints.iter().zip(influences.weights);
            for (vertex, (j, w)) in data.mesh().vertices().iter().zip(pairs) {
                let p = Vec3::from(vertex.position);
                for k in 0..4 {
                    if w[k] > 0.0
                        && let Some(slot) = boxes.get_mut(usize::from(j[k]))
                    {
                        *slot = Some(slot.map_or((p, p), |(lo, hi)| (lo.min(p), hi.max(p))));
                    }
                }
            }
        }
        let joint_boxes = boxes
            .iter()
            .enumerate()
            .filter_map(|(joint, b)| {
                b.map(|(lo, hi)| JointBox {
                    joint,
                    centre: ((lo + hi) * 0.5).extend(1.0),
                    half: (hi - lo) * 0.5,
                })
            })
            .collect();
        Self {
            joint_boxes,
            base: data.mesh().bounds(),
            reaches: data.morph_targets().iter().map(|t| t.reach()).collect(),
        }
    }

    pub(crate) fn base(&self) -> (Vec3, Vec3) {
        self.base
    }

    /// The mesh-space box holding every vertex under `joints` and `weights`:
    /// each joint's box placed by its matrix (its centre transformed, its
    /// half extent by the matrix's absolute values), all of them joined.
    pub(crate) fn posed(&self, joints: &[Mat4], weights: &[f32]) -> (Vec3, Vec3) {
        let pad = Vec3::splat(
            self.reaches
                .iter()
                .zip(weights)
                .map(|(reach, w)| reach * w.abs())
                .sum::<f32>(),
        );
        if self.joint_boxes.is_empty() {
            return (self.base.0 - pad, self.base.1 + pad);
        }
        let mut lo = Vec4::splat(f32::INFINITY);
        let mut hi = Vec4::splat(f32::NEG_INFINITY);
        let mut finite = true;
        for b in &self.joint_boxes {
            let m = joints.get(b.joint).unwrap_or(&Mat4::IDENTITY);
            let centre = *m * b.centre;
            let half = b.half + pad;
            let extent =
                m.x_axis.abs() * half.x + m.y_axis.abs() * half.y + m.z_axis.abs() * half.z;
            let (a, z) = (centre - extent, centre + extent);
            // `min` and `max` may drop a NaN; this keeps it.
            finite &= a.is_finite() && z.is_finite();
            lo = lo.min(a);
            hi = hi.max(z);
        }
        if !finite {
            // A joint matrix with NaN in it: fall back to "everywhere" rather than cull.
            return (Vec3::splat(-f32::MAX), Vec3::splat(f32::MAX));
        }
        (lo.truncate(), hi.truncate())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deform::{MorphTargetData, deform_vertices};
    use crate::resources::MeshData;

    #[test]
    fn posed_bounds_hold_every_deformed_vertex() {
        let mesh = MeshData::sphere(1.0, 12, 8);
        let n = mesh.vertices().len();
        let joints: Vec<[u16; 4]> = (0..n)
            .map(|v| [(v % 3) as u16, ((v + 1) % 3) as u16, 0, 0])
            .collect();
        let weights: Vec<[f32; 4]> = (0..n)
            .map(|v| {
                let a = (v % 5) as f32 / 4.0;
                [a, 1.0 - a, 0.0, 0.0]
            })
            .collect();
        let lift = MorphTargetData {
            positions: (0..n)
                .map(|v| Vec3::new(0.0, (v % 7) as f32 * 0.1, 0.0))
                .collect(),
            ..MorphTargetData::default()
        };
        let data = DeformableMeshData::new(mesh)
            .with_skin(joints, weights)
            .unwrap()
            .with_morph_target(lift)
            .unwrap();
        let bounds = DeformBounds::new(&data);
        let poses = [
            Mat4::from_rotation_z(1.2) * Mat4::from_translation(Vec3::X * 2.0),
            Mat4::from_scale(Vec3::new(2.0, 0.5, 1.0)),
            Mat4::from_rotation_y(-0.7) * Mat4::from_translation(Vec3::new(0.0, 3.0, -1.0)),
        ];
        let morph = [-1.5];
        let (lo, hi) = bounds.posed(&poses, &morph);
        let mut out = Vec::new();
        deform_vertices(&data, &poses, &morph, &mut out);
        for v in &out {
            let p = Vec3::from(v.position);
            assert!(
                p.cmpge(lo - 1e-4).all() && p.cmple(hi + 1e-4).all(),
                "{p} outside {lo}..{hi}"
            );
        }
    }

    #[test]
    fn a_nan_joint_matrix_bounds_everything() {
        let mesh = MeshData::sphere(1.0, 12, 8);
        let n = mesh.vertices().len();
        let data = DeformableMeshData::new(mesh)
            .with_skin(
                (0..n).map(|v| [(v % 2) as u16, 0, 0, 0]).collect(),
                vec![[1.0, 0.0, 0.0, 0.0]; n],
            )
            .unwrap();
        let bounds = DeformBounds::new(&data);
        // NaN in the first joint only: the next joint's `min` and `max` drop it.
        let (lo, hi) = bounds.posed(&[Mat4::NAN, Mat4::IDENTITY], &[]);
        assert_eq!((lo, hi), (Vec3::splat(-f32::MAX), Vec3::splat(f32::MAX)));
    }
}
