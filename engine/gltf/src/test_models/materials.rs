//! Test models about materials and textures.

use std::io;
use std::path::{Path, PathBuf};

use serde_json::json;

use super::builder::{Builder, ImageStorage, Storage, cube, jpeg, png, quad};

fn gradient(size: u32, mut f: impl FnMut(u32, u32) -> [u8; 4]) -> image::RgbaImage {
    image::RgbaImage::from_fn(size, size, |x, y| image::Rgba(f(x, y)))
}

fn mesh_json(
    b: &mut Builder,
    (p, n, uv, idx): (Vec<f32>, Vec<f32>, Vec<f32>, Vec<u16>),
    material: usize,
) -> serde_json::Value {
    let pos = b.floats("VEC3", &p);
    let nor = b.floats("VEC3", &n);
    let tex = b.floats("VEC2", &uv);
    let ind = b.indices(&idx);
    json!({"attributes": {"POSITION": pos, "NORMAL": nor, "TEXCOORD_0": tex}, "indices": ind, "material": material})
}

/// (a) A unit cube (24 vertices, no tangents) named `"Box"` on node `"BoxNode"`, with material
/// `"Everything"` using every texture slot, stored as [`Storage::Embedded`] with the images as
/// external files (one JPEG, one with a space in its name). See [`textured_box_with`].
pub fn textured_box(dir: &Path) -> io::Result<PathBuf> {
    textured_box_with(dir, Storage::Embedded)
}

/// (a, h) The textured box with its buffer stored as `storage`; with [`Storage::Glb`] the
/// images are in buffer views, otherwise they are external files next to the model.
///
/// Material `"Everything"`: base colour factor (1, 0.5, 0.25, 1) with image 0 (JPEG, 8x8
/// orange checker), metallic 0.25 / roughness 0.75 with image 1, normal image 2 scale 0.5,
/// occlusion image 3 strength 0.8, emissive factor (1, 1, 0) strength 2 (KHR_materials_emissive_strength)
/// with image 4; all through texture 0..4 with sampler 0 (default wrap, LINEAR / LINEAR_MIPMAP_LINEAR).
pub fn textured_box_with(dir: &Path, storage: Storage) -> io::Result<PathBuf> {
    let mut b = Builder::new();
    let primitive = mesh_json(&mut b, cube(), 0);
    let images = if storage == Storage::Glb {
        ImageStorage::BufferView
    } else {
        ImageStorage::File
    };
    let checker = gradient(8, |x, y| {
        if (x + y) % 2 == 0 {
            [255, 128, 0, 255]
        } else {
            [40, 40, 40, 255]
        }
    });
    b.image(
        "base colour",
        "image/jpeg",
        jpeg(&checker),
        images,
        "box base colour.jpg",
    );
    b.image(
        "metal rough",
        "image/png",
        png(&gradient(4, |x, y| {
            [0, (x * 60) as u8, (y * 60) as u8, 255]
        })),
        images,
        "box_mr.png",
    );
    b.image(
        "normal",
        "image/png",
        png(&gradient(4, |_, _| [128, 128, 255, 255])),
        images,
        "box_normal.png",
    );
    b.image(
        "occlusion",
        "image/png",
        png(&gradient(4, |x, _| [(255 - x * 20) as u8, 0, 0, 255])),
        images,
        "box_ao.png",
    );
    b.image(
        "emissive",
        "image/png",
        png(&gradient(4, |x, y| {
            [(x * 60) as u8, (y * 60) as u8, 0, 255]
        })),
        images,
        "box emissive.png",
    );
    let doc = json!({
        "scene": 0,
        "scenes": [{"name": "BoxScene", "nodes": [0]}],
        "nodes": [{"name": "BoxNode", "mesh": 0}],
        "meshes": [{"name": "Box", "primitives": [primitive]}],
        "extensionsUsed": ["KHR_materials_emissive_strength"],
        "materials": [{
            "name": "Everything",
            "pbrMetallicRoughness": {
                "baseColorFactor": [1.0, 0.5, 0.25, 1.0],
                "baseColorTexture": {"index": 0},
                "metallicFactor": 0.25,
                "roughnessFactor": 0.75,
                "metallicRoughnessTexture": {"index": 1},
            },
            "normalTexture": {"index": 2, "scale": 0.5},
            "occlusionTexture": {"index": 3, "strength": 0.8},
            "emissiveTexture": {"index": 4},
            "emissiveFactor": [1.0, 1.0, 0.0],
            "extensions": {"KHR_materials_emissive_strength": {"emissiveStrength": 2.0}},
        }],
        "samplers": [{"magFilter": 9729, "minFilter": 9987}],
        "textures": (0..5).map(|i| json!({"source": i, "sampler": 0})).collect::<Vec<_>>(),
    });
    let name = if storage == Storage::Glb {
        "textured_box_glb"
    } else {
        "textured_box"
    };
    b.write(dir, name, doc, storage)
}

/// (c) A quad `"TwoUv"` with TEXCOORD_0 (float) and TEXCOORD_1 (normalized u16: UV0 * 0.5),
/// COLOR_0 as normalized u8 RGBA (vertex 0 red, 1 green, 2 blue, 3 white at alpha 0.5), and
/// material `"AoOnUv1"` whose occlusion texture (image 0) reads TEXCOORD_1 and whose base
/// colour texture (image 1) reads TEXCOORD_0. Embedded data URIs throughout; no normals (so
/// the importer generates flat ones).
pub fn two_uv_sets(dir: &Path) -> io::Result<PathBuf> {
    let mut b = Builder::new();
    let (p, _, uv, idx) = quad();
    let pos = b.floats("VEC3", &p);
    let uv0 = b.floats("VEC2", &uv);
    let uv1_values: Vec<f32> = uv.iter().map(|v| v * 0.5).collect();
    let uv1 = b.normalized("VEC2", 5123, &uv1_values);
    let colors = [
        1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.5,
    ];
    let col = b.normalized("VEC4", 5121, &colors);
    let ind = b.indices(&idx);
    b.image(
        "ao",
        "image/png",
        png(&gradient(2, |_, _| [200, 0, 0, 255])),
        ImageStorage::DataUri,
        "",
    );
    b.image(
        "colour",
        "image/png",
        png(&gradient(2, |_, _| [255, 255, 255, 255])),
        ImageStorage::DataUri,
        "",
    );
    let doc = json!({
        "scenes": [{"nodes": [0]}],
        "nodes": [{"name": "Quad", "mesh": 0}],
        "meshes": [{"name": "TwoUv", "primitives": [{
            "attributes": {"POSITION": pos, "TEXCOORD_0": uv0, "TEXCOORD_1": uv1, "COLOR_0": col},
            "indices": ind, "material": 0,
        }]}],
        "materials": [{
            "name": "AoOnUv1",
            "pbrMetallicRoughness": {"baseColorTexture": {"index": 1, "texCoord": 0}},
            "occlusionTexture": {"index": 0, "texCoord": 1},
        }],
        "textures": [{"source": 0}, {"source": 1}],
    });
    b.write(dir, "two_uv_sets", doc, Storage::Embedded)
}

/// (d) Three quads side by side (nodes `"Opaque"`, `"Mask"`, `"Blend"` at x = -1.5, 0, 1.5),
/// sharing mesh `"Quad"` topology but each with its own material: `"Opaque"` (OPAQUE,
/// single-sided), `"Mask"` (MASK, cutoff 0.3, double-sided), `"Blend"` (BLEND, double-sided).
/// All sample image 0, a 16x16 PNG whose alpha ramps from 0 (left) to 255 (right), stored in
/// a buffer view; sampler CLAMP_TO_EDGE / MIRRORED_REPEAT, NEAREST / NEAREST.
pub fn alpha_modes(dir: &Path) -> io::Result<PathBuf> {
    let mut b = Builder::new();
    let ramp = gradient(16, |x, _| [255, 255, 255, (x * 17) as u8]);
    b.image(
        "alpha ramp",
        "image/png",
        png(&ramp),
        ImageStorage::BufferView,
        "",
    );
    let modes = [
        ("Opaque", "OPAQUE", false),
        ("Mask", "MASK", true),
        ("Blend", "BLEND", true),
    ];
    let mut meshes = Vec::new();
    let mut materials = Vec::new();
    let mut nodes = Vec::new();
    for (i, (name, mode, double_sided)) in modes.iter().enumerate() {
        meshes.push(
            json!({"name": format!("Quad{name}"), "primitives": [mesh_json(&mut b, quad(), i)]}),
        );
        let mut m = json!({
            "name": name, "alphaMode": mode, "doubleSided": double_sided,
            "pbrMetallicRoughness": {"baseColorTexture": {"index": 0}},
        });
        if *mode == "MASK" {
            m["alphaCutoff"] = json!(0.3);
        }
        materials.push(m);
        nodes.push(
            json!({"name": name, "mesh": i, "translation": [-1.5 + 1.5 * i as f32, 0.0, 0.0]}),
        );
    }
    let doc = json!({
        "scenes": [{"nodes": [0, 1, 2]}],
        "nodes": nodes,
        "meshes": meshes,
        "materials": materials,
        "samplers": [{"wrapS": 33071, "wrapT": 33648, "magFilter": 9728, "minFilter": 9728}],
        "textures": [{"source": 0, "sampler": 0}],
    });
    b.write(dir, "alpha_modes", doc, Storage::Embedded)
}

/// (e) A quad `"Transformed"` (TEXCOORD_0 and TEXCOORD_1) with material `"Transforms"`:
/// - base colour: offset (0.5, 0.25), texture 0 (sampler 0: NEAREST_MIPMAP_LINEAR min, NEAREST mag);
/// - metallic-roughness: no transform;
/// - normal: rotation π/2;
/// - occlusion: scale (2, 3) and `texCoord` override 1 (textureInfo says 0);
/// - emissive: offset (0.1, 0.2), rotation 0.3, scale (4, 5) (texture 1: sampler 1,
///   LINEAR_MIPMAP_NEAREST min, repeat/clamp).
///
/// `KHR_texture_transform` is in `extensionsUsed` and `extensionsRequired`.
pub fn texture_transforms(dir: &Path) -> io::Result<PathBuf> {
    let mut b = Builder::new();
    let (p, n, uv, idx) = quad();
    let pos = b.floats("VEC3", &p);
    let nor = b.floats("VEC3", &n);
    let uv0 = b.floats("VEC2", &uv);
    let uv1 = b.floats("VEC2", &uv);
    let ind = b.indices(&idx);
    b.image(
        "uv",
        "image/png",
        png(&gradient(4, |x, y| {
            [(x * 60) as u8, (y * 60) as u8, 0, 255]
        })),
        ImageStorage::File,
        "transforms_uv.png",
    );
    let tt = |v: serde_json::Value| json!({"KHR_texture_transform": v});
    let doc = json!({
        "extensionsUsed": ["KHR_texture_transform"],
        "extensionsRequired": ["KHR_texture_transform"],
        "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0}],
        "meshes": [{"name": "Transformed", "primitives": [{
            "attributes": {"POSITION": pos, "NORMAL": nor, "TEXCOORD_0": uv0, "TEXCOORD_1": uv1},
            "indices": ind, "material": 0,
        }]}],
        "materials": [{
            "name": "Transforms",
            "pbrMetallicRoughness": {
                "baseColorTexture": {"index": 0, "extensions": tt(json!({"offset": [0.5, 0.25]}))},
                "metallicRoughnessTexture": {"index": 0},
            },
            "normalTexture": {"index": 0, "extensions": tt(json!({"rotation": std::f32::consts::FRAC_PI_2}))},
            "occlusionTexture": {"index": 0, "texCoord": 0, "extensions": tt(json!({"scale": [2.0, 3.0], "texCoord": 1}))},
            "emissiveTexture": {"index": 1, "extensions": tt(json!({"offset": [0.1, 0.2], "rotation": 0.3, "scale": [4.0, 5.0]}))},
        }],
        "samplers": [
            {"magFilter": 9728, "minFilter": 9986},
            {"magFilter": 9729, "minFilter": 9985, "wrapS": 10497, "wrapT": 33071},
        ],
        "textures": [{"source": 0, "sampler": 0}, {"source": 0, "sampler": 1}],
    });
    b.write(dir, "texture_transforms", doc, Storage::ExternalBin)
}

/// `count` quads in a row, each with its own material whose base colour is its own
/// `size` x `size` PNG (external files): gradients with a little noise, so they compress like
/// real textures and decoding does real inflate work. For measuring image decoding; nodes
/// `"Quad{i}"` at x = i.
pub fn many_textures(dir: &Path, count: usize, size: u32) -> io::Result<PathBuf> {
    let mut b = Builder::new();
    let mut state = 0x9E37_79B9u32;
    let mut meshes = Vec::new();
    let mut nodes = Vec::new();
    let mut materials = Vec::new();
    let mut textures = Vec::new();
    for i in 0..count {
        let img = gradient(size, |x, y| {
            // xorshift noise in the low bits of smooth gradients.
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            let n = (state & 7) as u8;
            let (x, y) = ((x * 255 / size) as u8, (y * 255 / size) as u8);
            [x.wrapping_add(n), y, x ^ y ^ (i as u8), 255]
        });
        b.image(
            &format!("noise{i}"),
            "image/png",
            png(&img),
            ImageStorage::File,
            &format!("noise_{i}.png"),
        );
        meshes.push(json!({"primitives": [mesh_json(&mut b, quad(), i)]}));
        materials.push(json!({"pbrMetallicRoughness": {"baseColorTexture": {"index": i}}}));
        textures.push(json!({"source": i}));
        nodes.push(
            json!({"name": format!("Quad{i}"), "mesh": i, "translation": [i as f32, 0.0, 0.0]}),
        );
    }
    let doc = json!({
        "scenes": [{"nodes": (0..count).collect::<Vec<_>>()}],
        "nodes": nodes, "meshes": meshes, "materials": materials, "textures": textures,
    });
    b.write(
        dir,
        &format!("many_textures_{count}x{size}"),
        doc,
        Storage::ExternalBin,
    )
}
