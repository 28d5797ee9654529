//! `presets_compare`: one scene (the deferred showcase's, seen from the
//! side) through the forward, forward-plus and deferred presets, with each
//! post effect off and on.
//!
//! - **Headless** ([`run_comparison`]): every preset x effect set renders
//!   offscreen at a small tile size for a few frames; the tiles make a
//!   contact sheet (rows: presets, columns: effect sets) and their timings a
//!   Markdown table (CPU build, compile and record, GPU per pass, averaged).
//!   Each preset is built once with every effect's feature registered, and
//!   the columns switch those features on and off
//!   ([`EffectSet::switch`]); only MSAA, a setting of the lit pass's
//!   pipelines, rebuilds the features.
//! - **Windowed**: one preset, starting with the effect set of the command
//!   line (`--preset`, `--effects`); the keys `1` to `4` switch the effects
//!   the same way; F3 shows the render-graph overlay with the per-pass
//!   times.

mod effects;
mod font;
mod scene;
mod sheet;
mod timings;
mod window;

use std::path::{Path, PathBuf};
use taos_engine::time::Instant;

use anyhow::Context as _;
use clap::Parser;
use image::RgbaImage;
use taos_engine::renderer::wgpu;
use taos_engine::{Engine, EngineConfig};

pub use effects::{EFFECTS, Effect, EffectSet, Switch, UnknownEffect, effect_sets};
pub use scene::{ComparePreset, compare_preset, focus_distance, presets_compare_scene};
pub use timings::TileTimings;

use timings::{PresetColumns, TimingSum, markdown_tables};

/// File name of the contact sheet in the output directory.
pub const SHEET_FILE: &str = "presets_compare.png";
/// File name of the timing table in the output directory.
pub const TIMINGS_FILE: &str = "timings.md";

/// How the headless comparison renders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CompareOptions {
    /// Size of each tile in pixels.
    pub tile: (u32, u32),
    /// Frames rendered before measuring (pipeline compiles, the sky's
    /// tables, the image-based light's bake).
    pub warmup_frames: u32,
    /// Frames measured and averaged (at least one).
    pub frames: u32,
}

impl Default for CompareOptions {
    /// 320 x 180 tiles, 2 warm-up frames, 8 measured: the whole run takes
    /// well under a minute on lavapipe with 2 cores.
    fn default() -> Self {
        Self {
            tile: (320, 180),
            warmup_frames: 2,
            frames: 8,
        }
    }
}

/// One preset x effect set: its last frame and its timings.
#[derive(Debug, Clone)]
pub struct Tile {
    /// The preset.
    pub preset: ComparePreset,
    /// The effect set's label.
    pub effects: String,
    /// The last frame.
    pub image: RgbaImage,
    /// What its frames cost.
    pub timings: TileTimings,
}

/// Every tile of a headless comparison.
#[derive(Debug, Clone)]
pub struct Comparison {
    /// How it was rendered.
    pub options: CompareOptions,
    /// The adapter, as wgpu names it (with its backend).
    pub adapter: String,
    /// The columns' labels.
    pub effect_sets: Vec<String>,
    /// Row-major: [`ComparePreset::ALL`] x `effect_sets`.
    pub tiles: Vec<Tile>,
}

/// Renders every preset with every effect set of [`EFFECTS`] headless,
/// calling `on_tile` as each tile is done.
///
/// # Errors
/// Whatever building an engine, the scene, or rendering reported.
pub fn run_comparison(
    options: &CompareOptions,
    on_tile: &mut dyn FnMut(&Tile),
) -> anyhow::Result<Comparison> {
    let sets = effect_sets(EFFECTS);
    let mut tiles = Vec::new();
    let mut adapter = String::new();
    for preset in ComparePreset::ALL {
        // This preset's engine, and the label of the build it has: the
        // columns switch features; only another build rebuilds them.
        let mut built: Option<(Engine, String)> = None;
        for set in &sets {
            let build = set.build(EFFECTS);
            let engine = match built.take() {
                Some((mut engine, label)) => {
                    if label != build.label() {
                        engine.set_preset(compare_preset(preset, &build, false));
                    }
                    engine
                }
                None => {
                    let config = EngineConfig::new(options.tile.0, options.tile.1);
                    let mut engine =
                        Engine::headless(config, compare_preset(preset, &build, false))
                            .with_context(|| format!("building the {} engine", preset.label()))?;
                    presets_compare_scene(&mut engine)?;
                    let info = engine.renderer().gpu().adapter().get_info();
                    adapter = format!("{} ({:?})", info.name, info.backend);
                    engine
                }
            };
            let engine = &mut built.insert((engine, build.label())).0;
            set.switch(engine.renderer(), EFFECTS)?;
            for _ in 0..options.warmup_frames {
                frame_waited(engine)?;
            }
            let mut sum = TimingSum::default();
            for _ in 0..options.frames.max(1) {
                let start = Instant::now();
                frame_waited(engine)?;
                let elapsed = start.elapsed();
                let renderer = engine.renderer();
                renderer.collect_gpu_timings();
                sum.add(elapsed, renderer.last_timings());
            }
            let pixels = engine.read_pixels()?;
            let image = RgbaImage::from_raw(options.tile.0, options.tile.1, pixels)
                .context("the read-back has one RGBA pixel per tile pixel")?;
            let tile = Tile {
                preset,
                effects: set.label(),
                image,
                timings: sum.average(),
            };
            on_tile(&tile);
            tiles.push(tile);
        }
    }
    Ok(Comparison {
        options: *options,
        adapter,
        effect_sets: sets.iter().map(EffectSet::label).collect(),
        tiles,
    })
}

/// One engine frame with the GPU's work waited for.
fn frame_waited(engine: &mut Engine) -> anyhow::Result<()> {
    engine.frame()?;
    engine
        .renderer()
        .gpu()
        .device()
        .poll(wgpu::PollType::wait_indefinitely())
        .context("waiting for the GPU")?;
    Ok(())
}

impl Comparison {
    /// The tile of `preset` with the effect set labelled `effects`.
    #[must_use]
    pub fn tile(&self, preset: ComparePreset, effects: &str) -> Option<&Tile> {
        self.tiles
            .iter()
            .find(|tile| tile.preset == preset && tile.effects == effects)
    }

    /// The contact sheet: rows are the presets, columns the effect sets,
    /// labelled.
    #[must_use]
    pub fn contact_sheet(&self) -> RgbaImage {
        let rows: Vec<_> = ComparePreset::ALL.iter().map(|p| p.label()).collect();
        let columns: Vec<_> = self.effect_sets.iter().map(String::as_str).collect();
        let images: Vec<_> = self.tiles.iter().map(|tile| &tile.image).collect();
        sheet::contact_sheet(&rows, &columns, &images, self.options.tile)
    }

    /// The timing table (Markdown): how it was measured, the sheet's layout,
    /// then a table per preset.
    #[must_use]
    pub fn timings_markdown(&self) -> String {
        let options = &self.options;
        let profile = if cfg!(debug_assertions) {
            "dev"
        } else {
            "release"
        };
        let mut out = format!(
            "Measured by `presets_compare --headless` on {adapter}, {w} x {h} tiles, \
             {profile} build. Each figure is the mean over {frames} after {warmup}; the GPU figures come from timestamp queries, read back after \
             waiting for each frame. The contact sheet's rows are the presets ({rows}); \
             its columns are the effect sets ({columns}).\n\n",
            adapter = self.adapter,
            w = options.tile.0,
            h = options.tile.1,
            frames = count(options.frames.max(1), "frame"),
            warmup = count(options.warmup_frames, "warm-up frame"),
            rows = ComparePreset::ALL.map(ComparePreset::label).join(", "),
            columns = self.effect_sets.join(", "),
        );
        let presets: Vec<_> = ComparePreset::ALL
            .iter()
            .map(|&preset| PresetColumns {
                preset: preset.label(),
                columns: self
                    .tiles
                    .iter()
                    .filter(|tile| tile.preset == preset)
                    .map(|tile| (tile.effects.as_str(), &tile.timings))
                    .collect(),
            })
            .collect();
        out.push_str(&markdown_tables(&presets));
        out
    }

    /// Writes the contact sheet ([`SHEET_FILE`]) and the timing table
    /// ([`TIMINGS_FILE`]) into `dir`, creating it; returns their paths.
    ///
    /// # Errors
    /// When `dir` cannot be created or a file cannot be written, naming it.
    pub fn write_to(&self, dir: &Path) -> anyhow::Result<[PathBuf; 2]> {
        create_output_dir(dir)?;
        let sheet = dir.join(SHEET_FILE);
        save_png(&self.contact_sheet(), &sheet)
            .with_context(|| format!("cannot write the contact sheet {}", sheet.display()))?;
        let table = dir.join(TIMINGS_FILE);
        std::fs::write(&table, self.timings_markdown())
            .with_context(|| format!("cannot write the timing table {}", table.display()))?;
        Ok([sheet, table])
    }
}

/// `n` and `thing`, plural unless one: `3 frames`, `1 frame`.
fn count(n: u32, thing: &str) -> String {
    if n == 1 {
        format!("1 {thing}")
    } else {
        format!("{n} {thing}s")
    }
}

/// Writes `image` as a PNG at the best compression (the sheet goes into
/// the book's repository).
fn save_png(image: &RgbaImage, path: &Path) -> anyhow::Result<()> {
    use image::codecs::png::{CompressionType, FilterType, PngEncoder};
    let file = std::io::BufWriter::new(std::fs::File::create(path)?);
    let encoder = PngEncoder::new_with_quality(file, CompressionType::Best, FilterType::Adaptive);
    image.write_with_encoder(encoder)?;
    Ok(())
}

/// Creates `dir` (and its parents) unless it exists.
fn create_output_dir(dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create the output directory {}", dir.display()))
}

/// The command line: `--headless [--out DIR] [--tile WxH] [--frames N]`,
/// or windowed `[--preset P] [--effects E] [--size WxH] [--hdr]`.
#[derive(Debug, Clone, Parser)]
#[command(
    name = "presets_compare",
    about = "One scene through forward, forward-plus and deferred, with each post effect off and on"
)]
pub struct CompareCli {
    /// Render every preset x effect set offscreen and write a contact sheet
    /// and a timing table instead of opening a window.
    #[arg(long)]
    pub headless: bool,
    /// Where --headless writes presets_compare.png and timings.md.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub out: PathBuf,
    /// Tile size of --headless.
    #[arg(long, default_value = "320x180", value_name = "WxH", value_parser = crate::args::parse_size)]
    pub tile: (u32, u32),
    /// Frames measured per tile by --headless (after 2 warm-up frames).
    #[arg(long, default_value_t = 8, value_name = "N")]
    pub frames: u32,
    /// The preset of the window.
    #[arg(long, value_enum, default_value_t = ComparePreset::Deferred)]
    pub preset: ComparePreset,
    /// The effects on when the window opens: off, all, or labels joined
    /// with '+' (dof, bloom); the keys 1 to 4 switch them.
    #[arg(long, default_value = "all", value_name = "EFFECTS")]
    pub effects: String,
    /// Window size in pixels.
    #[arg(long, default_value = "1280x720", value_name = "WxH", value_parser = crate::args::parse_size)]
    pub size: (u32, u32),
    /// Present in HDR when the display offers it (else a logged fallback).
    #[arg(long)]
    pub hdr: bool,
}

impl CompareCli {
    /// Parses `args` (without the program name).
    ///
    /// # Errors
    /// A message naming the bad argument (or the help text for `--help`).
    pub fn parse_args(args: impl IntoIterator<Item = String>) -> anyhow::Result<Self> {
        let program = std::iter::once(String::from("presets_compare"));
        Ok(Self::try_parse_from(program.chain(args))?)
    }
}

/// Runs the sample as the command line says: the headless comparison
/// (printing a line per tile and the files written) or the window.
///
/// # Errors
/// An output directory that cannot be created or written, an unknown
/// effect, or what the engine reported.
pub fn presets_compare(cli: &CompareCli) -> anyhow::Result<()> {
    if cli.headless {
        // Fail before a minute of rendering, not after.
        create_output_dir(&cli.out)?;
        let options = CompareOptions {
            tile: cli.tile,
            frames: cli.frames,
            ..CompareOptions::default()
        };
        let comparison = run_comparison(&options, &mut |tile| {
            let t = &tile.timings;
            println!(
                "{:>12} {:<10} frame {:>7.2} ms, GPU {:>7.2} ms",
                tile.preset.label(),
                tile.effects,
                t.frame.as_secs_f64() * 1e3,
                t.gpu_total.as_secs_f64() * 1e3,
            );
        })?;
        for path in comparison.write_to(&cli.out)? {
            println!("presets_compare: wrote {}", path.display());
        }
        return Ok(());
    }
    let window = window::CompareWindow {
        preset: cli.preset,
        effects: EffectSet::parse(&cli.effects, EFFECTS)?,
        hdr: cli.hdr,
    };
    Engine::run_app(
        &window.title(),
        EngineConfig::new(cli.size.0, cli.size.1),
        window.preset_closure(),
        window,
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_has_defaults_and_rejects_bad_values() {
        let cli = CompareCli::parse_args([]).unwrap();
        assert!(!cli.headless);
        assert_eq!(cli.out, PathBuf::from("."));
        assert_eq!(cli.tile, (320, 180));
        assert_eq!(cli.preset, ComparePreset::Deferred);
        let cli = CompareCli::parse_args(
            [
                "--headless",
                "--out",
                "sheet",
                "--tile",
                "64x36",
                "--preset",
                "forward-plus",
            ]
            .map(String::from),
        )
        .unwrap();
        assert!(cli.headless);
        assert_eq!(cli.out, PathBuf::from("sheet"));
        assert_eq!(cli.tile, (64, 36));
        assert_eq!(cli.preset, ComparePreset::ForwardPlus);
        assert!(CompareCli::parse_args(["--tile", "0x9"].map(String::from)).is_err());
        assert!(CompareCli::parse_args(["--preset", "raytraced"].map(String::from)).is_err());
    }
}
