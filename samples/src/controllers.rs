//! The controllers sample: a courtyard of pillars seen through the engine's
//! camera and player controllers. Tab cycles orbit (drag, wheel, pinch),
//! fly (WASD, E/Q, hold the left button to look) and walk (WASD, Space,
//! Shift to crouch, Control to run, F to fly; the mouse looks).

use glam::{Quat, Vec3};
use taos_engine::Engine;
use taos_engine::controllers::{
    Aabb, BoxWorld, CameraController, PlayerController, SceneCollision,
};
use taos_engine::prelude::*;
use taos_engine::renderer::resources::{MeshData, PbrMaterial};

/// Which controller drives the camera.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rig {
    /// Orbit around the courtyard's centre.
    Orbit,
    /// Fly freely.
    Fly,
    /// Walk as a player, colliding with the pillars.
    Walk,
}

/// Holds all three controllers and runs the chosen one; Tab picks the next.
/// When it switches, the new controller starts where the camera is.
pub struct RigSwitcher {
    /// The controller running now.
    pub rig: Rig,
    orbit: CameraController,
    fly: CameraController,
    walk: PlayerController,
}

impl RigSwitcher {
    fn new() -> Self {
        Self {
            rig: Rig::Orbit,
            orbit: CameraController::orbit(Vec3::new(0.0, 1.0, 0.0), 14.0),
            fly: CameraController::fly(),
            walk: PlayerController::default(),
        }
    }

    /// Turns the walking player to face `yaw` radians (0 looks down -Z).
    pub fn set_walk_heading(&mut self, yaw: f32) {
        self.walk.yaw = yaw;
        self.walk.pitch = 0.0;
    }

    fn switch(&mut self, cx: &mut BehaviourContext<'_>) -> BehaviourResult {
        let (eye, yaw, pitch) = match self.rig {
            Rig::Orbit => (cx.transform().position, self.orbit.yaw, self.orbit.pitch),
            Rig::Fly => (cx.transform().position, self.fly.yaw, self.fly.pitch),
            Rig::Walk => (cx.transform().position, self.walk.yaw, self.walk.pitch),
        };
        self.rig = match self.rig {
            Rig::Orbit => Rig::Fly,
            Rig::Fly => Rig::Walk,
            Rig::Walk => Rig::Orbit,
        };
        match self.rig {
            Rig::Orbit => {}
            Rig::Fly => {
                self.fly.yaw = yaw;
                self.fly.pitch = pitch;
            }
            Rig::Walk => {
                self.walk.yaw = yaw;
                self.walk.pitch = pitch.clamp(-0.5, 0.5);
                let feet = Vec3::new(eye.x, eye.y.max(0.0), eye.z);
                self.walk.teleport(feet);
                self.walk.motor.flying = eye.y > 3.0;
            }
        }
        Ok(())
    }
}

impl Behaviour for RigSwitcher {
    fn update(&mut self, cx: &mut BehaviourContext<'_>, dt: f32) -> BehaviourResult {
        if cx.resource::<Input>().just_pressed(Key::Tab) {
            self.switch(cx)?;
        }
        match self.rig {
            Rig::Orbit => self.orbit.update(cx, dt),
            Rig::Fly => self.fly.update(cx, dt),
            Rig::Walk => self.walk.update(cx, dt),
        }
    }
}

/// The pillars' footprint: 2 x 2 m, 4 m tall, on a ring of radius 7.
fn pillar_boxes() -> Vec<Aabb> {
    (0..8)
        .map(|i| {
            let angle = i as f32 / 8.0 * std::f32::consts::TAU;
            let centre = Vec3::new(angle.cos() * 7.0, 0.0, angle.sin() * 7.0);
            Aabb::new(
                centre - Vec3::new(1.0, 0.0, 1.0),
                centre + Vec3::new(1.0, 4.0, 1.0),
            )
        })
        .collect()
}

/// Spawns a 60 m square of grass in `colour` at y = 0; returns its
/// collision box (the ground's top face at y = 0), the first of a yard's solids.
///
/// # Errors
/// If the ground's renderer cannot be added (never on a fresh object).
pub(crate) fn grass_ground(engine: &mut Engine, colour: Vec3) -> anyhow::Result<Vec<Aabb>> {
    let (assets, gpu) = engine.renderer().assets_mut();
    let mesh = assets.add_mesh(gpu, "ground", &MeshData::plane(60.0));
    let grass = assets.add_material(PbrMaterial {
        roughness: 0.95,
        ..PbrMaterial::color(colour)
    });
    crate::name_assets(engine, &[("ground", mesh)], &[("grass", grass)])?;
    let scene = engine.scene_mut();
    let ground = scene.spawn("Ground");
    scene.add_component(ground, MeshRenderer::new(mesh.handle(), grass.handle()))?;
    Ok(vec![Aabb::new(
        Vec3::new(-30.0, -1.0, -30.0),
        Vec3::new(30.0, 0.0, 30.0),
    )])
}

/// Fills `engine` with the courtyard, its collision and the switchable camera.
///
/// # Errors
/// If a component cannot be added (never for this fixed scene).
pub fn controllers(engine: &mut Engine) -> anyhow::Result<()> {
    let (assets, gpu) = engine.renderer().assets_mut();
    let cube = assets.add_mesh(gpu, "cube", &MeshData::cube(1.0));
    let stone = assets.add_material(PbrMaterial {
        roughness: 0.8,
        ..PbrMaterial::color(Vec3::new(0.55, 0.5, 0.45))
    });
    crate::name_assets(engine, &[("cube", cube)], &[("stone", stone)])?;
    let mut solids = grass_ground(engine, Vec3::new(0.25, 0.45, 0.2))?;
    let scene = engine.scene_mut();
    for (i, pillar) in pillar_boxes().into_iter().enumerate() {
        let centre = (pillar.min + pillar.max) * 0.5;
        let size = pillar.max - pillar.min;
        let object = scene.spawn_with(
            format!("Pillar {i}"),
            Transform::from_trs(centre, Quat::IDENTITY, size),
        );
        scene.add_component(object, MeshRenderer::new(cube.handle(), stone.handle()))?;
        solids.push(pillar);
    }
    scene
        .world_mut()
        .insert_resource(SceneCollision(Box::new(BoxWorld(solids))));
    let sun = scene.spawn("Sun");
    scene.add_component(
        sun,
        DirectionalLight::new(Vec3::new(-0.4, -1.0, -0.3), Vec3::ONE, 3.0),
    )?;
    let camera = scene.spawn("Camera");
    scene.add_component(camera, Camera::perspective(60.0, 0.1, 200.0, 4.0 / 3.0)?)?;
    scene.add_behaviour(camera, RigSwitcher::new())?;
    Ok(())
}
