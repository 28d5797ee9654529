//! Property tests: mutated bytes of a valid recording (flipped, inserted,
//! deleted, truncated, words overwritten with hostile counts) decode to a
//! recording or to a [`RecordingError`], never a panic. Every count read
//! from the file is checked against the bytes actually there before
//! anything is allocated for it, so a decoded recording never holds more
//! ticks than the input has 4-byte words, nor more events than it has
//! 10-byte runs. The mutations are checked twice: as they come (the
//! checksum refuses almost all of them) and with the checksum sealed again
//! afterwards, so the parser behind the checksum sees every mutation too.
//!
//! 256 cases per property (about a second in a debug build);
//! `TAOS_FUZZ_CASES=10000` for a deeper run (see `taos_hostile_inputs`).

use proptest::prelude::*;
use taos_core::game_loop::{
    ActionFlags, InputEvent, Key, MouseButton, PadAxis, Rate, RecordedInput, Recording,
    RecordingError, StateHasher,
};
use taos_core::prelude::Vec2;
use taos_hostile_inputs::{apply, config, mutation};

/// A small recording with every field in use and events of several sizes.
fn sample() -> Recording {
    let mut rec = Recording::new(0xDEAD_BEEF, Rate::hz(60).unwrap());
    rec.flags = (0..24).map(|i| ActionFlags(i * 0x0101_0101)).collect();
    let events = [
        InputEvent::KeyDown(Key::Space),
        InputEvent::CursorMoved(Vec2::new(12.5, -3.0)),
        InputEvent::MouseDown(MouseButton::Left),
        InputEvent::TouchStart {
            id: 9,
            at: Vec2::ONE,
        },
        InputEvent::PadAxis {
            pad: 1,
            axis: PadAxis::LeftX,
            value: -0.5,
        },
        InputEvent::Text('é'),
        InputEvent::KeyUp(Key::Space),
    ];
    rec.inputs = events
        .into_iter()
        .enumerate()
        .map(|(i, event)| RecordedInput {
            tick: 3 * i as u64,
            event,
        })
        .collect();
    rec
}

/// Rewrites the trailing checksum so that it matches the (mutated) content.
fn seal(bytes: &mut [u8]) {
    if let Some(content_end) = bytes.len().checked_sub(8) {
        let mut h = StateHasher::default();
        h.write(&bytes[..content_end]);
        bytes[content_end..].copy_from_slice(&h.finish().to_le_bytes());
    }
}

/// Decodes `bytes` and checks what came out against what went in.
fn check(bytes: &[u8]) -> Result<(), TestCaseError> {
    match Recording::from_bytes(bytes) {
        Ok(rec) => {
            prop_assert!(rec.flags.len() * 4 <= bytes.len());
            prop_assert!(rec.flags.capacity() * 4 <= bytes.len());
            prop_assert!(rec.inputs.len() * 10 <= bytes.len());
            for input in &rec.inputs {
                prop_assert!(input.tick < rec.flags.len() as u64);
            }
            // The current format has one encoding per recording: it writes
            // back bit for bit (format 1 files are upgraded, so skip them).
            if bytes.get(8..12) == Some(&2u32.to_le_bytes()[..]) {
                prop_assert_eq!(rec.to_bytes(), bytes);
            }
        }
        Err(
            RecordingError::BadMagic
            | RecordingError::UnsupportedFormat { .. }
            | RecordingError::Truncated { .. }
            | RecordingError::Corrupt { .. }
            | RecordingError::Invalid { .. },
        ) => {}
        Err(other) => prop_assert!(false, "unexpected error for bytes: {other}"),
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn mutated_recordings_never_panic(
        mutations in proptest::collection::vec(mutation(sample().to_bytes().len()), 1..4),
    ) {
        let bytes = apply(&sample().to_bytes(), &mutations);
        check(&bytes)?;
    }

    #[test]
    fn mutated_recordings_with_a_valid_checksum_never_panic(
        mutations in proptest::collection::vec(mutation(sample().to_bytes().len()), 1..4),
    ) {
        let mut bytes = apply(&sample().to_bytes(), &mutations);
        seal(&mut bytes);
        check(&bytes)?;
    }
}

/// Offset of the tick count: magic, format, seed, rate, version length and text.
fn tick_count_at(rec: &Recording) -> usize {
    8 + 4 + 8 + 4 + 2 + rec.engine_version.len()
}

#[test]
fn bytes_after_the_checksum_are_refused() {
    let mut bytes = sample().to_bytes();
    bytes.extend_from_slice(&[7; 9]);
    assert!(matches!(
        Recording::from_bytes(&bytes),
        Err(RecordingError::Invalid {
            field: "bytes after the checksum"
        })
    ));
}

#[test]
fn the_sample_round_trips() {
    let rec = sample();
    let bytes = rec.to_bytes();
    assert_eq!(Recording::from_bytes(&bytes).unwrap(), rec);
    let at = tick_count_at(&rec);
    assert_eq!(bytes[at..at + 8], 24u64.to_le_bytes());
}

#[test]
fn hostile_counts_are_refused_before_allocating() {
    let rec = sample();
    let ticks_at = tick_count_at(&rec);
    let events_at = ticks_at + 8 + 4 * rec.flags.len();
    let hostile = [
        u64::from(u32::MAX),
        u64::MAX,
        u64::MAX / 4,
        u64::MAX / 4 + 1,
        1 << 40,
    ];
    for (what, at) in [("tick count", ticks_at), ("event count", events_at)] {
        for count in hostile {
            for sealed in [false, true] {
                let mut bytes = rec.to_bytes();
                bytes[at..at + 8].copy_from_slice(&count.to_le_bytes());
                if sealed {
                    seal(&mut bytes);
                }
                let result = Recording::from_bytes(&bytes);
                assert!(
                    matches!(
                        result,
                        Err(RecordingError::Truncated { .. }
                            | RecordingError::Invalid { .. }
                            | RecordingError::Corrupt { .. })
                    ),
                    "{what} {count} (sealed: {sealed}): {result:?}"
                );
            }
        }
    }
    // The 32-bit hostile value as the low word of the tick count, and the
    // version length at its largest.
    let mut bytes = rec.to_bytes();
    bytes[ticks_at..ticks_at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    seal(&mut bytes);
    assert!(Recording::from_bytes(&bytes).is_err());
    let mut bytes = rec.to_bytes();
    bytes[24..26].copy_from_slice(&u16::MAX.to_le_bytes());
    seal(&mut bytes);
    assert!(matches!(
        Recording::from_bytes(&bytes),
        Err(RecordingError::Truncated { .. } | RecordingError::Invalid { .. })
    ));
}
