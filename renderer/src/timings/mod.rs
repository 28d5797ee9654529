//! What a frame cost: CPU time to build, compile and record the render
//! graph, and GPU time per pass from timestamp queries.
//!
//! The [`Renderer`](crate::Renderer) measures every frame it renders and
//! keeps the figures in [`Renderer::last_timings`](crate::Renderer::last_timings):
//!
//! - **CPU** ([`FrameTimings::cpu_build`], [`cpu_compile`](FrameTimings::cpu_compile),
//!   [`cpu_record`](FrameTimings::cpu_record), and the recording of each
//!   pass in [`cpu_passes`](FrameTimings::cpu_passes)): wall-clock time on
//!   the calling thread, of the frame just rendered.
//! - **GPU** ([`FrameTimings::gpu`]): where the device has timestamp queries
//!   (`TIMESTAMP_QUERY`; lavapipe, desktop Vulkan, DX12 and Metal on most
//!   GPUs have them), each render and compute pass writes a timestamp when
//!   it begins and ends; with `TIMESTAMP_QUERY_INSIDE_ENCODERS` encoder
//!   passes (copies) are timed too, otherwise they have no entry. The
//!   timestamps are resolved into a buffer at the end of the frame's one
//!   command encoder and read back **without stalling**: each frame maps a
//!   buffer of a small ring asynchronously, and a later frame reads it once
//!   the GPU is done. So the GPU figures are those of the latest frame whose
//!   read-back has landed, usually one or two frames old
//!   ([`GpuTimings::frame`] says which). Without timestamp queries (WebGL2,
//!   some tile-based GPUs, or a context made with
//!   [`ContextOptions::gpu_timestamps`](crate::ContextOptions::gpu_timestamps)
//!   off) they are `None`.
//!
//! ```no_run
//! use taos_renderer::presets::{PresetOptions, forward_preset};
//! use taos_renderer::{FrameData, GpuContext, OffscreenTarget, Renderer, wgpu};
//!
//! let gpu = GpuContext::headless()?;
//! let format = wgpu::TextureFormat::Rgba8UnormSrgb;
//! let target = OffscreenTarget::new(&gpu, 256, 256, format)?;
//! let mut renderer = Renderer::new(gpu, format);
//! forward_preset(PresetOptions::default())(&mut renderer);
//! let mut data = FrameData { size: (256, 256), ..FrameData::default() };
//! for _ in 0..3 {
//!     renderer.render(&mut data, target.texture())?;
//! }
//! let timings = renderer.last_timings();
//! println!("CPU: build {:?}, compile {:?}, record {:?}",
//!     timings.cpu_build, timings.cpu_compile, timings.cpu_record);
//! if let Some(gpu) = &timings.gpu {
//!     for pass in &gpu.passes {
//!         println!("{:>20}: {:?}", pass.name, pass.gpu);
//!     }
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod gpu_timer;
mod profiler;

use std::time::Duration;

use crate::graph::PassKind;

pub(crate) use gpu_timer::GpuPassTimer;
pub(crate) use profiler::FrameProfiler;

/// What one frame cost (see the [module docs](self)).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FrameTimings {
    /// The renderer's count of frames rendered, this one included: the
    /// frame the CPU figures are of.
    pub frame: u64,
    /// Building the graph: every enabled feature's `early_update`, `update`
    /// and `add_passes`, and the `before_render` hook.
    pub cpu_build: Duration,
    /// Compiling the graph: validate, cull, order, alias.
    pub cpu_compile: Duration,
    /// Executing the graph: binding resources, recording every live pass
    /// into the command encoder, and the submit.
    pub cpu_record: Duration,
    /// The part of [`cpu_record`](Self::cpu_record) each live pass took:
    /// beginning its wgpu pass, its recording closure, ending it. In
    /// execution order, of this frame.
    pub cpu_passes: Vec<PassCpuTiming>,
    /// GPU time per pass of the latest frame whose timestamps were read
    /// back; `None` without timestamp queries, with
    /// [`Renderer::set_gpu_timings`](crate::Renderer::set_gpu_timings) off,
    /// and until the first read-back lands.
    pub gpu: Option<GpuTimings>,
}

impl FrameTimings {
    /// Build, compile and record together.
    #[must_use]
    pub fn cpu_total(&self) -> Duration {
        self.cpu_build + self.cpu_compile + self.cpu_record
    }
}

/// GPU time per pass of one frame, measured with timestamp queries.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GpuTimings {
    /// The frame these figures are of (compare with
    /// [`FrameTimings::frame`]: usually one or two frames earlier).
    pub frame: u64,
    /// The timed passes in execution order. Culled passes never ran and
    /// have no entry; nor have encoder passes on devices without
    /// `TIMESTAMP_QUERY_INSIDE_ENCODERS`.
    pub passes: Vec<PassTiming>,
    /// From the start of the first timed pass to the end of the last one
    /// (gaps between passes included, so at least the sum of the passes).
    pub total: Duration,
}

impl GpuTimings {
    /// The first timed pass named `name`.
    #[must_use]
    pub fn pass(&self, name: &str) -> Option<&PassTiming> {
        self.passes.iter().find(|pass| pass.name == name)
    }

    /// The passes' durations added up (gaps between passes not included).
    #[must_use]
    pub fn sum(&self) -> Duration {
        self.passes.iter().map(|pass| pass.gpu).sum()
    }
}

/// CPU time to record one pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PassCpuTiming {
    /// The name the pass was added with.
    pub name: &'static str,
    /// Render, compute or encoder pass.
    pub kind: PassKind,
    /// Wall-clock time on the recording thread.
    pub record: Duration,
}

/// GPU time of one pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PassTiming {
    /// The name the pass was added with.
    pub name: &'static str,
    /// Render, compute or encoder pass.
    pub kind: PassKind,
    /// From the timestamp written when the pass began to the one written
    /// when it ended.
    pub gpu: Duration,
}
