//! Compare-on-read for a single object: walk the parent chain, compare at every
//! level, and multiply only where something changed.

use bevy_ecs::change_detection::DetectChangesMut as _;
use bevy_ecs::entity::Entity;
use bevy_ecs::world::World;
use glam::Affine3A;

use super::component::{Transform, TransformSlot};
use super::store::{NO_SLOT, TransformStore};

/// Longest parent chain a single read will walk before giving up. The store
/// refuses cycles, so this only guards against pathological depth.
const MAX_DEPTH: usize = 1 << 16;

/// The slots from an object up to its root: the first 32 inline, deeper
/// ones (rare) in a vector; walked root first.
struct Chain {
    inline: [u32; 32],
    len: usize,
    overflow: Vec<u32>,
}

impl Chain {
    fn up_from(store: &TransformStore, slot: u32, entity: Entity) -> Self {
        let mut chain = Self {
            inline: [NO_SLOT; 32],
            len: 0,
            overflow: Vec::new(),
        };
        let mut current = Some(slot);
        while let Some(s) = current {
            if chain.len < chain.inline.len() {
                chain.inline[chain.len] = s;
                chain.len += 1;
            } else if chain.overflow.len() + chain.len < MAX_DEPTH {
                chain.overflow.push(s);
            } else {
                log::error!("transform chain of {entity:?} deeper than {MAX_DEPTH}; truncated");
                break;
            }
            current = store.parent(s);
        }
        chain
    }

    fn root_first(self) -> impl Iterator<Item = u32> {
        let Self {
            inline,
            len,
            overflow,
        } = self;
        overflow
            .into_iter()
            .rev()
            .chain(inline.into_iter().take(len).rev())
    }
}

/// Brings `entity`'s world matrix (and its ancestors') up to date and returns its
/// slot, or `None` when the entity has no `Transform`.
///
/// Cost when nothing moved: one ten-scalar compare and one version compare per
/// ancestor, no matrix work.
pub(crate) fn refresh(world: &mut World, entity: Entity) -> Option<u32> {
    let slot = super::component::slot_of(world, entity);
    if slot == NO_SLOT {
        return None;
    }
    world.resource_scope(
        |world, mut store: bevy_ecs::change_detection::Mut<'_, TransformStore>| {
            let store = store.bypass_change_detection();
            // Root first, so every parent is fresh before its child compares against it.
            for s in Chain::up_from(store, slot, entity).root_first() {
                refresh_one(world, store, s);
            }
        },
    );
    Some(slot)
}

fn refresh_one(world: &mut World, store: &mut TransformStore, slot: u32) {
    let entity = store.entity(slot);
    if let Some(&transform) = world.get::<Transform>(entity)
        && let Some(mut own) = world.get_mut::<TransformSlot>(entity)
    {
        store.rebake_if_changed(own.bypass_change_detection(), &transform);
    }
    if store.refresh_world(slot) {
        // Its descendants now see a new parent version: the next sweep visits them.
        store.mark_pending(slot);
    }
}

/// The world matrix of `object` in a bare ECS world, for code that holds a
/// [`World`] but not the [`Scene`](crate::Scene) (a bevy system, a plugin's
/// step): compare-on-read like
/// [`ObjectMut::world_matrix`](crate::ObjectMut::world_matrix), caching what
/// it computes (one compare per ancestor when nothing moved). `None` when the
/// object has no [`Transform`].
pub fn world_matrix_in(world: &mut World, object: crate::GameObject) -> Option<Affine3A> {
    refresh(world, object.entity()).map(|slot| *world.resource::<TransformStore>().world(slot))
}

/// The world matrix of `entity` as it stands now, without writing any cache:
/// the `&self` read behind [`Scene::world_matrix`](crate::Scene::world_matrix).
///
/// Walks the parent chain once. Where every level still matches what the
/// store last baked (the usual case after a refresh), it returns the cached
/// matrix; below the first level that moved since, it multiplies the chain's
/// local matrices itself. `None` when the entity has no `Transform`.
pub(crate) fn world_matrix_now(world: &World, entity: Entity) -> Option<Affine3A> {
    let store = world.get_resource::<TransformStore>()?;
    let slot = super::component::slot_of(world, entity);
    if slot == NO_SLOT || !store.is_live(slot) {
        return None;
    }
    let mut acc: Option<Affine3A> = None;
    let mut clean_so_far = true;
    for s in Chain::up_from(store, slot, entity).root_first() {
        let entity = store.entity(s);
        let transform = world.get::<Transform>(entity);
        let local_current = match (transform, world.get::<TransformSlot>(entity)) {
            (Some(t), Some(own)) => own.matches(t),
            _ => true,
        };
        clean_so_far = clean_so_far && local_current && store.world_is_current(s);
        acc = Some(if clean_so_far {
            *store.world(s)
        } else {
            let local = match transform {
                Some(t) if !local_current => t.compute_local_matrix(),
                _ => store.local(s),
            };
            acc.map_or(local, |parent| parent * local)
        });
    }
    acc
}

/// `true` when `entity` and every ancestor are enabled, read now (a walk up
/// the parent chain); `None` without a `Transform`.
pub(crate) fn is_active_now(world: &World, entity: Entity) -> Option<bool> {
    let store = world.get_resource::<TransformStore>()?;
    let slot = super::component::slot_of(world, entity);
    if slot == NO_SLOT || !store.is_live(slot) {
        return None;
    }
    let mut current = Some(slot);
    let mut steps = 0;
    while let Some(s) = current {
        if !store.is_enabled(s) {
            return Some(false);
        }
        steps += 1;
        if steps > MAX_DEPTH {
            break;
        }
        current = store.parent(s);
    }
    Some(true)
}

/// The insertion sequences from the root down to `slot`: sorting by this
/// path is the hierarchy order (parents before children, roots and siblings
/// in insertion order).
pub(crate) fn root_path(store: &TransformStore, slot: u32, out: &mut Vec<u64>) {
    out.clear();
    let mut current = Some(slot);
    while let Some(s) = current {
        out.push(store.sequence(s));
        if out.len() > MAX_DEPTH {
            break;
        }
        current = store.parent(s);
    }
    out.reverse();
}
