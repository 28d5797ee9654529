//! Test models with skins: a two-bone skin (also mirrored) and a 300-joint skin.

use std::io;
use std::path::{Path, PathBuf};

use glam::{Mat4, Vec3};
use serde_json::json;

use super::builder::{Builder, Integers, Storage};

/// The weights of [`two_bone_skin`]'s six vertices as normalized u8, per vertex
/// `[joint 0, joint 1, 0, 0]`. Rows 1 and 2 do not sum to 255 (1.0), so the importer
/// renormalises them; row 0 sums to exactly 1.
pub const TWO_BONE_WEIGHTS_U8: [[u8; 4]; 6] = [
    [255, 0, 0, 0],
    [255, 0, 0, 0],
    [128, 128, 0, 0],
    [128, 128, 0, 0],
    [0, 250, 0, 0],
    [0, 250, 0, 0],
];

/// The inverse bind matrices of [`two_bone_skin`]: joint 0 at the origin (identity), joint 1
/// one metre up (a translation by (0, -1, 0)).
#[must_use]
pub fn two_bone_inverse_bind_matrices() -> [Mat4; 2] {
    [Mat4::IDENTITY, Mat4::from_translation(Vec3::NEG_Y)]
}

/// A two-bone skinned strip, embedded `.gltf` `two_bone_skin.gltf`:
///
/// | node | name | transform | children | mesh | skin |
/// | --- | --- | --- | --- | --- | --- |
/// | 0 | `Skinned` | identity | none | 0 | 0 |
/// | 1 | `Root` | identity | 2 | none | none |
/// | 2 | `Bone` | translation (0, 1, 0) | none | none | none |
///
/// Skin 0 `"Arm"`: joints `[1, 2]`, skeleton 1, inverse bind matrices
/// [`two_bone_inverse_bind_matrices`]. Mesh 0 `"Strip"`: six vertices at x = ±0.5 and
/// y = 0, 1, 2 (vertex `2k` left, `2k + 1` right), normals +Z, four triangles, u8 `JOINTS_0` all
/// `[0, 1, 0, 0]`, normalized u8 `WEIGHTS_0` [`TWO_BONE_WEIGHTS_U8`].
pub fn two_bone_skin(dir: &Path) -> io::Result<PathBuf> {
    write_two_bone(dir, "two_bone_skin", Vec3::ONE, &[0, 1])
}

/// [`two_bone_skin`] whose scene lists only node 0 `"Skinned"`: its joints
/// (nodes 1 and 2) are in no scene's hierarchy, as in the glTF tutorial's
/// `SimpleSkin`. In `detached_joints_skin.gltf`.
pub fn detached_joints_skin(dir: &Path) -> io::Result<PathBuf> {
    write_two_bone(dir, "detached_joints_skin", Vec3::ONE, &[0])
}

/// [`two_bone_skin`] with node 0 `"Skinned"` scaled by (-1, 1, 1) (a mirror), in
/// `mirrored_skin.gltf`.
pub fn mirrored_skin(dir: &Path) -> io::Result<PathBuf> {
    write_two_bone(dir, "mirrored_skin", Vec3::new(-1.0, 1.0, 1.0), &[0, 1])
}

fn write_two_bone(dir: &Path, name: &str, scale: Vec3, roots: &[usize]) -> io::Result<PathBuf> {
    let mut b = Builder::new();
    let positions: Vec<f32> = (0..6)
        .flat_map(|v| [if v % 2 == 0 { -0.5 } else { 0.5 }, (v / 2) as f32, 0.0])
        .collect();
    let pos = b.floats("VEC3", &positions);
    let nor = b.floats("VEC3", &[0.0, 0.0, 1.0].repeat(6));
    let indices = b.indices(&[0, 1, 3, 0, 3, 2, 2, 3, 5, 2, 5, 4]);
    let joints: Vec<u8> = [0u8, 1, 0, 0].repeat(6);
    let joints = b.integers(Integers {
        ty: "VEC4",
        component_type: 5121,
        normalized: false,
        bytes: &joints,
        count: 6,
        stride: None,
        min_max: None,
    });
    let weights: Vec<u8> = TWO_BONE_WEIGHTS_U8.concat();
    let weights = b.integers(Integers {
        ty: "VEC4",
        component_type: 5121,
        normalized: true,
        bytes: &weights,
        count: 6,
        stride: None,
        min_max: None,
    });
    let ibms: Vec<f32> = two_bone_inverse_bind_matrices()
        .iter()
        .flat_map(Mat4::to_cols_array)
        .collect();
    let ibms = b.floats("MAT4", &ibms);
    let doc = json!({
        "scenes": [{"nodes": roots}],
        "nodes": [
            {"name": "Skinned", "mesh": 0, "skin": 0, "scale": scale.to_array()},
            {"name": "Root", "children": [2]},
            {"name": "Bone", "translation": [0.0, 1.0, 0.0]},
        ],
        "skins": [{"name": "Arm", "joints": [1, 2], "skeleton": 1, "inverseBindMatrices": ibms}],
        "meshes": [{"name": "Strip", "primitives": [{
            "attributes": {"POSITION": pos, "NORMAL": nor, "JOINTS_0": joints, "WEIGHTS_0": weights},
            "indices": indices,
        }]}],
    });
    b.write(dir, name, doc, Storage::Embedded)
}

/// How many joints [`many_joints_skin`] has.
pub const MANY_JOINTS: usize = 300;

/// A skin of [`MANY_JOINTS`] joints, embedded `.gltf` `many_joints_skin.gltf`: node 0
/// `"Skinned"` (mesh 0, skin 0), nodes `1..=300` named `Joint{i}` (roots, translation
/// (i, 0, 0) for joint i). Skin 0 has joints `[1, ..., 300]` and **no** inverse bind
/// matrices (so identities). Mesh 0: 300 vertices, not indexed (100 triangles), no normals;
/// vertex `i` at (i / 100, i % 3, 0) has u16 `JOINTS_0` `[i, 0, 0, 0]` and float `WEIGHTS_0`
/// (1, 0, 0, 0).
pub fn many_joints_skin(dir: &Path) -> io::Result<PathBuf> {
    let mut b = Builder::new();
    let positions: Vec<f32> = (0..MANY_JOINTS)
        .flat_map(|i| [i as f32 / 100.0, (i % 3) as f32, 0.0])
        .collect();
    let pos = b.floats("VEC3", &positions);
    let joints: Vec<u8> = (0..MANY_JOINTS as u16)
        .flat_map(|i| [i, 0, 0, 0])
        .flat_map(u16::to_le_bytes)
        .collect();
    let joints = b.integers(Integers {
        ty: "VEC4",
        component_type: 5123,
        normalized: false,
        bytes: &joints,
        count: MANY_JOINTS,
        stride: None,
        min_max: None,
    });
    let weights = b.floats("VEC4", &[1.0, 0.0, 0.0, 0.0].repeat(MANY_JOINTS));
    let mut nodes = vec![json!({"name": "Skinned", "mesh": 0, "skin": 0})];
    nodes.extend(
        (0..MANY_JOINTS)
            .map(|i| json!({"name": format!("Joint{i}"), "translation": [i as f32, 0.0, 0.0]})),
    );
    let roots: Vec<usize> = (0..=MANY_JOINTS).collect();
    let doc = json!({
        "scenes": [{"nodes": roots}],
        "nodes": nodes,
        "skins": [{"name": "Many", "joints": (1..=MANY_JOINTS).collect::<Vec<_>>()}],
        "meshes": [{"name": "Fan", "primitives": [{
            "attributes": {"POSITION": pos, "JOINTS_0": joints, "WEIGHTS_0": weights},
        }]}],
    });
    b.write(dir, "many_joints_skin", doc, Storage::Embedded)
}
