//! GPU memory of a texture set in each format, and, given KTX2 files, what
//! transcoding them costs on this machine's CPU:
//!
//! ```sh
//! cargo run --release -p taos_renderer --example texture_memory -- [FILE.ktx2 ...]
//! ```
//!
//! The figures are in the book's texture page (`docs/src/textures.md`).

use std::time::Instant;

use taos_renderer::resources::{TexelFormat, TextureData, full_mip_count};
use taos_renderer::wgpu::Features;

/// The texture set: 15 maps (5 materials x base colour, normal,
/// metallic-roughness) of 2048x2048 with full mip chains.
const MAPS: u64 = 15;
const SIZE: u32 = 2048;

fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

fn main() {
    let levels = full_mip_count(SIZE, SIZE);
    println!("{MAPS} maps of {SIZE}x{SIZE}, {levels} mip levels each:");
    for (name, format) in [
        ("RGBA8", TexelFormat::Rgba8),
        ("BC7", TexelFormat::Bc7),
        ("ETC2 RGBA8", TexelFormat::Etc2Rgba8),
        ("ASTC 4x4", TexelFormat::Astc4x4),
    ] {
        let one = format.chain_bytes(SIZE, SIZE, levels);
        println!(
            "  {name:<11} {:>11} bytes per map, {:>7.1} MiB in all",
            one,
            mib(one * MAPS)
        );
    }
    for path in std::env::args().skip(1) {
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) => {
                eprintln!("{path}: {e}");
                continue;
            }
        };
        println!("{path}: {} bytes on disk", bytes.len());
        for (name, features) in [
            ("BC7", Features::TEXTURE_COMPRESSION_BC),
            (
                "ASTC/ETC2",
                Features::TEXTURE_COMPRESSION_ASTC | Features::TEXTURE_COMPRESSION_ETC2,
            ),
            ("RGBA8", Features::empty()),
        ] {
            let start = Instant::now();
            match TextureData::from_ktx2(&path, &bytes, features, None) {
                Ok(data) => println!(
                    "  to {name:<9} ({:?}): {:>6.1} ms, {:>7.2} MiB on the GPU",
                    data.format(),
                    start.elapsed().as_secs_f64() * 1000.0,
                    mib(data.gpu_bytes())
                ),
                Err(e) => println!("  to {name}: {e}"),
            }
        }
    }
}
