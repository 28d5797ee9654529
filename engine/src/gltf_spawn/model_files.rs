//! Spawning the models scene files refer to: every object with a
//! [`ModelFile`] gets its model's objects as children, marked
//! [`ModelPart`] (left out of scene files), and gets them again when its
//! `ModelFile` changes.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use bevy_ecs::component::Component;
use bevy_ecs::entity::Entity;

use super::{GltfModel, GltfSpawnError, GltfSpawnOptions};
use crate::scene_file::{ModelFile, ModelPart};
use crate::{Engine, GameObject, ObjectId, Scene};

/// What an object's model became the last time it was spawned: what
/// [`Engine::spawn_model_files`] compares with to know whether to spawn
/// again. Runtime only (not in scene files).
#[derive(Component, Debug, Clone)]
struct SpawnedModel {
    file: ModelFile,
    /// The model's root, or `None` when it failed (not tried again until
    /// the `ModelFile` changes).
    root: Option<GameObject>,
}

/// A model that could not be spawned; the object keeps its [`ModelFile`]
/// and the rest of the scene is unaffected.
#[derive(Debug, thiserror::Error)]
#[error("object {} ({name}): model {}: {source}", .object.0, .path.display())]
pub struct ModelFileError {
    /// The object carrying the [`ModelFile`].
    pub object: ObjectId,
    /// The object's name.
    pub name: String,
    /// The file that was read.
    pub path: PathBuf,
    /// Why it failed (the importer's error names the element).
    #[source]
    pub source: Box<GltfSpawnError>,
}

/// What [`Engine::spawn_model_files`] did.
#[derive(Debug, Default)]
pub struct ModelFilesReport {
    /// The objects whose model was spawned, with the model's root.
    pub spawned: Vec<(GameObject, GameObject)>,
    /// The models that failed.
    pub errors: Vec<ModelFileError>,
}

/// The model for one object's [`ModelFile`]: the path it was read from
/// (for messages; its file name names the model's root) and the model,
/// borrowed when it was loaded before, or why there is none.
pub(crate) type FetchedModel<'m> = (PathBuf, Result<Cow<'m, GltfModel>, GltfSpawnError>);

impl Engine {
    /// Spawns the model of every object whose [`ModelFile`] has not been
    /// spawned yet or changed since (removing what the old one spawned),
    /// reading the paths relative to `folder`; removes the model of an
    /// object that lost its `ModelFile`. Call it after loading a scene
    /// file; the editor calls it every frame while it is open. A model
    /// that fails is reported (and logged) and not tried again until its
    /// `ModelFile` changes: the rest of the scene is unaffected.
    ///
    /// In the browser, where nothing is read from disk, load the scene
    /// with [`Assets::load_scene`](crate::assets::Assets::load_scene) and
    /// spawn it with [`Engine::spawn_scene_asset`].
    pub fn spawn_model_files(&mut self, folder: &Path) -> ModelFilesReport {
        let pending = pending(self.scene());
        self.spawn_pending_models(pending, &mut |file| {
            let path = folder.join(file.path());
            let model = GltfModel::load(&path)
                .map(Cow::Owned)
                .map_err(GltfSpawnError::from);
            (path, model)
        })
    }

    /// Spawns (or removes) the models of `pending` objects, each from what
    /// `fetch` gives for its [`ModelFile`]: the one way both
    /// [`spawn_model_files`](Self::spawn_model_files) and
    /// [`spawn_scene_asset`](Self::spawn_scene_asset) spawn models.
    pub(crate) fn spawn_pending_models<'m>(
        &mut self,
        pending: Vec<(GameObject, Option<ModelFile>)>,
        fetch: &mut dyn FnMut(&ModelFile) -> FetchedModel<'m>,
    ) -> ModelFilesReport {
        let mut report = ModelFilesReport::default();
        for (object, file) in pending {
            remove_spawned(self.scene_mut(), object);
            let Some(file) = file else {
                continue;
            };
            let root = match self.spawn_one(object, &file, fetch(&file)) {
                Ok(root) => {
                    report.spawned.push((object, root));
                    Some(root)
                }
                Err(error) => {
                    log::warn!("{error}");
                    report.errors.push(error);
                    None
                }
            };
            let _ = self
                .scene_mut()
                .add_component(object, SpawnedModel { file, root });
        }
        report
    }

    fn spawn_one(
        &mut self,
        object: GameObject,
        file: &ModelFile,
        (path, model): FetchedModel<'_>,
    ) -> Result<GameObject, ModelFileError> {
        let options = GltfSpawnOptions {
            autoplay: file.autoplay,
            parent: Some(object),
            ..GltfSpawnOptions::default()
        };
        let spawned = model
            .and_then(|model| self.spawn_gltf(&model, &super::model_name(&path), &options))
            .map_err(|source| {
                let scene = self.scene();
                ModelFileError {
                    object: scene.id(object).unwrap_or(ObjectId(0)),
                    name: scene.name(object).unwrap_or_default().to_owned(),
                    path: path.clone(),
                    source: Box::new(source),
                }
            })?;
        mark_parts(self.scene_mut(), spawned.root);
        if path.is_file() {
            self.make_reloadable(&path, spawned.root, &options);
        }
        Ok(spawned.root)
    }
}

/// Objects whose model must be (re)spawned or removed, with the
/// [`ModelFile`] they now carry (`None`: remove only).
pub(crate) fn pending(scene: &Scene) -> Vec<(GameObject, Option<ModelFile>)> {
    let world = scene.world();
    let mut out = Vec::new();
    // `try_query` is `None` until its components are known to the world.
    if let Some(mut query) = world.try_query::<(Entity, &ModelFile)>() {
        for (entity, file) in query.iter(world) {
            let done = world
                .get::<SpawnedModel>(entity)
                .is_some_and(|spawned| spawned.file == *file);
            if !done {
                out.push((GameObject::from_entity(entity), Some(file.clone())));
            }
        }
    }
    if let Some(mut query) = world.try_query::<(Entity, &SpawnedModel)>() {
        for (entity, _) in query.iter(world) {
            if world.get::<ModelFile>(entity).is_none() {
                out.push((GameObject::from_entity(entity), None));
            }
        }
    }
    out.sort_by_key(|(object, _)| scene.id(*object));
    out
}

fn remove_spawned(scene: &mut Scene, object: GameObject) {
    if let Some(spawned) = scene.remove_component::<SpawnedModel>(object)
        && let Some(root) = spawned.root
        && scene.contains(root)
    {
        let _ = scene.remove(root);
    }
}

fn mark_parts(scene: &mut Scene, root: GameObject) {
    let mut stack = vec![root];
    while let Some(object) = stack.pop() {
        let _ = scene.add_component(object, ModelPart);
        stack.extend(scene.children(object));
    }
}
