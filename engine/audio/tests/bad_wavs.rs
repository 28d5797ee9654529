//! WAV headers that lie: each is refused at decode time with a clear error,
//! and no clip that decodes panics when asked its length.

mod support;

use support::{at, wav, with_u16, with_u32};
use taos_audio::{AudioClip, AudioError, WavError};

fn good() -> Vec<u8> {
    wav(8_000, 1, &[0, 1_000, -1_000, 2_000, -2_000, 0])
}

/// The header problem `bytes` are refused for.
#[track_caller]
fn refused(bytes: Vec<u8>) -> WavError {
    match AudioClip::from_bytes(bytes) {
        Ok(clip) => panic!("decoded a bad WAV, {:?} long", clip.duration()),
        Err(AudioError::Wav { origin, problem }) => {
            assert_eq!(origin, "<bytes>");
            problem
        }
        Err(other) => panic!("not a WAV header error: {other}"),
    }
}

#[test]
fn the_test_wav_itself_decodes() {
    let clip = AudioClip::from_bytes(good()).unwrap();
    assert_eq!(clip.frame_count(), 6);
    assert_eq!(clip.sample_rate(), 8_000);
}

#[test]
fn a_zero_sample_rate_is_refused() {
    let problem = refused(with_u32(good(), at::SAMPLE_RATE, 0));
    assert_eq!(problem, WavError::ZeroSampleRate);
    assert_eq!(problem.to_string(), "the sample rate is 0");
}

#[test]
fn an_absurd_sample_rate_is_refused() {
    assert_eq!(
        refused(with_u32(good(), at::SAMPLE_RATE, u32::MAX)),
        WavError::SampleRateTooHigh(u32::MAX)
    );
}

#[test]
fn zero_or_too_many_channels_are_refused() {
    assert_eq!(
        refused(with_u16(good(), at::CHANNELS, 0)),
        WavError::Channels(0)
    );
    assert_eq!(
        refused(with_u16(good(), at::CHANNELS, 7)),
        WavError::Channels(7)
    );
}

#[test]
fn absurd_bits_per_sample_are_refused() {
    for bits in [0, 12, 12_345] {
        assert_eq!(
            refused(with_u16(good(), at::BITS, bits)),
            WavError::BitsPerSample { format: 1, bits }
        );
    }
}

#[test]
fn a_block_align_that_does_not_match_the_samples_is_refused() {
    for claimed in [0, 3] {
        assert_eq!(
            refused(with_u16(good(), at::BLOCK_ALIGN, claimed)),
            WavError::BlockAlign {
                claimed,
                expected: 2
            }
        );
    }
}

#[test]
fn chunks_claiming_more_bytes_than_the_input_holds_are_refused() {
    let too_long = |offset, claimed| match refused(with_u32(good(), offset, claimed)) {
        WavError::ChunkTooLong {
            chunk, claimed: c, ..
        } if c == claimed => chunk,
        other => panic!("{other}"),
    };
    assert_eq!(too_long(at::DATA_SIZE, 4_000_000_000), "data");
    assert_eq!(too_long(at::DATA_SIZE, 13), "data");
    assert_eq!(too_long(at::LIST_SIZE, u32::MAX), "LIST");
    assert_eq!(too_long(at::INAM_SIZE, 4_000_000_000), "INAM");
    assert_eq!(too_long(at::FMT_SIZE, u32::MAX), "fmt ");
    let error = AudioClip::from_bytes(with_u32(good(), at::DATA_SIZE, 4_000_000_000)).unwrap_err();
    assert_eq!(
        error.to_string(),
        "bad WAV <bytes>: the \"data\" chunk claims 4000000000 bytes but only 12 follow"
    );
}

#[test]
fn an_unknown_riff_length_does_not_let_a_chunk_claim_gigabytes() {
    // ffmpeg writes u32::MAX as the RIFF size when it streams: the decoder then
    // has no parent bound, so the INFO entry's 4 GB must be caught up front.
    let streamed = with_u32(good(), at::RIFF_SIZE, u32::MAX);
    let list = with_u32(streamed, at::LIST_SIZE, u32::MAX - 8);
    assert!(matches!(
        refused(with_u32(list, at::INAM_SIZE, 4_000_000_000)),
        WavError::ChunkTooLong { .. }
    ));
}

#[test]
fn a_data_chunk_before_the_format_is_refused() {
    let mut bytes = b"RIFF\0\0\0\0WAVEdata\x02\0\0\0\0\0".to_vec();
    bytes = with_u32(bytes, at::RIFF_SIZE, 14);
    assert_eq!(refused(bytes), WavError::NoFormat);
}

#[test]
fn junk_before_the_wav_does_not_hide_its_header() {
    // The decoder skips leading junk to find the RIFF marker; so does the check.
    let mut bytes = vec![0, 0, 0];
    bytes.extend(with_u32(good(), at::SAMPLE_RATE, 0));
    assert_eq!(refused(bytes), WavError::ZeroSampleRate);
}
