//! The smallest Taos game that is a game: a window, a lit scene, a spinning
//! cube, a camera, the arrow keys to turn the cube, and a high score (the
//! most turns the cube made in one run) kept in the game's saves. Start
//! from here. The same code runs natively and in the browser.
//!
//! ```sh
//! cargo run                            # a window
//! cargo run -- --seconds 3             # closes itself after 3 s (what CI runs)
//! cargo run -- --speed 4               # spins four times as fast
//! cargo run -- --screenshot shot.png   # no window: renders 3 frames to a PNG
//! taos web build && taos web serve     # in the browser: http://localhost:8080/?speed=4
//! ```

use taos_engine::prelude::*;
use taos_engine::renderer::presets::{PresetOptions, forward_preset};
use taos_engine::renderer::resources::{MeshData, PbrMaterial};
use taos_engine::storage::StorageError;
use taos_engine::time::{Duration, Instant};
use taos_engine::{App, AppError, Engine, EngineConfig, HeadlessApp, Saves, Task};

/// Where the high score lives: the game's database, its store and key.
const SAVES: &str = "my_game";
const SCORES: &str = "scores";
const BEST: &str = "best";

/// What the command line (natively) or the page's address (in the browser:
/// `?seconds=3&speed=4`) asked for.
#[derive(Debug, Default)]
struct Options {
    /// Close after this long.
    run_for: Option<Duration>,
    /// Turns per second without keys held (default 1/(2π): one radian a second).
    speed: Option<f32>,
    /// Render this many frames without a window and write a PNG.
    screenshot: Option<(String, u32)>,
}

impl Options {
    fn parse(args: &[String]) -> Result<Self, String> {
        let mut options = Self::default();
        let mut frames = 3;
        let mut args = args.iter();
        while let Some(flag) = args.next() {
            let mut value = || {
                args.next()
                    .ok_or_else(|| format!("{flag} needs a value"))
            };
            let number = |text: &String| {
                text.parse::<f32>()
                    .ok()
                    .filter(|n| n.is_finite() && *n >= 0.0)
                    .ok_or_else(|| format!("{flag} {text}: not a number of 0 or more"))
            };
            match flag.as_str() {
                "--seconds" => {
                    options.run_for = Some(Duration::from_secs_f32(number(value()?)?));
                }
                "--speed" => options.speed = Some(number(value()?)?),
                "--screenshot" => options.screenshot = Some((value()?.clone(), frames)),
                "--frames" => frames = number(value()?)? as u32,
                other => {
                    return Err(format!(
                        "unknown argument {other:?} (try --seconds 3, --speed 4, --screenshot out.png)"
                    ));
                }
            }
        }
        if let Some((_, shot_frames)) = &mut options.screenshot {
            *shot_frames = frames.max(1);
        }
        Ok(options)
    }
}

/// The high score, from opening the saves to having them.
enum HighScore {
    Opening(Task<Result<Saves, StorageError>>),
    Reading(Saves, Task<Result<Option<u32>, StorageError>>),
    Ready { saves: Saves, best: u32 },
    /// No saves on this machine or in this browser (storage blocked, a
    /// corrupt file): the game goes on without a high score.
    Unavailable,
}

/// The game's own state: what it spawned, how far the cube turned, the high score.
struct MyGame {
    options: Options,
    cube: Option<GameObject>,
    started: Option<Instant>,
    /// Radians the cube turned in this run (either way).
    turned: f32,
    high_score: HighScore,
    /// The newest high score being written, if any.
    saving: Option<Task<Result<(), StorageError>>>,
    title: String,
}

impl MyGame {
    fn new(options: Options) -> Self {
        Self {
            options,
            cube: None,
            started: None,
            turned: 0.0,
            high_score: HighScore::Unavailable,
            saving: None,
            title: String::new(),
        }
    }

    /// Whole turns made in this run.
    fn turns(&self) -> u32 {
        (self.turned / std::f32::consts::TAU) as u32
    }

    /// Moves the high score on: opened, read, and saved when beaten.
    fn keep_score(&mut self, engine: &mut Engine) {
        let turns = self.turns();
        self.high_score = match std::mem::replace(&mut self.high_score, HighScore::Unavailable) {
            HighScore::Opening(mut task) => match engine.poll(&mut task) {
                None => HighScore::Opening(task),
                Some(Ok(saves)) => {
                    let read = saves.get::<u32>(SCORES, BEST);
                    HighScore::Reading(saves, read)
                }
                Some(Err(error)) => unavailable(&error),
            },
            HighScore::Reading(saves, mut task) => match engine.poll(&mut task) {
                None => HighScore::Reading(saves, task),
                Some(Ok(best)) => HighScore::Ready {
                    saves,
                    best: best.unwrap_or(0),
                },
                Some(Err(error)) => unavailable(&error),
            },
            HighScore::Ready { saves, best } if turns > best && self.saving.is_none() => {
                self.saving = Some(saves.put(SCORES, BEST, turns));
                HighScore::Ready { saves, best: turns }
            }
            other => other,
        };
        if let Some(task) = &mut self.saving
            && let Some(result) = engine.poll(task)
        {
            self.saving = None;
            if let Err(error) = result {
                // What was saved before stays; the next turn tries again.
                taos_engine::show_notice(&format!("the high score was not saved: {error}"));
            }
        }
    }

    /// The window's title (the page's, in the browser): this run and the best.
    fn show_score(&mut self, engine: &mut Engine) {
        let turns = self.turns();
        let title = match &self.high_score {
            HighScore::Ready { best, .. } => format!("my game: {turns} turns, best {best}"),
            HighScore::Unavailable => format!("my game: {turns} turns (no saves)"),
            _ => format!("my game: {turns} turns"),
        };
        if title != self.title {
            engine.set_title(&title);
            self.title = title;
        }
    }
}

fn unavailable(error: &StorageError) -> HighScore {
    taos_engine::show_notice(&format!("no high score: the saves could not be opened: {error}"));
    HighScore::Unavailable
}

impl App for MyGame {
    /// Called once, when the window and the GPU are ready: build the scene.
    fn start(&mut self, engine: &mut Engine) -> Result<(), AppError> {
        let (assets, gpu) = engine.renderer().assets_mut();
        let ground = assets.add_mesh(gpu, "ground", &MeshData::plane(10.0));
        let cube = assets.add_mesh(gpu, "cube", &MeshData::cube(1.0));
        let grey = assets.add_material(PbrMaterial::color(Vec3::splat(0.6)));
        let orange = assets.add_material(PbrMaterial::color(Vec3::new(0.9, 0.45, 0.1)));

        let scene = engine.scene_mut();
        let floor = scene.spawn("Ground");
        scene.add_component(floor, MeshRenderer::new(ground.handle(), grey.handle()))?;
        let block = scene.spawn_with("Cube", Transform::from_position(Vec3::new(0.0, 0.8, 0.0)));
        scene.add_component(block, MeshRenderer::new(cube.handle(), orange.handle()))?;
        let sun = scene.spawn("Sun");
        scene.add_component(
            sun,
            DirectionalLight::new(Vec3::new(-0.5, -1.0, -0.3), Vec3::ONE, 3.0),
        )?;
        let eye = Transform::from_trs(
            Vec3::new(0.0, 2.5, 5.0),
            Quat::from_rotation_x(-0.4),
            Vec3::ONE,
        );
        let camera = scene.spawn_with("Camera", eye);
        scene.add_component(camera, Camera::perspective(60.0, 0.1, 100.0, 16.0 / 9.0)?)?;

        self.cube = Some(block);
        self.started = Some(Instant::now());
        // The high score is read while the game starts; `update` picks it up.
        self.high_score = HighScore::Opening(Saves::open(SAVES, 1, |upgrade| {
            upgrade.create_store(SCORES)
        }));
        Ok(())
    }

    /// Called every frame: spin the cube, faster while an arrow key is held.
    fn update(&mut self, engine: &mut Engine) -> Result<(), AppError> {
        let dt = engine.time().delta();
        let boost = match engine.scene().world().get_resource::<Input>() {
            Some(input) if input.pressed(Key::ArrowLeft) => -3.0,
            Some(input) if input.pressed(Key::ArrowRight) => 3.0,
            _ => 1.0,
        };
        let speed = self.options.speed.unwrap_or(1.0) * boost;
        if let Some(mut cube) = self
            .cube
            .and_then(|id| engine.scene_mut().object_mut(id).ok())
        {
            let turned = Quat::from_rotation_y(speed * dt) * cube.rotation();
            cube.set_rotation(turned);
            self.turned += (speed * dt).abs();
        }
        self.keep_score(engine);
        self.show_score(engine);
        if let (Some(run_for), Some(started)) = (self.options.run_for, self.started)
            && started.elapsed() >= run_for
        {
            engine.request_exit();
        }
        engine.request_redraw();
        Ok(())
    }
}

fn main() -> std::process::ExitCode {
    // Errors end up on standard error natively and in the page in the browser.
    taos_engine::run_main(|| {
        let options = Options::parse(&taos_engine::args())?;
        let config = EngineConfig::new(960, 540);
        let preset = forward_preset(PresetOptions::default());
        if let Some((path, frames)) = options.screenshot.clone() {
            // No window: a few frames offscreen, then the picture.
            let mut run = HeadlessApp::new(config, preset, MyGame::new(options))?;
            for _ in 0..frames {
                run.frame()?;
            }
            run.engine_mut().screenshot(&path)?;
            return Ok(());
        }
        Engine::run_app("my game", config, preset, MyGame::new(options))?;
        Ok(())
    })
}
