//! Test models about node hierarchies, animation, cameras and lights.

use std::io;
use std::path::{Path, PathBuf};

use glam::{Mat4, Quat, Vec3};
use serde_json::json;

use super::builder::{Builder, Storage, cube};

fn cube_mesh(b: &mut Builder, name: &str) -> serde_json::Value {
    let (p, n, uv, idx) = cube();
    let pos = b.floats("VEC3", &p);
    let nor = b.floats("VEC3", &n);
    let tex = b.floats("VEC2", &uv);
    let ind = b.indices(&idx);
    json!({"name": name, "primitives": [{"attributes": {"POSITION": pos, "NORMAL": nor, "TEXCOORD_0": tex}, "indices": ind}]})
}

/// The matrix of node `"ChildMatrix"` in [`hierarchy`]: T(2, 0, 0) * R(90° about +Z) * S(1, 2, 1).
#[must_use]
pub fn hierarchy_child_matrix() -> Mat4 {
    Mat4::from_scale_rotation_translation(
        Vec3::new(1.0, 2.0, 1.0),
        Quat::from_rotation_z(std::f32::consts::FRAC_PI_2),
        Vec3::new(2.0, 0.0, 0.0),
    )
}

/// (b) A hierarchy with `matrix` nodes, cube mesh `"Cube"` in an external `.bin`:
///
/// | node | name | transform | parent | mesh |
/// | --- | --- | --- | --- | --- |
/// | 0 | `Root` | translation (0, 1, 0) | none | none |
/// | 1 | `ChildMatrix` | matrix [`hierarchy_child_matrix`] | 0 | 0 |
/// | 2 | `GrandchildMatrix` | matrix T(0, 0, -1) * S(0.5) | 1 | 0 |
/// | 3 | `ChildTrs` | rotation 90° about +Y | 0 | none |
/// | 4 | `SecondRoot` | scale (3, 3, 3) | none | 0 |
///
/// Scenes: 0 `"Main"` with roots `[0, 4]`, 1 `"Other"` with root `[4]`; `scene` is 1.
pub fn hierarchy(dir: &Path) -> io::Result<PathBuf> {
    let mut b = Builder::new();
    let mesh = cube_mesh(&mut b, "Cube");
    let grandchild =
        Mat4::from_translation(Vec3::new(0.0, 0.0, -1.0)) * Mat4::from_scale(Vec3::splat(0.5));
    let doc = json!({
        "scene": 1,
        "scenes": [{"name": "Main", "nodes": [0, 4]}, {"name": "Other", "nodes": [4]}],
        "nodes": [
            {"name": "Root", "translation": [0.0, 1.0, 0.0], "children": [1, 3]},
            {"name": "ChildMatrix", "matrix": hierarchy_child_matrix().to_cols_array(), "mesh": 0, "children": [2]},
            {"name": "GrandchildMatrix", "matrix": grandchild.to_cols_array(), "mesh": 0},
            {"name": "ChildTrs", "rotation": Quat::from_rotation_y(std::f32::consts::FRAC_PI_2).to_array()},
            {"name": "SecondRoot", "scale": [3.0, 3.0, 3.0], "mesh": 0},
        ],
        "meshes": [mesh],
    });
    b.write(dir, "hierarchy", doc, Storage::ExternalBin)
}

/// (f) Node 0 `"Mover"` (cube) and node 1 `"Spline"`, animation 0 `"Move"`:
///
/// | channel | node | path | interpolation | times | values |
/// | --- | --- | --- | --- | --- | --- |
/// | 0 | 0 | translation | LINEAR | 0, 1, 2 | (0,0,0), (1,0,0), (1,2,0) |
/// | 1 | 0 | rotation | LINEAR | 0, 2 | identity, 90° about +Y |
/// | 2 | 0 | scale | STEP | 0, 1 | (1,1,1), (2,2,2) |
/// | 3 | 1 | translation | CUBICSPLINE | 0, 2 | key 0: value 0, out-tangent (1,0,0); key 1: value (1,0,0), tangents 0 |
/// | 4 | 0 | weights | LINEAR | 0, 2 | 0, 1 (skipped by the importer with a warning: the cube has no morph targets) |
///
/// Channel 3 at t = 1 is (0.75, 0, 0) (Hermite, see the glTF spec appendix).
pub fn animated(dir: &Path) -> io::Result<PathBuf> {
    let mut b = Builder::new();
    let mesh = cube_mesh(&mut b, "Cube");
    let t3 = b.floats("SCALAR", &[0.0, 1.0, 2.0]);
    let t2 = b.floats("SCALAR", &[0.0, 2.0]);
    let t01 = b.floats("SCALAR", &[0.0, 1.0]);
    let translations = b.floats("VEC3", &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 2.0, 0.0]);
    let quarter = Quat::from_rotation_y(std::f32::consts::FRAC_PI_2);
    let rotations = b.floats(
        "VEC4",
        &[
            0.0, 0.0, 0.0, 1.0, quarter.x, quarter.y, quarter.z, quarter.w,
        ],
    );
    let scales = b.floats("VEC3", &[1.0, 1.0, 1.0, 2.0, 2.0, 2.0]);
    #[rustfmt::skip]
    let spline = b.floats("VEC3", &[
        0.0, 0.0, 0.0,  0.0, 0.0, 0.0,  1.0, 0.0, 0.0,
        0.0, 0.0, 0.0,  1.0, 0.0, 0.0,  0.0, 0.0, 0.0,
    ]);
    let weights = b.floats("SCALAR", &[0.0, 1.0]);
    let doc = json!({
        "scenes": [{"nodes": [0, 1]}],
        "nodes": [{"name": "Mover", "mesh": 0}, {"name": "Spline"}],
        "meshes": [mesh],
        "animations": [{
            "name": "Move",
            "samplers": [
                {"input": t3, "output": translations, "interpolation": "LINEAR"},
                {"input": t2, "output": rotations, "interpolation": "LINEAR"},
                {"input": t01, "output": scales, "interpolation": "STEP"},
                {"input": t2, "output": spline, "interpolation": "CUBICSPLINE"},
                {"input": t2, "output": weights},
            ],
            "channels": [
                {"sampler": 0, "target": {"node": 0, "path": "translation"}},
                {"sampler": 1, "target": {"node": 0, "path": "rotation"}},
                {"sampler": 2, "target": {"node": 0, "path": "scale"}},
                {"sampler": 3, "target": {"node": 1, "path": "translation"}},
                {"sampler": 4, "target": {"node": 0, "path": "weights"}},
            ],
        }],
    });
    b.write(dir, "animated", doc, Storage::Embedded)
}

/// (g) Cameras and KHR_lights_punctual lights, no buffers, and **no `scenes`** (the importer
/// makes one implicit scene of the six root nodes).
///
/// Cameras: 0 `"Persp"` perspective yfov 0.8, aspect 1.5, znear 0.1, zfar 100; 1 `"Infinite"`
/// perspective yfov 1.0, znear 0.05, no aspect, no zfar; 2 `"Ortho"` orthographic xmag 2,
/// ymag 1, znear 0.01, zfar 50. Lights: 0 `"Sun"` directional colour (1, 0.9, 0.8) intensity 3;
/// 1 `"Bulb"` point colour (1, 0, 0) intensity 20 range 10; 2 `"Torch"` spot intensity 50,
/// cones 0.2 / 0.6. Nodes 0-2 hold the cameras, 3-5 the lights (same order).
/// `extensionsUsed` also lists `"EXT_made_up"`, which the importer reports as a warning.
pub fn cameras_and_lights(dir: &Path) -> io::Result<PathBuf> {
    let b = Builder::new();
    let doc = json!({
        "extensionsUsed": ["KHR_lights_punctual", "EXT_made_up"],
        "extensions": {"KHR_lights_punctual": {"lights": [
            {"name": "Sun", "type": "directional", "color": [1.0, 0.9, 0.8], "intensity": 3.0},
            {"name": "Bulb", "type": "point", "color": [1.0, 0.0, 0.0], "intensity": 20.0, "range": 10.0},
            {"name": "Torch", "type": "spot", "intensity": 50.0, "spot": {"innerConeAngle": 0.2, "outerConeAngle": 0.6}},
        ]}},
        "cameras": [
            {"name": "Persp", "type": "perspective", "perspective": {"yfov": 0.8, "aspectRatio": 1.5, "znear": 0.1, "zfar": 100.0}},
            {"name": "Infinite", "type": "perspective", "perspective": {"yfov": 1.0, "znear": 0.05}},
            {"name": "Ortho", "type": "orthographic", "orthographic": {"xmag": 2.0, "ymag": 1.0, "znear": 0.01, "zfar": 50.0}},
        ],
        "nodes": [
            {"name": "PerspNode", "camera": 0, "translation": [0.0, 1.0, 5.0]},
            {"name": "InfiniteNode", "camera": 1},
            {"name": "OrthoNode", "camera": 2},
            {"name": "SunNode", "extensions": {"KHR_lights_punctual": {"light": 0}}},
            {"name": "BulbNode", "extensions": {"KHR_lights_punctual": {"light": 1}}},
            {"name": "TorchNode", "extensions": {"KHR_lights_punctual": {"light": 2}}},
        ],
    });
    b.write(dir, "cameras_and_lights", doc, Storage::Embedded)
}

/// The node count of the load-time target scene: `many_nodes(dir, MANY_NODES_DEFAULT)`.
pub const MANY_NODES_DEFAULT: usize = 10_000;

/// (i) `count` nodes (at least 1) sharing one cube mesh, for load-time measurements: node 0
/// `"Node0"` is the only root and node `i > 0` is a child of node `(i - 1) / 10` (so 10,000
/// nodes nest five levels deep). Each node is translated by (i % 7, i % 5, i % 3) * 0.1 and
/// rotated 0.01 * i radians about +Y. External `.bin`; one scene.
pub fn many_nodes(dir: &Path, count: usize) -> io::Result<PathBuf> {
    let mut b = Builder::new();
    let mesh = cube_mesh(&mut b, "Cube");
    let count = count.max(1);
    let nodes: Vec<serde_json::Value> = (0..count)
        .map(|i| {
            let children: Vec<usize> = (10 * i + 1..=10 * i + 10).filter(|&c| c < count).collect();
            let t = [
                (i % 7) as f32 * 0.1,
                (i % 5) as f32 * 0.1,
                (i % 3) as f32 * 0.1,
            ];
            let mut node = json!({
                "name": format!("Node{i}"), "mesh": 0, "translation": t,
                "rotation": Quat::from_rotation_y(0.01 * i as f32).to_array(),
            });
            if !children.is_empty() {
                node["children"] = json!(children);
            }
            node
        })
        .collect();
    let doc = json!({"scene": 0, "scenes": [{"name": "Many", "nodes": [0]}], "nodes": nodes, "meshes": [mesh]});
    b.write(
        dir,
        &format!("many_nodes_{count}"),
        doc,
        Storage::ExternalBin,
    )
}

/// Two cubes side by side, embedded `.gltf` `mirrored_nodes.gltf` (one mesh, `"Cube"`):
///
/// | node | name | transform | mesh |
/// | --- | --- | --- | --- |
/// | 0 | `Left` | translation (-1.5, 0, 0), scale (-1, 1, 1): a mirror | 0 |
/// | 1 | `Right` | translation (1.5, 0, 0) | 0 |
///
/// A cube is symmetric under the mirror, so a viewer that keeps the
/// mirrored node's faces facing out draws `Left` as it draws an unmirrored
/// cube at (-1.5, 0, 0); one that does not draws it inside out.
pub fn mirrored_nodes(dir: &Path) -> io::Result<PathBuf> {
    let mut b = Builder::new();
    let mesh = cube_mesh(&mut b, "Cube");
    let doc = json!({
        "scenes": [{"nodes": [0, 1]}],
        "nodes": [
            {"name": "Left", "translation": [-1.5, 0.0, 0.0], "scale": [-1.0, 1.0, 1.0], "mesh": 0},
            {"name": "Right", "translation": [1.5, 0.0, 0.0], "mesh": 0},
        ],
        "meshes": [mesh],
    });
    b.write(dir, "mirrored_nodes", doc, Storage::Embedded)
}
