//! What the render-graph overlay shows, as plain rows built from the
//! renderer's last graph and timings: no window, no egui, testable alone.

use std::time::Duration;

use taos_renderer::graph::{GraphOverview, PassKind, ResourceDesc};
use taos_renderer::timings::FrameTimings;

/// One pass: executed ones in execution order, then culled ones.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PassRow {
    /// Position in the execution order; `None` for a culled pass.
    pub(crate) position: Option<usize>,
    pub(crate) name: &'static str,
    pub(crate) kind: &'static str,
    /// CPU time to record it, this frame; `None` for a culled pass.
    pub(crate) cpu: Option<Duration>,
    /// GPU time from the latest timed frame; `None` when the pass was
    /// culled, not timed, or there are no GPU figures.
    pub(crate) gpu: Option<Duration>,
}

/// One resource of the graph.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ResourceRow {
    pub(crate) label: &'static str,
    /// "texture 640x480 Rgba16Float", "buffer 4.0 KiB".
    pub(crate) description: String,
    pub(crate) imported: bool,
    /// Shares its physical allocation (`#slot`) with another transient.
    pub(crate) aliased: bool,
    pub(crate) slot: Option<usize>,
    /// Some live pass uses it.
    pub(crate) live: bool,
}

/// Everything the overlay shows for one frame.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct OverlayModel {
    pub(crate) frame: u64,
    pub(crate) cpu_build: Duration,
    pub(crate) cpu_compile: Duration,
    pub(crate) cpu_record: Duration,
    /// The frame the GPU figures are of, and its GPU total.
    pub(crate) gpu: Option<(u64, Duration)>,
    /// The renderer times passes on the GPU (figures may not have landed yet).
    pub(crate) gpu_timed: bool,
    pub(crate) passes: Vec<PassRow>,
    pub(crate) resources: Vec<ResourceRow>,
    pub(crate) bytes_saved: u64,
}

fn kind_name(kind: PassKind) -> &'static str {
    match kind {
        PassKind::Render => "render",
        PassKind::Compute => "compute",
        PassKind::Encoder => "encoder",
    }
}

fn describe(desc: &ResourceDesc) -> String {
    match desc {
        ResourceDesc::Texture(t) => {
            let size = t.size;
            let layers = if size.depth_or_array_layers > 1 {
                format!("x{}", size.depth_or_array_layers)
            } else {
                String::new()
            };
            format!(
                "texture {}x{}{layers} {:?}",
                size.width, size.height, t.format
            )
        }
        ResourceDesc::Buffer(b) => format!("buffer {}", format_bytes(b.size)),
    }
}

/// `bytes` in B, KiB or MiB, one decimal.
pub(crate) fn format_bytes(bytes: u64) -> String {
    const KIB: f64 = 1024.0;
    let b = bytes as f64;
    if b < KIB {
        format!("{bytes} B")
    } else if b < KIB * KIB {
        format!("{:.1} KiB", b / KIB)
    } else {
        format!("{:.1} MiB", b / (KIB * KIB))
    }
}

/// A duration in milliseconds, three decimals ("0.372 ms").
pub(crate) fn format_ms(duration: Duration) -> String {
    format!("{:.3} ms", duration.as_secs_f64() * 1e3)
}

/// Durations by pass name, each handed out once, in order.
struct ByName {
    entries: Vec<(&'static str, Duration, bool)>,
}

impl ByName {
    fn new(entries: impl Iterator<Item = (&'static str, Duration)>) -> Self {
        Self {
            entries: entries.map(|(name, d)| (name, d, false)).collect(),
        }
    }

    /// The first duration of `name` not taken yet.
    fn take(&mut self, name: &str) -> Option<Duration> {
        let entry = self
            .entries
            .iter_mut()
            .find(|(n, _, taken)| !taken && *n == name)?;
        entry.2 = true;
        Some(entry.1)
    }
}

impl OverlayModel {
    /// The rows for `graph` (the last frame's) and `timings`. GPU figures
    /// may be of an earlier frame: they are matched to passes by name, the
    /// n-th pass of a name taking the n-th timing of that name. `gpu_timed`:
    /// the renderer times passes on the GPU.
    pub(crate) fn new(graph: &GraphOverview, timings: &FrameTimings, gpu_timed: bool) -> Self {
        let gpu_passes = timings.gpu.as_ref().map_or(&[][..], |g| &g.passes[..]);
        let mut gpu = ByName::new(gpu_passes.iter().map(|t| (t.name, t.gpu)));
        let mut cpu = ByName::new(timings.cpu_passes.iter().map(|t| (t.name, t.record)));
        let mut passes: Vec<PassRow> = graph
            .executed()
            .map(|pass| PassRow {
                position: pass.position,
                name: pass.name,
                kind: kind_name(pass.kind),
                cpu: cpu.take(pass.name),
                gpu: gpu.take(pass.name),
            })
            .collect();
        passes.extend(graph.culled().map(|pass| PassRow {
            position: None,
            name: pass.name,
            kind: kind_name(pass.kind),
            cpu: None,
            gpu: None,
        }));
        let resources = graph
            .resources
            .iter()
            .map(|r| ResourceRow {
                label: r.label,
                description: describe(&r.desc),
                imported: r.imported,
                aliased: r.aliased,
                slot: r.physical.map(|p| p.index()),
                live: r.lifetime.is_some(),
            })
            .collect();
        Self {
            frame: timings.frame,
            cpu_build: timings.cpu_build,
            cpu_compile: timings.cpu_compile,
            cpu_record: timings.cpu_record,
            gpu: timings.gpu.as_ref().map(|g| (g.frame, g.total)),
            gpu_timed,
            passes,
            resources,
            bytes_saved: graph.bytes_saved(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use taos_renderer::graph::{GraphCompiler, ImportedTexture, RenderGraph, TextureDesc};
    use taos_renderer::timings::{FrameTimings, GpuTimings, PassCpuTiming, PassTiming};
    use wgpu::{Color, LoadOp, TextureFormat as TF, TextureUsages as TU};

    use super::*;

    /// forward → post → tonemap into an imported surface, with a post
    /// target aliasing the first HDR target and a culled debug pass.
    fn overview() -> GraphOverview {
        let usage = TU::RENDER_ATTACHMENT | TU::TEXTURE_BINDING;
        let hdr_desc = TextureDesc::new_2d(64, 32, TF::Rgba16Float, usage);
        let mut g = RenderGraph::new();
        let surface = g.import_texture(
            "surface",
            ImportedTexture::declared(TextureDesc::new_2d(64, 32, TF::Bgra8UnormSrgb, usage)),
        );
        let hdr = g.create_texture("hdr", hdr_desc);
        let post = g.create_texture("post", hdr_desc);
        let bloom = g.create_texture("bloom", hdr_desc);
        let debug = g.create_texture("debug", hdr_desc);
        let hdr = g.add_render_pass("forward", |p| {
            p.write_color(hdr, LoadOp::Clear(Color::BLACK))
        });
        let post = g.add_render_pass("post", |p| {
            p.read_texture(hdr);
            p.write_color(post, LoadOp::Clear(Color::BLACK))
        });
        let bloom = g.add_render_pass("post", |p| {
            p.read_texture(post);
            p.write_color(bloom, LoadOp::Clear(Color::BLACK))
        });
        g.add_render_pass("debug", |p| {
            p.read_texture(hdr);
            let _ = p.write_color(debug, LoadOp::Clear(Color::BLACK));
        });
        g.add_render_pass("tonemap", |p| {
            p.read_texture(bloom);
            let _ = p.write_color(surface, LoadOp::Clear(Color::BLACK));
        });
        GraphCompiler::new().compile(&g).unwrap().overview(&g)
    }

    fn timing(name: &'static str, micros: u64) -> PassTiming {
        PassTiming {
            name,
            kind: PassKind::Render,
            gpu: Duration::from_micros(micros),
        }
    }

    #[test]
    fn passes_run_in_order_with_their_gpu_times_and_culled_ones_last() {
        let timings = FrameTimings {
            frame: 7,
            cpu_build: Duration::from_micros(100),
            cpu_compile: Duration::from_micros(5),
            cpu_record: Duration::from_micros(300),
            cpu_passes: ["forward", "post", "post", "tonemap"]
                .into_iter()
                .zip(1..)
                .map(|(name, micros)| PassCpuTiming {
                    name,
                    kind: PassKind::Render,
                    record: Duration::from_micros(micros),
                })
                .collect(),
            gpu: Some(GpuTimings {
                frame: 6,
                passes: vec![
                    timing("forward", 900),
                    timing("post", 50),
                    timing("post", 60),
                    timing("tonemap", 40),
                ],
                total: Duration::from_micros(1_100),
            }),
        };
        let model = OverlayModel::new(&overview(), &timings, true);
        let rows: Vec<_> = model
            .passes
            .iter()
            .map(|p| {
                let micros = |d: Option<Duration>| d.map(|d| d.as_micros());
                (p.position, p.name, micros(p.cpu), micros(p.gpu))
            })
            .collect();
        assert_eq!(
            rows,
            [
                (Some(0), "forward", Some(1), Some(900)),
                (Some(1), "post", Some(2), Some(50)),
                (Some(2), "post", Some(3), Some(60)),
                (Some(3), "tonemap", Some(4), Some(40)),
                (None, "debug", None, None),
            ]
        );
        assert_eq!(model.gpu, Some((6, Duration::from_micros(1_100))));
        assert_eq!(model.frame, 7);
        assert_eq!(model.cpu_record, Duration::from_micros(300));
    }

    #[test]
    fn resources_say_imported_transient_and_aliased() {
        let model = OverlayModel::new(&overview(), &FrameTimings::default(), false);
        let row = |label: &str| model.resources.iter().find(|r| r.label == label).unwrap();
        let surface = row("surface");
        assert!(surface.imported && !surface.aliased && surface.slot.is_none());
        assert_eq!(surface.description, "texture 64x32 Bgra8UnormSrgb");
        // hdr dies when post is written: bloom takes its allocation.
        let (hdr, bloom) = (row("hdr"), row("bloom"));
        assert!(hdr.aliased && bloom.aliased && hdr.slot == bloom.slot);
        assert!(!row("post").aliased);
        let debug = row("debug");
        assert!(!debug.live && debug.slot.is_none());
        assert_eq!(model.bytes_saved, 64 * 32 * 8);
        // Without figures no pass has a time.
        assert!(
            model
                .passes
                .iter()
                .all(|p| p.gpu.is_none() && p.cpu.is_none())
        );
        assert_eq!(model.gpu, None);
    }

    #[test]
    fn sizes_and_times_read_well() {
        assert_eq!(format_bytes(512), "512 B");
        assert_eq!(format_bytes(4096), "4.0 KiB");
        assert_eq!(format_bytes(3 * 1024 * 1024 / 2), "1.5 MiB");
        assert_eq!(format_ms(Duration::from_micros(372)), "0.372 ms");
    }
}
