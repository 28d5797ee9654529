//! The import cache on a FlightHelmet-sized model: one `.gltf`, 15 PNG maps
//! of 2048 x 2048 (five materials with base colour, normal and
//! occlusion-roughness-metallic maps: smooth two-octave value noise,
//! gradients and a little per-texel grain, about as compressible as painted
//! textures) and about 7 MB of vertex data (five 140 x 140 grids with
//! normals, tangents and UVs). Nothing is downloaded: the model is written
//! into a temporary folder first.
//!
//! Each load is [`Assets::load_gltf`] (reading the files, then the import):
//!
//! - `no_cache`: [`Assets::without_import_cache`], every PNG decoded;
//! - `cold`: an empty cache folder each time (decoding, then writing every
//!   entry);
//! - `warm`: a cache filled once before (no PNG decoded).
//!
//! Before criterion's runs (which use the default, raw entries), three loads
//! of each are timed and the medians and ratios printed, with raw and with
//! LZ4 entries, so one run gives the figures the book quotes
//! (docs/src/import-cache.md). The cache writes ~250 MB per cold load: put
//! the temporary folder in memory where the disk is small.
//!
//! Run: `TMPDIR=/dev/shm cargo bench -p taos_benches --bench import_cache -- --warm-up-time 1 --measurement-time 10`

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use image::{Rgba, RgbaImage};
use serde_json::json;
use taos_engine::assets::{AssetPath, Assets};
use taos_engine::import_cache::{Compression, ImportCache};
use taos_gltf::GltfModel;

/// Texture width and height (FlightHelmet's).
const SIZE: u32 = 2048;
/// Materials, each with three maps: 15 PNGs.
const MATERIALS: usize = 5;
/// Vertices per grid side: 5 grids x (140² x 48 + 139² x 6 x 4) bytes ≈ 7 MB.
const GRID: usize = 140;
const MODEL: &str = "flight_helmet_like.gltf";

/// A xorshift generator: the same textures every run.
struct Noise(u32);

impl Noise {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        self.0
    }

    /// A `cells` x `cells` lattice of values in 0..1, bilinearly sampled.
    fn lattice(&mut self, cells: usize) -> Vec<f32> {
        (0..(cells + 1) * (cells + 1))
            .map(|_| (self.next() >> 8) as f32 / (1 << 24) as f32)
            .collect()
    }
}

fn sample(lattice: &[f32], cells: usize, u: f32, v: f32) -> f32 {
    let (x, y) = (u * cells as f32, v * cells as f32);
    let (x0, y0) = ((x as usize).min(cells - 1), (y as usize).min(cells - 1));
    let (fx, fy) = (x - x0 as f32, y - y0 as f32);
    let at = |i: usize, j: usize| lattice[j * (cells + 1) + i];
    let top = at(x0, y0) * (1.0 - fx) + at(x0 + 1, y0) * fx;
    let bottom = at(x0, y0 + 1) * (1.0 - fx) + at(x0 + 1, y0 + 1) * fx;
    top * (1.0 - fy) + bottom * fy
}

/// Map `kind` (0 base colour, 1 normal, 2 occlusion-roughness-metallic) of material `m`.
fn texture(m: usize, kind: usize) -> RgbaImage {
    let mut noise = Noise(0x9E37_79B9 ^ ((m * 3 + kind) as u32 + 1).wrapping_mul(0x85EB_CA6B));
    let coarse: Vec<Vec<f32>> = (0..3).map(|_| noise.lattice(24)).collect();
    let fine: Vec<Vec<f32>> = (0..3).map(|_| noise.lattice(160)).collect();
    RgbaImage::from_fn(SIZE, SIZE, |x, y| {
        let (u, v) = (x as f32 / SIZE as f32, y as f32 / SIZE as f32);
        let grain = noise.next();
        let channel = |c: usize| {
            let smooth = 0.65 * sample(&coarse[c], 24, u, v) + 0.35 * sample(&fine[c], 160, u, v);
            let gradient = 0.3 * (u * (c + 1) as f32 + v) % 1.0;
            let base = 255.0 * (0.75 * smooth + 0.25 * gradient);
            (base as u32 + ((grain >> (c * 3)) & 3)).min(255) as u8
        };
        match kind {
            0 => Rgba([channel(0), channel(1), channel(2), 255]),
            // Normals around +Z: x and y near 128, z near 255.
            1 => Rgba([
                96 + channel(0) / 4,
                96 + channel(1) / 4,
                224 + channel(2) / 8,
                255,
            ]),
            _ => Rgba([channel(0), channel(1), channel(2) / 3, 255]),
        }
    })
}

fn png(img: &RgbaImage) -> Vec<u8> {
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png)
        .expect("encoding a PNG in memory cannot fail");
    out.into_inner()
}

/// One grid's vertex data (POSITION, NORMAL, TANGENT, TEXCOORD_0) and u32 indices.
fn grid(offset: f32) -> [Vec<u8>; 5] {
    let (mut pos, mut nor, mut tan, mut uv, mut idx) = (vec![], vec![], vec![], vec![], vec![]);
    let f = |out: &mut Vec<u8>, values: &[f32]| {
        out.extend(values.iter().flat_map(|v| v.to_le_bytes()));
    };
    let step = 1.0 / (GRID - 1) as f32;
    for j in 0..GRID {
        for i in 0..GRID {
            let (u, v) = (i as f32 * step, j as f32 * step);
            f(&mut pos, &[u + offset, v, (u * 9.0).sin() * 0.05]);
            f(&mut nor, &[0.0, 0.0, 1.0]);
            f(&mut tan, &[1.0, 0.0, 0.0, 1.0]);
            f(&mut uv, &[u, v]);
        }
    }
    for j in 0..GRID - 1 {
        for i in 0..GRID - 1 {
            let a = (j * GRID + i) as u32;
            let (b, c, d) = (a + 1, a + GRID as u32, a + GRID as u32 + 1);
            idx.extend([a, c, b, b, c, d].iter().flat_map(|i| i.to_le_bytes()));
        }
    }
    [pos, nor, tan, uv, idx]
}

/// Writes the model into `dir`; returns (PNG bytes, buffer bytes).
fn write_model(dir: &Path) -> (usize, usize) {
    let maps: Vec<(usize, usize)> = (0..MATERIALS)
        .flat_map(|m| (0..3).map(move |k| (m, k)))
        .collect();
    let encoded: Vec<Vec<u8>> = std::thread::scope(|s| {
        let workers: Vec<_> = maps
            .chunks(maps.len().div_ceil(2))
            .map(|chunk| {
                s.spawn(move || {
                    chunk
                        .iter()
                        .map(|&(m, k)| png(&texture(m, k)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a texture thread"))
            .collect()
    });
    let mut images = vec![];
    for (i, bytes) in encoded.iter().enumerate() {
        let name = format!("map_{i}.png");
        std::fs::write(dir.join(&name), bytes).expect("writing a texture");
        images.push(json!({"uri": name}));
    }
    let (mut bin, mut views, mut accessors, mut meshes, mut materials, mut nodes) =
        (vec![], vec![], vec![], vec![], vec![], vec![]);
    let count = GRID * GRID;
    for m in 0..MATERIALS {
        let [pos, nor, tan, uv, idx] = grid(m as f32 * 1.1);
        let mut view = |bytes: &[u8], target: u32| {
            views.push(json!({"buffer": 0, "byteOffset": bin.len(), "byteLength": bytes.len(), "target": target}));
            bin.extend_from_slice(bytes);
            views.len() - 1
        };
        let (p, n, t, u, i) = (
            view(&pos, 34962),
            view(&nor, 34962),
            view(&tan, 34962),
            view(&uv, 34962),
            view(&idx, 34963),
        );
        let first = accessors.len();
        let offset = m as f32 * 1.1;
        accessors.extend([
            json!({"bufferView": p, "componentType": 5126, "count": count, "type": "VEC3",
                   "min": [offset, 0.0, -0.05], "max": [offset + 1.0, 1.0, 0.05]}),
            json!({"bufferView": n, "componentType": 5126, "count": count, "type": "VEC3"}),
            json!({"bufferView": t, "componentType": 5126, "count": count, "type": "VEC4"}),
            json!({"bufferView": u, "componentType": 5126, "count": count, "type": "VEC2"}),
            json!({"bufferView": i, "componentType": 5125, "count": (GRID - 1) * (GRID - 1) * 6, "type": "SCALAR"}),
        ]);
        meshes.push(json!({"primitives": [{
            "attributes": {"POSITION": first, "NORMAL": first + 1, "TANGENT": first + 2, "TEXCOORD_0": first + 3},
            "indices": first + 4, "material": m,
        }]}));
        materials.push(json!({
            "pbrMetallicRoughness": {
                "baseColorTexture": {"index": m * 3},
                "metallicRoughnessTexture": {"index": m * 3 + 2},
            },
            "normalTexture": {"index": m * 3 + 1},
            "occlusionTexture": {"index": m * 3 + 2},
        }));
        nodes.push(json!({"mesh": m}));
    }
    std::fs::write(dir.join("flight_helmet_like.bin"), &bin).expect("writing the buffer");
    let doc = json!({
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": (0..MATERIALS).collect::<Vec<_>>()}],
        "nodes": nodes, "meshes": meshes, "materials": materials,
        "textures": (0..MATERIALS * 3).map(|i| json!({"source": i})).collect::<Vec<_>>(),
        "images": images,
        "buffers": [{"uri": "flight_helmet_like.bin", "byteLength": bin.len()}],
        "bufferViews": views, "accessors": accessors,
    });
    std::fs::write(dir.join(MODEL), serde_json::to_vec(&doc).expect("JSON"))
        .expect("writing the model");
    (encoded.iter().map(Vec::len).sum(), bin.len())
}

fn load(assets: &Assets) -> GltfModel {
    let mut task = assets.load_gltf(&AssetPath::new(MODEL).expect("a valid path"));
    task.take()
        .expect("natively a load is done when it returns")
        .expect("the model loads")
}

/// The median of three timed runs of `run` (after `setup`, untimed).
fn median_of_3<S>(mut setup: impl FnMut() -> S, mut run: impl FnMut(&S)) -> Duration {
    let mut times: Vec<Duration> = (0..3)
        .map(|_| {
            let state = setup();
            let start = Instant::now();
            run(&state);
            start.elapsed()
        })
        .collect();
    times.sort();
    times[1]
}

/// Assets of `dir` with an empty cache in a new temporary folder.
fn fresh_cache(dir: &Path, compression: Compression) -> (tempfile::TempDir, Assets) {
    let folder = tempfile::tempdir().expect("a cache folder");
    let cache = ImportCache::in_folder(folder.path()).with_compression(compression);
    (folder, Assets::with_root(dir).with_import_cache(cache))
}

/// Median cold and warm loads with `compression`, and the entries' bytes; checks that a warm
/// load gives `reference`.
fn figures(
    dir: &Path,
    compression: Compression,
    reference: &GltfModel,
) -> (Duration, Duration, u64) {
    let cold = median_of_3(
        || fresh_cache(dir, compression),
        |(_, assets)| drop(black_box(load(assets))),
    );
    let (folder, warm) = fresh_cache(dir, compression);
    load(&warm);
    assert_eq!(&load(&warm), reference, "a warm load gives the same model");
    let hot = median_of_3(|| (), |()| drop(black_box(load(&warm))));
    let stored = std::fs::read_dir(folder.path().join("images"))
        .expect("the cache folder")
        .filter_map(|e| e.ok()?.metadata().ok())
        .map(|m| m.len())
        .sum();
    (cold, hot, stored)
}

fn import_cache(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let started = Instant::now();
    let (png_bytes, bin_bytes) = write_model(dir.path());
    eprintln!(
        "import_cache: model written in {:.1?}: {} PNGs {SIZE}x{SIZE}, {:.1} MB of PNG, {:.1} MB of buffers",
        started.elapsed(),
        MATERIALS * 3,
        png_bytes as f64 / 1e6,
        bin_bytes as f64 / 1e6
    );
    let plain = Assets::with_root(dir.path()).without_import_cache();
    let none = median_of_3(|| (), |()| drop(black_box(load(&plain))));
    eprintln!("import_cache: median of 3: no cache {none:.1?}");
    let reference = load(&plain);
    for compression in [Compression::None, Compression::Lz4] {
        let (cold, warm, stored) = figures(dir.path(), compression, &reference);
        eprintln!(
            "import_cache: median of 3, {compression:?}: cold {cold:.1?}, warm {warm:.1?}; \
             cold / warm = {:.1}x, no cache / warm = {:.1}x; entries {:.1} MB",
            cold.as_secs_f64() / warm.as_secs_f64(),
            none.as_secs_f64() / warm.as_secs_f64(),
            stored as f64 / 1e6
        );
    }
    let fresh = || fresh_cache(dir.path(), Compression::default());
    let (_warm_folder, warm) = fresh();
    load(&warm);

    let mut group = c.benchmark_group("import_cache/flight_helmet_like");
    group.sample_size(10);
    group.bench_function("no_cache", |b| b.iter(|| black_box(load(&plain))));
    group.bench_function("cold", |b| {
        b.iter_batched(
            fresh,
            |(folder, assets)| (folder, black_box(load(&assets))),
            BatchSize::PerIteration,
        );
    });
    group.bench_function("warm", |b| b.iter(|| black_box(load(&warm))));
    group.finish();
}

criterion_group!(benches, import_cache);
criterion_main!(benches);
