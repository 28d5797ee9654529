//! A GPU counter read back without stalling: each frame copies the counter
//! into a free slot of a small ring of mappable buffers; once the GPU is
//! done with a slot its value is read on a later frame.

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};

const PENDING: u8 = 0;
const MAPPED: u8 = 1;
const FAILED: u8 = 2;

#[derive(Debug)]
enum SlotState {
    Free,
    /// A copy into it was recorded for frame `.0`; mapped after the submit.
    Copying(u64),
    /// Being mapped for frame `.0`.
    Mapping(u64, Arc<AtomicU8>),
}

#[derive(Debug)]
struct Slot {
    buffer: wgpu::Buffer,
    state: SlotState,
}

/// A ring of read-back buffers for one `u32` counter.
#[derive(Debug)]
pub(crate) struct CounterReadback {
    slots: Vec<Slot>,
    frame: u64,
    latest: Option<(u64, u32)>,
}

impl CounterReadback {
    pub(crate) fn new(device: &wgpu::Device, slots: usize) -> Self {
        let slots = (0..slots)
            .map(|_| Slot {
                buffer: device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("counter read-back"),
                    size: 4,
                    usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                }),
                state: SlotState::Free,
            })
            .collect();
        Self {
            slots,
            frame: 0,
            latest: None,
        }
    }

    /// The most recent value read back, if any.
    pub(crate) fn latest(&self) -> Option<u32> {
        self.latest.map(|(_, value)| value)
    }

    /// Reads every finished slot (polling the device without waiting), then
    /// reserves a free slot for this frame's copy and returns its buffer.
    pub(crate) fn begin_frame(&mut self, device: &wgpu::Device) -> Option<wgpu::Buffer> {
        // A failed poll only means nothing new is known this frame.
        let _ = device.poll(wgpu::PollType::Poll);
        self.frame += 1;
        for slot in &mut self.slots {
            match &slot.state {
                // Reserved last frame but never submitted (the frame failed).
                SlotState::Copying(_) => slot.state = SlotState::Free,
                SlotState::Mapping(frame, done) => match done.load(Ordering::Acquire) {
                    MAPPED => {
                        let value = slot.buffer.get_mapped_range(..).ok().map(|bytes| {
                            u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
                        });
                        slot.buffer.unmap();
                        if let Some(value) = value
                            && self.latest.is_none_or(|(seen, _)| seen < *frame)
                        {
                            self.latest = Some((*frame, value));
                        }
                        slot.state = SlotState::Free;
                    }
                    FAILED => slot.state = SlotState::Free,
                    _ => {}
                },
                SlotState::Free => {}
            }
        }
        let frame = self.frame;
        let slot = self
            .slots
            .iter_mut()
            .find(|slot| matches!(slot.state, SlotState::Free))?;
        slot.state = SlotState::Copying(frame);
        Some(slot.buffer.clone())
    }

    /// Starts mapping the slot copied into this frame (call after the submit).
    pub(crate) fn submitted(&mut self) {
        for slot in &mut self.slots {
            if let SlotState::Copying(frame) = slot.state {
                let done = Arc::new(AtomicU8::new(PENDING));
                let flag = Arc::clone(&done);
                slot.buffer
                    .map_async(wgpu::MapMode::Read, .., move |result| {
                        let state = if result.is_ok() { MAPPED } else { FAILED };
                        flag.store(state, Ordering::Release);
                    });
                slot.state = SlotState::Mapping(frame, done);
            }
        }
    }
}
