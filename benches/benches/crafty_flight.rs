//! What flying over crafty's world costs a frame: the CPU side of every
//! frame (the tick, then handing chunks to the generator and mesher
//! workers and meshes to the renderer's handle; no GPU) while flying 64
//! chunks (2048 blocks) in a straight line at 20 blocks a second over a
//! biome world.
//!
//! Frames come at 60 Hz, as in a window, so a flight (6144 frames) takes
//! about 100 s of wall time: the workers get the time between frames, as they would in
//! the game (an unpaced loop outruns them and measures something else).
//! That is why this is a plain timed program, not a criterion loop.
//!
//! Cases: view distance 8 and 16 with background generation and meshing,
//! and view 8 with every chunk generated in the tick (how crafty worked
//! before: the baseline). For each: the median, 99th percentile and worst
//! frame, the frames over 16.7 ms, and the chunks resident at the end with
//! the bytes their blocks take (uniform chunks take none, packed ones 4 to
//! 16 KiB) against 32 KiB a chunk as plain arrays.
//!
//! Run: `cargo bench -p taos_benches --bench crafty_flight` (about five
//! minutes; `-- N` flies each case N times, once by default).

use std::time::{Duration, Instant};

use crafty::game::{state, state_mut, teleport};
use crafty::inventory::GameMode;
use crafty::render::CraftyPipelineFeature;
use crafty::save::{PlayerState, SavedWorld};
use crafty::session::{MESH_JOBS_PER_FRAME, MESH_UPLOADS_PER_FRAME, Session};
use crafty::world::{CHUNK_VOLUME, TerrainGenerator};
use glam::Vec3;
use taos_engine::game_loop::{ActionFlags, ManualClock};

/// Blocks flown each 60 Hz frame: 20 blocks a second.
const STEP: f32 = 1.0 / 3.0;
/// 64 chunks.
const FLIGHT: f32 = 2048.0;
/// A 60 Hz frame.
const FRAME: Duration = Duration::from_nanos(16_666_667);

/// What one flight left: every frame's CPU time, the chunks loaded at the
/// end and the bytes their blocks take.
struct Flight {
    frames: Vec<Duration>,
    chunks: usize,
    block_bytes: usize,
}

fn fly(radius: i32, background: bool) -> Flight {
    let mut record = SavedWorld::create("Flight", 42, GameMode::Creative, 0)
        .with_generator(TerrainGenerator::Biomes);
    record.player = PlayerState {
        x: 16.5,
        y: 120.0,
        z: 16.5,
        yaw: 0.0,
        pitch: -0.2,
    };
    let (_, render) = CraftyPipelineFeature::new();
    let (mut session, mut game) = Session::fresh(record, ManualClock::new(), render);
    state_mut(&mut game).set_view_radius(radius);
    state_mut(&mut game).set_background_generation(background);
    session.finish_meshing(&mut game);
    let count = (FLIGHT / STEP) as usize;
    let mut frames = Vec::with_capacity(count);
    let takeoff = Instant::now();
    for frame in 0..count {
        let due = takeoff + FRAME * frame as u32;
        std::thread::sleep(due.saturating_duration_since(Instant::now()));
        let start = Instant::now();
        let z = 16.5 - frame as f32 * STEP;
        teleport(&mut game, Vec3::new(16.5, 120.0, z));
        game.step_with(ActionFlags(0));
        session.sync_render(&mut game, MESH_JOBS_PER_FRAME, MESH_UPLOADS_PER_FRAME);
        frames.push(start.elapsed());
    }
    let world = &state(&game).world;
    Flight {
        frames,
        chunks: world.loaded_chunks().count(),
        block_bytes: world.block_bytes(),
    }
}

fn main() {
    // `cargo bench` passes `--bench`; a bare number is the flights per case.
    let flights = std::env::args()
        .skip(1)
        .find_map(|arg| arg.parse::<usize>().ok())
        .unwrap_or(1)
        .max(1);
    for (radius, background) in [(8, true), (16, true), (8, false)] {
        let name = if background { "background" } else { "in_tick" };
        let mut frames = Vec::new();
        let mut last = None;
        for _ in 0..flights {
            let flight = fly(radius, background);
            frames.extend_from_slice(&flight.frames);
            last = Some(flight);
        }
        let Some(last) = last else { continue };
        frames.sort_unstable();
        let at = |q: f64| frames[((frames.len() - 1) as f64 * q) as usize];
        let late = frames.iter().filter(|&&t| t > FRAME).count();
        let mib = |bytes: usize| bytes as f64 / (1024.0 * 1024.0);
        println!(
            "crafty_flight/{name} view {radius}: median frame {:?}, 99th percentile {:?}, worst {:?}, {late} over 16.7 ms, of {} frames; {} chunks resident, {:.1} MiB of blocks ({:.0} MiB as arrays)",
            at(0.5),
            at(0.99),
            at(1.0),
            frames.len(),
            last.chunks,
            mib(last.block_bytes),
            mib(last.chunks * CHUNK_VOLUME),
        );
    }
}
