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
use crate::gltf::{GltfModel, GltfSpawnError, GltfSpawnOptions};
use crate::scene_file::ModelPart;
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
            let Some(hit) = changed.iter().find(|c| record.deps.contains(c)) else {
                continue;
            };
            match models.iter_mut().find(|(path, _, _)| *path == record.path) {
                Some((_, _, roots)) => roots.push(root),
                None => models.push((record.path.clone(), hit.clone(), vec![root])),
            }
        }
        for (path, hit, roots) in models {
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
        let model = GltfModel::load_with_options(path, &options.load, &mut |_| {})?;
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
