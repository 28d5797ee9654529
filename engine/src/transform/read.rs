//! Compare-on-read for a single object: walk the parent chain, compare at every
//! level, and multiply only where something changed.

use bevy_ecs::change_detection::DetectChangesMut as _;
use bevy_ecs::entity::Entity;
use bevy_ecs::world::World;

use super::component::Transform;
use super::store::{NO_SLOT, TransformStore};

/// Longest parent chain a single read will walk before giving up. The store
/// refuses cycles, so this only guards against pathological depth.
const MAX_DEPTH: usize = 1 << 16;

/// Brings `entity`'s world matrix (and its ancestors') up to date and returns its
/// slot, or `None` when the entity has no `Transform`.
///
/// Cost when nothing moved: one ten-scalar compare and one version compare per
/// ancestor, no matrix work.
pub(crate) fn refresh(world: &mut World, entity: Entity) -> Option<u32> {
    let slot = world.get::<Transform>(entity)?.slot();
    if slot == NO_SLOT {
        return None;
    }
    world.resource_scope(
        |world, mut store: bevy_ecs::change_detection::Mut<'_, TransformStore>| {
            let store = store.bypass_change_detection();
            let mut chain = [NO_SLOT; 32];
            let mut overflow: Vec<u32> = Vec::new();
            let mut depth = 0;
            let mut current = Some(slot);
            while let Some(s) = current {
                if depth < chain.len() {
                    chain[depth] = s;
                } else {
                    if depth >= MAX_DEPTH {
                        log::error!(
                            "transform chain of {entity:?} deeper than {MAX_DEPTH}; truncated"
                        );
                        break;
                    }
                    overflow.push(s);
                }
                depth += 1;
                current = store.parent(s);
            }
            // Root first, so every parent is fresh before its child compares against it.
            for &s in overflow
                .iter()
                .rev()
                .chain(chain[..depth.min(chain.len())].iter().rev())
            {
                refresh_one(world, store, s);
            }
        },
    );
    Some(slot)
}

fn refresh_one(world: &mut World, store: &mut TransformStore, slot: u32) {
    let entity = store.entity(slot);
    if let Some(mut transform) = world.get_mut::<Transform>(entity)
        && let Some(local) = transform.bypass_change_detection().rebake_if_changed()
    {
        store.set_local(slot, local);
    }
    if store.refresh_world(slot) {
        // Its descendants now see a new parent version: the next sweep visits them.
        store.mark_pending(slot);
    }
}
