//! Finding things in the scene: the camera, the sun, mesh renderers, components.

use bevy_ecs::change_detection::DetectChangesMut as _;
use bevy_ecs::component::Component;
use bevy_ecs::entity::Entity;
use glam::Affine3A;

use super::Scene;
use crate::components::{Camera, DirectionalLight, MeshRenderer};
use crate::object::GameObject;
use crate::transform::{TransformSlot, TransformStore, read};

/// One mesh to draw: what the renderer buckets each frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeshDraw {
    /// The object carrying the renderer.
    pub object: GameObject,
    /// Mesh and material handles.
    pub renderer: MeshRenderer,
    /// The object's world matrix.
    pub world: Affine3A,
}

impl Scene {
    /// The active object with a [`Camera`] that comes first in hierarchy order.
    ///
    /// A `&self` read: for each camera, a walk up its parent chain (cameras are few).
    #[must_use]
    pub fn find_camera(&self) -> Option<GameObject> {
        self.first_in_hierarchy::<Camera>()
    }

    /// The active object with a [`DirectionalLight`] that comes first in hierarchy order.
    #[must_use]
    pub fn find_sun_light(&self) -> Option<GameObject> {
        self.first_in_hierarchy::<DirectionalLight>()
    }

    /// Every active mesh renderer with its current world matrix.
    pub fn collect_mesh_renderers(&mut self) -> Vec<MeshDraw> {
        let mut out = Vec::new();
        self.collect_mesh_renderers_into(&mut out);
        out
    }

    /// Like [`collect_mesh_renderers`](Self::collect_mesh_renderers) but fills the
    /// caller's vector (cleared first): no allocation once it has grown.
    pub fn collect_mesh_renderers_into(&mut self, out: &mut Vec<MeshDraw>) {
        out.clear();
        self.refresh_transforms();
        let mut store = self.world.resource_mut::<TransformStore>();
        store.bypass_change_detection().prepare();
        let store = self.world.resource::<TransformStore>();
        for (entity, &TransformSlot { slot, .. }, renderer) in self.mesh_renderers.iter(&self.world)
        {
            if store.is_active(slot) {
                out.push(MeshDraw {
                    object: GameObject::from_entity(entity),
                    renderer: *renderer,
                    world: *store.world(slot),
                });
            }
        }
    }

    /// Calls `visit` with every active object carrying a `C`, its component
    /// and its world matrix (transforms are refreshed first). This is how the
    /// engine's presenter gathers lights; it allocates nothing.
    pub fn for_each_active_with<C: Component>(
        &mut self,
        mut visit: impl FnMut(GameObject, &C, &Affine3A),
    ) {
        self.refresh_transforms();
        let mut store = self.world.resource_mut::<TransformStore>();
        store.bypass_change_detection().prepare();
        let store = self.world.resource::<TransformStore>();
        let Some(mut query) = self.world.try_query::<(Entity, &TransformSlot, &C)>() else {
            return;
        };
        for (entity, &TransformSlot { slot, .. }, component) in query.iter(&self.world) {
            if store.is_active(slot) {
                visit(
                    GameObject::from_entity(entity),
                    component,
                    store.world(slot),
                );
            }
        }
    }

    /// For each root, in hierarchy order, the first active object in its subtree
    /// carrying a `C` (nearest the root first).
    pub fn get_components<C: Component>(&mut self) -> Vec<GameObject> {
        let mut found: Vec<(u32, u32, GameObject)> = Vec::new();
        self.visit_active::<C>(|store, slot, object| {
            let mut root = slot;
            while let Some(parent) = store.parent(root) {
                root = parent;
            }
            found.push((store.rank(root), store.rank(slot), object));
        });
        found.sort_unstable();
        found.dedup_by_key(|(root, _, _)| *root);
        found.into_iter().map(|(_, _, object)| object).collect()
    }

    /// The active `C` carrier first in hierarchy order, read without touching
    /// any cache: hierarchy order is the order of root-to-object insertion paths.
    fn first_in_hierarchy<C: Component>(&self) -> Option<GameObject> {
        let world = &self.world;
        let store = world.resource::<TransformStore>();
        let mut query = world.try_query::<(Entity, &TransformSlot, &C)>()?;
        let (mut best, mut path) = (None::<(Vec<u64>, GameObject)>, Vec::new());
        for (entity, &TransformSlot { slot, .. }, _) in query.iter(world) {
            if !store.is_live(slot) || read::is_active_now(world, entity) != Some(true) {
                continue;
            }
            read::root_path(store, slot, &mut path);
            if best.as_ref().is_none_or(|(p, _)| path < *p) {
                best = Some((path.clone(), GameObject::from_entity(entity)));
            }
        }
        best.map(|(_, object)| object)
    }

    fn visit_active<C: Component>(
        &mut self,
        mut visit: impl FnMut(&TransformStore, u32, GameObject),
    ) {
        self.world
            .resource_mut::<TransformStore>()
            .bypass_change_detection()
            .prepare();
        let world = &self.world;
        let store = world.resource::<TransformStore>();
        let Some(mut query) = world.try_query::<(Entity, &TransformSlot, &C)>() else {
            return;
        };
        for (entity, &TransformSlot { slot, .. }, _) in query.iter(world) {
            if store.is_active(slot) {
                visit(store, slot, GameObject::from_entity(entity));
            }
        }
    }
}
