//! Particles and decals: six emitters side by side on a stone floor before
//! a wall, each showing one part of the particle system, and decals on
//! the floor and the wall. A corner shows the living particles and what
//! the simulation cost.
//!
//! From left to right: a campfire (additive, a flipbook sheet, colour and
//! size over life) with smoke above it (alpha blended, sorted back to
//! front, soft where it meets the wall), sparks that burst and bounce off
//! the floor (depth collision), a spinning ring carried with its emitter
//! (local space), a glow rising from a ball's surface (mesh-surface
//! emitter), and snow falling over the right half. A scorch mark lies
//! under the fire and a target is painted on the wall.

use std::sync::Arc;

use clap::Parser;
use glam::{Quat, Vec3, Vec4};
use taos_engine::particles::{
    Burst, Curve, DepthCollision, EmitterShape, Flipbook, FloatRange, Gradient, ParticleBlend,
    ParticleEffect, ParticleEmitter, ParticleFeature, ParticlePath, SimulationSpace,
};
use taos_engine::prelude::*;
use taos_engine::renderer::Renderer;
use taos_engine::renderer::features::SkyOption;
use taos_engine::renderer::presets::{
    DeferredOptions, PresetOptions, deferred_preset, forward_plus_preset, forward_preset,
};
use taos_engine::renderer::resources::{ColorSpace, MeshData, PbrMaterial, Texture, TextureId};
use taos_engine::{App, AppError, Engine, egui};

use crate::args::{CommonCli, SampleArgs};

/// Which preset renders the scene.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ParticlesPreset {
    /// Forward shading.
    #[default]
    Forward,
    /// Forward-plus.
    ForwardPlus,
    /// Deferred, with TAA.
    Deferred,
}

/// The sample's options.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ParticlesOptions {
    /// The preset.
    pub preset: ParticlesPreset,
    /// Which path simulates the particles.
    pub path: ParticlePath,
    /// Multiplies every emitter's rate and count (1: as designed).
    pub density: f32,
}

impl Default for ParticlesOptions {
    fn default() -> Self {
        Self {
            preset: ParticlesPreset::Forward,
            path: ParticlePath::Auto,
            density: 1.0,
        }
    }
}

/// The simulation path on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum PathArg {
    Auto,
    Gpu,
    Cpu,
}

#[derive(Debug, Parser)]
#[command(about = "Particle emitters and decals side by side")]
struct Cli {
    #[command(flatten)]
    common: CommonCli,
    /// The preset to render with.
    #[arg(long, value_enum, default_value_t = ParticlesPreset::Forward)]
    preset: ParticlesPreset,
    /// Simulate on the GPU (compute shaders), the CPU, or the GPU where it can.
    #[arg(long, value_enum, default_value_t = PathArg::Auto)]
    path: PathArg,
    /// Multiplies every emitter's rate and particle count.
    #[arg(long, default_value_t = 1.0, value_name = "FACTOR")]
    density: f32,
}

impl From<&Cli> for ParticlesOptions {
    fn from(cli: &Cli) -> Self {
        Self {
            preset: cli.preset,
            path: match cli.path {
                PathArg::Auto => ParticlePath::Auto,
                PathArg::Gpu => ParticlePath::Gpu,
                PathArg::Cpu => ParticlePath::Cpu,
            },
            density: if cli.density.is_finite() {
                cli.density.clamp(0.01, 100.0)
            } else {
                1.0
            },
        }
    }
}

impl ParticlesOptions {
    /// Parses `args` (without the program name): the common sample
    /// arguments plus `--preset`, `--path` and `--density`.
    ///
    /// # Errors
    /// A message naming the bad argument (or the help text for `--help`).
    pub fn parse(
        args: impl IntoIterator<Item = String>,
    ) -> anyhow::Result<(SampleArgs, ParticlesOptions)> {
        let program = std::iter::once(String::from("particles"));
        let cli = Cli::try_parse_from(program.chain(args))?;
        let options = Self::from(&cli);
        Ok((cli.common.into(), options))
    }

    /// Parses the process's arguments; `--help` and bad arguments exit.
    #[must_use]
    pub fn from_env() -> (SampleArgs, ParticlesOptions) {
        let cli = Cli::parse();
        let options = Self::from(&cli);
        (cli.common.into(), options)
    }

    /// The renderer setup: the preset, a dusk sky, and the particle path.
    pub fn renderer_preset(self) -> impl FnOnce(&mut Renderer) + 'static {
        let common = PresetOptions {
            sky: SkyOption::Color(Vec3::new(0.05, 0.06, 0.1)),
            exposure: 1.2,
            ..PresetOptions::default()
        };
        move |renderer: &mut Renderer| {
            match self.preset {
                ParticlesPreset::Forward => forward_preset(common)(renderer),
                ParticlesPreset::ForwardPlus => forward_plus_preset(common)(renderer),
                ParticlesPreset::Deferred => deferred_preset(DeferredOptions {
                    common: PresetOptions {
                        taa: Some(Default::default()),
                        ..common
                    },
                    ..DeferredOptions::default()
                })(renderer),
            }
            if let Some(feature) = renderer.feature_mut::<ParticleFeature>() {
                feature.set_path(self.path);
            }
        }
    }
}

/// Where the camera stands and looks.
pub const PARTICLES_EYE: (Vec3, Vec3) = (Vec3::new(0.0, 2.2, 7.0), Vec3::new(0.0, 1.2, 0.0));

/// A counted multiple of `value` (at least 1).
fn scaled(value: u32, density: f32) -> u32 {
    ((value as f32 * density).round() as u32).max(1)
}

/// Pixels of a square RGBA image, `size` wide, from `shade(x, y)` with `x`
/// and `y` in `-1..1`.
fn painted(size: u32, shade: impl Fn(f32, f32) -> [u8; 4]) -> image::RgbaImage {
    image::RgbaImage::from_fn(size, size, |x, y| {
        let at = |v: u32| (v as f32 + 0.5) / size as f32 * 2.0 - 1.0;
        image::Rgba(shade(at(x), at(y)))
    })
}

/// A 4 x 4 sheet of flame tongues, each frame narrower and higher than the last.
fn flame_sheet() -> image::RgbaImage {
    const CELL: u32 = 32;
    let mut sheet = image::RgbaImage::new(CELL * 4, CELL * 4);
    for frame in 0..16u32 {
        let stretch = 1.0 + frame as f32 * 0.08;
        let cell = painted(CELL, |x, y| {
            let r = (x * x * stretch * stretch + (y + 0.2) * (y + 0.2) / stretch).sqrt();
            let a = (1.0 - r).clamp(0.0, 1.0).powf(1.5);
            [255, 255, 255, (a * 255.0) as u8]
        });
        let (cx, cy) = ((frame % 4) * CELL, (frame / 4) * CELL);
        image::imageops::replace(&mut sheet, &cell, i64::from(cx), i64::from(cy));
    }
    sheet
}

/// A burnt patch: dark in the middle, ragged towards the edge.
fn scorch() -> image::RgbaImage {
    painted(64, |x, y| {
        let r = (x * x + y * y).sqrt();
        let ragged = r + 0.08 * (7.0 * x.atan2(y)).sin();
        let a = (1.0 - ragged).clamp(0.0, 1.0).sqrt();
        [20, 14, 10, (a * 230.0) as u8]
    })
}

/// A red and white target.
fn target() -> image::RgbaImage {
    painted(64, |x, y| {
        let r = (x * x + y * y).sqrt();
        if r > 1.0 {
            return [0, 0, 0, 0];
        }
        let ring = ((r * 5.0) as u32).is_multiple_of(2);
        if ring {
            [200, 30, 30, 255]
        } else {
            [235, 235, 230, 255]
        }
    })
}

/// The sample's effects at `density`.
struct Effects {
    fire: ParticleEffect,
    smoke: ParticleEffect,
    sparks: ParticleEffect,
    ring: ParticleEffect,
    glow: ParticleEffect,
    snow: ParticleEffect,
}

fn effects(density: f32, flames: TextureId, ball: &MeshData) -> anyhow::Result<Effects> {
    let fire = ParticleEffect {
        name: "fire".into(),
        max_particles: scaled(400, density),
        rate: 120.0 * density,
        shape: EmitterShape::Cone {
            angle: 0.2,
            radius: 0.25,
        },
        lifetime: FloatRange::new(0.5, 0.9),
        speed: FloatRange::new(0.8, 1.4),
        size: FloatRange::new(0.35, 0.5),
        size_over_life: Curve::from_keys([(0.0, 0.6), (0.3, 1.0), (1.0, 0.3)]),
        color: Gradient::from_keys([
            (0.0, Vec3::new(6.0, 4.0, 1.5)),
            (0.5, Vec3::new(4.0, 1.2, 0.2)),
            (1.0, Vec3::new(0.8, 0.1, 0.05)),
        ]),
        opacity: Curve::from_keys([(0.0, 0.0), (0.1, 1.0), (1.0, 0.0)]),
        spin: FloatRange::new(-1.0, 1.0),
        texture: Some(flames),
        flipbook: Some(Flipbook {
            columns: 4,
            rows: 4,
            frames: 16,
            fps: 0.0,
            random_start: false,
            first_cell: 0,
        }),
        blend: ParticleBlend::Additive,
        ..Default::default()
    };
    let smoke = ParticleEffect {
        name: "smoke".into(),
        max_particles: scaled(300, density),
        rate: 30.0 * density,
        shape: EmitterShape::Sphere {
            radius: 0.2,
            shell: false,
        },
        lifetime: FloatRange::new(2.5, 3.5),
        speed: FloatRange::new(0.05, 0.2),
        initial_velocity: Vec3::new(0.1, 0.7, -0.15),
        drag: 0.3,
        size: FloatRange::new(0.4, 0.6),
        size_over_life: Curve::linear(0.7, 2.2),
        color: Gradient::linear(Vec3::splat(0.25), Vec3::splat(0.5)),
        opacity: Curve::from_keys([(0.0, 0.0), (0.15, 0.6), (1.0, 0.0)]),
        rotation: FloatRange::new(0.0, std::f32::consts::TAU),
        spin: FloatRange::new(-0.4, 0.4),
        blend: ParticleBlend::Alpha,
        soft_distance: 0.5,
        ..Default::default()
    };
    let sparks = ParticleEffect {
        name: "sparks".into(),
        max_particles: scaled(600, density),
        rate: 0.0,
        bursts: vec![Burst::repeating(0.0, scaled(120, density), 1.5)],
        shape: EmitterShape::Cone {
            angle: 0.6,
            radius: 0.05,
        },
        lifetime: FloatRange::new(1.2, 2.0),
        speed: FloatRange::new(3.0, 5.0),
        gravity: Vec3::new(0.0, -9.8, 0.0),
        size: FloatRange::constant(0.06),
        color: Gradient::linear(Vec3::new(8.0, 5.0, 1.0), Vec3::new(3.0, 0.5, 0.1)),
        opacity: Curve::linear(1.0, 0.0),
        collision: Some(DepthCollision {
            restitution: 0.5,
            friction: 0.3,
            thickness: 0.4,
        }),
        soft_distance: 0.0,
        ..Default::default()
    };
    let ring = ParticleEffect {
        name: "ring".into(),
        max_particles: scaled(500, density),
        rate: 200.0 * density,
        shape: EmitterShape::Sphere {
            radius: 0.6,
            shell: true,
        },
        lifetime: FloatRange::new(1.5, 2.5),
        speed: FloatRange::constant(0.0),
        size: FloatRange::constant(0.08),
        color: Gradient::linear(Vec3::new(0.5, 1.5, 4.0), Vec3::new(2.0, 0.5, 4.0)),
        opacity: Curve::from_keys([(0.0, 0.0), (0.2, 1.0), (1.0, 0.0)]),
        space: SimulationSpace::Local,
        ..Default::default()
    };
    let glow = ParticleEffect {
        name: "glow".into(),
        max_particles: scaled(600, density),
        rate: 150.0 * density,
        shape: EmitterShape::mesh_surface(ball, 2048)?,
        lifetime: FloatRange::new(0.8, 1.6),
        speed: FloatRange::new(0.05, 0.15),
        initial_velocity: Vec3::new(0.0, 0.4, 0.0),
        size: FloatRange::constant(0.07),
        color: Gradient::linear(Vec3::new(0.6, 4.0, 1.0), Vec3::new(0.2, 1.0, 2.0)),
        opacity: Curve::linear(1.0, 0.0),
        ..Default::default()
    };
    let snow = ParticleEffect {
        name: "snow".into(),
        max_particles: scaled(3000, density),
        rate: 500.0 * density,
        shape: EmitterShape::Box {
            half_extents: Vec3::new(3.0, 0.1, 2.0),
        },
        lifetime: FloatRange::new(5.0, 6.0),
        speed: FloatRange::constant(0.0),
        initial_velocity: Vec3::new(0.15, -0.8, 0.0),
        drag: 0.1,
        size: FloatRange::new(0.03, 0.06),
        color: Gradient::constant(Vec3::splat(1.6)),
        opacity: Curve::from_keys([(0.0, 0.0), (0.05, 0.9), (0.9, 0.9), (1.0, 0.0)]),
        blend: ParticleBlend::Alpha,
        collision: Some(DepthCollision {
            restitution: 0.0,
            friction: 1.0,
            thickness: 0.3,
        }),
        ..Default::default()
    };
    Ok(Effects {
        fire,
        smoke,
        sparks,
        ring,
        glow,
        snow,
    })
}

/// Turns its object about +Y and tilts it: the ring's emitter.
#[derive(Debug, Clone, Copy, Default)]
pub struct Spin {
    angle: f32,
}

impl Behaviour for Spin {
    fn update(&mut self, cx: &mut BehaviourContext<'_>, dt: f32) -> BehaviourResult {
        self.angle += dt * 1.5;
        cx.transform_mut().rotation =
            Quat::from_rotation_z(0.5) * Quat::from_rotation_y(self.angle);
        Ok(())
    }
}

/// Fills `engine` with the floor, the wall, a sun, the camera, the six
/// emitters and the two decals.
///
/// # Errors
/// If a texture cannot be uploaded or a component added.
pub fn particles(engine: &mut Engine, options: ParticlesOptions) -> anyhow::Result<()> {
    let (assets, gpu) = engine.renderer().assets_mut();
    let plane = assets.add_mesh(gpu, "floor", &MeshData::plane(14.0));
    let wall_mesh = assets.add_mesh(gpu, "wall", &MeshData::cube(1.0));
    let ball_data = MeshData::sphere(0.35, 24, 12);
    let ball = assets.add_mesh(gpu, "ball", &ball_data);
    let stone = assets.add_material(PbrMaterial {
        roughness: 0.9,
        ..PbrMaterial::color(Vec3::new(0.35, 0.33, 0.3))
    });
    let plaster = assets.add_material(PbrMaterial {
        roughness: 0.8,
        ..PbrMaterial::color(Vec3::new(0.6, 0.58, 0.55))
    });
    let metal = assets.add_material(PbrMaterial {
        metallic: 0.9,
        roughness: 0.3,
        ..PbrMaterial::color(Vec3::new(0.3, 0.5, 0.4))
    });
    let texture = |assets: &mut taos_engine::renderer::resources::Assets,
                   label: &str,
                   image: &image::RgbaImage|
     -> anyhow::Result<TextureId> {
        Ok(assets.add_texture(Texture::from_rgba8(gpu, label, image, ColorSpace::Srgb)?))
    };
    let flames = texture(assets, "flames", &flame_sheet())?;
    let scorch = texture(assets, "scorch", &scorch())?;
    let target = texture(assets, "target", &target())?;
    let effects = effects(options.density, flames, &ball_data)?;

    let scene = engine.scene_mut();
    let floor = scene.spawn("Floor");
    scene.add_component(floor, MeshRenderer::new(plane.handle(), stone.handle()))?;
    let wall = scene.spawn_with(
        "Wall",
        Transform::from_trs(
            Vec3::new(0.0, 2.0, -2.5),
            Quat::IDENTITY,
            Vec3::new(14.0, 4.0, 0.4),
        ),
    );
    scene.add_component(
        wall,
        MeshRenderer::new(wall_mesh.handle(), plaster.handle()),
    )?;
    let sun = scene.spawn("Sun");
    let light = DirectionalLight::new(Vec3::new(-0.3, -1.0, -0.5), Vec3::new(1.0, 0.85, 0.7), 1.5);
    scene.add_component(sun, light)?;
    let (eye, centre) = PARTICLES_EYE;
    let view = glam::camera::rh::view::look_at_mat4(eye, centre, Vec3::Y);
    let (_, rotation, position) = view.inverse().to_scale_rotation_translation();
    let camera = scene.spawn_with("Camera", Transform::from_trs(position, rotation, Vec3::ONE));
    scene.add_component(camera, Camera::perspective(55.0, 0.1, 100.0, 16.0 / 10.0)?)?;

    let emitter = |scene: &mut Scene, name: &str, at: Vec3, effect: ParticleEffect| {
        let object = scene.spawn_with(name, Transform::from_trs(at, Quat::IDENTITY, Vec3::ONE));
        scene
            .add_component(object, ParticleEmitter::new(Arc::new(effect)))
            .map(|()| object)
    };
    emitter(scene, "Fire", Vec3::new(-3.6, 0.0, 0.0), effects.fire)?;
    emitter(scene, "Smoke", Vec3::new(-3.6, 1.0, 0.0), effects.smoke)?;
    emitter(scene, "Sparks", Vec3::new(-1.5, 0.05, 0.5), effects.sparks)?;
    let ring = emitter(scene, "Ring", Vec3::new(0.5, 1.4, 0.0), effects.ring)?;
    scene.add_behaviour(ring, Spin::default())?;
    let glowing = emitter(scene, "Glow", Vec3::new(2.2, 0.6, 0.3), effects.glow)?;
    scene.add_component(glowing, MeshRenderer::new(ball.handle(), metal.handle()))?;
    emitter(scene, "Snow", Vec3::new(3.0, 4.2, 0.0), effects.snow)?;

    // The scorch projects down onto the floor (the decal's -Z is down).
    let under_fire = scene.spawn_with(
        "Scorch",
        Transform::from_trs(
            Vec3::new(-3.6, 0.0, 0.0),
            Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2),
            Vec3::ONE,
        ),
    );
    scene.add_component(under_fire, Decal::new(scorch, Vec3::new(1.6, 1.6, 0.6)))?;
    let painted = scene.spawn_with(
        "Target",
        Transform::from_trs(Vec3::new(0.5, 1.6, -2.3), Quat::IDENTITY, Vec3::ONE),
    );
    let mut decal = Decal::new(target, Vec3::new(1.2, 1.2, 0.4));
    decal.tint = Vec4::new(1.0, 1.0, 1.0, 0.9);
    scene.add_component(painted, decal)?;
    Ok(())
}

/// What the corner shows: living particles, emitters, the path, and the
/// simulation's cost.
#[must_use]
pub fn particle_counters(engine: &mut Engine) -> String {
    let renderer = engine.renderer();
    let gpu_time = renderer
        .last_timings()
        .gpu
        .as_ref()
        .and_then(|gpu| gpu.pass("particle simulate").map(|pass| pass.gpu));
    let Some(feature) = renderer.feature::<ParticleFeature>() else {
        return String::from("no particle feature");
    };
    let path = match feature.path_in_use() {
        ParticlePath::Gpu => "GPU",
        ParticlePath::Cpu => "CPU",
        ParticlePath::Auto => "-",
    };
    let simulation = gpu_time.map_or_else(String::new, |time| {
        format!(", GPU simulation {:.2} ms", time.as_secs_f64() * 1e3)
    });
    format!(
        "{} particles in {} emitters ({path} path): CPU {:.2} ms{simulation}",
        feature.alive(),
        feature.emitter_count(),
        feature.cpu_time().as_secs_f64() * 1e3,
    )
}

/// The sample in a window: the scene and the counters in a corner.
#[derive(Debug)]
pub struct ParticlesApp {
    /// The sample's options.
    pub options: ParticlesOptions,
}

impl App for ParticlesApp {
    fn start(&mut self, engine: &mut Engine) -> Result<(), AppError> {
        engine.renderer().set_gpu_timings(true);
        particles(engine, self.options).map_err(Into::into)
    }

    fn ui(&mut self, engine: &mut Engine, ui: &mut egui::Ui) {
        let text = particle_counters(engine);
        egui::Area::new(egui::Id::unique("particle counters"))
            .anchor(egui::Align2::LEFT_TOP, egui::vec2(8.0, 8.0))
            .show(ui.ctx(), |ui| {
                ui.label(
                    egui::RichText::new(text)
                        .color(egui::Color32::WHITE)
                        .monospace(),
                );
            });
    }
}
