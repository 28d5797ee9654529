//! Scene files by asset path: [`SceneAsset`] is a scene file with the
//! prefab files and glTF models it names, read through [`Assets`], and
//! [`Engine::spawn_scene_asset`] puts it in the scene.
//!
//! Prefab sources and model paths in a scene file are relative to the
//! scene file's folder (as the editor reads them). To find them, the file
//! is loaded into a scratch scene (with the engine's
//! [`scene_types`](crate::scene_types)); prefabs naming prefabs are
//! fetched round by round until none is missing.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::PathBuf;

use taos_gltf::GltfModel;

use super::{AssetError, AssetPath, Assets, DecodeError};
use crate::gltf::{FetchedModel, GltfSpawnError, ModelFilesReport, pending_model_files};
use crate::scene_file::{self, LoadedScene, ModelFile, SceneFileError, SceneTypes};
use crate::{Engine, GameObject, ProgressReporter, Scene};

/// The most prefab files one scene file may bring (prefabs naming
/// prefabs included).
pub const MAX_SCENE_PREFABS: usize = 256;

/// A scene file and what it names, read through [`Assets::load_scene`]:
/// its prefab files and glTF models, each fetched relative to the scene
/// file's folder. Put it in the scene with [`Engine::spawn_scene_asset`].
///
/// A prefab or model that could not be read is kept as its error: the
/// rest of the scene still loads (a prefab instance becomes a
/// placeholder, a model is reported in
/// [`ModelFilesReport::errors`]), as it does when read from disk.
#[derive(Debug, Clone)]
pub struct SceneAsset {
    path: AssetPath,
    text: String,
    prefabs: BTreeMap<String, Result<String, AssetError>>,
    models: BTreeMap<String, Result<GltfModel, AssetError>>,
}

impl SceneAsset {
    /// The scene file.
    #[must_use]
    pub fn path(&self) -> &AssetPath {
        &self.path
    }

    /// The scene file's text.
    #[must_use]
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The model a [`ModelFile`] path of the file names, or why it could
    /// not be had; `None` for a path the file does not name.
    pub fn model(&self, model_path: &str) -> Option<Result<&GltfModel, &AssetError>> {
        self.models.get(model_path).map(Result::as_ref)
    }

    /// Every model path the file (and its prefabs) names, with its model
    /// or error, in path order.
    pub fn models(&self) -> impl Iterator<Item = (&str, Result<&GltfModel, &AssetError>)> {
        self.models
            .iter()
            .map(|(path, model)| (path.as_str(), model.as_ref()))
    }

    /// Every prefab source the file (and its prefabs) names, with its
    /// text or error, in source order.
    pub fn prefabs(&self) -> impl Iterator<Item = (&str, Result<&str, &AssetError>)> {
        self.prefabs.iter().map(|(source, text)| {
            let text = text.as_ref().map(String::as_str);
            (source.as_str(), text)
        })
    }
}

/// What [`Engine::spawn_scene_asset`] made.
#[derive(Debug)]
pub struct SpawnedScene {
    /// The scene file's objects, as [`load_scene`](scene_file::load_scene)
    /// reports them (placeholders for prefabs that could not be read are
    /// in its `problems`).
    pub scene: LoadedScene,
    /// The models spawned under the file's objects, and those that failed.
    pub models: ModelFilesReport,
}

/// Reads the scene file at `path`, then its prefabs and models.
pub(super) async fn load(
    assets: &Assets,
    path: &AssetPath,
    progress: &ProgressReporter,
) -> Result<SceneAsset, AssetError> {
    let text = assets.fetch_text(path, progress).await?;
    let types = crate::scene_types();
    let mut prefabs: BTreeMap<String, Result<String, AssetError>> = BTreeMap::new();
    let scratch = loop {
        let mut scratch = Scene::new();
        let mut wanted = BTreeSet::new();
        let mut reader = |source: &str| match prefabs.get(source) {
            Some(Ok(text)) => Ok(text.clone()),
            Some(Err(error)) => Err(error.to_string()),
            None => {
                wanted.insert(source.to_owned());
                Err(format!("prefab {source:?} is not read yet"))
            }
        };
        scene_file::load_scene_with(
            &mut scratch,
            &text,
            path.as_str(),
            &types,
            None,
            &mut reader,
        )
        .map_err(|e| AssetError::decode(path, e))?;
        if wanted.is_empty() {
            break scratch;
        }
        for source in wanted {
            if prefabs.len() >= MAX_SCENE_PREFABS {
                let limit = MAX_SCENE_PREFABS;
                return Err(AssetError::decode(
                    path,
                    DecodeError::TooManyPrefabs { limit },
                ));
            }
            let read = match path.join_relative(&source) {
                Ok(prefab) => assets.fetch_text(&prefab, progress).await,
                Err(error) => Err(error),
            };
            prefabs.insert(source, read);
        }
    };
    let mut models = BTreeMap::new();
    for model_path in model_paths(&scratch) {
        let model = match path.join_relative(&model_path) {
            Ok(model) => super::gltf::load(assets, &model, progress).await,
            Err(error) => Err(error),
        };
        models.insert(model_path, model);
    }
    Ok(SceneAsset {
        path: path.clone(),
        text,
        prefabs,
        models,
    })
}

/// The paths of every [`ModelFile`] in `scene`.
fn model_paths(scene: &Scene) -> BTreeSet<String> {
    let world = scene.world();
    // `try_query` is `None` until the component is known to the world.
    world
        .try_query::<&ModelFile>()
        .map(|mut query| {
            query
                .iter(world)
                .map(|file| file.path().to_owned())
                .collect()
        })
        .unwrap_or_default()
}

impl Engine {
    /// Loads `asset` (from [`Assets::load_scene`]) into the current scene,
    /// under `parent` when given, with `types` (the game's
    /// [`scene_types`](crate::scene_types) and its own), and spawns the
    /// models its objects name from the models read with it, as
    /// [`spawn_model_files`](Self::spawn_model_files) does from a folder:
    /// a model that failed is reported in [`SpawnedScene::models`], the
    /// rest of the scene is unaffected.
    ///
    /// # Errors
    /// [`SceneFileError`] when the file cannot be loaded (the scene is
    /// then untouched), as [`load_scene`](scene_file::load_scene).
    pub fn spawn_scene_asset(
        &mut self,
        asset: &SceneAsset,
        types: &SceneTypes,
        parent: Option<GameObject>,
    ) -> Result<SpawnedScene, SceneFileError> {
        let mut prefabs = |source: &str| match asset.prefabs.get(source) {
            Some(Ok(text)) => Ok(text.clone()),
            Some(Err(error)) => Err(error.to_string()),
            None => Err(format!(
                "prefab {source:?} was not read with {}",
                asset.path
            )),
        };
        let scene = scene_file::load_scene_with(
            self.scene_mut(),
            &asset.text,
            asset.path.as_str(),
            types,
            parent,
            &mut prefabs,
        )?;
        let made: HashSet<GameObject> = scene.objects.iter().map(|&(_, object)| object).collect();
        let pending = pending_model_files(self.scene())
            .into_iter()
            .filter(|(object, _)| made.contains(object))
            .collect();
        let models = self.spawn_pending_models(pending, &mut |file| fetched(asset, file));
        Ok(SpawnedScene { scene, models })
    }
}

/// The model `file` names, from those read with `asset`.
fn fetched<'a>(asset: &'a SceneAsset, file: &ModelFile) -> FetchedModel<'a> {
    let joined = asset.path.join_relative(file.path());
    let shown = joined.as_ref().map_or_else(
        |_| PathBuf::from(file.path()),
        |path| PathBuf::from(path.as_str()),
    );
    let model = match (asset.models.get(file.path()), joined) {
        (Some(Ok(model)), _) => Ok(Cow::Borrowed(model)),
        (Some(Err(error)), _) => Err(error.clone()),
        (None, Err(error)) => Err(error),
        (None, Ok(path)) => Err(AssetError::NotFetched {
            path,
            scene: asset.path.clone(),
        }),
    };
    let model = model.map_err(|error| GltfSpawnError::Asset(Box::new(error)));
    (shown, model)
}
