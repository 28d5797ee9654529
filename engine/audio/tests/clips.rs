//! Loading clips: WAV files and bytes, and clear errors for bad input.

use taos_audio::{AudioClip, AudioError};

/// A 16-bit PCM WAV file of `samples` at `rate`, written by hand.
fn wav(rate: u32, channels: u16, samples: &[i16]) -> Vec<u8> {
    let data_len = (samples.len() * 2) as u32;
    let mut out = Vec::new();
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data_len).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&channels.to_le_bytes());
    out.extend_from_slice(&rate.to_le_bytes());
    out.extend_from_slice(&(rate * u32::from(channels) * 2).to_le_bytes());
    out.extend_from_slice(&(channels * 2).to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_len.to_le_bytes());
    for s in samples {
        out.extend_from_slice(&s.to_le_bytes());
    }
    out
}

#[test]
fn a_wav_file_decodes_with_its_rate_and_length() {
    let samples: Vec<i16> = (0..22_050)
        .map(|i| ((i as f32 * 0.05).sin() * 12_000.0) as i16)
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hum.wav");
    std::fs::write(&path, wav(22_050, 1, &samples)).unwrap();
    let clip = AudioClip::from_file(&path).unwrap();
    assert_eq!(clip.sample_rate(), 22_050);
    assert_eq!(clip.frame_count(), 22_050);
    assert!((clip.duration().as_secs_f32() - 1.0).abs() < 1e-3);

    let stereo = AudioClip::from_bytes(wav(8_000, 2, &[0, 0, 100, -100, 200, -200])).unwrap();
    assert_eq!(stereo.frame_count(), 3);
}

#[test]
fn bad_input_is_a_clear_error() {
    let missing = AudioClip::from_file("/no/such/sound.ogg").unwrap_err();
    assert!(matches!(missing, AudioError::Read { .. }), "{missing}");
    assert!(missing.to_string().contains("/no/such/sound.ogg"));

    let garbage = AudioClip::from_bytes(b"definitely not a sound file".to_vec()).unwrap_err();
    assert!(matches!(garbage, AudioError::Decode { .. }), "{garbage}");

    let mut truncated = wav(8_000, 1, &[1, 2, 3, 4]);
    truncated.truncate(20);
    assert!(AudioClip::from_bytes(truncated).is_err());

    assert!(matches!(
        AudioClip::from_mono(0, &[0.0]),
        Err(AudioError::Samples(_))
    ));
    assert!(matches!(
        AudioClip::from_mono(8_000, &[]),
        Err(AudioError::Samples(_))
    ));
    let sanitized = AudioClip::from_stereo(8_000, &[[f32::NAN, 2.0]]).unwrap();
    assert_eq!(sanitized.frame_count(), 1);
}

#[test]
fn an_ogg_vorbis_file_decodes() {
    // Made here with libsndfile: 0.5 s of a 330 Hz tone at 22,050 Hz, the right
    // channel at a quarter of the left's amplitude.
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/tone_330hz_0.5s.ogg"
    );
    let clip = AudioClip::from_file(path).unwrap();
    assert_eq!(clip.sample_rate(), 22_050);
    assert!((clip.duration().as_secs_f32() - 0.5).abs() < 0.01);

    let mut audio = taos_audio::Audio::new(taos_audio::AudioOutput::Buffer {
        sample_rate: 22_050,
    });
    audio.play_ui(&clip, 1.0);
    let (left, right) = taos_audio::channel_rms(&audio.mix(8_000).unwrap());
    assert!(left > 0.2, "{left}");
    assert!((right / left - 0.25).abs() < 0.02, "{left} {right}");
}
