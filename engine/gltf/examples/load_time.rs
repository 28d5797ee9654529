//! Measures load time of the generated test scenes (no `#[test]`; run it in release):
//!
//! ```text
//! cargo run --release -p taos_gltf --example load_time [NODES]
//! ```
//!
//! Prints the median of 9 loads of the N-node scene (default 10,000 nodes sharing one mesh)
//! and of a model with 8 textures of 512x512 textures (image decoding).

use std::time::{Duration, Instant};

use taos_gltf::{GltfModel, test_models};

fn median_load(path: &std::path::Path) -> (Duration, GltfModel) {
    let mut times = Vec::new();
    let mut model = None;
    for _ in 0..9 {
        let start = Instant::now();
        let m = GltfModel::load(path).unwrap_or_else(|e| panic!("{e}"));
        times.push(start.elapsed());
        model = Some(m);
    }
    times.sort();
    (times[times.len() / 2], model.unwrap())
}

fn main() {
    let nodes: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10_000);
    let dir = tempfile::tempdir().expect("temporary directory");

    let path = test_models::many_nodes(dir.path(), nodes).expect("write the scene");
    let size = std::fs::metadata(&path).map_or(0, |m| m.len());
    let (time, model) = median_load(&path);
    println!(
        "{} nodes ({} KiB of JSON): median load {:.1} ms",
        model.nodes.len(),
        size / 1024,
        time.as_secs_f64() * 1e3
    );

    let path = test_models::many_textures(dir.path(), 8, 512).expect("write the textures");
    let (time, model) = median_load(&path);
    println!(
        "{} images of 512x512 PNG: median load {:.1} ms on {} threads available",
        model.images.len(),
        time.as_secs_f64() * 1e3,
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
}
