//! Property test: damaged KTX2 files (bytes set, bits flipped, counts and
//! lengths overwritten, cut short) transcode or fail with an error, never
//! panic or allocate without bound; and a damaged `TextureData::to_bytes`
//! reads back or fails the same way. No GPU: the transcodes are made for
//! devices with every compressed format, ETC2 only, ASTC only, and none.
//! 256 cases per property, or `TAOS_FUZZ_CASES` (see `taos_hostile_inputs`).

use proptest::prelude::*;
use taos_hostile_inputs::{apply, mutation};
use taos_renderer::resources::{ColorSpace, Ktx2Info, TexelFormat, TextureData};
use taos_renderer::wgpu::Features;

/// The fixtures, read once.
fn seeds() -> &'static [Vec<u8>] {
    static SEEDS: std::sync::OnceLock<Vec<Vec<u8>>> = std::sync::OnceLock::new();
    SEEDS.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
        [
            "uastc_64_mips.ktx2",
            "uastc_30x20.ktx2",
            "etc1s_64_mips.ktx2",
            "etc1s_30x20_mips.ktx2",
        ]
        .iter()
        .map(|name| std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}")))
        .collect()
    })
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: taos_hostile_inputs::cases(256),
        ..taos_hostile_inputs::config()
    }
}

/// Devices with every compressed format (BC7 wins), with ETC2 only, with
/// ASTC only, and with none (RGBA8): every transcode target.
const DEVICES: [Features; 4] = [
    Features::TEXTURE_COMPRESSION_BC
        .union(Features::TEXTURE_COMPRESSION_ETC2)
        .union(Features::TEXTURE_COMPRESSION_ASTC),
    Features::TEXTURE_COMPRESSION_ETC2,
    Features::TEXTURE_COMPRESSION_ASTC,
    Features::empty(),
];

proptest! {
    #![proptest_config(config())]

    #[test]
    fn damaged_ktx2_is_an_error_not_a_panic(
        seed in 0..4usize,
        mutations in proptest::collection::vec(mutation(5000), 1..4),
        cut in proptest::option::of(0..5000usize),
    ) {
        let mut bytes = apply(&seeds()[seed], &mutations);
        if let Some(cut) = cut {
            bytes.truncate(cut);
        }
        for features in DEVICES {
            if let Ok(data) = TextureData::from_ktx2("fuzz.ktx2", &bytes, features, None) {
                // Whatever loads is consistent: it serializes and reads back.
                prop_assert_eq!(TextureData::from_bytes(&data.to_bytes()), Ok(data));
            }
        }
    }

    #[test]
    fn damaged_texture_bytes_are_an_error_not_a_panic(
        mutations in proptest::collection::vec(mutation(600), 1..4),
    ) {
        let image = image::RgbaImage::from_fn(8, 6, |x, y| image::Rgba([x as u8 * 30, y as u8 * 40, 7, 255]));
        let seed = TextureData::rgba8_with_cpu_mips(&image, ColorSpace::Srgb)
            .map_err(|e| TestCaseError::fail(e.to_string()))?
            .to_bytes();
        let _ = TextureData::from_bytes(&apply(&seed, &mutations));
    }
}

#[test]
fn every_fixture_loads_and_every_cut_fails() {
    for seed in seeds() {
        for features in DEVICES {
            let data =
                TextureData::from_ktx2("seed", seed, features, None).expect("a fixture loads");
            let (width, height) = data.size();
            let codec = Ktx2Info::parse(seed).expect("a fixture parses").codec;
            assert_eq!(
                data.format(),
                TexelFormat::for_basis(features, codec, width, height)
            );
        }
        // Every truncation is refused (the levels are at the end of the file).
        for cut in (0..seed.len()).step_by(7) {
            assert!(
                TextureData::from_ktx2("cut", &seed[..cut], Features::empty(), None).is_err(),
                "cut at {cut}"
            );
        }
    }
}
