//! A bare winit window driving the game loop, measuring the CPU the process
//! uses while the loop idles.
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

use taos_engine::control_flow_for;
use taos_engine::game_loop::{
    AutoPauseConfig, FixedStep, GameLoop, InputEvent, Key, LoopConfig, LoopPolicy, PresentOn, Rate,
    RealClock, Wake,
};
use taos_engine::prelude::*;
use winit::application::ApplicationHandler;
use winit::event::{ElementState, StartCause, WindowEvent};
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::keyboard::{KeyCode, PhysicalKey};
use winit::window::{Window, WindowId};

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

struct App {
    game: GameLoop,
    clock: RealClock,
    window: Option<Window>,
    measure: Duration,
    started: Option<(Instant, Duration)>,
    callbacks: u64,
    /// Times the event loop woke up (every `new_events`).
    wakeups: u64,
}

impl App {
    fn follow(&self, wake: Wake, event_loop: &ActiveEventLoop) {
        let end = self.started.map(|(at, _)| at + self.measure);
        let flow = match control_flow_for(wake, &self.clock, self.window.as_ref()) {
            ControlFlow::Wait => end.map_or(ControlFlow::Wait, ControlFlow::WaitUntil),
            flow => flow,
        };
        // Never sleep past the end of the measurement.
        let flow = match (flow, end) {
            (ControlFlow::WaitUntil(t), Some(end)) => ControlFlow::WaitUntil(t.min(end)),
            (flow, _) => flow,
        };
        event_loop.set_control_flow(flow);
    }

    fn finish(&self, event_loop: &ActiveEventLoop) {
        let Some((at, cpu_start)) = self.started else {
            return;
        };
        let wall = at.elapsed();
        let cpu = cpu_time().saturating_sub(cpu_start);
        println!(
            "idle_window: {:.1} s wall, {:.3} s CPU = {:.2}% of one core; {} wake-ups, {} callbacks, {} ticks, {} frames, paused: {:?}",
            wall.as_secs_f64(),
            cpu.as_secs_f64(),
            100.0 * cpu.as_secs_f64() / wall.as_secs_f64(),
            self.wakeups,
            self.callbacks,
            self.game.tick_count(),
            self.game.frame_count(),
            self.game.pause_reason(),
        );
        event_loop.exit();
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.window.is_some() {
            return;
        }
        let attributes = Window::default_attributes()
            .with_title("taos idle_window")
            .with_inner_size(winit::dpi::LogicalSize::new(320.0, 200.0));
        match event_loop.create_window(attributes) {
            Ok(window) => {
                window.request_redraw();
                self.window = Some(window);
            }
            Err(error) => {
                eprintln!("idle_window: cannot open a window: {error}");
                event_loop.exit();
            }
        }
        self.started = Some((Instant::now(), cpu_time()));
    }

    fn new_events(&mut self, event_loop: &ActiveEventLoop, cause: StartCause) {
        self.wakeups += 1;
        if let Some((at, _)) = self.started
            && at.elapsed() >= self.measure
        {
            self.finish(event_loop);
            return;
        }
        if matches!(cause, StartCause::ResumeTimeReached { .. })
            && let Some(window) = &self.window
        {
            window.request_redraw();
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Occluded(hidden) => self.game.set_visible(!hidden),
            WindowEvent::Resized(size) => {
                // A zero-size (minimised) window shows nothing: stop ticking.
                self.game.set_visible(size.width > 0 && size.height > 0);
                self.game.set_size(size.width, size.height);
            }
            WindowEvent::KeyboardInput { event, .. } => {
                if let PhysicalKey::Code(KeyCode::Space) = event.physical_key {
                    self.game.push_input(match event.state {
                        ElementState::Pressed => InputEvent::KeyDown(Key::Space),
                        ElementState::Released => InputEvent::KeyUp(Key::Space),
                    });
                }
                if let Some(window) = &self.window {
                    window.request_redraw();
                }
            }
            WindowEvent::RedrawRequested => {
                self.callbacks += 1;
                let outcome = self.game.on_clock();
                self.follow(outcome.wake, event_loop);
            }
            _ => {}
        }
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
    let mut scene = Scene::new();
    let config = match mode {
        Mode::Paused => LoopConfig {
            auto_pause: Some(AutoPauseConfig::default()),
            ..present_on_tick()?
        },
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
            LoopConfig {
                auto_pause: Some(AutoPauseConfig::default()),
                ..present_on_tick()?
            }
        }
        Mode::Ticking => {
            let cube = scene.spawn("Cube");
            scene.add_behaviour(cube, Spin)?;
            let mut step = FixedStep::new(Rate::hz(60)?);
            step.present = PresentOn::Tick;
            LoopConfig {
                policy: LoopPolicy::Fixed(step),
                ..LoopConfig::default()
            }
        }
        Mode::Uncapped => LoopConfig::default(),
    };
    let clock = RealClock::new();
    let game = GameLoop::new(scene, config, clock)?;
    let event_loop = EventLoop::new().map_err(|error| {
        format!("{error}: no display. Run under Xvfb: xvfb-run -a cargo run -p taos_engine --example idle_window")
    })?;
    let mut app = App {
        game,
        clock,
        window: None,
        measure: Duration::from_secs_f64(seconds),
        started: None,
        callbacks: 0,
        wakeups: 0,
    };
    event_loop.run_app(&mut app)?;
    Ok(())
}
