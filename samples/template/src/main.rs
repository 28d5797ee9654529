//! The smallest Taos game that is a game: a window, a lit scene, a spinning
//! cube, a camera, and the arrow keys to turn the cube. Start from here.
//!
//! ```sh
//! cargo run                    # a window
//! cargo run -- --seconds 3     # closes itself after 3 s (what CI runs)
//! ```

use std::time::{Duration, Instant};

use taos_engine::prelude::*;
use taos_engine::renderer::presets::{PresetOptions, forward_preset};
use taos_engine::renderer::resources::{MeshData, PbrMaterial};
use taos_engine::{App, AppError, Engine, EngineConfig};

/// The game's own state: what it spawned, and how long to run (tests).
struct MyGame {
    cube: Option<GameObject>,
    run_for: Option<Duration>,
    started: Option<Instant>,
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
        if let Some(mut cube) = self
            .cube
            .and_then(|id| engine.scene_mut().object_mut(id).ok())
        {
            let turned = Quat::from_rotation_y(boost * dt) * cube.rotation();
            cube.set_rotation(turned);
        }
        if let (Some(run_for), Some(started)) = (self.run_for, self.started) {
            if started.elapsed() >= run_for {
                engine.request_exit();
            }
        }
        engine.request_redraw();
        Ok(())
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let run_for = match std::env::args().skip(1).collect::<Vec<_>>().as_slice() {
        [] => None,
        [flag, seconds] if flag == "--seconds" => Some(Duration::from_secs_f64(seconds.parse()?)),
        other => return Err(format!("unknown arguments {other:?} (try --seconds 3)").into()),
    };
    let game = MyGame {
        cube: None,
        run_for,
        started: None,
    };
    Engine::run_app(
        "my game",
        EngineConfig::new(960, 540),
        forward_preset(PresetOptions::default()),
        game,
    )?;
    Ok(())
}
