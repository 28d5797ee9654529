//! Start-up stall: how long an engine takes to build its preset's pipelines,
//! and how long each of its first frames takes next to the steady-state
//! frame, for each preset, with Mesa's shader cache cold, empty or warm.
//!
//! A cold start is a process-level effect (driver caches, lazily built
//! objects), so every measurement is a fresh process: this example spawns
//! itself once per run (`--child PRESET`), in a scratch `XDG_CACHE_HOME` of
//! its own per condition, so the user's Mesa cache is never read or
//! written. Conditions, per preset:
//!
//! - `cold`: `MESA_SHADER_CACHE_DISABLE=true` (every shader compiled from
//!   scratch, every time it is needed);
//! - `first`: Mesa's cache on but empty at every run (a player's very
//!   first start: shaders compiled in the first frame are found in the
//!   cache by the next frames);
//! - `warm`: Mesa's cache on and filled by one earlier run (a second start);
//! - `cold+prewarm`, `first+prewarm`: as `cold` and `first`, with
//!   `Engine::prewarm` called once the scene is in (its time in `prewarm`,
//!   and counted in `to-frame-1`).
//!
//! The runs of the conditions are interleaved; each figure is the median
//! over the runs. Times are wall-clock, with the GPU waited for after each
//! frame (`construct`: `Engine::headless` with the preset, device creation
//! included; `setup`: the preset's features alone; `steady`: the median of
//! frames 3 and later; `stall`: frame 1 less `steady`; `to-frame-1`:
//! construct plus frame 1, and `vs cold` its ratio to `cold`'s; `process`:
//! the child process from spawn to exit).
//!
//! Run: `cargo run -p taos_benches --example first_frames -- [--runs 5]
//! [--frames 5] [--size 320x240]`

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use taos_engine::prelude::*;
use taos_engine::{Engine, EngineConfig};
use taos_renderer::Renderer;
use taos_renderer::features::SkyOption;
use taos_renderer::presets::{
    DeferredOptions, PresetOptions, deferred_preset, forward_plus_preset, forward_preset,
};
use taos_renderer::resources::{MeshData, PbrMaterial};

const PRESETS: [&str; 3] = ["forward", "forward_plus", "deferred"];

/// One condition: its name and the environment of its child processes.
struct Condition {
    name: &'static str,
    mesa_cache: bool,
    /// Every run starts from an empty cache home (no warming run).
    fresh: bool,
    /// The child calls `Engine::prewarm` once the scene is in.
    prewarm: bool,
}

const CONDITIONS: [Condition; 5] = [
    Condition {
        name: "cold",
        mesa_cache: false,
        fresh: false,
        prewarm: false,
    },
    Condition {
        name: "cold+prewarm",
        mesa_cache: false,
        fresh: false,
        prewarm: true,
    },
    Condition {
        name: "first",
        mesa_cache: true,
        fresh: true,
        prewarm: false,
    },
    Condition {
        name: "first+prewarm",
        mesa_cache: true,
        fresh: true,
        prewarm: true,
    },
    Condition {
        name: "warm",
        mesa_cache: true,
        fresh: false,
        prewarm: false,
    },
];

/// What one child run measured, in milliseconds.
#[derive(Debug, Clone)]
struct Sample {
    construct: f64,
    setup: f64,
    /// `Engine::prewarm` (0 when not called).
    prewarm: f64,
    frames: Vec<f64>,
    /// The whole child process, start to exit (teardown included).
    process: f64,
}

struct Args {
    child: Option<String>,
    prewarm: bool,
    runs: usize,
    frames: usize,
    size: (u32, u32),
}

fn parse_args() -> Args {
    let mut args = Args {
        child: None,
        prewarm: false,
        runs: 5,
        frames: 5,
        size: (320, 240),
    };
    let mut it = std::env::args().skip(1);
    while let Some(arg) = it.next() {
        let mut value = || it.next().unwrap_or_else(|| panic!("{arg} needs a value"));
        match arg.as_str() {
            "--child" => args.child = Some(value()),
            "--prewarm" => args.prewarm = true,
            "--runs" => args.runs = value().parse().expect("--runs N"),
            "--frames" => args.frames = value().parse().expect("--frames N"),
            "--size" => {
                let v = value();
                let (w, h) = v.split_once('x').expect("--size WxH");
                args.size = (w.parse().expect("width"), h.parse().expect("height"));
            }
            other => panic!("unknown argument {other}"),
        }
    }
    assert!(args.frames >= 3, "--frames must be at least 3");
    args
}

fn main() {
    let args = parse_args();
    match &args.child {
        Some(preset) => child(preset, &args),
        None => parent(&args),
    }
}

// --- the child: one process, one measurement ------------------------------------

fn preset_setup(name: &str) -> Box<dyn FnOnce(&mut Renderer)> {
    let common = PresetOptions {
        sky: SkyOption::Atmosphere(Default::default()),
        ..PresetOptions::default()
    };
    match name {
        "forward" => Box::new(forward_preset(common)),
        "forward_plus" => Box::new(forward_plus_preset(common)),
        "deferred" => Box::new(deferred_preset(DeferredOptions {
            common: PresetOptions {
                taa: DeferredOptions::default().common.taa,
                ..common
            },
            ..DeferredOptions::default()
        })),
        other => panic!("unknown preset {other} (one of {PRESETS:?})"),
    }
}

fn child(preset: &str, args: &Args) {
    let setup = preset_setup(preset);
    let mut setup_time = Duration::ZERO;
    let start = Instant::now();
    let mut engine = Engine::headless(
        EngineConfig::new(args.size.0, args.size.1),
        |renderer: &mut Renderer| {
            let t = Instant::now();
            setup(renderer);
            setup_time = t.elapsed();
        },
    )
    .expect("a GPU adapter (lavapipe on a machine without one)");
    let construct = start.elapsed();
    build_scene(&mut engine);
    let prewarm = if args.prewarm {
        ms(engine.prewarm().expect("the prewarm frame renders"))
    } else {
        0.0
    };
    let frames: Vec<f64> = (0..args.frames)
        .map(|_| {
            let t = Instant::now();
            taos_benches::frame_waited(&mut engine);
            ms(t.elapsed())
        })
        .collect();
    let list: Vec<String> = frames.iter().map(|f| format!("{f:.3}")).collect();
    println!(
        "RESULT {:.3} {:.3} {prewarm:.3} {}",
        ms(construct),
        ms(setup_time),
        list.join(" ")
    );
}

/// A small lit scene: a ground, 16 cubes, a sun, four point lights, a camera.
fn build_scene(engine: &mut Engine) {
    let (assets, gpu) = engine.renderer().assets_mut();
    let mesh = assets.add_mesh(gpu, "cube", &MeshData::cube(0.5));
    let grey = assets.add_material(PbrMaterial::default());
    let cube_renderer = MeshRenderer::new(MeshHandle(mesh.0), MaterialHandle(grey.0));
    let scene = engine.scene_mut();
    let ground = scene.spawn_with(
        "Ground",
        Transform::from_trs(
            Vec3::new(0.0, -0.5, 0.0),
            Quat::IDENTITY,
            Vec3::new(20.0, 0.1, 20.0),
        ),
    );
    scene.add_component(ground, cube_renderer).unwrap();
    for i in 0..16 {
        let (x, z) = ((i % 4) as f32 * 2.0 - 3.0, (i / 4) as f32 * 2.0 - 3.0);
        let cube = scene.spawn_with("Cube", Transform::from_position(Vec3::new(x, 0.5, z)));
        scene.add_component(cube, cube_renderer).unwrap();
    }
    let sun = scene.spawn("Sun");
    scene
        .add_component(
            sun,
            DirectionalLight::new(Vec3::new(-0.3, -1.0, -0.2), Vec3::ONE, 3.0),
        )
        .unwrap();
    for i in 0..4 {
        let angle = i as f32 * std::f32::consts::FRAC_PI_2;
        let light = scene.spawn_with(
            "Lamp",
            Transform::from_position(Vec3::new(3.0 * angle.cos(), 1.5, 3.0 * angle.sin())),
        );
        scene
            .add_component(light, PointLight::new(Vec3::new(1.0, 0.8, 0.6), 4.0, 5.0))
            .unwrap();
    }
    let camera = scene.spawn_with(
        "Camera",
        Transform::from_trs(
            Vec3::new(0.0, 6.0, 10.0),
            Quat::from_rotation_x(-0.5),
            Vec3::ONE,
        ),
    );
    scene
        .add_component(
            camera,
            Camera::perspective(60.0, 0.1, 100.0, 4.0 / 3.0).unwrap(),
        )
        .unwrap();
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

// --- the parent: the matrix of runs, the table ----------------------------------

fn run_child(preset: &str, condition: &Condition, home: &Path, args: &Args) -> Sample {
    let exe = std::env::current_exe().expect("the example's own path");
    let mut command = Command::new(exe);
    command
        .args(["--child", preset, "--frames", &args.frames.to_string()])
        .args(condition.prewarm.then_some("--prewarm"))
        .args(["--size", &format!("{}x{}", args.size.0, args.size.1)])
        .env("XDG_CACHE_HOME", home)
        .env_remove("MESA_SHADER_CACHE_DIR");
    if condition.mesa_cache {
        command.env_remove("MESA_SHADER_CACHE_DISABLE");
    } else {
        command.env("MESA_SHADER_CACHE_DISABLE", "true");
    }
    let start = Instant::now();
    let output = command.output().expect("the child runs");
    let process = ms(start.elapsed());
    let stdout = String::from_utf8_lossy(&output.stdout);
    let Some(line) = stdout.lines().find_map(|l| l.strip_prefix("RESULT ")) else {
        panic!(
            "child {preset} ({}) printed no result: {}\n{}",
            condition.name,
            stdout,
            String::from_utf8_lossy(&output.stderr)
        );
    };
    let numbers: Vec<f64> = line
        .split_whitespace()
        .map(|n| n.parse().expect("a number"))
        .collect();
    Sample {
        construct: numbers[0],
        setup: numbers[1],
        prewarm: numbers[2],
        frames: numbers[3..].to_vec(),
        process,
    }
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

/// The medians of one condition: construct, setup, each frame, steady.
struct Row {
    construct: f64,
    setup: f64,
    prewarm: f64,
    frames: Vec<f64>,
    steady: f64,
    process: f64,
}

fn summarise(samples: &[Sample]) -> Row {
    let n_frames = samples[0].frames.len();
    let frames: Vec<f64> = (0..n_frames)
        .map(|i| median(samples.iter().map(|s| s.frames[i]).collect()))
        .collect();
    // Steady state: the median of every run's frames from the third on.
    let steady = median(
        samples
            .iter()
            .flat_map(|s| s.frames[2..].iter().copied())
            .collect(),
    );
    Row {
        construct: median(samples.iter().map(|s| s.construct).collect()),
        setup: median(samples.iter().map(|s| s.setup).collect()),
        prewarm: median(samples.iter().map(|s| s.prewarm).collect()),
        frames,
        steady,
        process: median(samples.iter().map(|s| s.process).collect()),
    }
}

fn scratch_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("taos-first-frames-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir
}

fn parent(args: &Args) {
    let scratch = scratch_dir();
    println!(
        "first frames at {}x{}, {} runs per condition (medians, ms; GPU waited after each frame)",
        args.size.0, args.size.1, args.runs
    );
    for preset in PRESETS {
        // One cache home per condition, filled by one untimed run where the
        // condition keeps a cache.
        let homes: Vec<PathBuf> = CONDITIONS
            .iter()
            .map(|c| {
                let home = scratch.join(preset).join(c.name);
                std::fs::create_dir_all(&home).expect("a cache home");
                if !c.fresh && c.mesa_cache {
                    run_child(preset, c, &home, args);
                }
                home
            })
            .collect();
        let mut samples: Vec<Vec<Sample>> = vec![Vec::new(); CONDITIONS.len()];
        for run in 0..args.runs {
            for (i, c) in CONDITIONS.iter().enumerate() {
                let home = if c.fresh {
                    homes[i].join(run.to_string())
                } else {
                    homes[i].clone()
                };
                samples[i].push(run_child(preset, c, &home, args));
            }
        }
        println!("\n{preset}");
        let frame_heads: Vec<String> = (1..=args.frames).map(|i| format!("f{i}")).collect();
        println!(
            "{:<14} {:>9} {:>8} {:>8} {} {:>7} {:>7} {:>11} {:>8} {:>8}",
            "condition",
            "construct",
            "setup",
            "prewarm",
            frame_heads
                .iter()
                .map(|h| format!("{h:>7}"))
                .collect::<Vec<_>>()
                .join(" "),
            "steady",
            "stall",
            "to-frame-1",
            "vs cold",
            "process",
        );
        let rows: Vec<Row> = samples.iter().map(|s| summarise(s)).collect();
        let cold_total = rows[0].construct + rows[0].frames[0];
        for (c, row) in CONDITIONS.iter().zip(&rows) {
            // Start to the first frame shown: the prewarm is part of it.
            let total = row.construct + row.prewarm + row.frames[0];
            println!(
                "{:<14} {:>9.1} {:>8.1} {:>8.1} {} {:>7.1} {:>7.1} {:>11.1} {:>8.2} {:>8.1}",
                c.name,
                row.construct,
                row.setup,
                row.prewarm,
                row.frames
                    .iter()
                    .map(|f| format!("{f:>7.1}"))
                    .collect::<Vec<_>>()
                    .join(" "),
                row.steady,
                row.frames[0] - row.steady,
                total,
                total / cold_total,
                row.process,
            );
        }
    }
    if let Err(error) = std::fs::remove_dir_all(&scratch) {
        eprintln!("could not remove {}: {error}", scratch.display());
    }
}
