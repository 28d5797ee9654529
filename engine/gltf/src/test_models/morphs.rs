//! Test models with morph targets and quantized attributes.

use std::io;
use std::path::{Path, PathBuf};

use serde_json::json;

use super::builder::{Builder, Integers, Storage, quad};

/// A quad with two morph targets and a weights animation, embedded `.gltf`
/// `morph_targets.gltf`. Node 0 `"Morphing"` draws mesh 0 `"Blob"` (the unit quad in XY,
/// four vertices, default `weights` `[0.5, 0.0]`):
///
/// - target 0: POSITION deltas (0, 0, 1) on every vertex;
/// - target 1: POSITION delta (1, 0, 0) on vertex 2 only, NORMAL deltas (0, 0, 0).
///
/// Animation 0 `"Blend"`:
///
/// | channel | path | interpolation | times | outputs (per key: target 0, target 1) |
/// | --- | --- | --- | --- | --- |
/// | 0 | weights | LINEAR | 0, 1 | (0, 0), (1, 0.5) |
/// | 1 | weights | CUBICSPLINE | 0, 2 | key 0: in (0, 0), value (0, 0), out (1, 0); key 1: in (0, 0), value (1, 1), out (0, 0) |
pub fn morph_targets(dir: &Path) -> io::Result<PathBuf> {
    let mut b = Builder::new();
    let (p, n, uv, idx) = quad();
    let pos = b.floats("VEC3", &p);
    let nor = b.floats("VEC3", &n);
    let tex = b.floats("VEC2", &uv);
    let ind = b.indices(&idx);
    let t0 = b.floats("VEC3", &[0.0, 0.0, 1.0].repeat(4));
    let mut d1 = vec![0.0; 12];
    d1[6] = 1.0;
    let t1_pos = b.floats("VEC3", &d1);
    let t1_nor = b.floats("VEC3", &[0.0; 12]);
    let linear_times = b.floats("SCALAR", &[0.0, 1.0]);
    let linear_values = b.floats("SCALAR", &[0.0, 0.0, 1.0, 0.5]);
    let cubic_times = b.floats("SCALAR", &[0.0, 2.0]);
    #[rustfmt::skip]
    let cubic_values = b.floats("SCALAR", &[
        0.0, 0.0, 0.0, 0.0, 1.0, 0.0,
        0.0, 0.0, 1.0, 1.0, 0.0, 0.0,
    ]);
    let doc = json!({
        "scenes": [{"nodes": [0]}],
        "nodes": [{"name": "Morphing", "mesh": 0}],
        "meshes": [{"name": "Blob", "weights": [0.5, 0.0], "primitives": [{
            "attributes": {"POSITION": pos, "NORMAL": nor, "TEXCOORD_0": tex},
            "indices": ind,
            "targets": [{"POSITION": t0}, {"POSITION": t1_pos, "NORMAL": t1_nor}],
        }]}],
        "animations": [{
            "name": "Blend",
            "samplers": [
                {"input": linear_times, "output": linear_values, "interpolation": "LINEAR"},
                {"input": cubic_times, "output": cubic_values, "interpolation": "CUBICSPLINE"},
            ],
            "channels": [
                {"sampler": 0, "target": {"node": 0, "path": "weights"}},
                {"sampler": 1, "target": {"node": 0, "path": "weights"}},
            ],
        }],
    });
    b.write(dir, "morph_targets", doc, Storage::Embedded)
}

/// `KHR_mesh_quantization` (required), embedded `.gltf` `quantized_mesh.gltf`: node 0
/// `"Quantized"` with scale (2, 2, 2) draws a unit quad in XY (corners at ±0.5) whose
/// POSITION is normalized i16 (each coordinate `round(c * 32767)`, dequantised to within
/// 1/32767), NORMAL normalized i16 (0, 0, 32767), TEXCOORD_0 normalized u16; the VEC3
/// attributes sit in views with byteStride 8.
pub fn quantized_mesh(dir: &Path) -> io::Result<PathBuf> {
    let mut b = Builder::new();
    let (p, _, uv, idx) = quad();
    let to_i16 = |c: f32| (c * 32767.0).round() as i16;
    let padded = |values: &[i16]| -> Vec<u8> {
        values
            .chunks_exact(3)
            .flat_map(|v| [v[0], v[1], v[2], 0])
            .flat_map(i16::to_le_bytes)
            .collect()
    };
    let positions: Vec<i16> = p.iter().map(|&c| to_i16(c)).collect();
    // Bounds of a normalized accessor are its raw integer values.
    let min = [-16384.0, -16384.0, 0.0];
    let max = [16384.0, 16384.0, 0.0];
    let pos = b.integers(Integers {
        ty: "VEC3",
        component_type: 5122,
        normalized: true,
        bytes: &padded(&positions),
        count: 4,
        stride: Some(8),
        min_max: Some((min.to_vec(), max.to_vec())),
    });
    let nor = b.integers(Integers {
        ty: "VEC3",
        component_type: 5122,
        normalized: true,
        bytes: &padded(&[0, 0, 32767].repeat(4)),
        count: 4,
        stride: Some(8),
        min_max: None,
    });
    let tex = b.normalized("VEC2", 5123, &uv);
    let ind = b.indices(&idx);
    let doc = json!({
        "extensionsUsed": ["KHR_mesh_quantization"],
        "extensionsRequired": ["KHR_mesh_quantization"],
        "scenes": [{"nodes": [0]}],
        "nodes": [{"name": "Quantized", "mesh": 0, "scale": [2.0, 2.0, 2.0]}],
        "meshes": [{"name": "Quad", "primitives": [{
            "attributes": {"POSITION": pos, "NORMAL": nor, "TEXCOORD_0": tex},
            "indices": ind,
        }]}],
    });
    b.write(dir, "quantized_mesh", doc, Storage::Embedded)
}
