//! Reloading glTF models in place: every instance loaded from a changed
//! file (or one of its buffers or images) is rebuilt under the same root
//! object.
//!
//! The root is what a game holds ([`SpawnedGltf::root`](crate::gltf::SpawnedGltf)):
//! it stays, with its transform, parent, the game's components and the
//! children the game added. What the model made under it (its nodes,
//! meshes, lights, skins, the root's animation player) is spawned afresh
//! from the new file, and the old parts are removed. Components a game
//! added to the model's own node objects go with them.

use std::path::{Path, PathBuf};

use bevy_ecs::component::Component;
use bevy_ecs::entity::Entity;
use web_time::Instant;

use super::{ReloadEvent, ReloadKind, canonical};
use crate::assets::{AssetError, AssetPath, Assets};
use crate::gltf::{GltfModel, GltfSpawnError, GltfSpawnOptions, SpawnedGltf};
use crate::scene_file::ModelPart;
use crate::task::Task;
use crate::{AnimationPlayer, Engine, GameObject, Scene};

/// On a model's root object: the file it was loaded from, so hot reload
/// can rebuild it. Runtime only (never in scene files).
#[derive(Component, Debug, Clone)]
pub struct ReloadableModel {
    /// The model file (canonical).
    pub path: PathBuf,
    /// The model file and every external file it names (canonical).
    pub deps: Vec<PathBuf>,
    /// How it was spawned (its `parent` is not used again: the root stays
    /// where it is).
    pub options: GltfSpawnOptions,
    /// The objects the model put directly under the root.
    pub parts: Vec<GameObject>,
    /// Where it was loaded from, for a model spawned with
    /// [`Engine::spawn_gltf_asset`]: read again through [`Assets`] (by
    /// `fetch` in the browser).
    pub asset: Option<(Assets, AssetPath)>,
}

impl ReloadableModel {
    /// Whether a change to `changed` means this model must be read again:
    /// one of its files, or (in the browser, where the files a model names
    /// are not known without reading it) any file in the model's folder.
    #[must_use]
    pub fn depends_on(&self, changed: &Path) -> bool {
        if self.deps.iter().any(|dep| dep == changed) {
            return true;
        }
        match &self.asset {
            Some((_, asset)) if !self.path.is_absolute() => {
                changed.starts_with(asset.folder()) || changed == Path::new(asset.as_str())
            }
            _ => false,
        }
    }
}

impl ReloadableModel {
    /// The record for a model spawned from `path` under `root`: its
    /// dependencies read from the file's URIs (a file that cannot be read
    /// again depends on itself only).
    pub(crate) fn new(
        scene: &Scene,
        path: &Path,
        root: GameObject,
        options: &GltfSpawnOptions,
    ) -> Self {
        let path = canonical(path);
        Self {
            deps: model_dependencies(&path),
            path,
            options: GltfSpawnOptions {
                parent: None,
                ..options.clone()
            },
            parts: scene.children(root).collect(),
            asset: None,
        }
    }
}

/// The files a glTF model is read from: the model file and every buffer
/// and image it names by URI (canonical paths), for a viewer or tool that
/// reloads a model itself when [`HotReload::changed_last_frame`](super::HotReload::changed_last_frame)
/// lists one. A file that cannot be read lists itself only.
#[must_use]
pub fn model_dependencies(path: &Path) -> Vec<PathBuf> {
    let path = canonical(path);
    let mut deps = vec![path.clone()];
    let folder = path.parent().map(Path::to_path_buf).unwrap_or_default();
    if let Ok(bytes) = std::fs::read(&path)
        && let Ok(uris) = taos_gltf::external_uris(&bytes, &path.display().to_string())
    {
        deps.extend(uris.iter().map(|uri| canonical(&folder.join(&uri.path))));
    }
    deps
}

impl Engine {
    /// Rebuilds every instance of every model that depends on a file in
    /// `changed`, each model file read once. A model that fails to load
    /// keeps its old instances and reports why.
    pub(crate) fn reload_models(&mut self, changed: &[PathBuf], events: &mut Vec<ReloadEvent>) {
        let instances = reloadable_instances(self.scene());
        let mut models: Vec<(PathBuf, PathBuf, Vec<GameObject>)> = Vec::new();
        for (root, record) in instances {
            let Some(hit) = changed.iter().find(|c| record.depends_on(c)) else {
                continue;
            };
            match models.iter_mut().find(|(path, _, _)| *path == record.path) {
                Some((_, _, roots)) => roots.push(root),
                None => models.push((record.path.clone(), hit.clone(), vec![root])),
            }
        }
        for (path, hit, roots) in models {
            if let Some(fetch) = self.fetch_instead(&path, &hit, &roots) {
                self.hot_reload.fetching.push(fetch);
                continue;
            }
            let started = Instant::now();
            let outcome = self.reload_model_file(&path, &roots);
            events.push(ReloadEvent {
                path: hit,
                outcome: outcome
                    .map(|instances| ReloadKind::Model { instances })
                    .map_err(|error| error.to_string()),
                took: started.elapsed(),
            });
        }
    }

    /// For a model that is not a file here (spawned from an asset in the
    /// browser): its asset, read again through [`Assets`].
    fn fetch_instead(
        &self,
        path: &Path,
        hit: &Path,
        roots: &[GameObject],
    ) -> Option<FetchingModel> {
        if path.is_file() {
            return None;
        }
        let (assets, asset) = roots
            .first()
            .and_then(|&r| self.scene().get_component::<ReloadableModel>(r))
            .and_then(|record| record.asset.clone())?;
        Some(FetchingModel {
            path: path.to_owned(),
            hit: hit.to_owned(),
            task: assets.load_gltf(&asset),
            started: Instant::now(),
        })
    }

    /// Rebuilds the instances of models whose asset arrived.
    pub(crate) fn finish_fetched_models(&mut self, events: &mut Vec<ReloadEvent>) {
        let mut fetching = std::mem::take(&mut self.hot_reload.fetching);
        fetching.retain_mut(|fetch| {
            let Some(result) = fetch.task.take() else {
                return true;
            };
            let roots: Vec<GameObject> = reloadable_instances(self.scene())
                .into_iter()
                .filter(|(_, record)| record.path == fetch.path)
                .map(|(root, _)| root)
                .collect();
            let outcome = result.map_err(|e| e.to_string()).and_then(|model| {
                for &root in &roots {
                    self.rebuild_instance(&model, &fetch.path, root)
                        .map_err(|e| e.to_string())?;
                }
                Ok(ReloadKind::Model {
                    instances: roots.len(),
                })
            });
            events.push(ReloadEvent {
                path: fetch.hit.clone(),
                outcome,
                took: fetch.started.elapsed(),
            });
            false
        });
        fetching.append(&mut self.hot_reload.fetching);
        self.hot_reload.fetching = fetching;
    }

    /// Spawns `model`, read from `path` in `assets` (with
    /// [`Assets::load_gltf`]), as [`spawn_gltf`](Self::spawn_gltf) does,
    /// and notes where it came from so hot reload rebuilds it when the
    /// file changes: natively through the file watcher, in the browser
    /// when `taos web serve --watch` pushes the change (the model is
    /// fetched again).
    ///
    /// # Errors
    /// As [`spawn_gltf`](Self::spawn_gltf).
    pub fn spawn_gltf_asset(
        &mut self,
        assets: &Assets,
        path: &AssetPath,
        model: &GltfModel,
        options: &GltfSpawnOptions,
    ) -> Result<SpawnedGltf, GltfSpawnError> {
        let spawned = self.spawn_gltf(model, path.file_name(), options)?;
        #[cfg(not(target_arch = "wasm32"))]
        let on_disk = Some(assets.root().path().join(path.as_str())).filter(|p| p.is_file());
        #[cfg(target_arch = "wasm32")]
        let on_disk: Option<PathBuf> = None;
        let mut record = if let Some(on_disk) = on_disk {
            let record = ReloadableModel::new(self.scene(), &on_disk, spawned.root, options);
            for dep in &record.deps {
                self.hot_reload.watch_folder_of(dep);
            }
            record
        } else {
            ReloadableModel {
                path: PathBuf::from(path.as_str()),
                deps: vec![PathBuf::from(path.as_str())],
                options: GltfSpawnOptions {
                    parent: None,
                    ..options.clone()
                },
                parts: self.scene().children(spawned.root).collect(),
                asset: None,
            }
        };
        record.asset = Some((assets.clone(), path.clone()));
        let _ = self.scene_mut().add_component(spawned.root, record);
        Ok(spawned)
    }

    /// Reads `path` once and rebuilds each of `roots` from it.
    fn reload_model_file(
        &mut self,
        path: &Path,
        roots: &[GameObject],
    ) -> Result<usize, GltfSpawnError> {
        let Some(options) = roots
            .first()
            .and_then(|&r| self.scene().get_component::<ReloadableModel>(r))
            .map(|record| record.options.clone())
        else {
            return Ok(0);
        };
        let load = crate::gltf::with_platform_image_cache(&options.load);
        let model = GltfModel::load_with_options(path, &load, &mut |_| {})?;
        let mut rebuilt = 0;
        for &root in roots {
            self.rebuild_instance(&model, path, root)?;
            rebuilt += 1;
        }
        Ok(rebuilt)
    }

    /// Spawns `model` under `root` and swaps it in for the old parts.
    fn rebuild_instance(
        &mut self,
        model: &GltfModel,
        path: &Path,
        root: GameObject,
    ) -> Result<(), GltfSpawnError> {
        let Some(record) = self.scene().get_component::<ReloadableModel>(root).cloned() else {
            return Ok(());
        };
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let options = GltfSpawnOptions {
            parent: Some(root),
            ..record.options.clone()
        };
        // Spawned first: a model the renderer refuses leaves the old one.
        let fresh = self.spawn_gltf(model, &name, &options)?;
        let marked = self.scene().get_component::<ModelPart>(root).is_some();
        let scene = self.scene_mut();
        for part in &record.parts {
            if scene.contains(*part) && scene.parent(*part) == Some(root) {
                let _ = scene.remove(*part);
            }
        }
        let parts: Vec<GameObject> = scene.children(fresh.root).collect();
        for &part in &parts {
            let _ = scene.add_child(root, part);
        }
        let _ = scene.remove_component::<AnimationPlayer>(root);
        if let Some(player) = scene.remove_component::<AnimationPlayer>(fresh.root) {
            let _ = scene.add_component(root, player);
        }
        let _ = scene.remove(fresh.root);
        if marked {
            mark_parts(scene, &parts);
        }
        let _ = scene.add_component(root, ReloadableModel { parts, ..record });
        Ok(())
    }
}

/// A model being read again through [`Assets`] (in the browser).
pub(crate) struct FetchingModel {
    /// The record's path (which instances to rebuild).
    path: PathBuf,
    /// The change that started it.
    hit: PathBuf,
    task: Task<Result<GltfModel, AssetError>>,
    started: Instant,
}

impl std::fmt::Debug for FetchingModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FetchingModel")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

/// Every object carrying a [`ReloadableModel`], with a copy of it.
fn reloadable_instances(scene: &Scene) -> Vec<(GameObject, ReloadableModel)> {
    let world = scene.world();
    let Some(mut query) = world.try_query::<(Entity, &ReloadableModel)>() else {
        return Vec::new();
    };
    let mut out: Vec<(GameObject, ReloadableModel)> = query
        .iter(world)
        .map(|(entity, record)| (GameObject::from_entity(entity), record.clone()))
        .collect();
    out.sort_by_key(|(object, _)| scene.id(*object));
    out
}

/// Marks `parts` and everything under them as a scene file's model parts.
fn mark_parts(scene: &mut Scene, parts: &[GameObject]) {
    let mut stack = parts.to_vec();
    while let Some(object) = stack.pop() {
        let _ = scene.add_component(object, ModelPart);
        stack.extend(scene.children(object));
    }
}
