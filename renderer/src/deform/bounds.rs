//! Culling bounds of a deformed mesh that follow its skeleton: per joint,
//! the box (in bind space) of the vertices it moves, placed each frame by
//! that joint's matrix; the union holds every skinned vertex, because a
//! skinned vertex is a weighted average of its joints' placements. Morph
//! targets widen each box by how far the weighted targets can push a vertex.

use glam::{Mat3, Mat4, Vec3};

use super::DeformableMeshData;

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DeformBounds {
    /// Per joint, the bind-space box `(min, max)` of the vertices it
    /// influences with a non-zero weight.
    joint_boxes: Vec<Option<(Vec3, Vec3)>>,
    /// The bind-pose bounds.
    base: (Vec3, Vec3),
    /// Per morph target, the longest position displacement.
    reaches: Vec<f32>,
}

impl DeformBounds {
    pub(crate) fn new(data: &DeformableMeshData) -> Self {
        let mut joint_boxes: Vec<Option<(Vec3, Vec3)>> = vec![None; data.joints_needed()];
        if let Some(influences) = data.influences() {
            let pairs = influences.joints.iter().zip(influences.weights);
            for (vertex, (j, w)) in data.mesh().vertices().iter().zip(pairs) {
                let p = Vec3::from(vertex.position);
                for k in 0..4 {
                    if w[k] > 0.0
                        && let Some(slot) = joint_boxes.get_mut(usize::from(j[k]))
                    {
                        *slot = Some(slot.map_or((p, p), |(lo, hi)| (lo.min(p), hi.max(p))));
                    }
                }
            }
        }
        Self {
            joint_boxes,
            base: data.mesh().bounds(),
            reaches: data.morph_targets().iter().map(|t| t.reach()).collect(),
        }
    }

    pub(crate) fn base(&self) -> (Vec3, Vec3) {
        self.base
    }

    /// The mesh-space box holding every vertex under `joints` and `weights`.
    pub(crate) fn posed(&self, joints: &[Mat4], weights: &[f32]) -> (Vec3, Vec3) {
        let pad = Vec3::splat(
            self.reaches
                .iter()
                .zip(weights)
                .map(|(reach, w)| reach * w.abs())
                .sum::<f32>(),
        );
        let mut bounds: Option<(Vec3, Vec3)> = None;
        for (index, (lo, hi)) in self
            .joint_boxes
            .iter()
            .enumerate()
            .filter_map(|(i, b)| b.map(|b| (i, b)))
        {
            let m = joints.get(index).copied().unwrap_or(Mat4::IDENTITY);
            let (lo, hi) = (lo - pad, hi + pad);
            let centre = m.transform_point3((lo + hi) * 0.5);
            let linear = Mat3::from_mat4(m);
            let abs = Mat3::from_cols(
                linear.x_axis.abs(),
                linear.y_axis.abs(),
                linear.z_axis.abs(),
            );
            let half = abs * ((hi - lo) * 0.5);
            let placed = (centre - half, centre + half);
            bounds = Some(bounds.map_or(placed, |(a, b)| (a.min(placed.0), b.max(placed.1))));
        }
        let (lo, hi) = bounds.unwrap_or(self.base);
        if bounds.is_none() {
            return (lo - pad, hi + pad);
        }
        if !(lo.is_finite() && hi.is_finite()) {
            // A joint matrix with NaN in it: fall back to "everywhere" rather than cull.
            return (Vec3::splat(-f32::MAX), Vec3::splat(f32::MAX));
        }
        (lo, hi)
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
}
