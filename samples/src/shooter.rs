//! `shooter`: a small game written only against `taos_engine::prelude` and
//! the renderer's asset store. A ship slides along the bottom and fires;
//! targets fall from the sky on a game-time timer; shots that hit a target
//! remove both and score.
//!
//! It shows the engine API a game is written against: behaviours that spawn
//! and remove objects through commands, a repeating game-time timer, a
//! game-defined action set (bindings, recorded per tick), pause (time scale
//! 0) and slow motion (0.25), quick save and quick load (snapshot and
//! restore), and an error path (`?` in behaviours).
//!
//! Keys: A/D or arrows move, Space or left mouse fires, P pauses, T toggles
//! slow motion, F5 quick-saves, F9 quick-loads.

use taos_engine::Engine;
use taos_engine::deps::bevy_ecs::entity::Entity;
use taos_engine::deps::serde::{Deserialize, Serialize};
use taos_engine::game_loop::{
    ActionFlags, Bindings, GameAction, LoopConfig, LoopControl, Rate, Recording, StateHash,
    StateHasher,
};
use taos_engine::prelude::*;
use taos_engine::renderer::Renderer;
use taos_engine::renderer::features::SkyOption;
use taos_engine::renderer::presets::{PresetOptions, forward_preset};
use taos_engine::renderer::resources::{MeshData, PbrMaterial};

/// Ticks per second: the simulation is fixed-step so replays are exact.
pub const SHOOTER_HZ: u32 = 60;
/// The event tag of the target spawner's timer.
const SPAWN_EVENT: u64 = 1;
/// Half the playfield's width.
const FIELD: f32 = 6.0;

/// The shooter's actions, each one bit of the recorded flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Play {
    /// Slide left.
    Left,
    /// Slide right.
    Right,
    /// Fire a shot.
    Fire,
    /// Pause or unpause gameplay.
    Pause,
    /// Slow motion on or off.
    SlowMotion,
    /// Quick save.
    Save,
    /// Quick load.
    Load,
}

impl GameAction for Play {
    fn bit(self) -> u8 {
        self as u8
    }
}

impl Play {
    /// The flags of a tick on which `actions` are on.
    #[must_use]
    pub fn flags(actions: &[Play]) -> ActionFlags {
        ActionFlags(actions.iter().fold(0, |f, a| f | a.mask()))
    }
}

/// The key and mouse bindings.
#[must_use]
pub fn shooter_bindings() -> Bindings<Play> {
    Bindings::new()
        .key(Key::A, Play::Left)
        .key(Key::ArrowLeft, Play::Left)
        .key(Key::D, Play::Right)
        .key(Key::ArrowRight, Play::Right)
        .key(Key::Space, Play::Fire)
        .mouse(MouseButton::Left, Play::Fire)
        .key(Key::P, Play::Pause)
        .key(Key::T, Play::SlowMotion)
        .key(Key::F5, Play::Save)
        .key(Key::F9, Play::Load)
}

/// The loop the shooter runs on: fixed 60 Hz ticks.
#[must_use]
pub fn shooter_loop() -> LoopConfig {
    LoopConfig::fixed(SHOOTER_HZ).expect("60 Hz is a valid rate")
}

/// Targets hit, a resource (saved in snapshots, covered by the checksum).
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(crate = "taos_engine::deps::serde")]
pub struct Score(pub u32);

impl StateHash for Score {
    fn hash_state(&self, h: &mut StateHasher) {
        h.write_u32(self.0);
    }
}

/// Marks something a shot can hit.
#[derive(Component, Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(crate = "taos_engine::deps::serde")]
pub struct Target {
    /// Falling speed, units per game second.
    pub speed: f32,
}

/// Mesh and material handles the behaviours spawn with.
#[derive(Resource, Debug, Clone, Copy)]
struct Looks {
    shot: MeshRenderer,
    target: MeshRenderer,
}

/// The player's ship: moves, fires, and handles pause, slow motion and saves.
#[derive(Debug, Serialize, Deserialize)]
#[serde(crate = "taos_engine::deps::serde")]
pub struct Ship {
    /// Ticks until the gun can fire again.
    cooldown: u32,
}

/// A shot flying up; gone after `life` game seconds or on a hit.
#[derive(Debug, Serialize, Deserialize)]
#[serde(crate = "taos_engine::deps::serde")]
pub struct Shot {
    life: f32,
}

/// Spawns a target each time its timer fires, and re-arms the timer.
#[derive(Debug, Serialize, Deserialize)]
#[serde(crate = "taos_engine::deps::serde")]
pub struct Spawner {
    every: f64,
}

/// A target falling; gone when it reaches the ground.
#[derive(Debug, Serialize, Deserialize)]
#[serde(crate = "taos_engine::deps::serde")]
pub struct Faller;

impl Behaviour for Ship {
    fn update(&mut self, cx: &mut BehaviourContext<'_>, dt: f32) -> BehaviourResult {
        let actions = *cx.resource::<Actions>();
        // Unscaled controls: pausing and slow motion act on game time only.
        if actions.just_pressed(Play::Pause) {
            let scale = if cx.time().scale() == 0.0 { 1.0 } else { 0.0 };
            cx.time_mut().set_scale(scale)?;
        }
        if actions.just_pressed(Play::SlowMotion) {
            let scale = if cx.time().scale() == 0.25 { 1.0 } else { 0.25 };
            cx.time_mut().set_scale(scale)?;
        }
        if actions.just_pressed(Play::Save) {
            cx.resource_mut::<LoopControl>().quick_save();
        }
        if actions.just_pressed(Play::Load) {
            cx.resource_mut::<LoopControl>().quick_load();
        }
        if dt == 0.0 {
            return Ok(()); // paused
        }
        let steer = f32::from(u8::from(actions.held(Play::Right)))
            - f32::from(u8::from(actions.held(Play::Left)));
        let muzzle = {
            let mut transform = cx.transform_mut();
            transform.position.x = (transform.position.x + steer * 8.0 * dt).clamp(-FIELD, FIELD);
            transform.position + Vec3::Y * 0.6
        };
        self.cooldown = self.cooldown.saturating_sub(1);
        if actions.held(Play::Fire) && self.cooldown == 0 {
            self.cooldown = 8;
            let look = cx.resource::<Looks>().shot;
            let mut commands = cx.commands();
            let shot = commands.spawn_with(
                "Shot",
                Transform::from_trs(muzzle, Quat::IDENTITY, Vec3::splat(0.25)),
            );
            commands.add_component(shot, look);
            commands.add_behaviour(shot, Shot { life: 1.5 });
        }
        Ok(())
    }
}

impl Behaviour for Shot {
    fn update(&mut self, cx: &mut BehaviourContext<'_>, dt: f32) -> BehaviourResult {
        let me = cx.object();
        self.life -= dt;
        cx.transform_mut().position.y += 12.0 * dt;
        let at = cx.transform().position;
        // The first target within reach is hit (targets are roots, so their
        // local position is their world position).
        let mut hit = None;
        let world = cx.world_mut();
        let mut targets = world.query::<(Entity, &Transform, &Target)>();
        for (entity, transform, _) in targets.iter(world) {
            if transform.position.distance(at) < 0.7 {
                hit = Some(GameObject::from_entity(entity));
                break;
            }
        }
        if let Some(target) = hit {
            cx.resource_mut::<Score>().0 += 1;
            let mut commands = cx.commands();
            commands.remove(target);
            commands.remove(me);
        } else if self.life <= 0.0 {
            cx.commands().remove(me);
        }
        Ok(())
    }
}

impl Behaviour for Spawner {
    fn on_attach(&mut self, cx: &mut BehaviourContext<'_>) -> BehaviourResult {
        cx.resource_mut::<Timers>()
            .after(Delay::Seconds(self.every), TimerAction::Event(SPAWN_EVENT))?;
        Ok(())
    }

    fn update(&mut self, cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
        if !cx.resource::<FiredTimers>().contains(SPAWN_EVENT) {
            return Ok(());
        }
        cx.resource_mut::<Timers>()
            .after(Delay::Seconds(self.every), TimerAction::Event(SPAWN_EVENT))?;
        let (x, speed) = {
            let mut rng = cx.resource_mut::<GameRng>();
            (rng.range_f32(-FIELD, FIELD), rng.range_f32(1.0, 2.5))
        };
        let look = cx.resource::<Looks>().target;
        let mut commands = cx.commands();
        let target = commands.spawn_with(
            "Target",
            Transform::from_trs(Vec3::new(x, 9.0, 0.0), Quat::IDENTITY, Vec3::splat(0.6)),
        );
        commands.add_component(target, look);
        commands.add_component(target, Target { speed });
        commands.add_behaviour(target, Faller);
        Ok(())
    }
}

impl Behaviour for Faller {
    fn update(&mut self, cx: &mut BehaviourContext<'_>, dt: f32) -> BehaviourResult {
        let me = cx.object();
        let speed = cx
            .world()
            .get::<Target>(me.entity())
            .ok_or("a faller carries a Target")?
            .speed;
        let landed = {
            let mut transform = cx.transform_mut();
            transform.position.y -= speed * dt;
            transform.rotation *= Quat::from_rotation_z(dt);
            transform.position.y < -1.0
        };
        if landed {
            cx.commands().remove(me);
        }
        Ok(())
    }
}

/// The shooter's render preset: forward, a dusk sky colour.
pub fn shooter_preset() -> impl FnOnce(&mut Renderer) {
    forward_preset(PresetOptions {
        sky: SkyOption::Color(Vec3::new(0.08, 0.1, 0.2)),
        ..PresetOptions::default()
    })
}

/// Builds the game on `engine`: assets, ship, spawner, camera, light,
/// bindings, snapshot types and the checksum's extra state.
///
/// # Errors
/// A scene error (none happen on a fresh engine).
pub fn shooter(engine: &mut Engine) -> anyhow::Result<()> {
    let (assets, gpu) = engine.renderer().assets_mut();
    let cube = assets.add_mesh(gpu, "cube", &MeshData::cube(1.0));
    let ball = assets.add_mesh(gpu, "ball", &MeshData::sphere(0.5, 16, 8));
    let ground = assets.add_mesh(gpu, "ground", &MeshData::plane(1.0));
    let hull = assets.add_material(PbrMaterial::color(Vec3::new(0.2, 0.6, 0.95)));
    let hot = assets.add_material(PbrMaterial::color(Vec3::new(1.0, 0.8, 0.2)));
    let rock = assets.add_material(PbrMaterial::color(Vec3::new(0.85, 0.25, 0.2)));
    let grass = assets.add_material(PbrMaterial::color(Vec3::new(0.2, 0.35, 0.2)));
    crate::name_assets(
        engine,
        &[("cube", cube), ("ball", ball), ("ground", ground)],
        &[
            ("hull", hull),
            ("hot", hot),
            ("rock", rock),
            ("grass", grass),
        ],
    )?;

    let scene = engine.scene_mut();
    scene.world_mut().init_resource::<Score>();
    scene.world_mut().insert_resource(Looks {
        shot: MeshRenderer::new(ball.handle(), hot.handle()),
        target: MeshRenderer::new(cube.handle(), rock.handle()),
    });
    let ship = scene.spawn_with(
        "Ship",
        Transform::from_trs(Vec3::ZERO, Quat::IDENTITY, Vec3::new(1.2, 0.4, 0.6)),
    );
    scene.add_component(ship, MeshRenderer::new(cube.handle(), hull.handle()))?;
    scene.add_behaviour(ship, Ship { cooldown: 0 })?;
    let floor = scene.spawn_with(
        "Ground",
        Transform::from_trs(
            Vec3::new(0.0, -0.5, 0.0),
            Quat::IDENTITY,
            Vec3::new(16.0, 1.0, 6.0),
        ),
    );
    scene.add_component(floor, MeshRenderer::new(ground.handle(), grass.handle()))?;
    let spawner = scene.spawn("Spawner");
    scene.add_behaviour(spawner, Spawner { every: 0.6 })?;
    let sun = scene.spawn("Sun");
    scene.add_component(
        sun,
        DirectionalLight::new(Vec3::new(-0.3, -1.0, -0.6), Vec3::ONE, 3.0),
    )?;
    let camera = scene.spawn_with(
        "Camera",
        Transform::from_trs(
            Vec3::new(0.0, 4.0, 14.0),
            Quat::from_rotation_x(-0.12),
            Vec3::ONE,
        ),
    );
    scene.add_component(camera, Camera::perspective(50.0, 0.1, 100.0, 4.0 / 3.0)?)?;

    let game = engine.game_loop();
    game.set_action_mapper(shooter_bindings());
    game.seed(7);
    game.checksum_mut()
        .component::<Target>()
        .resource::<Score>();
    game.snapshot_types()
        .component::<Target>("shooter.Target")
        .behaviour::<Ship>("shooter.Ship")
        .behaviour::<Shot>("shooter.Shot")
        .behaviour::<Spawner>("shooter.Spawner")
        .behaviour::<Faller>("shooter.Faller")
        .resource::<Score>("shooter.Score");
    Ok(())
}

impl StateHash for Target {
    fn hash_state(&self, h: &mut StateHasher) {
        h.write_f32(self.speed);
    }
}

/// A scripted 6-second session (360 ticks): sweep right firing, slow motion
/// for a second, sweep left firing, pause half a second.
#[must_use]
pub fn shooter_demo() -> Recording {
    let mut recording = Recording::new(7, Rate::hz(SHOOTER_HZ).expect("valid"));
    for tick in 0..360u32 {
        let mut on = Vec::new();
        match tick {
            0..=89 => on.extend([Play::Right, Play::Fire]),
            90 => on.push(Play::SlowMotion),
            91..=149 => on.push(Play::Fire),
            150 => on.push(Play::SlowMotion),
            151..=269 => on.extend([Play::Left, Play::Fire]),
            270 => on.push(Play::Pause),
            300 => on.push(Play::Pause),
            _ => on.push(Play::Fire),
        }
        recording.flags.push(Play::flags(&on));
    }
    recording
}
