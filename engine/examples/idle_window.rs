//! The engine in a window (the facade's one event loop, the real renderer)
//! measuring the CPU the process uses while the loop idles.
//!
//! ```sh
//! xvfb-run -a cargo run -p taos_engine --example idle_window -- --seconds 10
//! ```
//!
//! Modes (`--mode`):
//! - `paused` (default): auto-pause stops the loop after its first tick (the
//!   scene has nothing to run); the window sleeps until an event.
//! - `timer`: auto-pause on, a scene with a behaviour that does nothing and a
//!   game timer 5 s out: the loop settles, sleeps until the timer's tick,
//!   fires it, then pauses.
//! - `ticking`: a scene that moves every tick at 60 Hz, presenting on ticks;
//!   the window sleeps between ticks.
//! - `uncapped`: variable steps, redrawing continuously (the busy baseline).
//!
//! Linux only for the measurement (it reads `/proc/self/stat`).

use std::time::{Duration, Instant};

use taos_engine::game_loop::{
    AutoPauseConfig, FixedStep, InputEvent, Key, LoopConfig, LoopPolicy, PresentOn, Rate,
};
use taos_engine::prelude::*;
use taos_engine::renderer::features::SkyOption;
use taos_engine::renderer::presets::{PresetOptions, forward_preset};
use taos_engine::{App, AppError, Engine, EngineConfig, Propagate, WindowEvent};

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Paused,
    Timer,
    Ticking,
    Uncapped,
}

struct Spin;

impl Behaviour for Spin {
    fn update(&mut self, cx: &mut BehaviourContext<'_>, dt: f32) -> BehaviourResult {
        *cx.rotation_mut() *= Quat::from_rotation_y(dt);
        Ok(())
    }
}

/// The measured game: fills the scene for its mode, then watches the clock.
struct IdleMeter {
    mode: Mode,
    measure: Duration,
    started: Option<(Instant, Duration)>,
}

impl App for IdleMeter {
    fn start(&mut self, engine: &mut Engine) -> Result<(), AppError> {
        let scene = engine.scene_mut();
        let camera = scene.spawn("Camera");
        scene.add_component(camera, Camera::perspective(60.0, 0.1, 100.0, 1.6)?)?;
        match self.mode {
            Mode::Timer => {
                struct Idle;
                impl Behaviour for Idle {}
                let waiter = scene.spawn("Waiter");
                scene.add_behaviour(waiter, Idle)?;
                scene
                    .world_mut()
                    .resource_mut::<taos_engine::game_loop::Timers>()
                    .after(
                        taos_engine::game_loop::Delay::Seconds(5.0),
                        taos_engine::game_loop::TimerAction::Event(1),
                    )?;
            }
            Mode::Ticking => {
                let cube = scene.spawn("Cube");
                scene.add_behaviour(cube, Spin)?;
            }
            Mode::Paused | Mode::Uncapped => {}
        }
        // Window, GPU and pipelines are built: measure from here.
        self.started = Some((Instant::now(), cpu_time()));
        Ok(())
    }

    fn window_event(
        &mut self,
        _engine: &mut Engine,
        event: &WindowEvent,
    ) -> Result<Propagate, AppError> {
        // Only Space reaches the game (it wakes a paused loop).
        Ok(match event {
            WindowEvent::Input {
                event: InputEvent::KeyDown(key) | InputEvent::KeyUp(key),
                ..
            } if *key != Key::Space => Propagate::Stop,
            _ => Propagate::Continue,
        })
    }

    fn update(&mut self, engine: &mut Engine) -> Result<(), AppError> {
        let Some((at, cpu_start)) = self.started else {
            return Ok(());
        };
        let end = at + self.measure;
        if Instant::now() < end {
            // Never sleep past the end of the measurement.
            engine.wake_at(end);
            return Ok(());
        }
        let wall = at.elapsed();
        let cpu = cpu_time().saturating_sub(cpu_start);
        let stats = engine.window_stats();
        let game = engine.game_loop();
        println!(
            "idle_window: {:.1} s wall, {:.3} s CPU = {:.2}% of one core; {} wake-ups, {} callbacks, {} ticks, {} frames, paused: {:?}",
            wall.as_secs_f64(),
            cpu.as_secs_f64(),
            100.0 * cpu.as_secs_f64() / wall.as_secs_f64(),
            stats.wakeups,
            stats.redraws,
            game.tick_count(),
            game.frame_count(),
            game.pause_reason(),
        );
        engine.request_exit();
        Ok(())
    }
}

/// Fixed 60 Hz ticks, a frame only when a tick ran: between ticks the window
/// sleeps (a fixed loop presenting every callback redraws continuously to
/// interpolate, which is a display-rate cost, not an idle one).
fn present_on_tick() -> Result<LoopConfig, Box<dyn std::error::Error>> {
    let mut step = FixedStep::new(Rate::hz(60)?);
    step.present = PresentOn::Tick;
    Ok(LoopConfig {
        policy: LoopPolicy::Fixed(step),
        ..LoopConfig::default()
    })
}

/// User plus system CPU time of this process, from `/proc/self/stat`
/// (fields 14 and 15, in clock ticks of 1/100 s).
fn cpu_time() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after_name = stat.rsplit(')').next().unwrap_or("");
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    // After the ")" the state is field 3, so utime (14) and stime (15) sit at 11 and 12.
    Duration::from_millis((ticks(11) + ticks(12)) * 10)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut seconds = 10.0;
    let mut mode = Mode::Paused;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--seconds" => seconds = args.next().ok_or("--seconds needs a value")?.parse()?,
            "--mode" => {
                mode = match args.next().as_deref() {
                    Some("paused") => Mode::Paused,
                    Some("timer") => Mode::Timer,
                    Some("ticking") => Mode::Ticking,
                    Some("uncapped") => Mode::Uncapped,
                    other => return Err(format!("unknown mode {other:?}").into()),
                }
            }
            other => return Err(format!("unknown argument {other}").into()),
        }
    }
    let loop_config = match mode {
        Mode::Paused | Mode::Timer => LoopConfig {
            auto_pause: Some(AutoPauseConfig::default()),
            ..present_on_tick()?
        },
        Mode::Ticking => present_on_tick()?,
        Mode::Uncapped => LoopConfig::default(),
    };
    let config = EngineConfig {
        loop_config,
        ..EngineConfig::new(320, 200)
    };
    // The lightest real frame: a sky colour, tonemapped (no shadow pass).
    let preset = forward_preset(PresetOptions {
        sky: SkyOption::Color(Vec3::new(0.2, 0.3, 0.5)),
        shadow: None,
        ..PresetOptions::default()
    });
    let meter = IdleMeter {
        mode,
        measure: Duration::from_secs_f64(seconds),
        started: None,
    };
    Engine::run_app("taos idle_window", config, preset, meter)?;
    Ok(())
}
