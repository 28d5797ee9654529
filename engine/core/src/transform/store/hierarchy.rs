//! The store's hierarchy index (children lists and the parents-first order,
//! rebuilt only when the hierarchy changed) and the active flags derived from it.

use bevy_ecs::entity::Entity;

use super::{NO_SLOT, TransformStore};

/// Children lists and a parents-first order, derived from `parent`.
#[derive(Default)]
pub(super) struct HierarchyIndex {
    pub(super) stale: bool,
    /// Slots, parents before children.
    pub(super) order: Vec<u32>,
    /// Position of each slot in `order`.
    pub(super) rank: Vec<u32>,
    /// `order` is every slot in slot order (a hierarchy spawned depth-first
    /// with no slot freed): a full pass can walk the arrays front to back.
    pub(super) in_slot_order: bool,
    /// Children of slot `s` are `children[child_start[s]..child_start[s + 1]]`.
    pub(super) child_start: Vec<u32>,
    pub(super) children: Vec<u32>,
}

impl TransformStore {
    pub(super) fn children(&self, slot: u32) -> &[u32] {
        let s = slot as usize;
        let start = self.index.child_start[s] as usize;
        let end = self.index.child_start[s + 1] as usize;
        &self.index.children[start..end]
    }

    /// Rebuilds children lists and the parents-first order if the hierarchy changed.
    pub(crate) fn refresh_index(&mut self) {
        if !self.index.stale {
            return;
        }
        let n = self.entity.len();
        self.collect_by_sequence();
        let index = &mut self.index;
        index.child_start.clear();
        index.child_start.resize(n + 1, 0);
        for (slot, p) in self.links.iter().map(|l| l.parent).enumerate() {
            if p != NO_SLOT && self.entity[slot] != Entity::PLACEHOLDER {
                index.child_start[p as usize + 1] += 1;
            }
        }
        for i in 0..n {
            index.child_start[i + 1] += index.child_start[i];
        }
        index.children.clear();
        index
            .children
            .resize(index.child_start[n] as usize, NO_SLOT);
        // Children lists and roots are filled in insertion order.
        let mut fill: Vec<u32> = index.child_start[..n].to_vec();
        for &slot in &self.by_sequence {
            let p = self.links[slot as usize].parent;
            if p != NO_SLOT {
                let at = &mut fill[p as usize];
                index.children[*at as usize] = slot;
                *at += 1;
            }
        }
        // Depth-first pre-order: every parent lands before its children, and a
        // hierarchy spawned depth-first (with no slot reused) is walked in
        // slot (memory) order.
        index.order.clear();
        let mut stack = std::mem::take(&mut self.scratch);
        stack.clear();
        for &slot in self.by_sequence.iter().rev() {
            if self.links[slot as usize].parent == NO_SLOT {
                stack.push((slot, false));
            }
        }
        while let Some((slot, _)) = stack.pop() {
            index.order.push(slot);
            let s = slot as usize;
            let (start, end) = (
                index.child_start[s] as usize,
                index.child_start[s + 1] as usize,
            );
            stack.extend(index.children[start..end].iter().rev().map(|&c| (c, false)));
        }
        self.scratch = stack;
        index.rank.clear();
        index.rank.resize(n, u32::MAX);
        for (r, &slot) in index.order.iter().enumerate() {
            index.rank[slot as usize] = r as u32;
        }
        index.in_slot_order = index.order.len() == n
            && index
                .order
                .iter()
                .enumerate()
                .all(|(k, &slot)| slot as usize == k);
        index.stale = false;
    }

    /// Fills `by_sequence` with the live slots in insertion order: slot
    /// order until a freed slot is reused, sorted from then on.
    fn collect_by_sequence(&mut self) {
        let entity = &self.entity;
        self.by_sequence.clear();
        self.by_sequence.extend(
            (0..entity.len())
                .filter(|&slot| entity[slot] != Entity::PLACEHOLDER)
                .map(|slot| slot as u32),
        );
        if self.reused {
            let sequence = &self.sequence;
            self.by_sequence
                .sort_unstable_by_key(|&slot| sequence[slot as usize]);
        }
    }

    /// Recomputes "enabled here and in every ancestor" if any flag or link changed.
    fn refresh_active(&mut self) {
        self.refresh_index();
        if !self.active_dirty {
            return;
        }
        for &slot in &self.index.order {
            let i = slot as usize;
            let parent_active = match self.links[i].parent {
                NO_SLOT => true,
                p => self.active[p as usize],
            };
            let active = self.enabled[i] && parent_active;
            if self.active[i] != active {
                self.active[i] = active;
                self.active_changes.push((self.entity[i], active));
            }
        }
        self.active_dirty = false;
    }

    /// Refreshes the hierarchy index and active flags; call before
    /// [`rank`](Self::rank) and [`is_active`](Self::is_active).
    pub(crate) fn prepare(&mut self) {
        self.refresh_active();
    }

    /// Takes the `(entity, active)` flips found by `prepare` since the last call.
    pub(crate) fn take_active_changes(&mut self, out: &mut Vec<(Entity, bool)>) {
        out.clear();
        std::mem::swap(out, &mut self.active_changes);
    }

    /// `true` when the object and all its ancestors are enabled (as of `prepare`).
    pub(crate) fn is_active(&self, slot: u32) -> bool {
        debug_assert!(!self.active_dirty, "call prepare() first");
        self.active[slot as usize]
    }

    /// Position of `slot` in the parents-first order (as of `prepare`).
    pub(crate) fn rank(&self, slot: u32) -> u32 {
        debug_assert!(!self.index.stale, "call prepare() first");
        self.index.rank[slot as usize]
    }
}
