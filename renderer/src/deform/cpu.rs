//! Deformation on the CPU: the path for backends without compute shaders
//! or storage buffers (WebGL2), and the reference the GPU path is tested
//! against. It computes exactly what `deform.wgsl` computes.

use glam::{Mat3, Mat4, Vec3, Vec4};

use super::DeformableMeshData;
use crate::resources::Vertex;

/// Writes `data`'s vertices deformed by `joints` (joint matrices, indexed by
/// the vertices' joint indices; a missing joint counts as the identity) and
/// `weights` (morph weights; a missing weight counts as 0) into `out`.
pub fn deform_vertices(
    data: &DeformableMeshData,
    joints: &[Mat4],
    weights: &[f32],
    out: &mut Vec<Vertex>,
) {
    out.clear();
    let base = data.mesh().vertices();
    out.extend_from_slice(base);
    let targets = data.morph_targets();
    for (t, target) in targets.iter().enumerate() {
        let w = weights.get(t).copied().unwrap_or(0.0);
        if w == 0.0 {
            continue;
        }
        for (v, vertex) in out.iter_mut().enumerate() {
            let add = |value: [f32; 3], list: &[Vec3]| {
                list.get(v)
                    .map_or(Vec3::from(value), |d| Vec3::from(value) + w * *d)
                    .to_array()
            };
            vertex.position = add(vertex.position, &target.positions);
            vertex.normal = add(vertex.normal, &target.normals);
            let tangent = add(
                [vertex.tangent[0], vertex.tangent[1], vertex.tangent[2]],
                &target.tangents,
            );
            vertex.tangent = [tangent[0], tangent[1], tangent[2], vertex.tangent[3]];
        }
    }
    let joint = |index: u16| {
        joints
            .get(usize::from(index))
            .copied()
            .unwrap_or(Mat4::IDENTITY)
    };
    let influences = data.influences();
    for (v, vertex) in out.iter_mut().enumerate() {
        let mut normal = Vec3::from(vertex.normal);
        let mut tangent = Vec4::from(vertex.tangent);
        if let Some(influences) = influences {
            let (j, w) = (influences.joints[v], influences.weights[v]);
            let m =
                joint(j[0]) * w[0] + joint(j[1]) * w[1] + joint(j[2]) * w[2] + joint(j[3]) * w[3];
            let linear = Mat3::from_mat4(m);
            let cofactor = Mat3::from_cols(
                linear.y_axis.cross(linear.z_axis),
                linear.z_axis.cross(linear.x_axis),
                linear.x_axis.cross(linear.y_axis),
            );
            let side = if linear.determinant() >= 0.0 {
                1.0
            } else {
                -1.0
            };
            vertex.position = m.transform_point3(Vec3::from(vertex.position)).to_array();
            normal = side * (cofactor * normal);
            tangent = (linear * tangent.truncate()).extend(tangent.w);
        }
        if normal.length_squared() > 1e-20 {
            normal = normal.normalize();
        }
        if tangent.truncate().length_squared() > 1e-20 {
            tangent = tangent.truncate().normalize().extend(tangent.w);
        }
        vertex.normal = normal.to_array();
        vertex.tangent = tangent.to_array();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deform::MorphTargetData;
    use crate::resources::MeshData;

    #[test]
    fn a_half_weighted_vertex_lands_between_its_joints() {
        let cube = MeshData::cube(2.0);
        let n = cube.vertices().len();
        let data = DeformableMeshData::new(cube)
            .with_skin(vec![[0, 1, 0, 0]; n], vec![[0.5, 0.5, 0.0, 0.0]; n])
            .unwrap();
        let joints = [
            Mat4::IDENTITY,
            Mat4::from_translation(Vec3::new(0.0, 4.0, 0.0)),
        ];
        let mut out = Vec::new();
        deform_vertices(&data, &joints, &[], &mut out);
        for (before, after) in data.mesh().vertices().iter().zip(&out) {
            let moved = Vec3::from(after.position) - Vec3::from(before.position);
            assert!((moved - Vec3::new(0.0, 2.0, 0.0)).length() < 1e-6);
            assert_eq!(after.normal, before.normal, "a translation keeps normals");
        }
    }

    #[test]
    fn a_mirroring_joint_keeps_normals_outward() {
        let cube = MeshData::cube(2.0);
        let n = cube.vertices().len();
        let data = DeformableMeshData::new(cube)
            .with_skin(vec![[0; 4]; n], vec![[1.0, 0.0, 0.0, 0.0]; n])
            .unwrap();
        let mirror = Mat4::from_scale(Vec3::new(-1.0, 1.0, 1.0));
        let mut out = Vec::new();
        deform_vertices(&data, &[mirror], &[], &mut out);
        for vertex in &out {
            // On a cube, the outward normal points the way its face's centre lies.
            let p = Vec3::from(vertex.position);
            let n = Vec3::from(vertex.normal);
            assert!(p.dot(n) > 0.0, "normal {n} at {p} points inward");
        }
    }

    #[test]
    fn morph_weights_scale_displacements_and_missing_ones_count_as_zero() {
        let cube = MeshData::cube(2.0);
        let n = cube.vertices().len();
        let up = MorphTargetData {
            positions: vec![Vec3::Y; n],
            ..MorphTargetData::default()
        };
        let right = MorphTargetData {
            positions: vec![Vec3::X; n],
            ..MorphTargetData::default()
        };
        let data = DeformableMeshData::new(cube)
            .with_morph_target(up)
            .unwrap()
            .with_morph_target(right)
            .unwrap();
        let mut out = Vec::new();
        deform_vertices(&data, &[], &[0.25], &mut out);
        let moved = Vec3::from(out[0].position) - Vec3::from(data.mesh().vertices()[0].position);
        assert!((moved - Vec3::new(0.0, 0.25, 0.0)).length() < 1e-6);
    }
}
