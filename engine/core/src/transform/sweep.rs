//! The per-frame sweep: bring every world matrix up to date, touching only what
//! moved.
//!
//! 1. Scan transforms whose ECS change tick moved since the last sweep (a cheap
//!    pre-check) and compare their ten scalars with the baked ones; only a real
//!    difference rebuilds the local matrix and queues the slot. Same-value
//!    writes stop here.
//! 2. Settle the queued slots parents-first: recompute where the local matrix or
//!    the parent's version changed, and descend only below what was recomputed.

use bevy_ecs::change_detection::DetectChangesMut as _;
use bevy_ecs::query::Changed;
use bevy_ecs::system::{Query, ResMut, SystemState};
use bevy_ecs::world::World;

use super::component::{Transform, TransformSlot};
use super::store::{NO_SLOT, TransformStore};

type SweepParams = (
    Query<'static, 'static, (&'static Transform, &'static mut TransformSlot), Changed<Transform>>,
    ResMut<'static, TransformStore>,
);

/// Remembers the change tick of the previous sweep.
pub(crate) struct TransformSweep {
    state: SystemState<SweepParams>,
}

impl TransformSweep {
    pub(crate) fn new(world: &mut World) -> Self {
        Self {
            state: SystemState::new(world),
        }
    }

    /// Brings every world matrix in `world` up to date.
    pub(crate) fn run(&mut self, world: &mut World) {
        let Ok((mut changed, mut store)) = self.state.get_mut(world) else {
            log::error!(
                "transform sweep skipped: the world has no TransformStore (create it with Scene::new)"
            );
            return;
        };
        let store = store.bypass_change_detection();
        for (transform, mut own) in &mut changed {
            let own = own.bypass_change_detection();
            let slot = own.slot;
            if slot != NO_SLOT && store.rebake_if_changed(own, transform) {
                // The world matrix waits for the settle step: changed objects
                // come in ECS table order, so finishing them here would load
                // the parent's link and matrix at random; the settle step
                // reaches them parents-first, streaming.
                store.mark_pending(slot);
            }
        }
        store.settle_pending();
    }
}
