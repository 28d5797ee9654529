//! `gltf_viewer <path>`: any `.gltf` or `.glb` file, framed by an orbit
//! camera, under the atmosphere sky and its image-based light, with a sun
//! when the model brings none. Lights show as small unlit spheres in their
//! colour and cameras as small grey cubes.
//!
//! - **Window**: drag with the left button to orbit, the right (or middle)
//!   button to pan, the wheel to zoom. Keys `1` `2` `3` pick the forward,
//!   forward-plus and deferred presets; `S` `B` `D` `T` `M` toggle shadows,
//!   bloom, depth of field, TAA and MSAA; `F` frames the model again;
//!   `Space` pauses and resumes its animation; `K` shows the skeleton of
//!   its skins (a sphere per joint, a box per bone); `H` hides the panel.
//!   The panel shows the same switches, the scene tree and the model's
//!   clips: click one to play it alone (a 0.3 s cross-fade), tick "blend"
//!   to add it as a layer and set its weight, drag the time slider to scrub
//!   the current clip (it pauses), and set the speed. The model loads on
//!   a worker thread: a load longer than half a second shows a progress bar.
//! - **Headless** (`--headless --frames N --screenshot out.png`): renders N
//!   frames (the animation advancing 1/60 s per frame) and saves the last;
//!   `--skeleton` shows the skeleton in it.
//!   A load longer than half a second prints its progress to stderr.
//!
//! External files must lie in the model's folder unless `--allow-dir DIR`
//! allows another folder (models sharing a `../textures` folder).
//!
//! Either way the scene tree is printed to stdout once the model is in, and
//! a file that cannot be loaded ends the program with the importer's
//! message (the file and the element at fault), not a panic.

mod app;
mod cameras;
mod clips;
mod load;
mod markers;
mod orbit;
mod settings;
mod skeleton;
mod tree;

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use clap::Parser;
use glam::Vec3;
use image::RgbaImage;
use taos_engine::gltf::GltfModel;
use taos_engine::gltf::{GltfSpawnOptions, LoadOptions, SpawnedGltf};
use taos_engine::prelude::*;
use taos_engine::renderer::features::DofFeature;
use taos_engine::{DirectionalLight, Engine, EngineConfig};

pub use clips::{ClipAction, SOLO_FADE, apply_clip_action, clip_panel};
pub use load::{BackgroundLoad, ProgressPrinter, SHOW_AFTER};
pub use orbit::Orbit;
pub use settings::{EFFECT_LABELS, ViewerSettings};
pub use skeleton::Skeleton;
pub use tree::scene_tree;

use crate::{CommonCli, ComparePreset, SampleArgs};

/// The viewer camera's vertical field of view, in degrees.
pub const VIEWER_FOV: f32 = 45.0;

/// `gltf_viewer [OPTIONS] <PATH>`.
#[derive(Debug, Parser)]
#[command(about = "Views a glTF 2.0 model (.gltf or .glb), in a window or headless")]
pub struct ViewerCli {
    /// The model.
    pub path: PathBuf,
    /// The preset to start with.
    #[arg(long, value_enum, default_value = "forward")]
    pub preset: ComparePreset,
    /// Post effects to start with: off, all, or some of bloom, dof, taa,
    /// msaa joined with `+`.
    #[arg(long, default_value = "off", value_name = "LIST")]
    pub effects: String,
    /// Start without the sun's shadows.
    #[arg(long)]
    pub no_shadows: bool,
    /// Which of the file's scenes to show (default: its default scene).
    #[arg(long, value_name = "INDEX")]
    pub scene: Option<usize>,
    /// Do not play the first animation.
    #[arg(long)]
    pub still: bool,
    /// Show the joints and bones of the model's skins.
    #[arg(long)]
    pub skeleton: bool,
    /// Let the model's external files (buffers, images) come from DIR too,
    /// not only from the model's folder; `..` in their URIs is then
    /// allowed. Repeat for several folders.
    #[arg(long = "allow-dir", value_name = "DIR")]
    pub allow_dirs: Vec<PathBuf>,
    /// Window or headless options.
    #[command(flatten)]
    pub common: CommonCli,
}

impl ViewerCli {
    /// The starting settings.
    ///
    /// # Errors
    /// An unknown effect in `--effects`.
    pub fn settings(&self) -> anyhow::Result<ViewerSettings> {
        let mut settings = ViewerSettings {
            preset: self.preset,
            shadows: !self.no_shadows,
            skeleton: self.skeleton,
            ..ViewerSettings::default()
        };
        settings
            .set_effects(&self.effects)
            .map_err(|unknown| anyhow::anyhow!("--effects: {unknown}"))?;
        Ok(settings)
    }

    /// How the model is spawned.
    #[must_use]
    pub fn spawn_options(&self) -> GltfSpawnOptions {
        let load = self
            .allow_dirs
            .iter()
            .fold(LoadOptions::default(), |load, dir| load.allow_root(dir));
        GltfSpawnOptions {
            scene: self.scene,
            autoplay: !self.still,
            parent: None,
            load,
        }
    }
}

/// Runs the viewer as the command line asks.
///
/// # Errors
/// A model that cannot be loaded (the importer's message), a bad option,
/// or what building the engine or rendering reported.
pub fn gltf_viewer(cli: ViewerCli) -> anyhow::Result<()> {
    let settings = cli.settings()?;
    let args = SampleArgs::from(cli.common.clone());
    if args.headless {
        let view = view_headless(&cli.path, settings, &cli.spawn_options(), &args)?;
        print!("{}", view.tree);
        if let Some(path) = &args.screenshot {
            view.image
                .save(path)
                .with_context(|| format!("writing {}", path.display()))?;
            println!("gltf_viewer: wrote {}", path.display());
        }
        return Ok(());
    }
    app::run_window(cli.path.clone(), settings, cli.spawn_options(), &args)
}

/// What a headless view produced.
#[derive(Debug, Clone)]
pub struct HeadlessView {
    /// The scene tree under the model's root.
    pub tree: String,
    /// The last frame.
    pub image: RgbaImage,
    /// The importer's and the spawn's warnings.
    pub warnings: Vec<String>,
}

/// Loads `path` (with `spawn.load`, printing progress past [`SHOW_AFTER`]), shows it with
/// `settings`, renders `args.frames` frames of `args.size` (the scene
/// clock stepping 1/60 s each) and returns the last with the scene tree.
///
/// # Errors
/// The importer's error (naming the file and the element), or what the
/// engine reported.
pub fn view_headless(
    path: &Path,
    settings: ViewerSettings,
    spawn: &GltfSpawnOptions,
    args: &SampleArgs,
) -> anyhow::Result<HeadlessView> {
    let mut printer = ProgressPrinter::new(path);
    let model = GltfModel::load_with_options(path, &spawn.load, &mut |p| printer.report(p))
        .with_context(|| format!("gltf_viewer cannot show {}", path.display()))?;
    let (width, height) = args.size;
    let aspect = width as f32 / height as f32;
    let focus = Orbit::framing(Vec3::splat(-1.0), Vec3::ONE, VIEWER_FOV, aspect).distance;
    let config = EngineConfig::new(width, height);
    let mut engine = Engine::headless(config, settings.preset(focus))?;
    let camera = spawn_viewer_camera(&mut engine, aspect)?;
    let shown = show_model(&mut engine, camera, &model, &model_name(path), spawn)
        .with_context(|| format!("gltf_viewer cannot show {}", path.display()))?;
    focus_on(&mut engine, &shown.orbit);
    let mut skeleton = Skeleton::build(&mut engine, &shown.model, shown.orbit.radius * 0.1)?;
    skeleton.show(engine.scene_mut(), settings.skeleton)?;
    for _ in 0..args.frames.max(1) {
        engine.frame()?;
    }
    let pixels = engine.read_pixels()?;
    let image = RgbaImage::from_raw(width, height, pixels)
        .context("the read-back has one RGBA pixel per output pixel")?;
    Ok(HeadlessView {
        tree: shown.tree,
        image,
        warnings: shown.model.warnings,
    })
}

/// The file name, for the model's root object and messages.
fn model_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |name| name.to_string_lossy().into_owned(),
    )
}

/// Spawns the viewer's camera (first in the hierarchy, so the renderer
/// looks through it rather than through a camera of the model).
///
/// # Errors
/// A bad aspect ratio.
pub fn spawn_viewer_camera(engine: &mut Engine, aspect: f32) -> anyhow::Result<GameObject> {
    let scene = engine.scene_mut();
    let camera = scene.spawn("Viewer camera");
    scene.add_component(camera, Camera::perspective(VIEWER_FOV, 0.1, 100.0, aspect)?)?;
    let orbit = Orbit::framing(Vec3::splat(-1.0), Vec3::ONE, VIEWER_FOV, aspect);
    place_camera(scene, camera, &orbit)?;
    Ok(camera)
}

/// A model in the viewer.
#[derive(Debug, Clone)]
pub struct ShownModel {
    /// What was spawned.
    pub model: SpawnedGltf,
    /// The orbit that frames it.
    pub orbit: Orbit,
    /// Its scene tree.
    pub tree: String,
}

/// Spawns `model` (named `name`), marks its lights and cameras, adds a sun
/// when it has no directional light of its own, and frames it with
/// `camera` (its meshes, or its nodes when it has no mesh).
///
/// # Errors
/// What the spawn reported (a scene index out of range, a texture the GPU
/// refuses...).
pub fn show_model(
    engine: &mut Engine,
    camera: GameObject,
    model: &GltfModel,
    name: &str,
    options: &GltfSpawnOptions,
) -> anyhow::Result<ShownModel> {
    let aspect = {
        let scene = engine.scene();
        match scene.get_component::<Camera>(camera).map(|c| c.projection) {
            Some(Projection::Perspective { aspect, .. }) => aspect,
            _ => 1.0,
        }
    };
    let spawned = engine.spawn_gltf(model, name, options)?;
    let tree = scene_tree(engine.scene(), spawned.root);
    let (min, max) = spawned
        .bounds
        .or_else(|| markers::node_bounds(engine.scene(), &spawned, 0.5))
        .unwrap_or((Vec3::splat(-1.0), Vec3::splat(1.0)));
    let orbit = Orbit::framing(min, max, VIEWER_FOV, aspect);
    markers::add_markers(engine, &spawned, orbit.radius * 0.12)?;
    let scene = engine.scene_mut();
    let has_sun = spawned
        .lights
        .iter()
        .any(|&light| scene.get_component::<DirectionalLight>(light).is_some());
    if !has_sun {
        let sun = scene.spawn("Viewer sun");
        let light = DirectionalLight::new(Vec3::new(0.6, -1.0, -0.3), Vec3::ONE, 3.0);
        scene.add_component(sun, light)?;
    }
    place_camera(scene, camera, &orbit)?;
    Ok(ShownModel {
        model: spawned,
        orbit,
        tree,
    })
}

/// Focuses the depth of field (when it is on) on the orbit's target.
pub fn focus_on(engine: &mut Engine, orbit: &Orbit) {
    if let Some(dof) = engine.renderer().feature_mut::<DofFeature>() {
        dof.options.focus_distance = orbit.distance;
    }
}

/// Moves `camera` to `orbit`'s eye and fits its clip planes to the model.
///
/// # Errors
/// When `camera` is no longer in the scene.
pub fn place_camera(scene: &mut Scene, camera: GameObject, orbit: &Orbit) -> anyhow::Result<()> {
    let transform = orbit.transform();
    {
        let mut object = scene.object_mut(camera)?;
        object.set_position(transform.position);
        object.set_rotation(transform.rotation);
    }
    let (near_plane, far_plane) = orbit.clip_planes();
    if let Some(mut component) = scene.get_component_mut::<Camera>(camera)
        && let Projection::Perspective { near, far, .. } = &mut component.projection
    {
        *near = near_plane;
        *far = far_plane;
    }
    Ok(())
}
