//! Hot reload's latency: from a file written on disk to the end of the
//! frame that shows it, through the real file watcher (inotify here), the
//! quiet time that merges an editor's save burst, the reload and the
//! frame. Headless forward preset at 160x120 (lavapipe here).
//!
//! - `texture`: a PNG loaded with `Engine::load_texture`, written again;
//! - `model image`: the base-colour JPEG of a glTF model, written again:
//!   the model is read and rebuilt in place.
//!
//! ```text
//! cargo bench -p taos_benches --bench hot_reload
//! ```

use std::path::Path;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use taos_engine::gltf::GltfSpawnOptions;
use taos_engine::{Engine, EngineConfig};
use taos_gltf::test_models;
use taos_renderer::presets::{PresetOptions, forward_preset};
use taos_renderer::resources::ColorSpace;

fn engine() -> Engine {
    let mut engine = Engine::headless(
        EngineConfig::new(160, 120),
        forward_preset(PresetOptions::default()),
    )
    .expect("a GPU adapter (lavapipe)");
    engine.hot_reload_mut().set_enabled(true);
    engine
}

/// Frames until `changed` says the edit arrived; the time from before the
/// write to the end of that frame. Panics after 10 s (the watcher lost it).
fn write_then_wait(
    engine: &mut Engine,
    write: impl FnOnce(),
    mut changed: impl FnMut(&mut Engine) -> bool,
) -> Duration {
    let started = Instant::now();
    write();
    loop {
        engine.frame().expect("a frame");
        if changed(engine) {
            return started.elapsed();
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "no reload in 10 s"
        );
    }
}

fn solid_png(path: &Path, rgba: [u8; 4]) {
    image::RgbaImage::from_pixel(256, 256, image::Rgba(rgba))
        .save(path)
        .expect("write the PNG");
}

fn solid_jpeg(path: &Path, rgb: [u8; 3]) {
    image::RgbImage::from_pixel(8, 8, image::Rgb(rgb))
        .save_with_format(path, image::ImageFormat::Jpeg)
        .expect("write the JPEG");
}

fn hot_reload(c: &mut Criterion) {
    let mut group = c.benchmark_group("hot_reload");
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(8));

    let dir = tempfile::tempdir().expect("a temporary folder");
    let png = dir.path().join("tile.png");
    solid_png(&png, [255, 0, 0, 255]);
    let mut textured = engine();
    let id = textured
        .load_texture(&png, ColorSpace::Srgb)
        .expect("the texture loads");
    let mut flip = 0u8;
    group.bench_function("texture", |b| {
        b.iter_custom(|iterations| {
            let mut total = Duration::ZERO;
            for _ in 0..iterations {
                flip = flip.wrapping_add(1);
                let before = textured.renderer().assets().texture_version(id);
                total += write_then_wait(
                    &mut textured,
                    || solid_png(&png, [flip, 255 - flip, 0, 255]),
                    |engine| engine.renderer().assets().texture_version(id) != before,
                );
            }
            total
        });
    });

    let model_dir = tempfile::tempdir().expect("a temporary folder");
    let path = test_models::textured_box(model_dir.path()).expect("the test model");
    let jpeg = model_dir.path().join("box base colour.jpg");
    let mut modelled = engine();
    modelled
        .load_gltf(&path, &GltfSpawnOptions::default())
        .expect("the model loads");
    group.bench_function("model image", |b| {
        b.iter_custom(|iterations| {
            let mut total = Duration::ZERO;
            for _ in 0..iterations {
                flip = flip.wrapping_add(1);
                total += write_then_wait(
                    &mut modelled,
                    || solid_jpeg(&jpeg, [flip, 0, 255 - flip]),
                    |engine| !engine.hot_reload().changed_last_frame().is_empty(),
                );
                // The next edit starts from a settled state.
                modelled.frame().expect("a frame");
            }
            total
        });
    });
    group.finish();
}

criterion_group!(benches, hot_reload);
criterion_main!(benches);
