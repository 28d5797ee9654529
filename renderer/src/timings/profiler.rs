//! The renderer's measuring state: a stopwatch over the phases of the frame
//! being rendered, the GPU pass timer, and the last frame's figures and
//! graph.

use std::time::Duration;

use web_time::Instant;

use super::{FrameTimings, GpuPassTimer, GpuTimings, PassCpuTiming};
use crate::GpuContext;
use crate::graph::{CompiledGraph, GraphOverview, RenderGraph};

/// Measures each frame the renderer renders (see [`super`]).
#[derive(Debug)]
pub(crate) struct FrameProfiler {
    /// `None` when the device has no timestamp queries.
    gpu_timer: Option<GpuPassTimer>,
    gpu_enabled: bool,
    /// Frames started so far.
    frames: u64,
    /// When the current phase of the frame being measured began.
    phase_start: Instant,
    build: Duration,
    compile: Duration,
    last: FrameTimings,
    overview: GraphOverview,
}

impl FrameProfiler {
    pub(crate) fn new(gpu: &GpuContext) -> Self {
        Self {
            gpu_timer: GpuPassTimer::new(gpu),
            gpu_enabled: true,
            frames: 0,
            phase_start: Instant::now(),
            build: Duration::ZERO,
            compile: Duration::ZERO,
            last: FrameTimings::default(),
            overview: GraphOverview::default(),
        }
    }

    /// The features start building a frame's graph.
    pub(crate) fn start_build(&mut self) {
        self.phase_start = Instant::now();
    }

    /// The graph is built; compiling starts.
    pub(crate) fn end_build(&mut self) {
        let now = Instant::now();
        self.build = now - self.phase_start;
        self.phase_start = now;
    }

    /// The graph is compiled.
    pub(crate) fn end_compile(&mut self) {
        self.compile = self.phase_start.elapsed();
    }

    /// The compiled graph is about to run: keeps it as plain data and returns
    /// the GPU timer to record with (`None`: this frame is not timed) and
    /// the list to put each pass's CPU time in. Starts the record clock.
    pub(crate) fn start_record(
        &mut self,
        device: &wgpu::Device,
        graph: &RenderGraph<'_>,
        compiled: &CompiledGraph,
    ) -> (Option<&mut GpuPassTimer>, &mut Vec<PassCpuTiming>) {
        compiled.overview_into(graph, &mut self.overview);
        self.frames += 1;
        let mut timer = self.gpu_timer.as_mut().filter(|_| self.gpu_enabled);
        if let Some(timer) = timer.as_deref_mut()
            && let Some(landed) = timer.begin_frame(device, self.frames, compiled.order().len())
        {
            self.last.gpu = Some(landed);
        }
        self.phase_start = Instant::now();
        (timer, &mut self.last.cpu_passes)
    }

    /// The frame was recorded and submitted: its figures become the last.
    pub(crate) fn end_record(&mut self) {
        self.last.cpu_record = self.phase_start.elapsed();
        self.last.cpu_build = self.build;
        self.last.cpu_compile = self.compile;
        self.last.frame = self.frames;
    }

    /// Reads GPU figures that landed since the last frame, without waiting.
    pub(crate) fn collect(&mut self, device: &wgpu::Device) -> Option<&GpuTimings> {
        if self.gpu_enabled
            && let Some(timer) = &mut self.gpu_timer
            && let Some(landed) = timer.collect(device)
        {
            self.last.gpu = Some(landed);
        }
        self.last.gpu.as_ref()
    }

    pub(crate) fn set_gpu_enabled(&mut self, enabled: bool) {
        self.gpu_enabled = enabled;
        if !enabled {
            self.last.gpu = None;
        }
    }

    pub(crate) fn gpu_enabled(&self) -> bool {
        self.gpu_enabled && self.gpu_timer.is_some()
    }

    pub(crate) fn last(&self) -> &FrameTimings {
        &self.last
    }

    pub(crate) fn overview(&self) -> &GraphOverview {
        &self.overview
    }
}
