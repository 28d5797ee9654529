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
    engine
        .renderer()
        .gpu()
        .device()
        .poll(wgpu::PollType::wait_indefinitely())
        .expect("the GPU finishes");
    stats
}
