//! The decoded-data budget: how many bytes one load may still hold.

use std::cell::Cell;

/// At most this many bytes of external files, `data:` URI contents, vertex data, indices,
/// keyframes and decoded pixels come out of one load, unless
/// [`LoadOptions::max_decoded_bytes`](crate::LoadOptions::max_decoded_bytes) says otherwise.
///
/// Input bytes are bounded by the file, but primitives may share one accessor and images one
/// buffer view, so the output could otherwise grow far past the input; external files are read
/// no further than what is left of it.
///
/// 4 GiB natively; 256 MiB on `wasm32`, whose whole address space is 4 GiB and where browsers
/// often grant less.
#[cfg(not(target_arch = "wasm32"))]
pub const MAX_DECODED_BYTES: u64 = 4 << 30;

/// At most this many bytes of external files, `data:` URI contents, vertex data, indices,
/// keyframes and decoded pixels come out of one load, unless
/// [`LoadOptions::max_decoded_bytes`](crate::LoadOptions::max_decoded_bytes) says otherwise.
///
/// 256 MiB on `wasm32`, whose whole address space is 4 GiB and where browsers often grant
/// less; 4 GiB natively.
#[cfg(target_arch = "wasm32")]
pub const MAX_DECODED_BYTES: u64 = 256 << 20;

/// What is left of one load's decoded-data budget.
#[derive(Debug)]
pub(crate) struct Budget {
    remaining: Cell<u64>,
}

impl Budget {
    pub(crate) fn new(bytes: u64) -> Self {
        Self {
            remaining: Cell::new(bytes),
        }
    }

    /// Bytes left.
    pub(crate) fn remaining(&self) -> u64 {
        self.remaining.get()
    }

    /// Takes `bytes` from the budget, or says how much was asked and how much remains.
    pub(crate) fn charge(&self, bytes: u64) -> Result<(), (u64, u64)> {
        let remaining = self.remaining.get();
        if bytes > remaining {
            return Err((bytes, remaining));
        }
        self.remaining.set(remaining - bytes);
        Ok(())
    }
}
