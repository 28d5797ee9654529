//! The render-graph overlay over a small lit scene: the frame's passes in
//! execution order with their GPU times, culled passes, resources, and the
//! CPU time to build, compile and record the graph. F3 hides and shows it.
//!
//! ```sh
//! xvfb-run -a cargo run -p taos_engine --example graph_overlay -- --seconds 5
//! ```
//!
//! With `--seconds S` the window closes after S seconds and the last
//! frame's timings are printed.

use std::time::{Duration, Instant};

use taos_engine::prelude::*;
use taos_engine::renderer::presets::{PresetOptions, forward_preset};
use taos_engine::renderer::resources::{MeshData, PbrMaterial};
use taos_engine::renderer::timings::FrameTimings;
use taos_engine::{App, AppError, Engine, EngineConfig};

struct Showcase {
    run_for: Option<Duration>,
    started: Option<Instant>,
}

impl App for Showcase {
    fn start(&mut self, engine: &mut Engine) -> Result<(), AppError> {
        let (assets, gpu) = engine.renderer().assets_mut();
        let ground = assets.add_mesh(gpu, "ground", &MeshData::plane(12.0));
        let cube = assets.add_mesh(gpu, "cube", &MeshData::cube(1.0));
        let grey = assets.add_material(PbrMaterial::color(Vec3::splat(0.6)));
        let teal = assets.add_material(PbrMaterial::color(Vec3::new(0.1, 0.6, 0.6)));
        let scene = engine.scene_mut();
        let floor = scene.spawn("Ground");
        scene.add_component(floor, MeshRenderer::new(ground.handle(), grey.handle()))?;
        for i in 0..5 {
            let at = Transform::from_trs(
                Vec3::new(i as f32 * 1.6 - 3.2, 0.5, -1.0),
                Quat::from_rotation_y(i as f32 * 0.4),
                Vec3::ONE,
            );
            let block = scene.spawn_with("Block", at);
            scene.add_component(block, MeshRenderer::new(cube.handle(), teal.handle()))?;
        }
        let sun = scene.spawn("Sun");
        let light = DirectionalLight::new(Vec3::new(-0.5, -1.0, -0.4), Vec3::ONE, 3.0);
        scene.add_component(sun, light)?;
        let eye = Transform::from_trs(
            Vec3::new(0.0, 3.0, 7.0),
            Quat::from_rotation_x(-0.35),
            Vec3::ONE,
        );
        let camera = scene.spawn_with("Camera", eye);
        scene.add_component(camera, Camera::perspective(50.0, 0.1, 100.0, 16.0 / 9.0)?)?;
        engine.set_graph_overlay(true);
        self.started = Some(Instant::now());
        Ok(())
    }

    fn update(&mut self, engine: &mut Engine) -> Result<(), AppError> {
        let (Some(run_for), Some(started)) = (self.run_for, self.started) else {
            return Ok(());
        };
        if started.elapsed() < run_for {
            engine.wake_at(started + run_for);
            return Ok(());
        }
        print_timings(engine.renderer().last_timings());
        engine.request_exit();
        Ok(())
    }
}

fn print_timings(timings: &FrameTimings) {
    println!(
        "frame {}: CPU build {:.3} ms, compile {:.3} ms, record {:.3} ms",
        timings.frame,
        timings.cpu_build.as_secs_f64() * 1e3,
        timings.cpu_compile.as_secs_f64() * 1e3,
        timings.cpu_record.as_secs_f64() * 1e3,
    );
    let gpu = timings.gpu.as_ref();
    if gpu.is_none() {
        println!("no GPU timings (the device has no timestamp queries)");
    }
    println!("  {:<20} {:>10} {:>10}", "pass", "CPU", "GPU");
    for pass in &timings.cpu_passes {
        let gpu_ms = gpu
            .and_then(|gpu| gpu.pass(pass.name))
            .map_or_else(|| "-".to_owned(), |p| ms(p.gpu));
        println!("  {:<20} {:>10} {gpu_ms:>10}", pass.name, ms(pass.record));
    }
    if let Some(gpu) = gpu {
        let total = ms(gpu.total);
        println!(
            "  {:<20} {:>10} {total:>10} (GPU: frame {})",
            "total", "", gpu.frame
        );
    }
}

fn ms(duration: Duration) -> String {
    format!("{:.3} ms", duration.as_secs_f64() * 1e3)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut run_for = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--seconds" => {
                let seconds: f64 = args.next().ok_or("--seconds needs a value")?.parse()?;
                run_for = Some(Duration::from_secs_f64(seconds));
            }
            other => return Err(format!("unknown argument {other}").into()),
        }
    }
    let app = Showcase {
        run_for,
        started: None,
    };
    let preset = forward_preset(PresetOptions::default());
    Engine::run_app(
        "taos graph overlay",
        EngineConfig::new(960, 540),
        preset,
        app,
    )?;
    Ok(())
}
