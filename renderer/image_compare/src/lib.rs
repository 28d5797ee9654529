//! Image tests: compare a rendering with a reference PNG under a tolerance,
//! writing the actual and a difference image when they differ.
//!
//! Every sample doubles as an image test through this crate; so can a game's
//! own scenes (as a dev-dependency). It is test support, not engine API: it
//! panics on a mismatch, as a test assertion does.

use std::path::{Path, PathBuf};

/// Where actual and difference images go when a comparison fails:
/// `$CARGO_TARGET_TMPDIR/taos-image-tests`, or the system temp directory.
#[must_use]
pub fn output_dir() -> PathBuf {
    let dir = std::env::var_os("CARGO_TARGET_TMPDIR")
        .map_or_else(std::env::temp_dir, PathBuf::from)
        .join("taos-image-tests");
    std::fs::create_dir_all(&dir).expect("create the image-test output directory");
    dir
}

/// How far a rendering may stray from its reference.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    /// Largest difference of one channel (0..=255) that still counts as equal.
    pub per_channel: u8,
    /// Fraction of pixels allowed to exceed `per_channel`.
    pub outlier_fraction: f64,
}

/// Compares RGBA8 `pixels` (`width` x `height`) with `{reference_dir}/{name}.png`.
///
/// With `TAOS_UPDATE_REFERENCES=1` the reference is (re)written instead. On a
/// mismatch, writes `{name}.actual.png` and `{name}.diff.png` (differences
/// amplified x8, alpha opaque) to [`output_dir`].
///
/// # Panics
/// When the images differ beyond `tolerance`, the reference is missing or
/// has another size (this is a test assertion), naming the files written.
pub fn assert_matches_reference(
    reference_dir: &Path,
    name: &str,
    width: u32,
    height: u32,
    pixels: &[u8],
    tolerance: Tolerance,
) {
    let reference_path = reference_dir.join(format!("{name}.png"));
    let actual = image::RgbaImage::from_raw(width, height, pixels.to_vec())
        .expect("pixel buffer matches the size");
    if std::env::var_os("TAOS_UPDATE_REFERENCES").is_some() {
        actual.save(&reference_path).expect("write the reference");
        return;
    }
    let reference = image::open(&reference_path)
        .unwrap_or_else(|e| {
            panic!(
                "missing reference {}: {e} (run with TAOS_UPDATE_REFERENCES=1 to create it)",
                reference_path.display()
            )
        })
        .to_rgba8();
    assert_eq!(
        reference.dimensions(),
        (width, height),
        "reference {} has another size",
        reference_path.display()
    );
    let mut diff = image::RgbaImage::new(width, height);
    let mut outliers = 0usize;
    let mut worst = 0u8;
    for (x, y, want) in reference.enumerate_pixels() {
        let got = actual.get_pixel(x, y);
        let delta: [u8; 4] = std::array::from_fn(|i| want[i].abs_diff(got[i]));
        let max = *delta.iter().max().unwrap_or(&0);
        worst = worst.max(max);
        if max > tolerance.per_channel {
            outliers += 1;
        }
        diff.put_pixel(
            x,
            y,
            image::Rgba([
                delta[0].saturating_mul(8),
                delta[1].saturating_mul(8),
                delta[2].saturating_mul(8),
                255,
            ]),
        );
    }
    let allowed = (tolerance.outlier_fraction * f64::from(width * height)).floor() as usize;
    if outliers > allowed {
        let out = output_dir();
        let actual_path = out.join(format!("{name}.actual.png"));
        let diff_path = out.join(format!("{name}.diff.png"));
        actual.save(&actual_path).expect("write the actual image");
        diff.save(&diff_path).expect("write the difference image");
        panic!(
            "{name}: {outliers} pixels differ by more than {} (allowed {allowed}, worst {worst}); \
             actual: {}, difference: {}",
            tolerance.per_channel,
            actual_path.display(),
            diff_path.display()
        );
    }
}

/// Asserts that `text` (a graph dump, a log) equals the golden file
/// `dir/name`, naming what changed. With `TAOS_UPDATE_REFERENCES=1` the
/// golden file is (re)written instead.
///
/// # Panics
/// When the golden file is missing or differs.
pub fn assert_matches_golden_text(dir: &Path, name: &str, text: &str) {
    let path = dir.join(name);
    if std::env::var_os("TAOS_UPDATE_REFERENCES").is_some() {
        std::fs::write(&path, text)
            .unwrap_or_else(|e| panic!("cannot write golden {}: {e}", path.display()));
    }
    let golden = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "missing golden {}: {e} (run with TAOS_UPDATE_REFERENCES=1 to create it)",
            path.display()
        )
    });
    assert_eq!(
        text, golden,
        "{name} changed; if on purpose, rerun with TAOS_UPDATE_REFERENCES=1"
    );
}
