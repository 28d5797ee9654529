//! Property tests: mutated bytes of a real 160×90 thumbnail, and JPEG
//! headers that claim sizes up to 65535×65535, never make
//! `decode_thumbnail` panic, and whatever it decodes is at most
//! `MAX_THUMBNAIL_SIZE` each way (a header claiming more is refused before
//! any pixel is decoded).
//!
//! 256 cases per property (a few seconds in a debug build);
//! `TAOS_FUZZ_CASES=10000` for a deeper run (see `taos_hostile_inputs`).

use std::sync::OnceLock;

use crafty_sim::save::{
    MAX_THUMBNAIL_SIZE, SaveError, THUMBNAIL_HEIGHT, THUMBNAIL_WIDTH, decode_thumbnail,
    encode_thumbnail,
};
use proptest::prelude::*;
use taos_hostile_inputs::{apply, config, mutation};

/// A thumbnail as crafty writes it: a 320×180 gradient frame shrunk to 160×90.
fn thumbnail() -> &'static [u8] {
    static JPEG: OnceLock<Vec<u8>> = OnceLock::new();
    JPEG.get_or_init(|| {
        let (w, h) = (320u32, 180u32);
        let mut rgba = Vec::with_capacity((w * h * 4) as usize);
        for y in 0..h {
            for x in 0..w {
                rgba.extend_from_slice(&[x as u8, y as u8, (x ^ y) as u8, 255]);
            }
        }
        encode_thumbnail(&rgba, w, h).unwrap()
    })
}

/// Offset of the frame header's height field (after the SOFn marker, its
/// length and the sample precision).
fn size_at(jpeg: &[u8]) -> usize {
    let sof = jpeg
        .windows(2)
        .position(|m| m[0] == 0xFF && matches!(m[1], 0xC0..=0xC2))
        .expect("a frame header");
    sof + 5
}

/// `jpeg` with its frame header claiming `width`×`height`.
fn claiming(jpeg: &[u8], width: u16, height: u16) -> Vec<u8> {
    let mut out = jpeg.to_vec();
    let at = size_at(&out);
    out[at..at + 2].copy_from_slice(&height.to_be_bytes());
    out[at + 2..at + 4].copy_from_slice(&width.to_be_bytes());
    out
}

fn check(jpeg: &[u8]) -> Result<(), TestCaseError> {
    match decode_thumbnail(jpeg) {
        Ok(image) => {
            let (w, h) = MAX_THUMBNAIL_SIZE;
            prop_assert!(image.width() <= w && image.height() <= h);
            prop_assert!(image.width() > 0 && image.height() > 0);
        }
        Err(SaveError::Image(_) | SaveError::ThumbnailTooLarge { .. }) => {}
        Err(other) => prop_assert!(false, "unexpected error: {other}"),
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn a_mutated_thumbnail_never_panics_or_decodes_too_large(
        mutations in proptest::collection::vec(mutation(thumbnail().len()), 1..4),
    ) {
        check(&apply(thumbnail(), &mutations))?;
    }

    #[test]
    fn a_header_claiming_any_size_never_panics_or_decodes_too_large(
        width in prop_oneof![Just(u16::MAX), Just(0u16), 1u16..400, any::<u16>()],
        height in prop_oneof![Just(u16::MAX), Just(0u16), 1u16..200, any::<u16>()],
        mutations in proptest::collection::vec(mutation(thumbnail().len()), 0..2),
    ) {
        let jpeg = apply(&claiming(thumbnail(), width, height), &mutations);
        let (max_w, max_h) = MAX_THUMBNAIL_SIZE;
        let result = decode_thumbnail(&jpeg);
        // A zero side is refused by the JPEG reader itself, before the size check.
        let too_large = u32::from(width) > max_w || u32::from(height) > max_h;
        if mutations.is_empty() && too_large && width > 0 && height > 0 {
            let refused = matches!(
                result,
                Err(SaveError::ThumbnailTooLarge { width: w, height: h })
                    if w == u32::from(width) && h == u32::from(height)
            );
            prop_assert!(refused, "{}x{}: {:?}", width, height, result.map(|i| i.dimensions()));
        }
        check(&jpeg)?;
    }
}

#[test]
fn the_thumbnail_decodes_at_its_size() {
    let image = decode_thumbnail(thumbnail()).unwrap();
    assert_eq!(image.dimensions(), (THUMBNAIL_WIDTH, THUMBNAIL_HEIGHT));
    let at = size_at(thumbnail());
    assert_eq!(thumbnail()[at..at + 4], [0, 90, 0, 160]);
}

#[test]
fn headers_claiming_huge_sizes_are_refused() {
    for (w, h) in [
        (u16::MAX, u16::MAX),
        (u16::MAX, 90),
        (160, u16::MAX),
        (321, 90),
        (160, 181),
    ] {
        let error = decode_thumbnail(&claiming(thumbnail(), w, h)).unwrap_err();
        assert!(
            matches!(
                error,
                SaveError::ThumbnailTooLarge { width, height }
                    if width == u32::from(w) && height == u32::from(h)
            ),
            "{w}x{h}: {error}"
        );
    }
}
