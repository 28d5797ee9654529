//! crafty's far horizon: what a view of 16, 32 and 64 chunks costs, with
//! level-of-detail terrain beyond the near chunks
//! ([`crafty::lod`]), on seed 42 of the biome generator.
//!
//! For each view distance: first a standing start (a fresh world, nothing
//! generated beyond the player's chunk) until the whole view is drawn (the
//! near chunks generated and meshed, every far tile resident: "horizon
//! complete"), then a flight in a straight line at 20 blocks a second.
//! Frames come at 60 Hz, as in a window (the workers get the time between
//! frames, as in the game), and each measures the CPU side of a frame: the
//! tick, then [`Session::sync_render`] (generation, meshing and far tiles
//! handed to the workers, finished ones to the renderer's handle). There
//! is no GPU: the handle's queue is drained each frame as an upload would
//! drain it, and the quad bytes it held are counted as GPU memory.
//!
//! Reported per view: the median, 99th percentile and worst frame, the
//! frames over 16.7 ms (the goal: none at 32, under 1% at 64), chunks
//! resident (near chunks with their blocks, far tiles with only quads),
//! the process's resident memory at the end and at its peak (the goal:
//! under 1 GiB at 64), the GPU bytes of quads, and the time from the
//! standing start until the horizon is complete.
//!
//! Run: `cargo bench -p taos_benches --bench crafty_horizon` (60 s of
//! flight per view, about five minutes in all);
//! `-- --seconds 20 --views 32,64` flies shorter, or fewer views.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use crafty::game::{state, teleport};
use crafty::inventory::GameMode;
use crafty::render::{CraftyPipelineFeature, CraftyRenderHandle, Upload};
use crafty::save::{PlayerState, SavedWorld};
use crafty::session::{MESH_JOBS_PER_FRAME, MESH_UPLOADS_PER_FRAME, Session};
use crafty::world::TerrainGenerator;
use glam::Vec3;
use taos_engine::game_loop::{ActionFlags, GameLoop, ManualClock};

/// Blocks flown each 60 Hz frame: 20 blocks a second.
const STEP: f32 = 1.0 / 3.0;
/// A 60 Hz frame.
const FRAME: Duration = Duration::from_nanos(16_666_667);
/// The longest a standing start may take before it is reported unfinished.
const START_LIMIT: Duration = Duration::from_secs(180);
/// Where the flight starts and how high it flies.
const START: Vec3 = Vec3::new(16.5, 120.0, 16.5);

/// What the bench is asked to do.
struct Options {
    seconds: u32,
    views: Vec<i32>,
}

impl Options {
    fn parse() -> Result<Self, String> {
        let mut options = Self {
            seconds: 60,
            views: vec![16, 32, 64],
        };
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--seconds" => {
                    let value = args.next().unwrap_or_default();
                    options.seconds = value.parse().ok().filter(|&s| s > 0).ok_or(format!(
                        "--seconds takes a whole number above 0, not {value:?}"
                    ))?;
                }
                "--views" => {
                    let value = args.next().unwrap_or_default();
                    options.views = value
                        .split(',')
                        .map(|v| v.trim().parse::<i32>())
                        .collect::<Result<_, _>>()
                        .ok()
                        .filter(|v: &Vec<i32>| {
                            !v.is_empty() && v.iter().all(|d| (2..=64).contains(d))
                        })
                        .ok_or(format!(
                            "--views takes distances 2 to 64 like 16,32,64, not {value:?}"
                        ))?;
                }
                // `cargo bench` passes `--bench`.
                _ => {}
            }
        }
        Ok(options)
    }
}

/// The quads the renderer would hold: every upload's bytes, by key.
#[derive(Default)]
struct GpuStandIn {
    resident: HashMap<Upload, usize>,
}

impl GpuStandIn {
    fn upload(&mut self, render: &CraftyRenderHandle) {
        for (key, bytes) in render.take_uploads() {
            match bytes {
                Some(bytes) => self.resident.insert(key, bytes),
                None => self.resident.remove(&key),
            };
        }
    }

    fn bytes(&self) -> usize {
        self.resident.values().sum()
    }
}

/// One 60 Hz frame's CPU work at `at`; returns how long it took.
fn frame(session: &mut Session, game: &mut GameLoop, gpu: &mut GpuStandIn, at: Vec3) -> Duration {
    let start = Instant::now();
    teleport(game, at);
    game.step_with(ActionFlags(0));
    session.sync_render(game, MESH_JOBS_PER_FRAME, MESH_UPLOADS_PER_FRAME);
    let took = start.elapsed();
    gpu.upload(session.render());
    took
}

/// Memory of this process, from `/proc/self/status`: resident now and at
/// its peak, bytes (zero where there is no such file).
fn memory() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|kb| kb.parse::<u64>().ok())
            .map_or(0, |kb| kb * 1024)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

struct Report {
    view: i32,
    horizon: Option<Duration>,
    frames: Vec<Duration>,
    chunks: usize,
    far_tiles: usize,
    gpu_bytes: usize,
    block_bytes: usize,
    rss: u64,
}

fn run(view: i32, seconds: u32) -> Report {
    let mut record = SavedWorld::create("Horizon", 42, GameMode::Creative, 0)
        .with_generator(TerrainGenerator::Biomes);
    record.player = PlayerState {
        x: START.x,
        y: START.y,
        z: START.z,
        yaw: 0.0,
        pitch: -0.2,
    };
    let (_, render) = CraftyPipelineFeature::new();
    let (mut session, mut game) = Session::fresh(record, ManualClock::new(), render);
    session.set_view_distance(&mut game, view);
    let mut gpu = GpuStandIn::default();
    // A standing start: paced frames until the whole view is drawn.
    let started = Instant::now();
    let mut horizon = None;
    let mut n = 0u32;
    while started.elapsed() < START_LIMIT {
        let due = started + FRAME * n;
        std::thread::sleep(due.saturating_duration_since(Instant::now()));
        frame(&mut session, &mut game, &mut gpu, START);
        n += 1;
        if session.horizon_complete(&game) {
            horizon = Some(started.elapsed());
            break;
        }
    }
    let count = seconds as usize * 60;
    let mut frames = Vec::with_capacity(count);
    let takeoff = Instant::now();
    for i in 0..count {
        let due = takeoff + FRAME * i as u32;
        std::thread::sleep(due.saturating_duration_since(Instant::now()));
        let at = START - Vec3::Z * (i as f32 * STEP);
        frames.push(frame(&mut session, &mut game, &mut gpu, at));
    }
    let world = &state(&game).world;
    Report {
        view,
        horizon,
        frames,
        chunks: world.loaded_chunks().count(),
        far_tiles: session.far_stats().resident,
        gpu_bytes: gpu.bytes(),
        block_bytes: world.block_bytes(),
        rss: memory().0,
    }
}

fn main() {
    let options = match Options::parse() {
        Ok(options) => options,
        Err(message) => {
            eprintln!("crafty_horizon: {message}");
            std::process::exit(2);
        }
    };
    let mib = |bytes: u64| bytes as f64 / (1024.0 * 1024.0);
    for &view in &options.views {
        let mut report = run(view, options.seconds);
        report.frames.sort_unstable();
        let frames = &report.frames;
        let at = |q: f64| frames[((frames.len() - 1) as f64 * q) as usize];
        let late = frames.iter().filter(|&&t| t > FRAME).count();
        let horizon = report
            .horizon
            .map_or(format!("not within {START_LIMIT:?}"), |t| {
                format!("{:.1} s", t.as_secs_f64())
            });
        println!(
            "crafty_horizon/view {}: {} s at 20 blocks/s: median {:?}, p99 {:?}, worst {:?}, {late} of {} frames over 16.7 ms ({:.2}%); \
             {} near chunks ({:.1} MiB of blocks), {} far tiles; GPU quads {:.1} MiB; resident {:.0} MiB (peak so far {:.0} MiB); horizon complete from a standing start in {horizon}",
            report.view,
            options.seconds,
            at(0.5),
            at(0.99),
            at(1.0),
            frames.len(),
            100.0 * late as f64 / frames.len() as f64,
            report.chunks,
            mib(report.block_bytes as u64),
            report.far_tiles,
            mib(report.gpu_bytes as u64),
            mib(report.rss),
            mib(memory().1),
        );
    }
}
