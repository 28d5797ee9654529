//! `presets_compare` as an image test (its contact sheet, rendered headless
//! on a real adapter), and its command line writing both files.

use std::path::Path;
use std::process::Command;

use taos_image_compare::{Tolerance, assert_matches_reference};
use taos_samples::{
    CompareOptions, ComparePreset, Comparison, EFFECTS, EffectSet, SHEET_FILE, TIMINGS_FILE,
    effect_sets, run_comparison,
};

/// Mean absolute difference per channel between two images of one size.
fn mean_difference(a: &image::RgbaImage, b: &image::RgbaImage) -> f64 {
    let total: u64 = a
        .as_raw()
        .iter()
        .zip(b.as_raw())
        .map(|(x, y)| u64::from(x.abs_diff(*y)))
        .sum();
    total as f64 / a.as_raw().len() as f64
}

/// Root-mean-square luminance step between horizontal neighbours.
fn edge_contrast(image: &image::RgbaImage) -> f64 {
    let luminance = |x: u32, y: u32| {
        let p = image.get_pixel(x, y);
        0.2126 * f64::from(p[0]) + 0.7152 * f64::from(p[1]) + 0.0722 * f64::from(p[2])
    };
    let mut sum = 0.0;
    let mut count = 0.0;
    for y in 0..image.height() {
        for x in 1..image.width() {
            let step = luminance(x, y) - luminance(x - 1, y);
            sum += step * step;
            count += 1.0;
        }
    }
    (sum / count).sqrt()
}

fn image_of<'a>(
    comparison: &'a Comparison,
    preset: ComparePreset,
    effects: &str,
) -> &'a image::RgbaImage {
    &comparison
        .tile(preset, effects)
        .unwrap_or_else(|| panic!("a {effects} tile for {preset:?}"))
        .image
}

#[test]
fn presets_compare_matches_its_reference_and_each_effect_shows() {
    let options = CompareOptions {
        tile: (160, 90),
        warmup_frames: 1,
        frames: 2,
    };
    let comparison = run_comparison(&options, &mut |_| {})
        .unwrap_or_else(|e| panic!("GPU tests need an adapter: {e:#}"));
    let columns: Vec<_> = effect_sets(EFFECTS).iter().map(EffectSet::label).collect();
    assert_eq!(comparison.effect_sets, columns);
    assert_eq!(comparison.tiles.len(), 3 * columns.len());
    // The column with every effect on.
    let all = EffectSet::all(EFFECTS).label();
    assert_eq!(all, "all");

    for preset in ComparePreset::ALL {
        let off = image_of(&comparison, preset, "off");
        // Each effect softens the picture: the RMS step between neighbouring
        // pixels falls. Measured on lavapipe at 160 x 90 (forward and
        // forward-plus alike; deferred in brackets): off 10.4 (11.7), depth
        // of field 9.5 (10.8, 0.92 of off), bloom 6.6 (7.3, 0.63), both 6.1
        // (6.8). The bounds leave room for other drivers.
        let contrast = |effects| edge_contrast(image_of(&comparison, preset, effects));
        let off_contrast = edge_contrast(off);
        assert!(contrast("dof") < 0.96 * off_contrast, "{preset:?} dof");
        assert!(contrast("bloom") < 0.75 * off_contrast, "{preset:?} bloom");
        assert!(contrast(&all) < contrast("bloom"), "{preset:?} {all}");
        // TAA averages jittered frames: its edges are softer than one frame's.
        assert!(contrast("taa") < off_contrast, "{preset:?} taa");
        // MSAA: the forward presets resolve partly covered edge pixels;
        // deferred's G-buffer is single-sampled, so it ignores the option
        // and its tile is the plain one.
        let msaa = image_of(&comparison, preset, "msaa");
        if preset == ComparePreset::Deferred {
            assert!(mean_difference(msaa, off) < 0.01, "deferred msaa");
        } else {
            assert!(contrast("msaa") < off_contrast, "{preset:?} msaa");
            assert!(mean_difference(msaa, off) > 0.01, "{preset:?} msaa");
        }
        // Every tile was measured for the frames asked.
        for tile in comparison.tiles.iter().filter(|t| t.preset == preset) {
            assert_eq!(tile.timings.frames, 2);
            assert!(tile.timings.frame > tile.timings.cpu_record);
        }
    }
    // The presets differ too: the deferred path adds SSAO.
    let forward = image_of(&comparison, ComparePreset::Forward, "off");
    let deferred = image_of(&comparison, ComparePreset::Deferred, "off");
    // Measured: 1.6 steps per channel on average.
    assert!(mean_difference(forward, deferred) > 1.0);

    // Where the adapter times passes, the depth-of-field gather ran only in
    // the columns with depth of field, and bloom's composite only with bloom.
    let table = comparison.timings_markdown();
    let timed = comparison.tiles.iter().all(|t| t.timings.gpu_frames > 0);
    if timed {
        for preset in ComparePreset::ALL {
            let tile = |effects| comparison.tile(preset, effects).unwrap();
            let has = |effects, pass: &str| {
                tile(effects)
                    .timings
                    .gpu_passes
                    .iter()
                    .any(|(name, _)| *name == pass)
            };
            assert!(!has("off", "dof gather") && has("dof", "dof gather"));
            assert!(!has("dof", "bloom composite") && has("bloom", "bloom composite"));
            assert!(has(&all, "dof gather") && has(&all, "bloom composite"));
            assert!(!has("off", "taa resolve") && has("taa", "taa resolve"));
            let msaa_resolves = preset != ComparePreset::Deferred;
            assert!(!has("off", "msaa resolve"));
            assert_eq!(has("msaa", "msaa resolve"), msaa_resolves, "{preset:?}");
        }
        assert!(table.contains("| GPU `dof gather` | - |"), "{table}");
    }
    for preset in ["### forward\n", "### forward-plus\n", "### deferred\n"] {
        assert!(table.contains(preset), "{table}");
    }

    let sheet = comparison.contact_sheet();
    // Lavapipe made the reference; other drivers differ on silhouettes and
    // on the precision of pow/sqrt, as in the showcase's test: 3 steps per
    // channel, 2% of pixels.
    let tolerance = Tolerance {
        per_channel: 3,
        outlier_fraction: 0.02,
    };
    let reference = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference");
    assert_matches_reference(
        &reference,
        "presets_compare",
        sheet.width(),
        sheet.height(),
        sheet.as_raw(),
        tolerance,
    );
}

#[test]
fn headless_writes_the_sheet_and_the_table_into_the_directory() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("new/compare");
    let run = Command::new(env!("CARGO_BIN_EXE_presets_compare"))
        .args(["--headless", "--tile", "48x27", "--frames", "1", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let sheet = image::open(out.join(SHEET_FILE)).unwrap().to_rgba8();
    // A column of 48 pixels per effect set, a row of 27 per preset, plus
    // labels and gaps.
    let columns = effect_sets(EFFECTS).len() as u32;
    assert!(sheet.width() > columns * 48 && sheet.height() > 3 * 27);
    let table = std::fs::read_to_string(out.join(TIMINGS_FILE)).unwrap();
    assert!(table.contains("48 x 27 tiles"), "{table}");
    let columns: Vec<_> = effect_sets(EFFECTS).iter().map(EffectSet::label).collect();
    let header = format!("| | {} |", columns.join(" | "));
    assert_eq!(table.matches(&header).count(), 3, "{table}");
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(stdout.contains("wrote"), "{stdout}");
}

#[test]
fn an_output_directory_that_cannot_be_made_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "not a directory").unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_presets_compare"))
        .args(["--headless", "--out"])
        .arg(file.join("sub"))
        .output()
        .unwrap();
    assert!(!run.status.success());
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("cannot create the output directory") && stderr.contains("a-file"),
        "{stderr}"
    );
    // It failed before rendering anything.
    assert!(
        run.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&run.stdout)
    );
}
