//! Property test: mutated bytes of a small valid WAV decode or fail with an
//! error, never panic, and never decode more frames than the input has bytes.
//! Any chunk size larger than the whole input is refused before the decoder
//! allocates for it. 256 cases per property (well under a second);
//! `TAOS_FUZZ_CASES=100000` for a deeper local run (see `taos_hostile_inputs`).

mod support;

use proptest::prelude::*;
use support::{at, wav, with_u16, with_u32};
use taos_audio::{AudioClip, AudioError, MAX_SAMPLE_RATE, WavError};
use taos_hostile_inputs::{apply, config, mutation};

fn seed() -> Vec<u8> {
    wav(
        8_000,
        2,
        &[0, 0, 1_000, -1_000, 2_000, -2_000, 3_000, -3_000],
    )
}

/// What any clip that decodes from `len` bytes must satisfy.
fn check_decoded(clip: &AudioClip, len: usize) {
    assert!((1..=MAX_SAMPLE_RATE).contains(&clip.sample_rate()));
    assert!(
        clip.frame_count() <= len,
        "{} frames from {len} bytes",
        clip.frame_count()
    );
    let _ = clip.duration();
}

/// The header fields of the seed, as offsets and widths (2 or 4 bytes).
const FIELDS: [(usize, usize); 11] = [
    (at::RIFF_SIZE, 4),
    (at::FMT_SIZE, 4),
    (at::FORMAT, 2),
    (at::CHANNELS, 2),
    (at::SAMPLE_RATE, 4),
    (at::BYTE_RATE, 4),
    (at::BLOCK_ALIGN, 2),
    (at::BITS, 2),
    (at::LIST_SIZE, 4),
    (at::INAM_SIZE, 4),
    (at::DATA_SIZE, 4),
];

/// Chunk sizes: a value beyond the input must be refused.
const SIZES: [usize; 4] = [at::FMT_SIZE, at::LIST_SIZE, at::INAM_SIZE, at::DATA_SIZE];

proptest! {
    #![proptest_config(config())]

    #[test]
    fn mutated_wavs_decode_or_fail_cleanly(
        mutations in prop::collection::vec(mutation(seed().len()), 1..6),
    ) {
        let bytes = apply(&seed(), &mutations);
        let len = bytes.len();
        if let Ok(clip) = AudioClip::from_bytes(bytes) {
            check_decoded(&clip, len);
        }
    }

    #[test]
    fn one_lying_header_field_is_refused_or_harmless(
        field in prop::sample::select(FIELDS.to_vec()),
        value in prop_oneof![Just(0u32), Just(u32::MAX), 0u32..300, any::<u32>()],
        riff_unknown in any::<bool>(),
    ) {
        let (offset, width) = field;
        let mut bytes = if width == 2 {
            with_u16(seed(), offset, value as u16)
        } else {
            with_u32(seed(), offset, value)
        };
        if riff_unknown {
            // ffmpeg's "length unknown" RIFF size: no parent bound on chunks.
            bytes = with_u32(bytes, at::RIFF_SIZE, u32::MAX);
        }
        let len = bytes.len();
        let result = AudioClip::from_bytes(bytes);
        if SIZES.contains(&offset) && value as usize > len {
            let refused_up_front = matches!(
                result,
                Err(AudioError::Wav { problem: WavError::ChunkTooLong { .. }, .. })
            );
            prop_assert!(refused_up_front, "a chunk of {value} bytes in {len}: {result:?}");
        }
        if let Ok(clip) = result {
            check_decoded(&clip, len);
        }
    }
}
