//! Scene to frame: the renderer half of an engine frame (steps 3-11 of the
//! reference frame: find the camera, bucket the scene, run the features'
//! updates, build, compile and execute the graph).

use std::collections::HashMap;

use glam::{Affine3A, Mat4, Vec3};
use taos_renderer::deform::{DeformPose, MeshDeformations};
use taos_renderer::frame::{
    CameraView, CascadeSettings, DrawItem, MovingDraw, PointLightData, SpotLightData, SunLight,
};
use taos_renderer::resources::{MaterialId, MeshId};
use taos_renderer::{Frame, FrameData, RenderError, RenderStats, Renderer};

use taos_audio::Audio;

use crate::game_loop::FramePresenter;
use crate::particles::ParticleEmitter;
use crate::ui::UiPainter;
use crate::{
    Camera, Decal, DirectionalLight, GameObject, PointLight, Projection, Scene, SpotLight,
};
use crate::{Deformations, MeshDraw};
use taos_renderer::particles::ParticleEmitterDraw;

/// Where frames go.
pub(crate) enum Output {
    /// An offscreen target, read back for screenshots.
    Offscreen(taos_renderer::OffscreenTarget),
    /// A window surface.
    Window(taos_renderer::WindowSurface),
}

/// A hook run on the live frame after the features added their passes.
pub(crate) type BeforeRender = Box<dyn for<'a> FnMut(&mut Frame<'a>) + Send>;

/// Renders the scene through a [`Renderer`] into the engine's output (an
/// offscreen target or a window surface). The engine owns it and lends it to
/// the game loop for each frame ([`FrameOutput`]).
pub(crate) struct RenderPresenter {
    pub(crate) renderer: Renderer,
    pub(crate) output: Output,
    pub(crate) data: FrameData,
    draws: Vec<MeshDraw>,
    /// The object of each of `data.decals` (for interpolation).
    decal_objects: Vec<GameObject>,
    /// Skinned and morphing meshes, as the scene gathers them and as the
    /// renderer takes them (their lists swap back and forth, no copy).
    deformations: Deformations,
    poses: MeshDeformations,
    /// Each drawn object's world matrix last frame (for motion vectors),
    /// and this frame's, swapped every frame.
    previous_worlds: HashMap<GameObject, Affine3A>,
    current_worlds: HashMap<GameObject, Affine3A>,
    /// The camera object last drawn from (of the current loop's scene).
    pub(crate) camera: Option<GameObject>,
    pub(crate) before_render: Vec<BeforeRender>,
    /// The UI overlay painted after the graph (windowed engines only).
    pub(crate) ui: Option<UiPainter>,
    /// Whether the scene is rendered; when not, the output is cleared to
    /// `backdrop` and only the UI is drawn (a launcher or menu screen).
    pub(crate) show_scene: bool,
    pub(crate) backdrop: wgpu::Color,
    /// The scene's unscaled time at the last frame filled.
    shown_at: Option<f64>,
}

/// How many frames [`RenderPresenter::prewarm`] draws: effects with
/// history (TAA) take other paths once they have a previous frame. A
/// third did not help on lavapipe (`benches/examples/first_frames.rs`).
const PREWARM_FRAMES: usize = 2;

/// What a screen without a scene shows under its UI: a dark blue-grey.
pub(crate) const DEFAULT_BACKDROP: wgpu::Color = wgpu::Color {
    r: 0.05,
    g: 0.07,
    b: 0.1,
    a: 1.0,
};

impl RenderPresenter {
    pub(crate) fn new(renderer: Renderer, output: Output) -> Self {
        Self {
            renderer,
            output,
            data: FrameData::default(),
            draws: Vec::new(),
            decal_objects: Vec::new(),
            deformations: Deformations::default(),
            poses: MeshDeformations::default(),
            previous_worlds: HashMap::new(),
            current_worlds: HashMap::new(),
            camera: None,
            before_render: Vec::new(),
            ui: None,
            show_scene: true,
            backdrop: DEFAULT_BACKDROP,
            shown_at: None,
        }
    }

    /// The camera frames are drawn from: the scene's
    /// [`render_camera`](Scene::render_camera) (the one the game chose with
    /// [`Engine::set_camera`](crate::Engine::set_camera), else the first
    /// active camera). A camera that becomes the one in use takes the
    /// output's aspect ratio, so a headless engine's camera matches
    /// `EngineConfig`'s size as a window's does.
    fn camera(&mut self, scene: &mut Scene) -> Option<GameObject> {
        let found = scene.render_camera();
        if found != self.camera
            && let Some(object) = found
        {
            let (width, height) = self.output_size();
            if let Some(mut camera) = scene.get_component_mut::<Camera>(object)
                && width > 0
                && height > 0
            {
                camera.set_aspect(width as f32 / height as f32);
            }
        }
        self.camera = found;
        self.camera
    }

    fn output_size(&self) -> (u32, u32) {
        match &self.output {
            Output::Offscreen(target) => target.size(),
            Output::Window(surface) => surface.size(),
        }
    }

    fn fill(&mut self, scene: &mut Scene, alpha: f32) {
        let camera_object = self.camera(scene);
        let data = &mut self.data;
        if let Some(camera_object) = camera_object
            && let Some(camera) = scene.get_component::<Camera>(camera_object)
        {
            let (near, far) = match camera.projection {
                Projection::Perspective { near, far, .. }
                | Projection::Orthographic { near, far, .. } => (near, far),
            };
            // Between two fixed ticks, the camera is drawn where it was at `alpha`.
            let view = scene
                .interpolated_world_matrix(camera_object, alpha)
                .map_or(camera.view(), |world| Mat4::from(world.inverse()));
            let projection = camera.projection_matrix();
            let to_world = view.inverse();
            data.camera = CameraView {
                view,
                projection,
                position: to_world.w_axis.truncate(),
                forward: -to_world.z_axis.truncate().normalize_or(Vec3::Z),
                near,
                far,
            };
        }
        // Collecting first also settles the transform store that `gather_lights` reads.
        scene.collect_mesh_renderers_into(&mut self.draws);
        if scene.interpolates() {
            for draw in &mut self.draws {
                if let Some(world) = scene.interpolated_world_matrix(draw.object, alpha) {
                    draw.world = world;
                }
            }
        }
        gather_lights(scene, data);
        gather_particles(scene, data);
        gather_decals(scene, alpha, data, &mut self.decal_objects);
        // Before bucketing: culling reads the posed bounds.
        // Only poses that changed: the renderer keeps the others' last pose.
        scene.collect_changed_deformations_into(alpha, &mut self.deformations);
        let poses = &mut self.poses;
        poses.poses.clear();
        std::mem::swap(
            &mut poses.joint_matrices,
            &mut self.deformations.joint_matrices,
        );
        std::mem::swap(
            &mut poses.morph_weights,
            &mut self.deformations.morph_weights,
        );
        poses
            .poses
            .extend(self.deformations.draws.iter().map(|draw| DeformPose {
                mesh: MeshId(draw.mesh.0),
                joints: draw.joints.clone(),
                weights: draw.weights.clone(),
            }));
        // Also with no pose: instances that stopped keep their motion
        // vectors' previous pose current.
        self.renderer.deform(poses);
        self.current_worlds.clear();
        self.current_worlds
            .extend(self.draws.iter().map(|d| (d.object, d.world)));
        let previous = &self.previous_worlds;
        let items = self.draws.iter().map(|d| MovingDraw {
            item: DrawItem {
                mesh: MeshId(d.renderer.mesh.0),
                material: MaterialId(d.renderer.material.0),
                world: d.world,
                cast_shadows: d.renderer.cast_shadows,
            },
            // New objects have no motion yet.
            previous_world: previous.get(&d.object).copied().unwrap_or(d.world),
        });
        data.buckets
            .fill(items, self.renderer.assets(), &data.camera);
        std::mem::swap(&mut self.previous_worlds, &mut self.current_worlds);
        let time = scene.time();
        // A frame shown again without time passing (a capture, a present
        // of a paused game) moves nothing: particles step by this.
        let now = time.unscaled_elapsed();
        data.time.delta = if self.shown_at == Some(now) {
            0.0
        } else {
            time.frame_delta()
        };
        self.shown_at = Some(now);
        data.time.elapsed = time.elapsed();
        data.time.frame += 1;
    }

    fn render(&mut self) -> Result<RenderStats, RenderError> {
        let hooks = &mut self.before_render;
        let mut before_render = |frame: &mut Frame<'_>| {
            for hook in hooks.iter_mut() {
                hook(frame);
            }
        };
        match &mut self.output {
            Output::Offscreen(target) => {
                self.data.size = target.size();
                let texture = target.texture().clone();
                let stats = if self.show_scene {
                    self.renderer
                        .render_with(&mut self.data, &texture, &mut before_render)?
                } else {
                    RenderStats::default()
                };
                // A headless App's UI, painted as a window paints it.
                if let Some(ui) = &mut self.ui {
                    let view = texture.create_view(&wgpu::TextureViewDescriptor::default());
                    let clear = (!self.show_scene).then_some(self.backdrop);
                    ui.paint(self.renderer.gpu(), &view, target.size(), clear);
                }
                Ok(stats)
            }
            Output::Window(surface) => {
                let Ok(Some(frame)) = surface.acquire(self.renderer.gpu()) else {
                    return Ok(RenderStats::default());
                };
                self.data.size = surface.size();
                let stats = if self.show_scene {
                    let texture = frame.texture().clone();
                    self.renderer
                        .render_with(&mut self.data, &texture, &mut before_render)?
                } else {
                    RenderStats::default()
                };
                if let Some(ui) = &mut self.ui {
                    let clear = (!self.show_scene).then_some(self.backdrop);
                    ui.paint(self.renderer.gpu(), frame.view(), surface.size(), clear);
                }
                frame.present(self.renderer.gpu());
                Ok(stats)
            }
        }
    }
}

impl RenderPresenter {
    /// Draws the scene [`PREWARM_FRAMES`] times into a throwaway texture of the output's size
    /// and format and waits for the GPU: every pipeline the frame uses is
    /// drawn with, so a driver that compiles at the first draw
    /// (llvmpipe, many GL drivers) compiles now, not in the first frame
    /// the player sees.
    pub(crate) fn prewarm(&mut self, scene: &mut Scene) -> Result<RenderStats, RenderError> {
        let size = match &self.output {
            Output::Offscreen(target) => target.size(),
            Output::Window(surface) => surface.size(),
        };
        let size = (size.0.max(1), size.1.max(1));
        let texture = self
            .renderer
            .gpu()
            .device()
            .create_texture(&wgpu::TextureDescriptor {
                label: Some("prewarm target"),
                size: wgpu::Extent3d {
                    width: size.0,
                    height: size.1,
                    depth_or_array_layers: 1,
                },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: self.renderer.output_format(),
                usage: wgpu::TextureUsages::RENDER_ATTACHMENT
                    | wgpu::TextureUsages::TEXTURE_BINDING
                    | wgpu::TextureUsages::COPY_SRC,
                view_formats: &[],
            });
        self.fill(scene, 1.0);
        self.data.size = size;
        let hooks = &mut self.before_render;
        let mut before_render = |frame: &mut Frame<'_>| {
            for hook in hooks.iter_mut() {
                hook(frame);
            }
        };
        let mut stats = RenderStats::default();
        for _ in 0..PREWARM_FRAMES {
            stats = self
                .renderer
                .render_with(&mut self.data, &texture, &mut before_render)?;
        }
        let _ = self
            .renderer
            .gpu()
            .device()
            .poll(wgpu::PollType::wait_indefinitely());
        Ok(stats)
    }
}

impl FramePresenter for RenderPresenter {
    type Output = Result<RenderStats, RenderError>;

    fn present(&mut self, scene: &mut Scene, alpha: f32) -> Self::Output {
        if self.show_scene {
            self.fill(scene, alpha);
        }
        self.render().inspect_err(|error| {
            log::error!("frame not rendered: {error}");
        })
    }
}

/// What a frame produces besides the simulation, lent by the engine to its
/// game loop for one call: the sound follows the scene, then the renderer
/// draws it, and the render result comes back to the engine as the call's
/// value.
pub(crate) struct FrameOutput<'a> {
    pub(crate) render: &'a mut RenderPresenter,
    pub(crate) audio: &'a mut Audio,
}

impl FramePresenter for FrameOutput<'_> {
    type Output = Result<RenderStats, RenderError>;

    fn present(&mut self, scene: &mut Scene, alpha: f32) -> Self::Output {
        self.audio.update(scene);
        self.audio.advance(scene.time().unscaled_delta());
        self.render.present(scene, alpha)
    }
}

/// Copies every active particle emitter into the frame.
fn gather_particles(scene: &mut Scene, data: &mut FrameData) {
    data.particles.clear();
    scene.for_each_active_with::<ParticleEmitter>(|object, emitter, world| {
        data.particles.push(ParticleEmitterDraw {
            key: object.entity().to_bits(),
            effect: std::sync::Arc::clone(emitter.effect()),
            world: *world,
            seed: emitter.draw_seed(),
            emitting: emitter.emitting,
        });
    });
}

/// Every active [`Decal`], its box placed by the object's world matrix
/// (between two fixed ticks, where the object is drawn at `alpha`, as the
/// meshes are).
fn gather_decals(
    scene: &mut Scene,
    alpha: f32,
    data: &mut FrameData,
    objects: &mut Vec<GameObject>,
) {
    data.decals.clear();
    objects.clear();
    scene.for_each_active_with::<Decal>(|object, decal, world| {
        data.decals.push(decal.draw(*world));
        objects.push(object);
    });
    if scene.interpolates() {
        for (draw, &object) in data.decals.iter_mut().zip(objects.iter()) {
            if let Some(world) = scene.interpolated_world_matrix(object, alpha)
                && let Some(decal) = scene.get_component::<Decal>(object)
            {
                *draw = decal.draw(world);
            }
        }
    }
}

/// Copies the scene's lights into the frame: the first active sun, every
/// active point and spot light at its world position.
fn gather_lights(scene: &mut Scene, data: &mut FrameData) {
    data.lights.clear();
    if let Some(sun) = scene.find_sun_light()
        && let Some(light) = scene.get_component::<DirectionalLight>(sun)
    {
        data.lights.sun = Some(SunLight {
            direction: light.direction.normalize_or(Vec3::NEG_Y),
            color: light.color,
            intensity: light.intensity,
            cast_shadows: light.cast_shadows,
            cascades: CascadeSettings {
                count: usize::from(light.cascades.count),
                split_lambda: light.cascades.split_lambda,
                max_distance: light.cascades.max_distance,
            },
        });
    }
    scene.for_each_active_with::<PointLight>(|_, light, m| {
        data.lights.points.push(PointLightData {
            position: m.translation.into(),
            color: light.color,
            intensity: light.intensity,
            range: light.range,
        });
    });
    scene.for_each_active_with::<SpotLight>(|_, light, m| {
        data.lights.spots.push(SpotLightData {
            position: m.translation.into(),
            direction: m.transform_vector3(Vec3::NEG_Z).normalize_or(Vec3::NEG_Z),
            color: light.color,
            intensity: light.intensity,
            range: light.range,
            inner_cos: light.inner_angle.cos(),
            outer_cos: light.outer_angle.cos(),
        });
    });
}
