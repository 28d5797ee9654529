//! Many lights: hundreds to thousands of small coloured point lights (and a
//! few spots) drifting over a field of boxes and balls, under a dim sun.
//! The scene to compare the presets on: forward loops every light for every
//! fragment; forward-plus shades each screen tile's lights only; deferred
//! writes a G-buffer and adds each tile's lights over it.

use clap::Parser;
use glam::{Quat, Vec3};
use taos_engine::Engine;
use taos_engine::prelude::*;
use taos_engine::renderer::Renderer;
use taos_engine::renderer::features::{AmbientLight, PointSpotMethod, SkyOption};
use taos_engine::renderer::presets::{
    DeferredOptions, PresetOptions, deferred_preset, forward_plus_preset, forward_preset,
};
use taos_engine::renderer::resources::{MeshData, PbrMaterial};

use crate::args::{CommonCli, SampleArgs};

/// Which preset renders the scene.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LightsPreset {
    /// Every light for every fragment.
    Forward,
    /// Depth pre-pass, tiled light culling, shading over each tile's lights.
    ForwardPlus,
    /// G-buffer, then the lights over it, culled per tile (no SSAO, so the
    /// comparison with the forward presets is like for like).
    Deferred,
    /// Deferred, each light drawn as a light volume instead of tiles.
    DeferredVolumes,
}

/// The sample's own options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ManyLightsOptions {
    /// The preset.
    pub preset: LightsPreset,
    /// Point and spot lights in the scene.
    pub lights: u32,
    /// Make one light in eight a spot (`false`: point lights only).
    pub spots: bool,
}

impl Default for ManyLightsOptions {
    fn default() -> Self {
        Self {
            preset: LightsPreset::ForwardPlus,
            lights: 512,
            spots: true,
        }
    }
}

#[derive(Debug, Parser)]
#[command(about = "Hundreds to thousands of moving lights: forward, forward-plus or deferred")]
struct Cli {
    #[command(flatten)]
    common: CommonCli,
    /// The preset to render with.
    #[arg(long, value_enum, default_value_t = LightsPreset::ForwardPlus)]
    preset: LightsPreset,
    /// Number of point and spot lights.
    #[arg(long, default_value_t = 512, value_name = "N")]
    lights: u32,
    /// Point lights only (by default one light in eight is a spot).
    #[arg(long)]
    no_spots: bool,
}

impl From<&Cli> for ManyLightsOptions {
    fn from(cli: &Cli) -> Self {
        Self {
            preset: cli.preset,
            lights: cli.lights,
            spots: !cli.no_spots,
        }
    }
}

impl ManyLightsOptions {
    /// Parses `args` (without the program name): the common sample
    /// arguments plus `--preset forward|forward-plus|deferred|deferred-volumes`, `--lights N` and
    /// `--no-spots`.
    ///
    /// # Errors
    /// A message naming the bad argument (or the help text for `--help`).
    pub fn parse(
        args: impl IntoIterator<Item = String>,
    ) -> anyhow::Result<(SampleArgs, ManyLightsOptions)> {
        let program = std::iter::once(String::from("many_lights"));
        let cli = Cli::try_parse_from(program.chain(args))?;
        let options = Self::from(&cli);
        Ok((cli.common.into(), options))
    }

    /// Parses the process's arguments; `--help` and bad arguments exit.
    #[must_use]
    pub fn from_env() -> (SampleArgs, ManyLightsOptions) {
        let cli = Cli::parse();
        let options = Self::from(&cli);
        (cli.common.into(), options)
    }

    /// The renderer setup for [`preset`](Self::preset): no shadows (the
    /// sun is dim; the point lights are the subject), a night-blue sky
    /// and a night's faint ambient light.
    pub fn renderer_preset(self) -> impl FnOnce(&mut Renderer) {
        let options = PresetOptions {
            sky: SkyOption::Color(Vec3::new(0.01, 0.015, 0.04)),
            shadow: None,
            ambient: Some(AmbientLight::hemisphere(
                Vec3::new(0.02, 0.025, 0.05),
                Vec3::splat(0.01),
            )),
            ..PresetOptions::default()
        };
        move |renderer: &mut Renderer| match self.preset {
            LightsPreset::Forward => forward_preset(options)(renderer),
            LightsPreset::ForwardPlus => forward_plus_preset(options)(renderer),
            LightsPreset::Deferred | LightsPreset::DeferredVolumes => {
                let method = if self.preset == LightsPreset::Deferred {
                    PointSpotMethod::Tiled
                } else {
                    PointSpotMethod::Volumes
                };
                deferred_preset(DeferredOptions {
                    common: options,
                    ao: None,
                    point_spot_lights: Some(Some(method)),
                    ..DeferredOptions::default()
                })(renderer);
            }
        }
    }
}

/// Half the edge of the field the objects and lights cover.
const FIELD: f32 = 12.0;

/// Drifts a light around its home on a slow Lissajous path.
#[derive(Debug, Clone, Copy)]
pub struct Drift {
    home: Vec3,
    phase: f32,
    speed: f32,
}

impl Behaviour for Drift {
    fn update(&mut self, cx: &mut BehaviourContext<'_>, dt: f32) -> BehaviourResult {
        self.phase += dt * self.speed;
        let offset = Vec3::new(
            (self.phase * 1.3).sin() * 1.5,
            (self.phase * 2.1).sin() * 0.3,
            (self.phase * 0.9).cos() * 1.5,
        );
        cx.transform_mut().position = self.home + offset;
        Ok(())
    }
}

/// A small deterministic generator: the same scene on every machine.
struct Lcg(u64);

impl Lcg {
    fn unit(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }

    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.unit()
    }
}

/// Fills `engine` with the field, `options.lights` drifting lights (one in
/// eight a spot pointing down, unless `options.spots` is off), a dim moon
/// and a camera looking over it.
///
/// # Errors
/// If a component cannot be added (never for this scene).
pub fn many_lights(engine: &mut Engine, options: ManyLightsOptions) -> anyhow::Result<()> {
    let (assets, gpu) = engine.renderer().assets_mut();
    let ground_mesh = assets.add_mesh(gpu, "ground", &MeshData::plane(FIELD * 2.0));
    let cube = assets.add_mesh(gpu, "cube", &MeshData::cube(0.8));
    let ball = assets.add_mesh(gpu, "ball", &MeshData::sphere(0.45, 16, 8));
    let ground_material = assets.add_material(PbrMaterial {
        roughness: 0.9,
        ..PbrMaterial::color(Vec3::splat(0.5))
    });
    let stone = assets.add_material(PbrMaterial {
        roughness: 0.5,
        ..PbrMaterial::color(Vec3::new(0.7, 0.68, 0.65))
    });
    let metal = assets.add_material(PbrMaterial {
        metallic: 0.8,
        roughness: 0.3,
        ..PbrMaterial::color(Vec3::new(0.9, 0.85, 0.7))
    });
    crate::name_assets(
        engine,
        &[("ground", ground_mesh), ("cube", cube), ("ball", ball)],
        &[
            ("ground", ground_material),
            ("stone", stone),
            ("metal", metal),
        ],
    )?;

    let scene = engine.scene_mut();
    let ground = scene.spawn("Ground");
    scene.add_component(
        ground,
        MeshRenderer::new(ground_mesh.handle(), ground_material.handle()),
    )?;
    // A grid of boxes and balls: many repeats of two meshes (instanced).
    let step = 2.0;
    let cells = (FIELD / step) as i32;
    for i in -cells..cells {
        for j in -cells..cells {
            let at = Vec3::new(i as f32 * step + 1.0, 0.0, j as f32 * step + 1.0);
            let (name, lift, renderer) = if (i + j) % 2 == 0 {
                ("Box", 0.4, MeshRenderer::new(cube.handle(), stone.handle()))
            } else {
                (
                    "Ball",
                    0.45,
                    MeshRenderer::new(ball.handle(), metal.handle()),
                )
            };
            let object = scene.spawn_with(name, Transform::from_position(at + Vec3::Y * lift));
            scene.add_component(object, renderer)?;
        }
    }

    let mut rng = Lcg(0x5eed);
    // Crowded fields get dimmer lights, so the picture stays readable.
    let dimming = (256.0 / options.lights.max(1) as f32).clamp(0.25, 1.0);
    for index in 0..options.lights {
        let home = Vec3::new(
            rng.range(-FIELD, FIELD),
            rng.range(0.3, 1.4),
            rng.range(-FIELD, FIELD),
        );
        let hue = rng.unit() * std::f32::consts::TAU;
        let color = Vec3::new(
            0.5 + 0.5 * hue.cos(),
            0.5 + 0.5 * (hue + 2.1).cos(),
            0.5 + 0.5 * (hue + 4.2).cos(),
        );
        let spot = options.spots && index % 8 == 7;
        let home = if spot { home + Vec3::Y * 1.5 } else { home };
        // A spot shines along its local -Z: turned to face the ground.
        let facing = if spot {
            Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2)
        } else {
            Quat::IDENTITY
        };
        let light = scene.spawn_with("Light", Transform::from_trs(home, facing, Vec3::ONE));
        if spot {
            scene.add_component(
                light,
                SpotLight::new(color, 12.0 * dimming, 4.0, 20.0, 30.0),
            )?;
        } else {
            scene.add_component(
                light,
                PointLight::new(color, 2.0 * dimming, rng.range(1.5, 3.0)),
            )?;
        }
        let drift = Drift {
            home,
            phase: rng.range(0.0, 10.0),
            speed: rng.range(0.3, 1.0),
        };
        scene.add_behaviour(light, drift)?;
    }

    let sun = scene.spawn("Moon");
    let moon = DirectionalLight::new(Vec3::new(-0.3, -1.0, -0.5), Vec3::new(0.6, 0.7, 1.0), 0.15);
    scene.add_component(sun, moon)?;
    let eye = Transform::from_trs(
        Vec3::new(0.0, 7.0, 15.0),
        Quat::from_rotation_x(-0.45),
        Vec3::ONE,
    );
    let camera = scene.spawn_with("Camera", eye);
    scene.add_component(camera, Camera::perspective(55.0, 0.1, 80.0, 16.0 / 9.0)?)?;
    Ok(())
}
