//! Criterion benches for Taos: run `cargo bench -p taos_benches`. The
//! library holds only what several benches share.

use taos_engine::Engine;
use taos_renderer::RenderStats;

/// One whole engine frame, with the GPU's work waited for: what a frame
/// costs end to end on this adapter.
///
/// # Panics
/// When the frame fails to render or the device is lost (a bench cannot
/// go on without them).
pub fn frame_waited(engine: &mut Engine) -> RenderStats {
    let stats = engine.frame().expect("renders");
    settle(engine);
    stats
}

/// Waits for the GPU to finish what was submitted: between timed runs of
/// work that is not a whole frame, so uploads do not pile up.
///
/// # Panics
/// When the device is lost.
pub fn settle(engine: &mut Engine) {
    engine
        .renderer()
        .gpu()
        .device()
        .poll(wgpu::PollType::wait_indefinitely())
        .expect("the GPU finishes");
}

/// The GPU time of each pass of the engine's last timed frame, as one line
/// (`total: pass ms, pass ms, ...`), or `None` on a device without
/// timestamp queries: where a configuration's cost goes.
pub fn gpu_pass_times(engine: &mut Engine) -> Option<String> {
    let gpu = engine.renderer().collect_gpu_timings()?;
    let passes: Vec<String> = gpu
        .passes
        .iter()
        .map(|pass| format!("{} {:.2} ms", pass.name, pass.gpu.as_secs_f64() * 1e3))
        .collect();
    Some(format!(
        "GPU {:.2} ms: {}",
        gpu.total.as_secs_f64() * 1e3,
        passes.join(", ")
    ))
}

/// What a bench times with: the wall clock (criterion's default), or with
/// `TAOS_BENCH_CLOCK=thread-cpu` the bench thread's CPU time, which other
/// processes sharing the cores do not inflate (work the call hands to
/// other threads, such as lavapipe's, is not counted).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Clock {
    /// Elapsed time.
    Wall,
    /// The calling thread's CPU time.
    ThreadCpu,
}

impl Clock {
    /// The clock `TAOS_BENCH_CLOCK` names (`thread-cpu`), else the wall clock.
    #[must_use]
    pub fn from_env() -> Self {
        match std::env::var("TAOS_BENCH_CLOCK").as_deref() {
            Ok("thread-cpu") => Self::ThreadCpu,
            _ => Self::Wall,
        }
    }

    /// How long `f` took by this clock.
    pub fn time(self, f: impl FnOnce()) -> std::time::Duration {
        match self {
            Self::Wall => {
                let start = std::time::Instant::now();
                f();
                start.elapsed()
            }
            Self::ThreadCpu => {
                let cpu = || {
                    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
                    std::time::Duration::new(
                        u64::try_from(t.tv_sec).unwrap_or(0),
                        u32::try_from(t.tv_nsec).unwrap_or(0),
                    )
                };
                let start = cpu();
                f();
                cpu().saturating_sub(start)
            }
        }
    }
}
