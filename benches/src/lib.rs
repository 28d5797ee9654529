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
