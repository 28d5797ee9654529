//! A tile's CPU and GPU figures, averaged over the frames measured, and
//! the Markdown table of them all.

use std::fmt::Write as _;
use std::time::Duration;

use taos_engine::renderer::timings::FrameTimings;

/// What one tile's frames cost on average.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TileTimings {
    /// Frames measured.
    pub frames: u32,
    /// A whole engine frame with the GPU's work waited for (wall clock).
    pub frame: Duration,
    /// Building the render graph (the features' updates and passes).
    pub cpu_build: Duration,
    /// Compiling the graph.
    pub cpu_compile: Duration,
    /// Recording and submitting the passes.
    pub cpu_record: Duration,
    /// Frames whose GPU figures were read back (0 without timestamp queries).
    pub gpu_frames: u32,
    /// GPU time from the first pass's start to the last one's end.
    pub gpu_total: Duration,
    /// GPU time per pass in execution order (passes of one name added up).
    pub gpu_passes: Vec<(&'static str, Duration)>,
}

/// Adds up frames' figures; [`average`](Self::average) divides.
#[derive(Debug, Default)]
pub(crate) struct TimingSum {
    sum: TileTimings,
    last_gpu_frame: Option<u64>,
}

impl TimingSum {
    /// Adds one frame: its wall-clock `frame` time and the renderer's
    /// figures. GPU figures already added (the same read-back seen twice)
    /// are skipped.
    pub(crate) fn add(&mut self, frame: Duration, timings: &FrameTimings) {
        let sum = &mut self.sum;
        sum.frames += 1;
        sum.frame += frame;
        sum.cpu_build += timings.cpu_build;
        sum.cpu_compile += timings.cpu_compile;
        sum.cpu_record += timings.cpu_record;
        let Some(gpu) = &timings.gpu else { return };
        if self.last_gpu_frame.is_some_and(|last| last >= gpu.frame) {
            return;
        }
        self.last_gpu_frame = Some(gpu.frame);
        sum.gpu_frames += 1;
        sum.gpu_total += gpu.total;
        let names: Vec<_> = gpu.passes.iter().map(|pass| pass.name).collect();
        merge_names(&mut sum.gpu_passes, &names);
        for pass in &gpu.passes {
            if let Some(entry) = sum.gpu_passes.iter_mut().find(|(n, _)| *n == pass.name) {
                entry.1 += pass.gpu;
            }
        }
    }

    /// The mean per frame (per GPU-timed frame for the GPU figures).
    pub(crate) fn average(&self) -> TileTimings {
        let per = |total: Duration, count: u32| total.checked_div(count).unwrap_or_default();
        let (sum, frames, gpu_frames) = (&self.sum, self.sum.frames, self.sum.gpu_frames);
        TileTimings {
            frames,
            frame: per(sum.frame, frames),
            cpu_build: per(sum.cpu_build, frames),
            cpu_compile: per(sum.cpu_compile, frames),
            cpu_record: per(sum.cpu_record, frames),
            gpu_frames,
            gpu_total: per(sum.gpu_total, gpu_frames),
            gpu_passes: sum
                .gpu_passes
                .iter()
                .map(|&(name, total)| (name, per(total, gpu_frames)))
                .collect(),
        }
    }
}

/// Adds the `names` missing from `merged`, each right after the name that
/// precedes it in `names`, so that both orders are kept (a pass that only
/// one effect set has lands where it ran).
fn merge_names<T: Default>(merged: &mut Vec<(&'static str, T)>, names: &[&'static str]) {
    for (index, name) in names.iter().enumerate() {
        if merged.iter().any(|(n, _)| n == name) {
            continue;
        }
        let at = match index {
            0 => 0,
            _ => merged
                .iter()
                .position(|(n, _)| *n == names[index - 1])
                .map_or(merged.len(), |i| i + 1),
        };
        merged.insert(at, (name, T::default()));
    }
}

/// One preset's row of tiles, for the table.
pub(crate) struct PresetColumns<'a> {
    /// The preset's label.
    pub(crate) preset: &'static str,
    /// (effect set label, figures), in column order.
    pub(crate) columns: Vec<(&'a str, &'a TileTimings)>,
}

/// One Markdown table per preset: a row per figure (frame, CPU stages,
/// GPU total, each GPU pass), a column per effect set.
pub(crate) fn markdown_tables(presets: &[PresetColumns<'_>]) -> String {
    let mut out = String::new();
    for preset in presets {
        let _ = writeln!(out, "### {}\n", preset.preset);
        let header: Vec<_> = preset.columns.iter().map(|(label, _)| *label).collect();
        let _ = writeln!(out, "| | {} |", header.join(" | "));
        let _ = writeln!(out, "| --- |{}", " ---: |".repeat(header.len()));
        let row =
            |out: &mut String, name: &str, value: &dyn Fn(&TileTimings) -> Option<Duration>| {
                let cells: Vec<_> = preset
                    .columns
                    .iter()
                    .map(|(_, timings)| value(timings).map_or_else(|| "-".to_owned(), ms))
                    .collect();
                let _ = writeln!(out, "| {name} | {} |", cells.join(" | "));
            };
        row(&mut out, "frame (GPU waited)", &|t| Some(t.frame));
        row(&mut out, "CPU build", &|t| Some(t.cpu_build));
        row(&mut out, "CPU compile", &|t| Some(t.cpu_compile));
        row(&mut out, "CPU record", &|t| Some(t.cpu_record));
        row(&mut out, "GPU, first pass to last", &|t| {
            (t.gpu_frames > 0).then_some(t.gpu_total)
        });
        let mut passes: Vec<(&'static str, ())> = Vec::new();
        for (_, timings) in &preset.columns {
            let names: Vec<_> = timings.gpu_passes.iter().map(|(name, _)| *name).collect();
            merge_names(&mut passes, &names);
        }
        for (pass, ()) in passes {
            row(&mut out, &format!("GPU `{pass}`"), &|t| {
                t.gpu_passes
                    .iter()
                    .find(|(name, _)| *name == pass)
                    .map(|&(_, gpu)| gpu)
            });
        }
        out.push('\n');
    }
    out
}

/// A duration in milliseconds: two decimals, three under a millisecond.
fn ms(duration: Duration) -> String {
    let ms = duration.as_secs_f64() * 1e3;
    if ms < 1.0 {
        format!("{ms:.3} ms")
    } else {
        format!("{ms:.2} ms")
    }
}

#[cfg(test)]
mod tests {
    use taos_engine::renderer::graph::PassKind;
    use taos_engine::renderer::timings::{GpuTimings, PassTiming};

    use super::*;

    fn frame(number: u64, passes: &[(&'static str, u64)]) -> FrameTimings {
        FrameTimings {
            frame: number,
            cpu_build: Duration::from_micros(100 * number),
            cpu_compile: Duration::from_micros(10),
            cpu_record: Duration::from_micros(30),
            cpu_passes: Vec::new(),
            gpu: Some(GpuTimings {
                frame: number,
                passes: passes
                    .iter()
                    .map(|&(name, micros)| PassTiming {
                        name,
                        kind: PassKind::Render,
                        gpu: Duration::from_micros(micros),
                    })
                    .collect(),
                total: Duration::from_micros(passes.iter().map(|p| p.1).sum::<u64>() + 5),
            }),
        }
    }

    #[test]
    fn figures_are_averaged_and_a_read_back_counts_once() {
        let mut sum = TimingSum::default();
        let ms1 = Duration::from_millis(1);
        sum.add(ms1, &frame(1, &[("sky", 100), ("tonemap", 20)]));
        sum.add(ms1 * 3, &frame(2, &[("sky", 300), ("tonemap", 40)]));
        // Frame 3's read-back has not landed: the GPU figures are frame 2's again.
        let mut stale = frame(3, &[]);
        stale.gpu = frame(2, &[("sky", 300), ("tonemap", 40)]).gpu;
        sum.add(ms1 * 2, &stale);
        let average = sum.average();
        assert_eq!(average.frames, 3);
        assert_eq!(average.frame, ms1 * 2);
        assert_eq!(average.cpu_build, Duration::from_micros(200));
        assert_eq!(average.gpu_frames, 2);
        assert_eq!(
            average.gpu_passes,
            [
                ("sky", Duration::from_micros(200)),
                ("tonemap", Duration::from_micros(30))
            ]
        );
        assert_eq!(average.gpu_total, Duration::from_micros(235));
    }

    #[test]
    fn passes_of_one_name_add_up_and_merged_names_keep_execution_order() {
        let mut sum = TimingSum::default();
        sum.add(
            Duration::ZERO,
            &frame(
                1,
                &[("a", 1), ("bloom down", 2), ("bloom down", 3), ("z", 4)],
            ),
        );
        let average = sum.average();
        let names: Vec<_> = average.gpu_passes.iter().map(|p| p.0).collect();
        assert_eq!(names, ["a", "bloom down", "z"]);
        assert_eq!(average.gpu_passes[1].1, Duration::from_micros(5));

        let mut merged: Vec<(&'static str, ())> = Vec::new();
        merge_names(&mut merged, &["shadow", "lit", "tonemap"]);
        merge_names(&mut merged, &["shadow", "lit", "dof", "tonemap"]);
        merge_names(&mut merged, &["pre", "shadow", "lit", "bloom", "tonemap"]);
        let names: Vec<_> = merged.iter().map(|p| p.0).collect();
        assert_eq!(names, ["pre", "shadow", "lit", "bloom", "dof", "tonemap"]);
    }

    #[test]
    fn the_table_has_a_column_per_set_and_a_dash_where_a_pass_did_not_run() {
        let mut off = TimingSum::default();
        off.add(
            Duration::from_millis(4),
            &frame(1, &[("lit", 2000), ("tonemap", 500)]),
        );
        let mut dof = TimingSum::default();
        dof.add(
            Duration::from_millis(9),
            &frame(1, &[("lit", 2000), ("dof gather", 4250), ("tonemap", 500)]),
        );
        let (off, dof) = (off.average(), dof.average());
        let table = markdown_tables(&[PresetColumns {
            preset: "forward",
            columns: vec![("off", &off), ("dof", &dof)],
        }]);
        assert!(table.starts_with("### forward\n\n| | off | dof |\n| --- | ---: | ---: |\n"));
        assert!(
            table.contains("| frame (GPU waited) | 4.00 ms | 9.00 ms |"),
            "{table}"
        );
        assert!(
            table.contains("| GPU `dof gather` | - | 4.25 ms |"),
            "{table}"
        );
        let lit = table.find("GPU `lit`").unwrap();
        let gather = table.find("GPU `dof gather`").unwrap();
        let tonemap = table.find("GPU `tonemap`").unwrap();
        assert!(lit < gather && gather < tonemap, "{table}");
    }
}
