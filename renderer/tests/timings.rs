//! Frame timings on a real adapter (lavapipe in CI, which has timestamp
//! queries): every pass that ran is timed on the GPU once its read-back has
//! landed, culled passes are not, and a device without timestamp queries
//! reports CPU figures only.
//!
//! `cargo test -p taos_renderer --test timings -- --nocapture` prints the
//! per-pass table of each preset.

mod support;

use taos_renderer::graph::{GraphOverview, PassKind, TextureDesc};
use taos_renderer::presets::{PresetOptions, forward_plus_preset, forward_preset};
use taos_renderer::timings::{FrameTimings, GpuTimings};
use taos_renderer::{ContextOptions, GpuContext, OffscreenTarget, Renderer, wgpu};

const SIZE: (u32, u32) = (128, 96);
/// A pass nothing imported depends on: the compiler culls it.
const CULLED_PASS: &str = "debug view nobody reads";

/// Renders `frames` frames of the shared scene with `preset`, waiting for
/// the device after each, plus a pass that is always culled.
fn render_frames(gpu: GpuContext, preset: impl FnOnce(&mut Renderer), frames: usize) -> Renderer {
    let target = OffscreenTarget::new(&gpu, SIZE.0, SIZE.1, support::FORMAT).unwrap();
    let mut renderer = Renderer::new(gpu, support::FORMAT);
    preset(&mut renderer);
    let items = support::scene(&mut renderer);
    let mut data = support::frame_data(&renderer, &items, 8, SIZE);
    for _ in 0..frames {
        renderer
            .render_with(&mut data, target.texture(), &mut |frame| {
                let usage = wgpu::TextureUsages::RENDER_ATTACHMENT;
                let format = wgpu::TextureFormat::Rgba8Unorm;
                let debug = frame
                    .graph
                    .create_texture("debug", TextureDesc::new_2d(8, 8, format, usage));
                frame.graph.add_render_pass(CULLED_PASS, |pass| {
                    let _ = pass.write_color(debug, wgpu::LoadOp::Clear(wgpu::Color::RED));
                });
            })
            .unwrap();
        renderer
            .gpu()
            .device()
            .poll(wgpu::PollType::wait_indefinitely())
            .unwrap();
    }
    renderer
}

fn print_table(title: &str, timings: &FrameTimings) {
    eprintln!(
        "{title} at {}x{}, frame {}: CPU build {:?}, compile {:?}, record {:?}",
        SIZE.0, SIZE.1, timings.frame, timings.cpu_build, timings.cpu_compile, timings.cpu_record
    );
    eprintln!("  {:<24} {:>12} {:>12}", "pass", "CPU record", "GPU");
    for cpu in &timings.cpu_passes {
        let gpu = timings.gpu.as_ref().and_then(|g| g.pass(cpu.name));
        let gpu = gpu.map_or_else(|| "-".to_owned(), |p| format!("{:?}", p.gpu));
        let record = format!("{:?}", cpu.record);
        eprintln!("  {:<24} {record:>12} {gpu:>12}", cpu.name);
    }
    if let Some(gpu) = &timings.gpu {
        let total = format!("{:?}", gpu.total);
        eprintln!(
            "  {:<24} {:>12} {total:>12} (frame {})",
            "GPU total", "", gpu.frame
        );
    }
}

/// Every pass the graph ran (encoder passes only where they can be timed)
/// has an entry, by name and in execution order; culled passes have none;
/// every figure is a sane duration.
fn assert_timed(graph: &GraphOverview, gpu: &GpuTimings, encoder_passes_timed: bool) {
    let expected: Vec<&str> = graph
        .executed()
        .filter(|pass| pass.kind != PassKind::Encoder || encoder_passes_timed)
        .map(|pass| pass.name)
        .collect();
    let timed: Vec<&str> = gpu.passes.iter().map(|pass| pass.name).collect();
    assert_eq!(timed, expected, "one timing per executed pass, in order");
    assert!(graph.culled().any(|pass| pass.name == CULLED_PASS));
    for culled in graph.culled() {
        assert!(
            gpu.pass(culled.name).is_none(),
            "{} was culled",
            culled.name
        );
    }
    for pass in &gpu.passes {
        let seconds = pass.gpu.as_secs_f64();
        assert!(
            seconds.is_finite() && (0.0..60.0).contains(&seconds),
            "{}: {:?}",
            pass.name,
            pass.gpu
        );
    }
    assert!(gpu.total >= gpu.passes.iter().map(|p| p.gpu).max().unwrap_or_default());
}

fn check_preset(title: &str, preset: impl FnOnce(&mut Renderer)) {
    let mut renderer = render_frames(support::gpu(), preset, 3);
    let gpu_landed = renderer.collect_gpu_timings().cloned();
    let timings = renderer.last_timings().clone();
    print_table(title, &timings);
    assert_eq!(timings.frame, 3);
    assert_eq!(
        timings.cpu_total(),
        timings.cpu_build + timings.cpu_compile + timings.cpu_record
    );
    // Every pass that ran was recorded, and its recording is part of the
    // record phase.
    let recorded: Vec<&str> = timings.cpu_passes.iter().map(|p| p.name).collect();
    let executed: Vec<&str> = renderer.last_graph().executed().map(|p| p.name).collect();
    assert_eq!(recorded, executed);
    let pass_sum: std::time::Duration = timings.cpu_passes.iter().map(|p| p.record).sum();
    assert!(pass_sum <= timings.cpu_record);
    if !renderer.gpu().has_gpu_timestamps() {
        eprintln!(
            "{} has no timestamp queries: GPU timings are not checked",
            renderer.gpu().adapter_info().name
        );
        assert!(gpu_landed.is_none() && timings.gpu.is_none());
        return;
    }
    assert!(renderer.gpu_timings_enabled());
    let gpu = gpu_landed.expect("the device was waited for: the last frame's read-back landed");
    assert_eq!(gpu.frame, 3, "the latest frame's figures");
    assert_eq!(timings.gpu.as_ref(), Some(&gpu));
    let encoder_passes_timed = renderer.gpu().has_encoder_timestamps();
    assert_timed(renderer.last_graph(), &gpu, encoder_passes_timed);
}

#[test]
fn forward_preset_passes_are_timed_on_the_gpu() {
    check_preset("forward", forward_preset(PresetOptions::default()));
}

#[test]
fn forward_plus_compute_and_encoder_passes_are_timed_too() {
    check_preset("forward+", forward_plus_preset(PresetOptions::default()));
}

#[test]
fn gpu_figures_come_from_an_earlier_frame_without_a_stall() {
    let renderer = render_frames(support::gpu(), forward_preset(PresetOptions::default()), 2);
    let timings = renderer.last_timings();
    if let Some(gpu) = &timings.gpu {
        // Rendering frame 2 read what frame 1 left (the device was waited
        // for in between); frame 2's own figures are still in flight.
        assert_eq!((timings.frame, gpu.frame), (2, 1));
    } else {
        assert!(!renderer.gpu().has_gpu_timestamps());
    }
}

#[test]
fn without_timestamp_queries_there_are_no_gpu_figures() {
    let options = ContextOptions::default().with_gpu_timestamps(false);
    let gpu = GpuContext::headless_with(options).unwrap();
    assert!(!gpu.has_gpu_timestamps());
    let mut renderer = render_frames(gpu, forward_plus_preset(PresetOptions::default()), 3);
    assert!(!renderer.gpu_timings_enabled());
    assert!(renderer.collect_gpu_timings().is_none());
    let timings = renderer.last_timings();
    assert_eq!(timings.frame, 3);
    assert!(timings.gpu.is_none());
    // The graph is still there for an overlay.
    assert!(renderer.last_graph().executed().count() >= 4);
}

#[test]
fn turning_gpu_timings_off_drops_them() {
    let mut renderer = render_frames(support::gpu(), forward_preset(PresetOptions::default()), 2);
    renderer.set_gpu_timings(false);
    assert!(!renderer.gpu_timings_enabled());
    assert!(renderer.last_timings().gpu.is_none());
    assert!(renderer.collect_gpu_timings().is_none());
}
