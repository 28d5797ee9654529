//! Dense storage for every transform's caches: local and world matrices,
//! version stamps, the inverse and decomposition caches, and a hierarchy index
//! (parents before children) rebuilt only when the hierarchy changes.
//!
//! Each `Transform` component owns one slot here. Keeping the caches out of the
//! ECS tables lets the per-frame sweep touch only what moved, with plain
//! indexed access instead of entity lookups.

use bevy_ecs::entity::Entity;
use bevy_ecs::resource::Resource;
use glam::{Affine3A, Quat, Vec3};

use super::component::{Transform, TransformSlot};

mod hierarchy;

use hierarchy::HierarchyIndex;

/// When at least 1/FULL_PASS_RATIO of all transforms are queued, the sweep walks
/// everything parents-first instead of sorting the queue.
const FULL_PASS_RATIO: usize = 32;

/// Marks "no slot" / "no parent".
pub(crate) const NO_SLOT: u32 = u32::MAX;

/// Counters of the matrix work done so far; see [`crate::Scene::transform_stats`].
///
/// These are always on: each is one integer add next to a matrix operation.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TransformStats {
    /// Local matrices rebuilt from position/rotation/scale.
    pub local_rebuilds: u64,
    /// World matrices recomputed (a multiply by the parent, or a copy for a root).
    pub world_recomputes: u64,
    /// Inverse world matrices computed.
    pub inverse_computes: u64,
    /// World rotation/scale decompositions computed.
    pub decompositions: u64,
}

/// Caches derived from the world matrix, each stamped with the world version it was
/// computed from.
#[derive(Debug, Clone, Copy)]
struct Derived {
    inverse: Affine3A,
    inverse_version: u64,
    rotation: Quat,
    scale: Vec3,
    decomposed_version: u64,
}

impl Derived {
    const EMPTY: Self = Self {
        inverse: Affine3A::IDENTITY,
        inverse_version: 0,
        rotation: Quat::IDENTITY,
        scale: Vec3::ONE,
        decomposed_version: 0,
    };
}

/// What deciding "does this world matrix need work" reads, packed together:
/// when few objects move the sweep visits slots at random, and one cache
/// line per slot beats four parallel arrays.
#[derive(Debug, Clone, Copy)]
struct Link {
    /// Globally unique stamp of the last world recompute; 0 = never computed.
    world_version: u64,
    /// Version of the parent folded into `world`; 0 = had no parent.
    parent_seen: u64,
    /// Parent slot, or `NO_SLOT` for a root.
    parent: u32,
    /// The local matrix was rebaked since the world matrix was computed.
    local_dirty: bool,
}

impl Link {
    const NEW: Self = Self {
        world_version: 0,
        parent_seen: 0,
        parent: NO_SLOT,
        local_dirty: true,
    };
}

/// All transform caches of one world, indexed by slot. Owned by the `Scene`'s ECS
/// world as a resource; users reach it through `Scene` and `GameObject` methods.
#[derive(Resource, Default)]
pub struct TransformStore {
    entity: Vec<Entity>,
    links: Vec<Link>,
    local: Vec<Affine3A>,
    world: Vec<Affine3A>,
    enabled: Vec<bool>,
    active: Vec<bool>,
    derived: Vec<Derived>,
    /// Insertion sequence of each slot: hierarchy order is insertion order
    /// (slots are reused, so slot order is not).
    sequence: Vec<u64>,
    next_sequence: u64,
    /// A freed slot was reused: slot order no longer follows insertion order.
    reused: bool,
    free: Vec<u32>,
    /// Slots whose world matrix may need work, or whose children may.
    pending: Vec<u32>,
    index: HierarchyIndex,
    active_dirty: bool,
    /// Entities whose active flag flipped since the scene last drained them.
    active_changes: Vec<(Entity, bool)>,
    /// Versions come from one counter so two different parents never share one.
    last_version: u64,
    stats: TransformStats,
    scratch: Vec<(u32, bool)>,
    /// Live slots in insertion order, rebuilt with the index.
    by_sequence: Vec<u32>,
}

impl TransformStore {
    pub(crate) fn allocate(&mut self, entity: Entity, parent: u32) -> u32 {
        let slot = if let Some(slot) = self.free.pop() {
            let i = slot as usize;
            self.entity[i] = entity;
            self.links[i] = Link::NEW;
            self.local[i] = Affine3A::IDENTITY;
            self.world[i] = Affine3A::IDENTITY;
            self.enabled[i] = true;
            self.active[i] = true;
            self.derived[i] = Derived::EMPTY;
            self.sequence[i] = self.next_sequence;
            self.reused = true;
            slot
        } else {
            let slot = u32::try_from(self.entity.len()).expect("more than 4 billion transforms");
            self.entity.push(entity);
            self.links.push(Link::NEW);
            self.local.push(Affine3A::IDENTITY);
            self.world.push(Affine3A::IDENTITY);
            self.enabled.push(true);
            self.active.push(true);
            self.derived.push(Derived::EMPTY);
            self.sequence.push(self.next_sequence);
            slot
        };
        self.next_sequence += 1;
        self.index.stale = true;
        self.active_dirty = true;
        self.pending.push(slot);
        if parent != NO_SLOT && self.set_parent(slot, parent).is_err() {
            log::error!("{entity:?} would be its own ancestor; left as a root");
        }
        slot
    }

    pub(crate) fn free(&mut self, slot: u32) {
        let i = slot as usize;
        if self.entity[i] == Entity::PLACEHOLDER {
            return;
        }
        self.entity[i] = Entity::PLACEHOLDER;
        self.links[i].parent = NO_SLOT;
        self.free.push(slot);
        self.index.stale = true;
        self.active_dirty = true;
    }

    pub(crate) fn is_live(&self, slot: u32) -> bool {
        self.entity
            .get(slot as usize)
            .is_some_and(|&e| e != Entity::PLACEHOLDER)
    }

    pub(crate) fn entity(&self, slot: u32) -> Entity {
        self.entity[slot as usize]
    }

    /// When `slot` was inserted, relative to the others: hierarchy order
    /// puts earlier insertions first, among roots and among siblings.
    pub(crate) fn sequence(&self, slot: u32) -> u64 {
        self.sequence[slot as usize]
    }

    /// Moves `slot` to the end of insertion order, as if inserted now.
    pub(crate) fn move_to_end(&mut self, slot: u32) {
        if !self.is_live(slot) {
            return;
        }
        self.sequence[slot as usize] = self.next_sequence;
        self.next_sequence += 1;
        self.reused = true;
        self.index.stale = true;
    }

    pub(crate) fn parent(&self, slot: u32) -> Option<u32> {
        let p = self.links[slot as usize].parent;
        (p != NO_SLOT).then_some(p)
    }

    /// `true` when `ancestor` is `slot` or above it in the hierarchy.
    pub(crate) fn is_ancestor_or_self(&self, ancestor: u32, slot: u32) -> bool {
        let mut current = slot;
        // The stored forest is acyclic (set_parent refuses cycles), so this ends.
        loop {
            if current == ancestor {
                return true;
            }
            match self.parent(current) {
                Some(p) => current = p,
                None => return false,
            }
        }
    }

    /// Re-parents `slot` under `parent` (or makes it a root with `NO_SLOT`).
    /// Refuses, leaving everything as it was, when `slot` would become its own ancestor.
    pub(crate) fn set_parent(&mut self, slot: u32, parent: u32) -> Result<(), CycleRefused> {
        let i = slot as usize;
        if !self.is_live(slot) || self.links[i].parent == parent {
            return Ok(());
        }
        if parent != NO_SLOT && self.is_ancestor_or_self(slot, parent) {
            return Err(CycleRefused);
        }
        self.links[i].parent = parent;
        self.index.stale = true;
        self.active_dirty = true;
        self.pending.push(slot);
        Ok(())
    }

    /// Detaches `slot` from its parent (always possible).
    pub(crate) fn make_root(&mut self, slot: u32) {
        let refused = self.set_parent(slot, NO_SLOT).is_err();
        debug_assert!(!refused, "becoming a root cannot close a cycle");
    }

    pub(crate) fn set_enabled(&mut self, slot: u32, enabled: bool) {
        let flag = &mut self.enabled[slot as usize];
        if *flag != enabled {
            *flag = enabled;
            self.active_dirty = true;
        }
    }

    pub(crate) fn is_enabled(&self, slot: u32) -> bool {
        self.enabled[slot as usize]
    }

    /// Compares `transform` with the scalars `own` last baked (IEEE
    /// comparison, so the NaN start always differs). On a difference re-bakes
    /// the local matrix of `own.slot` and returns `true`; otherwise does no
    /// matrix work. The world matrix follows on the next refresh.
    #[inline(always)]
    pub(crate) fn rebake_if_changed(
        &mut self,
        own: &mut TransformSlot,
        transform: &Transform,
    ) -> bool {
        if own.matches(transform) {
            return false;
        }
        own.baked = transform.scalars();
        let i = own.slot as usize;
        self.local[i] = transform.compute_local_matrix();
        self.links[i].local_dirty = true;
        self.stats.local_rebuilds += 1;
        true
    }

    /// Queues `slot` for the next sweep.
    #[inline]
    pub(crate) fn mark_pending(&mut self, slot: u32) {
        self.pending.push(slot);
    }

    /// Brings one world matrix up to date, assuming its parent already is.
    /// Returns `true` when it was recomputed (its version moved).
    #[inline(always)]
    pub(crate) fn refresh_world(&mut self, slot: u32) -> bool {
        let i = slot as usize;
        let parent = self.links[i].parent;
        let parent_version = if parent == NO_SLOT {
            0
        } else {
            self.links[parent as usize].world_version
        };
        let dirty = self.links[i].local_dirty
            || self.links[i].world_version == 0
            || self.links[i].parent_seen != parent_version;
        if !dirty {
            return false;
        }
        self.world[i] = if parent == NO_SLOT {
            self.local[i]
        } else {
            self.world[parent as usize] * self.local[i]
        };
        self.links[i].parent_seen = parent_version;
        self.links[i].local_dirty = false;
        self.last_version += 1;
        self.links[i].world_version = self.last_version;
        self.stats.world_recomputes += 1;
        true
    }

    /// Settles every queued slot, parents first, descending only into subtrees
    /// whose parent actually changed.
    pub(crate) fn settle_pending(&mut self) {
        if self.pending.is_empty() {
            return;
        }
        self.refresh_index();
        // Sorting the queue costs O(k log k); one linear parents-first pass costs
        // O(n) cheap compares. Pick whichever is less work.
        if self.pending.len() * FULL_PASS_RATIO >= self.index.order.len() {
            self.pending.clear();
            if self.index.in_slot_order {
                self.settle_in_slot_order();
                return;
            }
            for k in 0..self.index.order.len() {
                let slot = self.index.order[k];
                self.refresh_world(slot);
            }
            return;
        }
        let mut pending = std::mem::take(&mut self.pending);
        let rank = &self.index.rank;
        pending.retain(|&s| {
            self.entity
                .get(s as usize)
                .is_some_and(|&e| e != Entity::PLACEHOLDER)
        });
        pending.sort_unstable_by_key(|&s| rank[s as usize]);
        pending.dedup();
        let mut stack = std::mem::take(&mut self.scratch);
        for &root in &pending {
            stack.push((root, true));
            while let Some((slot, force)) = stack.pop() {
                let changed = self.refresh_world(slot);
                if changed || force {
                    stack.extend(self.children(slot).iter().map(|&c| (c, false)));
                }
            }
        }
        self.scratch = stack;
        pending.clear();
        self.pending = pending;
    }

    /// The full pass when every parent's slot is below its children's:
    /// [`refresh_world`](Self::refresh_world) for each slot in turn, over
    /// the arrays front to back without the order table.
    fn settle_in_slot_order(&mut self) {
        let n = self.links.len().min(self.local.len()).min(self.world.len());
        let (links, local, world) = (&mut self.links[..n], &self.local[..n], &mut self.world[..n]);
        let mut version = self.last_version;
        let mut recomputed = 0;
        for i in 0..n {
            let link = links[i];
            let (parent_version, parent_world) = match link.parent {
                NO_SLOT => (0, None),
                p => {
                    let p = p as usize;
                    // Parents first: a parent's slot is below its child's.
                    if p >= i {
                        continue;
                    }
                    (links[p].world_version, Some(world[p]))
                }
            };
            if !link.local_dirty && link.world_version != 0 && link.parent_seen == parent_version {
                continue;
            }
            world[i] = parent_world.map_or(local[i], |parent| parent * local[i]);
            version += 1;
            links[i] = Link {
                world_version: version,
                parent_seen: parent_version,
                parent: link.parent,
                local_dirty: false,
            };
            recomputed += 1;
        }
        self.last_version = version;
        self.stats.world_recomputes += recomputed;
    }

    /// `true` when the cached world matrix of `slot` folds in its current
    /// local matrix and its parent's current world matrix.
    pub(crate) fn world_is_current(&self, slot: u32) -> bool {
        let i = slot as usize;
        let parent_version = match self.links[i].parent {
            NO_SLOT => 0,
            p => self.links[p as usize].world_version,
        };
        !self.links[i].local_dirty
            && self.links[i].world_version != 0
            && self.links[i].parent_seen == parent_version
    }

    /// The cached local matrix (as last baked).
    pub(crate) fn local(&self, slot: u32) -> Affine3A {
        self.local[slot as usize]
    }

    /// Calls `visit` with every live slot's entity and cached world matrix,
    /// in slot order: two dense arrays read front to back.
    #[inline]
    pub(crate) fn for_each_world(&self, mut visit: impl FnMut(Entity, &Affine3A)) {
        for (&entity, world) in self.entity.iter().zip(&self.world) {
            if entity != Entity::PLACEHOLDER {
                visit(entity, world);
            }
        }
    }

    /// The cached world matrix, as of the last refresh.
    pub(crate) fn world(&self, slot: u32) -> &Affine3A {
        &self.world[slot as usize]
    }

    /// The newest world-matrix version handed out so far.
    pub(crate) fn last_version(&self) -> u64 {
        self.last_version
    }

    pub(crate) fn world_version(&self, slot: u32) -> u64 {
        self.links[slot as usize].world_version
    }

    /// The inverse world matrix, recomputed only when the world version moved.
    pub(crate) fn inverse(&mut self, slot: u32) -> Affine3A {
        let i = slot as usize;
        let version = self.links[i].world_version;
        let cache = &mut self.derived[i];
        if cache.inverse_version != version {
            cache.inverse = self.world[i].inverse();
            cache.inverse_version = version;
            self.stats.inverse_computes += 1;
        }
        cache.inverse
    }

    /// World rotation and scale, decomposed only when the world version moved.
    pub(crate) fn rotation_scale(&mut self, slot: u32) -> (Quat, Vec3) {
        let i = slot as usize;
        let version = self.links[i].world_version;
        let cache = &mut self.derived[i];
        if cache.decomposed_version != version {
            let (rotation, scale) = super::decompose::rotation_scale(&self.world[i]);
            cache.rotation = rotation;
            cache.scale = scale;
            cache.decomposed_version = version;
            self.stats.decompositions += 1;
        }
        (cache.rotation, cache.scale)
    }

    pub(crate) fn stats(&self) -> TransformStats {
        self.stats
    }

    /// Number of live transforms.
    pub(crate) fn len(&self) -> usize {
        self.entity.len() - self.free.len()
    }
}

/// Returned by `set_parent` when the link would close a cycle.
#[derive(Debug)]
pub(crate) struct CycleRefused;
