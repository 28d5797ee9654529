//! What a player holds while playing: the survival inventory (counted blocks
//! in acquisition order) and the 9-slot hotbar.

use super::{HOTBAR_SLOTS, InventoryState, ItemStack};
use crate::world::BlockType;

/// Counted blocks, kept in the order they were first picked up.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Inventory {
    stacks: Vec<(BlockType, u32)>,
}

impl Inventory {
    /// An inventory holding `stacks` (zero counts and air are dropped,
    /// repeated types merged into the first).
    #[must_use]
    pub fn from_stacks(stacks: impl IntoIterator<Item = (BlockType, u32)>) -> Self {
        let mut inventory = Self::default();
        for (block, count) in stacks {
            inventory.add(block, count);
        }
        inventory
    }

    /// Adds `count` of `block` (ignored for air or zero).
    pub fn add(&mut self, block: BlockType, count: u32) {
        if block.is_air() || count == 0 {
            return;
        }
        match self.stacks.iter_mut().find(|(b, _)| *b == block) {
            Some((_, n)) => *n = n.saturating_add(count),
            None => self.stacks.push((block, count)),
        }
    }

    /// Takes one `block`; false (and no change) when there is none.
    pub fn take_one(&mut self, block: BlockType) -> bool {
        let Some(index) = self.stacks.iter().position(|(b, _)| *b == block) else {
            return false;
        };
        self.stacks[index].1 -= 1;
        if self.stacks[index].1 == 0 {
            self.stacks.remove(index);
        }
        true
    }

    /// How many of `block` are held.
    #[must_use]
    pub fn count(&self, block: BlockType) -> u32 {
        self.stacks
            .iter()
            .find(|(b, _)| *b == block)
            .map_or(0, |(_, n)| *n)
    }

    /// The stacks in acquisition order.
    #[must_use]
    pub fn stacks(&self) -> &[(BlockType, u32)] {
        &self.stacks
    }
}

/// Which block sits in each of the nine slots, and which slot is selected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hotbar {
    slots: [Option<BlockType>; HOTBAR_SLOTS],
    selected: usize,
}

impl Default for Hotbar {
    fn default() -> Self {
        Self::empty()
    }
}

impl Hotbar {
    /// All slots empty, the first selected.
    #[must_use]
    pub const fn empty() -> Self {
        Self {
            slots: [None; HOTBAR_SLOTS],
            selected: 0,
        }
    }

    /// The creative bar: the first nine placeable blocks.
    #[must_use]
    pub fn creative() -> Self {
        let mut bar = Self::empty();
        for (slot, block) in bar.slots.iter_mut().zip(BlockType::PLACEABLE) {
            *slot = Some(block);
        }
        bar
    }

    /// A bar with exactly these slots.
    #[must_use]
    pub const fn from_slots(slots: [Option<BlockType>; HOTBAR_SLOTS]) -> Self {
        Self { slots, selected: 0 }
    }

    /// The slots.
    #[must_use]
    pub const fn slots(&self) -> &[Option<BlockType>; HOTBAR_SLOTS] {
        &self.slots
    }

    /// The selected slot index.
    #[must_use]
    pub const fn selected(&self) -> usize {
        self.selected
    }

    /// Selects slot `index` (ignored outside `0..9`).
    pub fn select(&mut self, index: usize) {
        if index < HOTBAR_SLOTS {
            self.selected = index;
        }
    }

    /// Moves the selection by `steps` slots, wrapping (the mouse wheel).
    pub fn scroll(&mut self, steps: i32) {
        let n = HOTBAR_SLOTS as i32;
        self.selected = (self.selected as i32 + steps).rem_euclid(n) as usize;
    }

    /// The block in the selected slot.
    #[must_use]
    pub fn selected_block(&self) -> Option<BlockType> {
        self.slots[self.selected]
    }

    /// The block picker: puts `block` in the selected slot. A block already
    /// elsewhere on the bar swaps places with what the selected slot held,
    /// so no block is on the bar twice.
    pub fn put(&mut self, block: BlockType) {
        let selected = self.selected;
        if let Some(there) = self.slots.iter().position(|s| *s == Some(block)) {
            self.slots.swap(there, selected);
        } else {
            self.slots[selected] = Some(block);
        }
    }

    /// Survival pickup: a block not on the bar goes into the first empty slot.
    pub fn assign_if_new(&mut self, block: BlockType) {
        if self.slots.contains(&Some(block)) {
            return;
        }
        if let Some(slot) = self.slots.iter_mut().find(|s| s.is_none()) {
            *slot = Some(block);
        }
    }

    /// Survival: empties slots whose block ran out.
    pub fn clear_missing(&mut self, inventory: &Inventory) {
        for slot in &mut self.slots {
            if slot.is_some_and(|b| inventory.count(b) == 0) {
                *slot = None;
            }
        }
    }
}

/// The saved form of a survival player's belongings.
#[must_use]
pub fn inventory_state(inventory: &Inventory, hotbar: &Hotbar) -> InventoryState {
    InventoryState {
        stacks: inventory
            .stacks()
            .iter()
            .map(|&(block_type, count)| ItemStack { block_type, count })
            .collect(),
        hotbar: *hotbar.slots(),
    }
}

/// Belongings restored from their saved form: the counts in their order and
/// the bar exactly as it was laid out.
#[must_use]
pub fn restore_inventory(state: &InventoryState) -> (Inventory, Hotbar) {
    let inventory = Inventory::from_stacks(state.stacks.iter().map(|s| (s.block_type, s.count)));
    (inventory, Hotbar::from_slots(state.hotbar))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inventory_keeps_acquisition_order_and_counts() {
        let mut inv = Inventory::default();
        inv.add(BlockType::Dirt, 2);
        inv.add(BlockType::Cobblestone, 1);
        inv.add(BlockType::Dirt, 1);
        inv.add(BlockType::Air, 5);
        assert_eq!(
            inv.stacks(),
            &[(BlockType::Dirt, 3), (BlockType::Cobblestone, 1)]
        );
        assert!(inv.take_one(BlockType::Cobblestone));
        assert!(!inv.take_one(BlockType::Cobblestone));
        assert_eq!(inv.stacks(), &[(BlockType::Dirt, 3)]);
    }

    #[test]
    fn the_picker_reaches_every_block_and_never_doubles_one() {
        let mut bar = Hotbar::creative();
        // Snow is the tenth placeable block: not on the creative bar.
        assert!(!bar.slots().contains(&Some(BlockType::Snow)));
        bar.select(4);
        bar.put(BlockType::Snow);
        assert_eq!(bar.selected_block(), Some(BlockType::Snow));
        // Stone is in slot 0: it swaps with the snow.
        bar.put(BlockType::Stone);
        assert_eq!(bar.slots()[4], Some(BlockType::Stone));
        assert_eq!(bar.slots()[0], Some(BlockType::Snow));
        for block in BlockType::PLACEABLE {
            bar.put(block);
            assert_eq!(bar.selected_block(), Some(block));
            let copies = bar.slots().iter().filter(|s| **s == Some(block)).count();
            assert_eq!(copies, 1, "{block:?}");
        }
        let mut empty = Hotbar::empty();
        empty.select(8);
        empty.put(BlockType::Glass);
        assert_eq!(empty.slots()[8], Some(BlockType::Glass));
    }

    #[test]
    fn saved_form_round_trips_order_and_layout() {
        let inventory = Inventory::from_stacks([(BlockType::Sand, 4), (BlockType::Dirt, 1)]);
        let mut slots = [None; HOTBAR_SLOTS];
        slots[3] = Some(BlockType::Dirt);
        slots[7] = Some(BlockType::Sand);
        let hotbar = Hotbar::from_slots(slots);
        let (back, bar) = restore_inventory(&inventory_state(&inventory, &hotbar));
        assert_eq!(back, inventory);
        assert_eq!(bar.slots(), hotbar.slots());
    }

    #[test]
    fn hotbar_scrolls_wrapping_and_fills_empty_slots() {
        let mut bar = Hotbar::empty();
        bar.scroll(-1);
        assert_eq!(bar.selected(), 8);
        bar.scroll(2);
        assert_eq!(bar.selected(), 1);
        bar.assign_if_new(BlockType::Sand);
        bar.assign_if_new(BlockType::Sand);
        assert_eq!(bar.slots()[0], Some(BlockType::Sand));
        assert_eq!(bar.slots()[1], None);
        bar.clear_missing(&Inventory::default());
        assert_eq!(bar.slots()[0], None);
    }
}
