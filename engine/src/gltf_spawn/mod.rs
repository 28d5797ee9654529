//! glTF models in a scene: [`spawn_gltf`] turns a [`GltfModel`] (the CPU
//! import of `taos_gltf`) into GameObjects and renderer assets, and
//! [`Engine::load_gltf`] loads a file and spawns it in one call.
//!
//! What a model becomes:
//! - one root GameObject (named after the file) holding the chosen scene's
//!   root nodes;
//! - a GameObject per node of that scene, with the node's name (or
//!   `node N`), local translation, rotation and scale, and parent;
//! - a [`MeshRenderer`] per mesh primitive: on the node itself when its
//!   mesh has one primitive, otherwise on children named `primitive N`;
//! - a [`Camera`](crate::Camera) on camera nodes, and a [`DirectionalLight`],
//!   [`PointLight`] or [`SpotLight`] on `KHR_lights_punctual` nodes (a
//!   directional light takes its node's world -Z when spawned);
//! - every animation as an [`AnimationClip`] in one [`AnimationPlayer`] on
//!   the root, the first one playing (looped) when
//!   [`GltfSpawnOptions::autoplay`] is set.
//!
//! Scene files refer to models by path ([`ModelFile`](crate::scene_file::ModelFile),
//! `taos.Model`); [`Engine::spawn_model_files`] spawns them under their
//! objects after a load, reading them from a folder, and
//! [`Engine::spawn_scene_asset`] spawns a scene file and its models read
//! through [`Assets`](crate::assets::Assets) (natively and in the browser).
//!
//! [`model_collider`] makes a physics [`Collider`](crate::physics::Collider)
//! from a spawned model's triangles: a triangle mesh for level geometry, a
//! convex hull for a prop that moves.
//!
//! Images are uploaded once per colour space they are used in (sRGB for
//! base colour and emissive, linear for the data maps), meshes once per
//! primitive, materials once per glTF material.
//!
//! Named meshes and materials keep their names:
//! [`SpawnedGltf::meshes_by_name`] and [`SpawnedGltf::materials_by_name`]
//! for one model, and [`Engine::mesh_named`] and [`Engine::material_named`]
//! across every model the engine spawned, to draw more of them:
//!
//! ```no_run
//! # fn demo(engine: &mut taos_engine::Engine) -> Result<(), Box<dyn std::error::Error>> {
//! use taos_engine::gltf::GltfSpawnOptions;
//! use taos_engine::prelude::*;
//!
//! engine.load_gltf("assets/props.glb", &GltfSpawnOptions::default())?;
//! let (Some(mesh), Some(gold)) = (engine.mesh_named("Coin"), engine.material_named("Gold")) else {
//!     return Err("props.glb has no Coin mesh or Gold material".into());
//! };
//! let coin = engine.scene_mut().spawn("Coin");
//! engine.scene_mut().add_component(coin, MeshRenderer::new(mesh, gold))?;
//! # Ok(())
//! # }
//! ```
//!
//! [`GltfSpawnOptions::load`] carries the importer's [`LoadOptions`] into
//! [`Engine::load_gltf`]: a decoded-data budget, and folders besides the
//! model's own that its external files may come from (a model reading
//! `../textures/wood.png` is refused unless that folder is allowed):
//!
//! ```no_run
//! # fn demo(engine: &mut taos_engine::Engine) -> Result<(), taos_engine::gltf::GltfSpawnError> {
//! use taos_engine::gltf::{GltfSpawnOptions, LoadOptions};
//!
//! let options = GltfSpawnOptions {
//!     load: LoadOptions::default().allow_root("assets/textures"),
//!     ..GltfSpawnOptions::default()
//! };
//! engine.load_gltf("assets/car/car.gltf", &options)?;
//! # Ok(())
//! # }
//! ```

mod assets;
mod colliders;
mod convert;
mod model_files;
mod skins;

use std::collections::BTreeMap;
use std::path::Path;

use glam::Vec3;
use taos_gltf as gltf;
pub use taos_gltf::{GltfError, GltfModel, LoadOptions, LoadProgress, LoadStage, test_models};
use taos_renderer::Renderer;
use taos_renderer::deform::DeformDataError;
use taos_renderer::resources::{MeshDataError, TextureError};

use crate::{
    AnimationClip, AnimationClipError, AnimationPlayer, AssetHandle, CameraError, ClipId,
    DeformError, DirectionalLight, Engine, GameObject, MaterialHandle, MeshHandle, MeshRenderer,
    MorphWeights, PointLight, Scene, SceneError, SpotLight, Transform,
};
use assets::{ModelAssets, PrimitiveAsset, upload_assets};
pub use colliders::{ModelColliderError, ModelShape, model_collider};
pub(crate) use model_files::{FetchedModel, pending as pending_model_files};
pub use model_files::{ModelFileError, ModelFilesReport};

/// How a model is spawned.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GltfSpawnOptions {
    /// Which of the file's scenes (`None`: the file's default scene).
    pub scene: Option<usize>,
    /// Start the first animation, looped.
    pub autoplay: bool,
    /// Parent of the model's root (`None`: the root is a scene root).
    pub parent: Option<GameObject>,
    /// How the file is imported: the decoded-data budget and the folders,
    /// besides the model's own, that its external files may come from
    /// ([`LoadOptions::allow_root`]). Used by [`Engine::load_gltf`] and
    /// [`Engine::load_gltf_with_progress`]; spawning an already imported
    /// model ([`spawn_gltf`], [`Engine::spawn_gltf`]) ignores it.
    pub load: LoadOptions,
}

/// What [`spawn_gltf`] made.
#[derive(Debug, Clone, PartialEq)]
pub struct SpawnedGltf {
    /// The model's root GameObject.
    pub root: GameObject,
    /// The GameObject of each glTF node (index by node), `None` for nodes
    /// outside the spawned scene.
    pub nodes: Vec<Option<GameObject>>,
    /// Objects carrying a [`Camera`](crate::Camera), in node order.
    pub cameras: Vec<GameObject>,
    /// Objects carrying a light, in node order.
    pub lights: Vec<GameObject>,
    /// Objects carrying a [`MeshRenderer`].
    pub mesh_objects: Vec<GameObject>,
    /// Objects carrying a [`SkinnedMesh`](crate::SkinnedMesh) (each also in
    /// `mesh_objects`): the skinned primitives, deformed by joints that are
    /// the model's node objects.
    pub skinned: Vec<GameObject>,
    /// Objects carrying [`MorphWeights`] (each also in `mesh_objects`).
    pub morphing: Vec<GameObject>,
    /// The clips in the root's [`AnimationPlayer`] (glTF animation order).
    pub clips: Vec<ClipId>,
    /// The world-space box around every mesh as spawned, if any.
    pub bounds: Option<(Vec3, Vec3)>,
    /// The file's named meshes uploaded for the spawned scene, by name: a
    /// glTF mesh's first primitive under the mesh's name, its later
    /// primitives as `"{name} primitive {p}"`. Only rigid, unmirrored
    /// uploads are named (a skinned or morphing mesh draws one instance per
    /// object); where meshes share a name, the first in the file wins.
    pub meshes_by_name: BTreeMap<String, MeshHandle>,
    /// The file's named materials, by name (where materials share a name,
    /// the first in the file wins).
    pub materials_by_name: BTreeMap<String, MaterialHandle>,
    /// The importer's warnings (unsupported optional extensions, skipped
    /// primitives...), each also logged.
    pub warnings: Vec<String>,
}

/// Why a model could not be loaded or spawned.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GltfSpawnError {
    /// The file could not be imported (it names the file and element).
    #[error(transparent)]
    Import(Box<GltfError>),
    /// The file could not be read from the asset folder, or imported
    /// ([`Assets`](crate::assets::Assets): a scene file's model that failed
    /// to load, spawned by [`Engine::spawn_scene_asset`]).
    #[error(transparent)]
    Asset(Box<crate::assets::AssetError>),
    /// The file has no scene of that index.
    #[error("{file}: no scene {scene} (the file has {count})")]
    NoSuchScene {
        /// The file.
        file: String,
        /// The scene asked for.
        scene: usize,
        /// How many scenes there are.
        count: usize,
    },
    /// A primitive the renderer cannot draw.
    #[error("{file}: mesh {mesh} primitive {primitive}: {source}")]
    Mesh {
        /// The file.
        file: String,
        /// The glTF mesh.
        mesh: usize,
        /// The primitive.
        primitive: usize,
        /// Why.
        source: MeshDataError,
    },
    /// A skinned or morphing primitive the renderer cannot deform.
    #[error("{file}: mesh {mesh} primitive {primitive}: {source}")]
    Deform {
        /// The file.
        file: String,
        /// The glTF mesh.
        mesh: usize,
        /// The primitive.
        primitive: usize,
        /// Why.
        source: DeformDataError,
    },
    /// A skin whose joint is a node outside the spawned scene, or a skin
    /// the engine refuses.
    #[error("{file}: skin {skin}: {problem}")]
    Skin {
        /// The file.
        file: String,
        /// The glTF skin.
        skin: usize,
        /// Why.
        problem: SkinSpawnProblem,
    },
    /// An image the GPU cannot hold (too large for this device).
    #[error("{file}: image {image}: {source}")]
    Texture {
        /// The file.
        file: String,
        /// The glTF image.
        image: usize,
        /// Why.
        source: TextureError,
    },
    /// A camera whose projection the engine refuses.
    #[error("{file}: camera {camera}: {source}")]
    Camera {
        /// The file.
        file: String,
        /// The glTF camera.
        camera: usize,
        /// Why.
        source: CameraError,
    },
    /// An animation the engine refuses.
    #[error("{file}: animation {animation}: {source}")]
    Animation {
        /// The file.
        file: String,
        /// The glTF animation.
        animation: usize,
        /// Why.
        source: AnimationClipError,
    },
    /// The parent given in the options was removed.
    #[error("{file}: cannot spawn under the given parent: {source}")]
    Parent {
        /// The file.
        file: String,
        /// Why.
        source: SceneError,
    },
}

/// Why a skin could not be spawned.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SkinSpawnProblem {
    /// A joint is a node that is not part of the spawned scene.
    #[error("joint {joint} (node {node}) is not in the spawned scene")]
    JointOutsideScene {
        /// Its position in the skin's joint list.
        joint: usize,
        /// The glTF node.
        node: usize,
    },
    /// The engine refused the skin (a non-finite inverse bind matrix...).
    #[error(transparent)]
    Refused(#[from] DeformError),
}

impl From<GltfError> for GltfSpawnError {
    fn from(error: GltfError) -> Self {
        Self::Import(Box::new(error))
    }
}

impl Engine {
    /// Loads a `.gltf` or `.glb` file (with `options.load`: the budget and
    /// the folders its external files may come from) and spawns its default
    /// scene (or the one `options` names) into the current scene. Images
    /// are decoded through the platform's import cache
    /// ([`ImportCache::platform`](crate::import_cache::ImportCache::platform))
    /// unless `options.load.image_cache` names another: a second load of
    /// the same images reads them decoded.
    ///
    /// # Errors
    /// [`GltfSpawnError`], naming the file and the element; nothing is
    /// spawned when the import fails.
    pub fn load_gltf(
        &mut self,
        path: impl AsRef<Path>,
        options: &GltfSpawnOptions,
    ) -> Result<SpawnedGltf, GltfSpawnError> {
        self.load_gltf_with_progress(path, options, &mut |_| {})
    }

    /// [`load_gltf`](Self::load_gltf), reporting the import's progress.
    ///
    /// # Errors
    /// As [`load_gltf`](Self::load_gltf).
    pub fn load_gltf_with_progress(
        &mut self,
        path: impl AsRef<Path>,
        options: &GltfSpawnOptions,
        progress: &mut dyn FnMut(LoadProgress),
    ) -> Result<SpawnedGltf, GltfSpawnError> {
        let path = path.as_ref();
        let load = with_platform_image_cache(&options.load);
        let model = GltfModel::load_with_options(path, &load, progress)?;
        let spawned = self.spawn_gltf(&model, &model_name(path), options)?;
        self.make_reloadable(path, spawned.root, options);
        Ok(spawned)
    }

    /// Notes on `root` that its model came from `path`, so hot reload can
    /// rebuild it, and watches the model's folder when hot reload is on.
    pub(crate) fn make_reloadable(
        &mut self,
        path: &Path,
        root: GameObject,
        options: &GltfSpawnOptions,
    ) {
        let record = crate::hot_reload::ReloadableModel::new(self.scene(), path, root, options);
        for dep in &record.deps {
            self.hot_reload.watch_folder_of(dep);
        }
        let _ = self.scene_mut().add_component(root, record);
    }

    /// Spawns an already imported `model` (named `name`: the root object's
    /// name and the start of error messages) into the current scene,
    /// uploading its assets: the second half of
    /// [`load_gltf`](Self::load_gltf), for a model imported elsewhere (on a
    /// loading thread, from bytes). The model's named meshes and materials
    /// become [`mesh_named`](Self::mesh_named) and
    /// [`material_named`](Self::material_named)'s.
    ///
    /// # Errors
    /// As [`spawn_gltf`].
    pub fn spawn_gltf(
        &mut self,
        model: &GltfModel,
        name: &str,
        options: &GltfSpawnOptions,
    ) -> Result<SpawnedGltf, GltfSpawnError> {
        let roots = skins::spawn_roots(model, check_scene(model, name, options)?);
        let assets = upload_assets(self.renderer(), model, &roots, name)?;
        let spawned = spawn_uploaded(self.scene_mut(), model, &assets, name, options)?;
        self.model_names.record(&spawned);
        Ok(spawned)
    }
}

/// `load`, decoding images through the platform's import cache
/// ([`ImportCache::platform`](crate::import_cache::ImportCache::platform))
/// unless it names a cache of its own.
pub(crate) fn with_platform_image_cache(load: &LoadOptions) -> std::borrow::Cow<'_, LoadOptions> {
    if load.image_cache.is_some() {
        return std::borrow::Cow::Borrowed(load);
    }
    #[cfg(target_arch = "wasm32")]
    return std::borrow::Cow::Borrowed(load);
    #[cfg(not(target_arch = "wasm32"))]
    crate::import_cache::ImportCache::platform()
        .and_then(|cache| cache.image_cache())
        .map_or(std::borrow::Cow::Borrowed(load), |cache| {
            std::borrow::Cow::Owned(load.clone().with_image_cache(cache))
        })
}

/// The name of a model read from `path`: its file name.
fn model_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// Spawns `model` into `scene`, uploading its meshes, textures and
/// materials into `renderer`'s assets. `name` names the root object and
/// starts error messages.
///
/// # Errors
/// [`GltfSpawnError`] for a scene index out of range, a primitive or image
/// the renderer refuses, a camera or animation the engine refuses.
/// Objects spawned before the error are removed again.
pub fn spawn_gltf(
    scene: &mut Scene,
    renderer: &mut Renderer,
    model: &GltfModel,
    name: &str,
    options: &GltfSpawnOptions,
) -> Result<SpawnedGltf, GltfSpawnError> {
    let roots = skins::spawn_roots(model, check_scene(model, name, options)?);
    let assets = upload_assets(renderer, model, &roots, name)?;
    spawn_uploaded(scene, model, &assets, name, options)
}

/// The scene `options` picks, checked before anything is uploaded.
fn check_scene<'m>(
    model: &'m GltfModel,
    file: &str,
    options: &GltfSpawnOptions,
) -> Result<&'m gltf::Scene, GltfSpawnError> {
    let index = options.scene.unwrap_or(model.default_scene.0);
    model
        .scenes
        .get(index)
        .ok_or_else(|| GltfSpawnError::NoSuchScene {
            file: file.to_owned(),
            scene: index,
            count: model.scenes.len(),
        })
}

/// Spawns the scene `options` picks, its assets already uploaded; removes
/// what it spawned again if anything fails.
fn spawn_uploaded(
    scene: &mut Scene,
    model: &GltfModel,
    assets: &ModelAssets,
    file: &str,
    options: &GltfSpawnOptions,
) -> Result<SpawnedGltf, GltfSpawnError> {
    let gltf_scene = check_scene(model, file, options)?;
    let root = match options.parent {
        Some(parent) => {
            scene
                .spawn_child(parent, file)
                .map_err(|source| GltfSpawnError::Parent {
                    file: file.to_owned(),
                    source,
                })?
        }
        None => scene.spawn(file),
    };
    let mut spawner = Spawner {
        scene,
        model,
        assets,
        file,
        pending_skins: Vec::new(),
        morph_objects: Vec::new(),
        spawned: SpawnedGltf {
            root,
            nodes: vec![None; model.nodes.len()],
            cameras: Vec::new(),
            lights: Vec::new(),
            mesh_objects: Vec::new(),
            skinned: Vec::new(),
            morphing: Vec::new(),
            clips: Vec::new(),
            bounds: None,
            meshes_by_name: handles(&assets.meshes),
            materials_by_name: handles(&assets.materials),
            warnings: model.warnings.clone(),
        },
    };
    let roots = skins::spawn_roots(model, gltf_scene);
    if roots.len() > gltf_scene.roots.len() {
        spawner.spawned.warnings.push(format!(
            "{file}: skin joints outside the scene's hierarchy: spawned their trees under the model's root too"
        ));
    }
    let result = spawner.spawn(&roots, options.autoplay);
    match result {
        Ok(()) => Ok(spawner.spawned),
        Err(error) => {
            // Leave no half-spawned model behind.
            let _ = spawner.scene.remove(root);
            Err(error)
        }
    }
}

/// The component handles of named renderer ids.
fn handles<Id: AssetHandle>(ids: &BTreeMap<String, Id>) -> BTreeMap<String, Id::Handle> {
    ids.iter()
        .map(|(name, &id)| (name.clone(), id.handle()))
        .collect()
}

struct Spawner<'a> {
    scene: &'a mut Scene,
    model: &'a GltfModel,
    assets: &'a ModelAssets,
    file: &'a str,
    /// Skinned primitives' objects and their skin, joined to their joints
    /// once every node exists.
    pending_skins: Vec<(GameObject, gltf::SkinIndex, gltf::Aabb)>,
    /// Morphing primitives' objects by glTF node (a node's primitives may
    /// sit on its children).
    morph_objects: Vec<(usize, GameObject)>,
    spawned: SpawnedGltf,
}

impl Spawner<'_> {
    fn spawn(&mut self, roots: &[gltf::NodeIndex], autoplay: bool) -> Result<(), GltfSpawnError> {
        // Depth first with an explicit stack: files nest deeply.
        let mut stack: Vec<(gltf::NodeIndex, GameObject)> = roots
            .iter()
            .rev()
            .map(|&n| (n, self.spawned.root))
            .collect();
        while let Some((index, parent)) = stack.pop() {
            let object = self.spawn_node(index, parent)?;
            let node = &self.model.nodes[index.0];
            stack.extend(node.children.iter().rev().map(|&child| (child, object)));
        }
        self.spawn_skins()?;
        self.spawn_animations(autoplay)
    }

    fn spawn_node(
        &mut self,
        index: gltf::NodeIndex,
        parent: GameObject,
    ) -> Result<GameObject, GltfSpawnError> {
        let node = &self.model.nodes[index.0];
        let name = node
            .name
            .clone()
            .unwrap_or_else(|| format!("node {}", index.0));
        let transform = Transform {
            position: node.transform.translation,
            rotation: node.transform.rotation,
            scale: node.transform.scale,
        };
        let object = self.scene.spawn_with(name, transform);
        self.attach(parent, object)?;
        self.spawned.nodes[index.0] = Some(object);
        if let Some(primitives) = self.assets.nodes.get(&index.0) {
            if let [primitive] = primitives.as_slice() {
                self.add_mesh(object, index, primitive)?;
            } else {
                for (i, primitive) in primitives.iter().enumerate() {
                    let child = self.scene.spawn(format!("primitive {i}"));
                    self.attach(object, child)?;
                    self.add_mesh(child, index, primitive)?;
                }
            }
        }
        if let Some(camera) = node.camera {
            let component =
                convert::camera(&self.model.cameras[camera.0], 16.0 / 9.0).map_err(|source| {
                    GltfSpawnError::Camera {
                        file: self.file.to_owned(),
                        camera: camera.0,
                        source,
                    }
                })?;
            self.add(object, component)?;
            self.spawned.cameras.push(object);
        }
        if let Some(light) = node.light {
            self.add_light(object, &self.model.lights[light.0])?;
            self.spawned.lights.push(object);
        }
        Ok(object)
    }

    fn attach(&mut self, parent: GameObject, child: GameObject) -> Result<(), GltfSpawnError> {
        self.scene
            .add_child(parent, child)
            .map_err(|source| GltfSpawnError::Parent {
                file: self.file.to_owned(),
                source,
            })
    }

    fn add<C: bevy_ecs::component::Component>(
        &mut self,
        object: GameObject,
        component: C,
    ) -> Result<(), GltfSpawnError> {
        self.scene
            .add_component(object, component)
            .map_err(|source| GltfSpawnError::Parent {
                file: self.file.to_owned(),
                source,
            })
    }

    fn add_mesh(
        &mut self,
        object: GameObject,
        index: gltf::NodeIndex,
        primitive: &PrimitiveAsset,
    ) -> Result<(), GltfSpawnError> {
        let node = &self.model.nodes[index.0];
        self.add(
            object,
            MeshRenderer::new(primitive.mesh.handle(), primitive.material.handle()),
        )?;
        self.spawned.mesh_objects.push(object);
        if primitive.morph_targets > 0 {
            let mesh = node.mesh.map(|m| &self.model.meshes[m.0]);
            let mut weights = node
                .weights
                .clone()
                .or_else(|| mesh.map(|m| m.weights.clone()))
                .unwrap_or_default();
            weights.resize(primitive.morph_targets, 0.0);
            // The importer only keeps finite weights.
            let weights = MorphWeights::new(weights).unwrap_or_default();
            self.add(object, weights)?;
            self.spawned.morphing.push(object);
            self.morph_objects.push((index.0, object));
        }
        if primitive.skinned
            && let Some(skin) = node.skin
        {
            // Placed by its joints: its bounds wait for them.
            self.pending_skins.push((object, skin, primitive.bounds));
            return Ok(());
        }
        let world = self.scene.world_matrix(object).unwrap_or_default();
        self.grow_bounds(glam::Mat4::from(world), primitive.bounds);
        Ok(())
    }

    /// Grows the model's bounds by `local` placed by `world`.
    fn grow_bounds(&mut self, world: glam::Mat4, local: gltf::Aabb) {
        for corner in 0..8 {
            let pick = |bit: u32, min: f32, max: f32| if corner & bit == 0 { min } else { max };
            let point = world.transform_point3(Vec3::new(
                pick(1, local.min.x, local.max.x),
                pick(2, local.min.y, local.max.y),
                pick(4, local.min.z, local.max.z),
            ));
            self.spawned.bounds = Some(match self.spawned.bounds {
                Some((min, max)) => (min.min(point), max.max(point)),
                None => (point, point),
            });
        }
    }

    fn add_light(&mut self, object: GameObject, light: &gltf::Light) -> Result<(), GltfSpawnError> {
        let color = convert::light_color(light);
        let intensity = light.intensity.max(0.0);
        let range = convert::light_range(light);
        match light.kind {
            gltf::LightKind::Directional => {
                let world = self.scene.world_matrix(object).unwrap_or_default();
                let direction = world
                    .transform_vector3(Vec3::NEG_Z)
                    .normalize_or(Vec3::NEG_Y);
                self.add(object, DirectionalLight::new(direction, color, intensity))
            }
            gltf::LightKind::Point => self.add(object, PointLight::new(color, intensity, range)),
            gltf::LightKind::Spot {
                inner_cone_angle,
                outer_cone_angle,
            } => self.add(
                object,
                SpotLight::new(
                    color,
                    intensity,
                    range,
                    inner_cone_angle.to_degrees(),
                    outer_cone_angle.to_degrees(),
                ),
            ),
        }
    }

    fn spawn_animations(&mut self, autoplay: bool) -> Result<(), GltfSpawnError> {
        if self.model.animations.is_empty() {
            return Ok(());
        }
        let mut player = AnimationPlayer::new();
        for (index, animation) in self.model.animations.iter().enumerate() {
            // Channels on nodes outside the spawned scene have no target.
            let mut channels: Vec<_> = animation
                .channels
                .iter()
                .filter_map(|channel| {
                    let target = self.spawned.nodes[channel.target.0]?;
                    Some(convert::channel(channel, target))
                })
                .collect();
            // A node's weights drive each of its morphing primitives.
            for channel in &animation.weight_channels {
                for &(_, object) in self
                    .morph_objects
                    .iter()
                    .filter(|(node, _)| *node == channel.target.0)
                {
                    channels.push(convert::weights_channel(channel, object));
                }
            }
            let name = animation
                .name
                .clone()
                .unwrap_or_else(|| format!("animation {index}"));
            let clip =
                AnimationClip::new(name, channels).map_err(|source| GltfSpawnError::Animation {
                    file: self.file.to_owned(),
                    animation: index,
                    source,
                })?;
            self.spawned.clips.push(player.add_clip(clip));
        }
        if autoplay && let Some(&first) = self.spawned.clips.first() {
            player.set_looping(true);
            // The clip was just added to this player.
            let _ = player.play(first);
        }
        let root = self.spawned.root;
        self.add(root, player)
    }
}
