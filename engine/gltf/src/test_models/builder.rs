//! A tiny glTF writer for the test models: one binary buffer, accessors, images.

use std::io;
use std::path::{Path, PathBuf};

use base64::Engine as _;
use serde_json::{Value, json};

/// Where a test model keeps its binary buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Storage {
    /// A `.gltf` whose buffer is a base64 `data:` URI.
    Embedded,
    /// A `.gltf` with an external `.bin` file beside it.
    ExternalBin,
    /// A `.glb` with the buffer in its BIN chunk.
    Glb,
}

/// Where a test model keeps an image.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ImageStorage {
    /// A base64 `data:` URI.
    DataUri,
    /// An external file beside the model (the URI is percent-encoded).
    File,
    /// A buffer view with a mimeType.
    BufferView,
}

/// An integer accessor for [`Builder::integers`].
pub(crate) struct Integers<'a> {
    /// "SCALAR", "VEC2", "VEC3" or "VEC4".
    pub(crate) ty: &'a str,
    /// glTF componentType: 5120 i8, 5121 u8, 5122 i16, 5123 u16.
    pub(crate) component_type: u32,
    pub(crate) normalized: bool,
    pub(crate) bytes: &'a [u8],
    pub(crate) count: usize,
    pub(crate) stride: Option<usize>,
    /// Per-component min and max (required for POSITION).
    pub(crate) min_max: Option<(Vec<f32>, Vec<f32>)>,
}

pub(crate) struct Builder {
    bin: Vec<u8>,
    views: Vec<Value>,
    accessors: Vec<Value>,
    images: Vec<Value>,
    files: Vec<(String, Vec<u8>)>,
}

pub(crate) fn png(img: &image::RgbaImage) -> Vec<u8> {
    let mut out = io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png)
        .expect("encoding a PNG in memory cannot fail");
    out.into_inner()
}

pub(crate) fn jpeg(img: &image::RgbaImage) -> Vec<u8> {
    let rgb = image::DynamicImage::ImageRgba8(img.clone()).to_rgb8();
    let mut out = io::Cursor::new(Vec::new());
    rgb.write_to(&mut out, image::ImageFormat::Jpeg)
        .expect("encoding a JPEG in memory cannot fail");
    out.into_inner()
}

fn data_uri(mime: &str, bytes: &[u8]) -> String {
    format!(
        "data:{mime};base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    )
}

impl Builder {
    pub(crate) fn new() -> Self {
        Self {
            bin: Vec::new(),
            views: Vec::new(),
            accessors: Vec::new(),
            images: Vec::new(),
            files: Vec::new(),
        }
    }

    /// Appends `bytes` (4-byte aligned) as a buffer view; returns its index.
    pub(crate) fn view(&mut self, bytes: &[u8]) -> usize {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        self.views
            .push(json!({"buffer": 0, "byteOffset": self.bin.len(), "byteLength": bytes.len()}));
        self.bin.extend_from_slice(bytes);
        self.views.len() - 1
    }

    /// A float accessor of `ty` ("SCALAR", "VEC2", "VEC3", "VEC4", "MAT4") with min/max; returns
    /// its index.
    pub(crate) fn floats(&mut self, ty: &str, data: &[f32]) -> usize {
        let n = match ty {
            "SCALAR" => 1,
            "VEC2" => 2,
            "VEC3" => 3,
            "MAT4" => 16,
            _ => 4,
        };
        let bytes: Vec<u8> = data.iter().flat_map(|f| f.to_le_bytes()).collect();
        let view = self.view(&bytes);
        let mut min = vec![f32::INFINITY; n];
        let mut max = vec![f32::NEG_INFINITY; n];
        for chunk in data.chunks_exact(n) {
            for (c, v) in chunk.iter().enumerate() {
                min[c] = min[c].min(*v);
                max[c] = max[c].max(*v);
            }
        }
        self.accessors.push(json!({
            "bufferView": view, "componentType": 5126, "count": data.len() / n, "type": ty,
            "min": min, "max": max,
        }));
        self.accessors.len() - 1
    }

    /// A normalized u16 (componentType 5123) or u8 (5121) accessor from floats in [0, 1].
    pub(crate) fn normalized(&mut self, ty: &str, component_type: u32, data: &[f32]) -> usize {
        let n = if ty == "VEC2" { 2 } else { 4 };
        let bytes: Vec<u8> = if component_type == 5121 {
            data.iter().map(|f| (f * 255.0).round() as u8).collect()
        } else {
            data.iter()
                .flat_map(|f| ((f * 65535.0).round() as u16).to_le_bytes())
                .collect()
        };
        let view = self.view(&bytes);
        self.accessors.push(json!({
            "bufferView": view, "componentType": component_type, "normalized": true,
            "count": data.len() / n, "type": ty,
        }));
        self.accessors.len() - 1
    }

    /// An integer accessor of `count` elements of `ty` from little-endian `bytes`, in a view
    /// with `stride` when given (glTF wants 4-byte aligned vertex elements); returns its index.
    pub(crate) fn integers(&mut self, accessor: Integers<'_>) -> usize {
        let view = self.view(accessor.bytes);
        if let Some(stride) = accessor.stride {
            self.views[view]["byteStride"] = json!(stride);
        }
        let mut value = json!({
            "bufferView": view, "componentType": accessor.component_type,
            "normalized": accessor.normalized, "count": accessor.count, "type": accessor.ty,
        });
        if let Some((min, max)) = accessor.min_max {
            value["min"] = json!(min);
            value["max"] = json!(max);
        }
        self.accessors.push(value);
        self.accessors.len() - 1
    }

    /// A u16 index accessor.
    pub(crate) fn indices(&mut self, data: &[u16]) -> usize {
        let bytes: Vec<u8> = data.iter().flat_map(|i| i.to_le_bytes()).collect();
        let view = self.view(&bytes);
        self.accessors
            .push(json!({"bufferView": view, "componentType": 5123, "count": data.len(), "type": "SCALAR"}));
        self.accessors.len() - 1
    }

    /// An image; `file_name` is used for [`ImageStorage::File`]. Returns its index.
    pub(crate) fn image(
        &mut self,
        name: &str,
        mime: &str,
        bytes: Vec<u8>,
        storage: ImageStorage,
        file_name: &str,
    ) -> usize {
        let image = match storage {
            ImageStorage::DataUri => json!({"name": name, "uri": data_uri(mime, &bytes)}),
            ImageStorage::File => {
                let uri = file_name.replace(' ', "%20");
                self.files.push((file_name.to_owned(), bytes));
                json!({"name": name, "uri": uri})
            }
            ImageStorage::BufferView => {
                let view = self.view(&bytes);
                json!({"name": name, "bufferView": view, "mimeType": mime})
            }
        };
        self.images.push(image);
        self.images.len() - 1
    }

    /// Merges the buffer, views, accessors and images into `doc` and writes `dir/name.gltf`
    /// (or `.glb`), plus any external files. Returns the model's path.
    pub(crate) fn write(
        mut self,
        dir: &Path,
        name: &str,
        mut doc: Value,
        storage: Storage,
    ) -> io::Result<PathBuf> {
        std::fs::create_dir_all(dir)?;
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let mut buffer = json!({"byteLength": self.bin.len()});
        match storage {
            Storage::Embedded => {
                buffer["uri"] = json!(data_uri("application/octet-stream", &self.bin))
            }
            Storage::ExternalBin => {
                let bin_name = format!("{name}.bin");
                std::fs::write(dir.join(&bin_name), &self.bin)?;
                buffer["uri"] = json!(bin_name);
            }
            Storage::Glb => {}
        }
        doc["asset"] = json!({"version": "2.0", "generator": "taos_gltf test_models"});
        if !self.bin.is_empty() {
            doc["buffers"] = json!([buffer]);
            doc["bufferViews"] = Value::Array(self.views);
            doc["accessors"] = Value::Array(self.accessors);
        }
        if !self.images.is_empty() {
            doc["images"] = Value::Array(self.images);
        }
        for (file_name, bytes) in &self.files {
            std::fs::write(dir.join(file_name), bytes)?;
        }
        let text = serde_json::to_vec_pretty(&doc).map_err(io::Error::other)?;
        if storage == Storage::Glb {
            let path = dir.join(format!("{name}.glb"));
            std::fs::write(&path, glb(&text, &self.bin))?;
            Ok(path)
        } else {
            let path = dir.join(format!("{name}.gltf"));
            std::fs::write(&path, text)?;
            Ok(path)
        }
    }
}

/// Packs JSON text and a binary chunk into a GLB container.
pub(crate) fn glb(json: &[u8], bin: &[u8]) -> Vec<u8> {
    let mut json = json.to_vec();
    while !json.len().is_multiple_of(4) {
        json.push(b' ');
    }
    let mut bin = bin.to_vec();
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    let total = 12 + 8 + json.len() + if bin.is_empty() { 0 } else { 8 + bin.len() };
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&json);
    if !bin.is_empty() {
        out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(&bin);
    }
    out
}

/// A unit cube centred on the origin: 24 vertices (positions, normals, UVs) and 36 indices.
pub(crate) fn cube() -> (Vec<f32>, Vec<f32>, Vec<f32>, Vec<u16>) {
    let faces: [([f32; 3], [f32; 3], [f32; 3]); 6] = [
        ([1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]),
        ([-1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]),
        ([0.0, 1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, -1.0]),
        ([0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]),
        ([0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]),
        ([0.0, 0.0, -1.0], [-1.0, 0.0, 0.0], [0.0, 1.0, 0.0]),
    ];
    let (mut p, mut n, mut uv, mut idx) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (f, (normal, u, v)) in faces.iter().enumerate() {
        for (su, sv) in [(-1.0f32, -1.0f32), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
            for c in 0..3 {
                p.push(0.5 * (normal[c] + su * u[c] + sv * v[c]));
            }
            n.extend_from_slice(normal);
            uv.extend_from_slice(&[(su + 1.0) / 2.0, (1.0 - sv) / 2.0]);
        }
        let b = (f * 4) as u16;
        idx.extend_from_slice(&[b, b + 1, b + 2, b, b + 2, b + 3]);
    }
    (p, n, uv, idx)
}

/// A unit quad in the XY plane facing +Z: positions, normals, UVs (v down), indices.
pub(crate) fn quad() -> (Vec<f32>, Vec<f32>, Vec<f32>, Vec<u16>) {
    (
        vec![
            -0.5, -0.5, 0.0, 0.5, -0.5, 0.0, 0.5, 0.5, 0.0, -0.5, 0.5, 0.0,
        ],
        [0.0, 0.0, 1.0].repeat(4),
        vec![0.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0],
        vec![0, 1, 2, 0, 2, 3],
    )
}
