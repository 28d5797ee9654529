//! What crafty's shadows and light shafts cost: seed 42's biome world at
//! 17:00 (the sun low over the hills, ahead of the camera) rendered at
//! 1280 x 720, one whole engine frame with the GPU's work waited for, with
//! neither (the baseline, measured in the same run), each shadow quality,
//! light shafts alone, and the defaults (medium shadows and shafts).
//!
//! The shadow atlas is only redrawn when the cascades or the chunks change.
//! Most configurations nudge the light every frame, so every frame redraws
//! it (the cost while the camera moves); `shadows_medium_still` does not
//! (the cost while it stands still). After each, the GPU time of every pass
//! of its last timed frame is printed.
//!
//! Run: `cargo bench -p taos_benches --bench crafty_lighting -- --warm-up-time 1 --measurement-time 5`

use std::hint::black_box;

use crafty::inventory::GameMode;
use crafty::render::{CraftyPipelineFeature, CraftyRenderHandle, Godrays, crafty_preset};
use crafty::save::{PlayerState, SavedWorld};
use crafty::session::Session;
use crafty::settings::ShadowQuality;
use crafty::world::TerrainGenerator;
use criterion::{Criterion, criterion_group, criterion_main};
use taos_benches::{frame_waited, gpu_pass_times};
use taos_engine::game_loop::ManualClock;
use taos_engine::{Engine, EngineConfig};

/// The engine drawing seed 42 from the hills south of spawn, looking west
/// into the evening sun, with every chunk in view meshed.
fn engine() -> (Engine, CraftyRenderHandle) {
    let mut record = SavedWorld::create("Lighting bench", 42, GameMode::Creative, 0)
        .with_generator(TerrainGenerator::Biomes);
    // Standing on the ground, so the view stays still from frame to frame.
    let ground = crafty::world::Terrain::with_generator(42, TerrainGenerator::Biomes)
        .surface_height(8, 30) as f32;
    record.player = PlayerState {
        x: 8.5,
        y: ground + 1.0,
        z: 30.5,
        yaw: std::f32::consts::FRAC_PI_2,
        pitch: 0.05,
    };
    let (feature, render) = CraftyPipelineFeature::new();
    let (mut session, mut game) = Session::fresh(record, ManualClock::new(), render.clone());
    {
        let mut state = crafty::game::state_mut(&mut game);
        state.time = state.time.at_clock(17 * 60);
    }
    session.finish_meshing(&mut game);
    let mut engine = Engine::headless(EngineConfig::new(1280, 720), crafty_preset(feature))
        .expect("benches need a GPU adapter (lavapipe on a machine without one)");
    engine.set_game_loop(game);
    engine.frame().expect("renders");
    (engine, render)
}

/// Each configuration: a name, the shadow quality, whether shafts show,
/// and whether the light moves every frame.
const CONFIGURATIONS: [(&str, ShadowQuality, bool, bool); 7] = [
    ("none", ShadowQuality::Off, false, true),
    ("shadows_low", ShadowQuality::Low, false, true),
    ("shadows_medium", ShadowQuality::Medium, false, true),
    ("shadows_medium_still", ShadowQuality::Medium, false, false),
    ("shadows_high", ShadowQuality::High, false, true),
    ("godrays", ShadowQuality::Off, true, true),
    ("defaults", ShadowQuality::Medium, true, true),
];

fn print_gpu_passes(name: &str, engine: &mut Engine, render: &CraftyRenderHandle) {
    let stats = render.stats();
    let times = gpu_pass_times(engine).unwrap_or_else(|| "no GPU timings on this device".into());
    eprintln!(
        "{name}: {} shadow draws, godrays {}; {times}",
        stats.shadow_draws, stats.godrays
    );
}

fn lighting(c: &mut Criterion) {
    let mut group = c.benchmark_group("crafty_lighting_1280x720");
    group.sample_size(10);
    let (mut engine, render) = engine();
    let sky = render.sky();
    // The light turned by a hundredth of a radian about the vertical, and
    // back: enough for the shadows to follow.
    let mut nudged = sky;
    nudged.light_direction = glam::Quat::from_rotation_y(0.01) * sky.light_direction;
    for (name, shadows, shafts, moving) in CONFIGURATIONS {
        render.set_shadows(shadows.shadows());
        render.set_godrays(if shafts {
            Godrays::default()
        } else {
            Godrays::OFF
        });
        render.set_sky(sky);
        let mut flip = false;
        group.bench_function(name, |b| {
            b.iter(|| {
                if moving {
                    flip = !flip;
                    render.set_sky(if flip { nudged } else { sky });
                }
                black_box(frame_waited(&mut engine).passes)
            });
        });
        print_gpu_passes(name, &mut engine, &render);
    }
    group.finish();
}

criterion_group!(benches, lighting);
criterion_main!(benches);
