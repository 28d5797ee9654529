//! Per-pass GPU timing with timestamp queries, read back without stalling.
//!
//! Each frame, every timed pass gets two queries (begin, end) of one
//! timestamp query set. At the end of the frame's command encoder the
//! queries are resolved into a buffer and copied into a free slot of a small
//! ring of mappable buffers; after the submit that slot is mapped
//! asynchronously. A later frame (or [`GpuPassTimer::collect`]) polls the
//! device without waiting and turns every slot whose mapping landed into
//! [`GpuTimings`]. When every slot is still in flight the frame is not timed.

use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::Duration;

use super::{GpuTimings, PassTiming};
use crate::GpuContext;
use crate::graph::PassKind;

/// Read-back buffers in flight at most: a frame's figures land one or two
/// frames later, and a third slot covers a GPU running a frame behind.
const SLOTS: usize = 3;
/// Queries in the first query set (32 passes); it doubles when a graph has more.
const INITIAL_QUERIES: u32 = 64;

const PENDING: u8 = 0;
const MAPPED: u8 = 1;
const FAILED: u8 = 2;

#[derive(Debug)]
enum SlotState {
    Free,
    /// Reserved for frame `.0`, being recorded; mapped after the submit.
    Recording(u64),
    /// Being mapped for frame `.0`.
    Mapping(u64, Arc<AtomicU8>),
}

/// A pass given a pair of queries: `begin` and `begin + 1`.
#[derive(Debug, Clone, Copy)]
struct TimedPass {
    name: &'static str,
    kind: PassKind,
    begin: u32,
}

#[derive(Debug)]
struct Slot {
    buffer: wgpu::Buffer,
    state: SlotState,
    /// The passes timed into this slot, in execution order.
    passes: Vec<TimedPass>,
    /// Queries written (two per pass).
    queries: u32,
}

/// Times the passes of each frame's graph (see the module docs).
#[derive(Debug)]
pub(crate) struct GpuPassTimer {
    query_set: wgpu::QuerySet,
    /// `capacity` resolved timestamps.
    resolve: wgpu::Buffer,
    capacity: u32,
    slots: Vec<Slot>,
    /// The slot of the frame being recorded, if it is timed.
    recording: Option<usize>,
    encoder_timestamps: bool,
    /// Nanoseconds per tick.
    period_ns: f64,
    /// The newest frame already handed out by `collect`.
    reported: u64,
}

fn query_set(device: &wgpu::Device, count: u32) -> wgpu::QuerySet {
    device.create_query_set(&wgpu::QuerySetDescriptor {
        label: Some("pass timestamps"),
        ty: wgpu::QueryType::Timestamp,
        count,
    })
}

fn query_bytes(queries: u32) -> u64 {
    u64::from(queries) * u64::from(wgpu::QUERY_SIZE)
}

fn buffer(
    device: &wgpu::Device,
    label: &str,
    queries: u32,
    usage: wgpu::BufferUsages,
) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: query_bytes(queries),
        usage,
        mapped_at_creation: false,
    })
}

fn resolve_buffer(device: &wgpu::Device, queries: u32) -> wgpu::Buffer {
    let usage = wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC;
    buffer(device, "pass timestamps resolve", queries, usage)
}

fn readback_buffer(device: &wgpu::Device, queries: u32) -> wgpu::Buffer {
    let usage = wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST;
    buffer(device, "pass timestamps read-back", queries, usage)
}

impl GpuPassTimer {
    /// A timer for `gpu`, or `None` when its device has no timestamp queries.
    pub(crate) fn new(gpu: &GpuContext) -> Option<Self> {
        if !gpu.has_gpu_timestamps() {
            return None;
        }
        let device = gpu.device();
        let slots = (0..SLOTS)
            .map(|_| Slot {
                buffer: readback_buffer(device, INITIAL_QUERIES),
                state: SlotState::Free,
                passes: Vec::new(),
                queries: 0,
            })
            .collect();
        Some(Self {
            query_set: query_set(device, INITIAL_QUERIES),
            resolve: resolve_buffer(device, INITIAL_QUERIES),
            capacity: INITIAL_QUERIES,
            slots,
            recording: None,
            encoder_timestamps: gpu.has_encoder_timestamps(),
            period_ns: f64::from(gpu.queue().get_timestamp_period()),
            reported: 0,
        })
    }

    /// Whether encoder passes can be timed (timestamps between passes).
    pub(crate) fn times_encoder_passes(&self) -> bool {
        self.encoder_timestamps
    }

    /// Polls the device without waiting and reads every slot whose mapping
    /// landed; returns the figures of the newest frame not reported before.
    pub(crate) fn collect(&mut self, device: &wgpu::Device) -> Option<GpuTimings> {
        // A failed poll only means nothing new is known yet.
        let _ = device.poll(wgpu::PollType::Poll);
        let mut newest: Option<GpuTimings> = None;
        for slot in &mut self.slots {
            let SlotState::Mapping(frame, done) = &slot.state else {
                continue;
            };
            let frame = *frame;
            match done.load(Ordering::Acquire) {
                MAPPED => {
                    let timings = read_slot(slot, frame, self.period_ns);
                    slot.buffer.unmap();
                    slot.state = SlotState::Free;
                    if let Some(timings) = timings
                        && frame > self.reported
                        && newest.as_ref().is_none_or(|n| n.frame < frame)
                    {
                        newest = Some(timings);
                    }
                }
                FAILED => slot.state = SlotState::Free,
                _ => {}
            }
        }
        if let Some(timings) = &newest {
            self.reported = timings.frame;
        }
        newest
    }

    /// Starts timing frame `frame` of up to `passes` passes: reads what
    /// landed (see [`collect`](Self::collect)), makes room for the queries,
    /// and reserves a free read-back slot (none free: this frame is not
    /// timed).
    pub(crate) fn begin_frame(
        &mut self,
        device: &wgpu::Device,
        frame: u64,
        passes: usize,
    ) -> Option<GpuTimings> {
        // A slot reserved by a frame that never reached its submit.
        for slot in &mut self.slots {
            if matches!(slot.state, SlotState::Recording(_)) {
                slot.state = SlotState::Free;
            }
        }
        let landed = self.collect(device);
        let wanted = u32::try_from(passes.saturating_mul(2))
            .unwrap_or(u32::MAX)
            .min(wgpu::QUERY_SET_MAX_QUERIES);
        if wanted > self.capacity {
            let capacity = wanted.next_power_of_two().min(wgpu::QUERY_SET_MAX_QUERIES);
            self.query_set = query_set(device, capacity);
            self.resolve = resolve_buffer(device, capacity);
            self.capacity = capacity;
        }
        self.recording = self
            .slots
            .iter()
            .position(|slot| matches!(slot.state, SlotState::Free));
        if let Some(index) = self.recording {
            let slot = &mut self.slots[index];
            if slot.buffer.size() < query_bytes(self.capacity) {
                slot.buffer = readback_buffer(device, self.capacity);
            }
            slot.state = SlotState::Recording(frame);
            slot.passes.clear();
            slot.queries = 0;
        }
        landed
    }

    /// Two queries for the pass `name` about to be recorded: the query set
    /// and the index of its begin timestamp (its end is the next index).
    /// `None` when this frame is not timed or its queries ran out.
    pub(crate) fn reserve(
        &mut self,
        name: &'static str,
        kind: PassKind,
    ) -> Option<(wgpu::QuerySet, u32)> {
        let slot = &mut self.slots[self.recording?];
        let begin = slot.queries;
        if begin + 2 > self.capacity {
            return None;
        }
        slot.queries += 2;
        slot.passes.push(TimedPass { name, kind, begin });
        Some((self.query_set.clone(), begin))
    }

    /// Records the resolve of this frame's queries and their copy into its
    /// read-back slot: the last commands of the frame's encoder.
    pub(crate) fn resolve(&mut self, encoder: &mut wgpu::CommandEncoder) {
        let Some(index) = self.recording else {
            return;
        };
        let slot = &mut self.slots[index];
        if slot.queries == 0 {
            slot.state = SlotState::Free;
            self.recording = None;
            return;
        }
        encoder.resolve_query_set(&self.query_set, 0..slot.queries, &self.resolve, 0);
        encoder.copy_buffer_to_buffer(&self.resolve, 0, &slot.buffer, 0, query_bytes(slot.queries));
    }

    /// Starts mapping this frame's slot (call after the submit).
    pub(crate) fn submitted(&mut self) {
        let Some(index) = self.recording.take() else {
            return;
        };
        let slot = &mut self.slots[index];
        let SlotState::Recording(frame) = slot.state else {
            return;
        };
        let done = Arc::new(AtomicU8::new(PENDING));
        let flag = Arc::clone(&done);
        slot.buffer.map_async(
            wgpu::MapMode::Read,
            ..query_bytes(slot.queries),
            move |result| {
                let state = if result.is_ok() { MAPPED } else { FAILED };
                flag.store(state, Ordering::Release);
            },
        );
        slot.state = SlotState::Mapping(frame, done);
    }
}

/// The figures in a mapped slot (`None` if the mapping cannot be read).
fn read_slot(slot: &Slot, frame: u64, period_ns: f64) -> Option<GpuTimings> {
    let bytes = slot
        .buffer
        .get_mapped_range(..query_bytes(slot.queries))
        .ok()?;
    let ticks: Vec<u64> = bytes
        .chunks_exact(8)
        .map(|b| u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]))
        .collect();
    drop(bytes);
    let mut first = u64::MAX;
    let mut last = 0u64;
    let passes = slot
        .passes
        .iter()
        .filter_map(|pass| {
            let begin = *ticks.get(pass.begin as usize)?;
            let end = *ticks.get(pass.begin as usize + 1)?;
            first = first.min(begin);
            last = last.max(end);
            Some(PassTiming {
                name: pass.name,
                kind: pass.kind,
                gpu: ticks_to_duration(end.saturating_sub(begin), period_ns),
            })
        })
        .collect();
    Some(GpuTimings {
        frame,
        passes,
        total: ticks_to_duration(last.saturating_sub(first), period_ns),
    })
}

/// `ticks` of `period_ns` nanoseconds each; zero for a figure no duration
/// can hold (a driver's garbage timestamp, never a panic).
fn ticks_to_duration(ticks: u64, period_ns: f64) -> Duration {
    let seconds = ticks as f64 * period_ns * 1e-9;
    Duration::try_from_secs_f64(seconds).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::ticks_to_duration;

    #[test]
    fn ticks_become_durations_by_the_period() {
        assert_eq!(ticks_to_duration(1_500, 1.0), Duration::from_nanos(1_500));
        assert_eq!(ticks_to_duration(1_000, 2.5), Duration::from_nanos(2_500));
        assert_eq!(ticks_to_duration(0, 1.0), Duration::ZERO);
        assert_eq!(ticks_to_duration(10, f64::NAN), Duration::ZERO);
        assert_eq!(ticks_to_duration(u64::MAX, f64::INFINITY), Duration::ZERO);
    }
}
