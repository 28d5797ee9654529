//! Palette-packed blocks: a chunk holding a few kinds of block stored as a
//! short list of those kinds and 1, 2 or 4 bits per block indexing it.
//!
//! Natural chunks hold few kinds (stone and cave air underground; grass,
//! dirt, stone, sand, water and a tree or two at the surface), so a packed
//! chunk takes 4, 8 or 16 KiB where an array of bytes takes 32 KiB.

use std::sync::OnceLock;

use super::{BlockType, CHUNK_VOLUME};

/// The most kinds a packed chunk holds (4 bits per block).
pub(super) const MAX_KINDS: usize = 16;

/// `CHUNK_VOLUME` blocks as indices into a palette of at most
/// [`MAX_KINDS`] kinds, `bits` per block, `64 / bits` blocks per word (the
/// first in the lowest bits).
pub(super) struct PackedBlocks {
    bits: u32,
    palette: Vec<BlockType>,
    words: Box<[u64]>,
    /// The blocks unpacked, made on the first call to
    /// [`as_array`](Self::as_array) and dropped by the next edit.
    unpacked: OnceLock<Box<[BlockType; CHUNK_VOLUME]>>,
}

impl Clone for PackedBlocks {
    /// Clones the packed blocks, not the unpacked copy.
    fn clone(&self) -> Self {
        Self {
            bits: self.bits,
            palette: self.palette.clone(),
            words: self.words.clone(),
            unpacked: OnceLock::new(),
        }
    }
}

/// The fewest bits (1, 2 or 4) that index `kinds` kinds.
fn bits_for(kinds: usize) -> u32 {
    match kinds {
        0..=2 => 1,
        3..=4 => 2,
        _ => 4,
    }
}

impl PackedBlocks {
    /// All `CHUNK_VOLUME` blocks `block`, with room for a second kind.
    pub(super) fn filled(block: BlockType) -> Self {
        Self {
            bits: 1,
            palette: vec![block],
            words: vec![0; CHUNK_VOLUME / 64].into_boxed_slice(),
            unpacked: OnceLock::new(),
        }
    }

    /// `blocks` packed, or `None` when they hold more than [`MAX_KINDS`]
    /// kinds.
    pub(super) fn pack(blocks: &[BlockType; CHUNK_VOLUME]) -> Option<Self> {
        let mut slot_of = [u8::MAX; 256];
        let mut palette = Vec::new();
        for &block in blocks {
            let slot = &mut slot_of[usize::from(u8::from(block))];
            if *slot == u8::MAX {
                if palette.len() == MAX_KINDS {
                    return None;
                }
                *slot = palette.len() as u8;
                palette.push(block);
            }
        }
        let bits = bits_for(palette.len());
        let per_word = (64 / bits) as usize;
        let words = blocks
            .chunks_exact(per_word)
            .map(|run| {
                run.iter().enumerate().fold(0u64, |word, (k, &block)| {
                    let slot = u64::from(slot_of[usize::from(u8::from(block))]);
                    word | slot << (k as u32 * bits)
                })
            })
            .collect();
        Some(Self {
            bits,
            palette,
            words,
            unpacked: OnceLock::new(),
        })
    }

    /// The one kind every block is, when the palette has only one (exact
    /// after [`pack`](Self::pack); edits can leave kinds no block uses).
    pub(super) fn single_kind(&self) -> Option<BlockType> {
        (self.palette.len() == 1).then(|| self.palette[0])
    }

    const fn mask(&self) -> u64 {
        (1 << self.bits) - 1
    }

    const fn per_word(&self) -> usize {
        (64 / self.bits) as usize
    }

    /// The block at `index` (in `0..CHUNK_VOLUME`).
    pub(super) fn get(&self, index: usize) -> BlockType {
        let per_word = self.per_word();
        let shift = (index % per_word) as u32 * self.bits;
        let slot = (self.words[index / per_word] >> shift) & self.mask();
        self.palette[slot as usize]
    }

    /// Copies the blocks from `start` on into `out`.
    pub(super) fn copy_to(&self, start: usize, out: &mut [BlockType]) {
        let per_word = self.per_word();
        let mask = self.mask();
        let mut word = self.words[start / per_word] >> ((start % per_word) as u32 * self.bits);
        for (index, slot) in (start..).zip(out) {
            if index.is_multiple_of(per_word) {
                word = self.words[index / per_word];
            }
            *slot = self.palette[(word & mask) as usize];
            word >>= self.bits;
        }
    }

    /// Sets the block at `index`; returns the block that was there, or
    /// `None` (changing nothing) when `block` would be kind number
    /// [`MAX_KINDS`] + 1.
    pub(super) fn set(&mut self, index: usize, block: BlockType) -> Option<BlockType> {
        let slot = match self.palette.iter().position(|&kind| kind == block) {
            Some(slot) => slot,
            None if self.palette.len() == MAX_KINDS => return None,
            None => {
                if self.palette.len() == 1 << self.bits {
                    self.widen();
                }
                self.palette.push(block);
                self.palette.len() - 1
            }
        };
        let old = self.get(index);
        let per_word = self.per_word();
        let shift = (index % per_word) as u32 * self.bits;
        let mask = self.mask() << shift;
        let word = &mut self.words[index / per_word];
        *word = (*word & !mask) | (slot as u64) << shift;
        self.unpacked = OnceLock::new();
        Some(old)
    }

    /// Doubles the bits per block (room for more kinds).
    fn widen(&mut self) {
        let unpacked = self.unpack();
        let palette = std::mem::take(&mut self.palette);
        let bits = self.bits * 2;
        let per_word = (64 / bits) as usize;
        self.words = unpacked
            .chunks_exact(per_word)
            .map(|run| {
                run.iter().enumerate().fold(0u64, |word, (k, block)| {
                    let slot = palette.iter().position(|kind| kind == block).unwrap_or(0);
                    word | (slot as u64) << (k as u32 * bits)
                })
            })
            .collect();
        self.bits = bits;
        self.palette = palette;
    }

    /// Every block, unpacked into a new array.
    pub(super) fn unpack(&self) -> Box<[BlockType; CHUNK_VOLUME]> {
        let mut out = Box::new([BlockType::Air; CHUNK_VOLUME]);
        self.copy_to(0, &mut out[..]);
        out
    }

    /// Every block as an array, unpacked on first use and kept until the
    /// next [`set`](Self::set).
    pub(super) fn as_array(&self) -> &[BlockType; CHUNK_VOLUME] {
        self.unpacked.get_or_init(|| self.unpack())
    }

    /// Bytes on the heap: the indices, the palette, and the unpacked copy
    /// if one was made.
    pub(super) fn heap_bytes(&self) -> usize {
        let unpacked = self.unpacked.get().map_or(0, |_| CHUNK_VOLUME);
        self.words.len() * 8 + self.palette.capacity() + unpacked
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pattern(kinds: usize) -> Box<[BlockType; CHUNK_VOLUME]> {
        let mut blocks = Box::new([BlockType::Air; CHUNK_VOLUME]);
        let mut state = 7u64;
        for block in blocks.iter_mut() {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            *block = BlockType::ALL[(state >> 33) as usize % kinds];
        }
        blocks
    }

    #[test]
    fn packing_keeps_every_block_in_the_fewest_bits() {
        for (kinds, bytes) in [(2, 4096), (3, 8192), (4, 8192), (5, 16384), (12, 16384)] {
            let blocks = pattern(kinds);
            let packed = PackedBlocks::pack(&blocks).unwrap();
            assert_eq!(packed.words.len() * 8, bytes, "{kinds} kinds");
            assert_eq!(&packed.unpack(), &blocks);
            for index in [0, 1, 15, 16, 17, 31_000, CHUNK_VOLUME - 1] {
                assert_eq!(packed.get(index), blocks[index]);
            }
            let mut run = [BlockType::Air; 34];
            packed.copy_to(1000 - 17, &mut run);
            assert_eq!(run[..], blocks[983..1017]);
        }
    }

    #[test]
    fn new_kinds_widen_the_indices_and_keep_the_rest() {
        let mut packed = PackedBlocks::filled(BlockType::Stone);
        let mut expected = Box::new([BlockType::Stone; CHUNK_VOLUME]);
        for (k, &block) in BlockType::ALL.iter().enumerate() {
            let index = k * 2731 % CHUNK_VOLUME;
            assert_eq!(packed.set(index, block), Some(expected[index]));
            expected[index] = block;
            assert_eq!(packed.as_array(), &*expected, "after adding {block:?}");
        }
        assert_eq!(packed.bits, 4);
        assert!(
            packed.heap_bytes() >= 16384 + CHUNK_VOLUME,
            "holds the unpacked copy"
        );
        packed.set(5, BlockType::Glass);
        expected[5] = BlockType::Glass;
        assert_eq!(packed.unpack(), expected, "an edit drops the stale copy");
    }
}
