//! The mix, rendered to a buffer (no audio device): panning, distance
//! attenuation per the curve, time scale 0, sources following transforms.

use glam::Vec3;
use taos_audio::{
    Attenuation, Audio, AudioBus, AudioClip, AudioListener, AudioOutput, AudioSource, channel_rms,
    synth,
};
use taos_core::{GameObject, Scene};

const RATE: u32 = 48_000;

fn hum() -> AudioClip {
    AudioClip::from_mono(RATE, &synth::tone(220.0, 1.0, RATE)).unwrap()
}

/// A scene with a listener at the origin looking down -Z (right ear +X).
fn scene_with_listener() -> Scene {
    let mut scene = Scene::new();
    let ears = scene.spawn("Ears");
    scene.add_component(ears, AudioListener).unwrap();
    scene
}

fn emitter(scene: &mut Scene, at: Vec3, source: AudioSource) -> GameObject {
    let object = scene.spawn("Emitter");
    scene.object_mut(object).unwrap().set_position(at);
    scene.add_component(object, source).unwrap();
    object
}

/// Mixes 0.1 s after letting 20 ms of parameter tweens settle.
fn settled_rms(audio: &mut Audio) -> (f32, f32) {
    audio.mix(RATE as usize / 50).unwrap();
    channel_rms(&audio.mix(RATE as usize / 10).unwrap())
}

#[test]
fn an_emitter_on_the_right_is_louder_in_the_right_channel() {
    for side in [1.0f32, -1.0] {
        let mut scene = scene_with_listener();
        emitter(
            &mut scene,
            Vec3::new(3.0 * side, 0.0, 0.0),
            AudioSource::new(hum()).looping(true),
        );
        let mut audio = Audio::new(AudioOutput::Buffer { sample_rate: RATE });
        audio.update(&mut scene);
        let (left, right) = settled_rms(&mut audio);
        assert!(left > 0.0 && right > 0.0, "{left} {right}");
        if side > 0.0 {
            assert!(right > 2.0 * left, "right emitter: L {left} R {right}");
        } else {
            assert!(left > 2.0 * right, "left emitter: L {left} R {right}");
        }
    }
}

#[test]
fn the_listener_rotation_turns_the_ears() {
    // Listener turned 90 degrees left (looking down -X, right ear towards -Z):
    // an emitter at +Z is on its left.
    let mut scene = Scene::new();
    let ears = scene.spawn("Ears");
    scene.add_component(ears, AudioListener).unwrap();
    scene
        .object_mut(ears)
        .unwrap()
        .set_rotation(glam::Quat::from_rotation_y(std::f32::consts::FRAC_PI_2));
    emitter(
        &mut scene,
        Vec3::new(0.0, 0.0, 3.0),
        AudioSource::new(hum()).looping(true),
    );
    let mut audio = Audio::new(AudioOutput::Buffer { sample_rate: RATE });
    audio.update(&mut scene);
    let (left, right) = settled_rms(&mut audio);
    assert!(
        left > 2.0 * right,
        "+Z is on the left of a listener facing -X: L {left} R {right}"
    );
}

fn rms_at(distance: f32, curve: Attenuation) -> f32 {
    let mut scene = scene_with_listener();
    let source = AudioSource::new(hum())
        .looping(true)
        .distances(1.0, 16.0)
        .attenuation(curve);
    let mut source = source;
    source.pan_strength = 0.0;
    emitter(&mut scene, Vec3::new(0.0, 0.0, -distance), source);
    let mut audio = Audio::new(AudioOutput::Buffer { sample_rate: RATE });
    audio.update(&mut scene);
    settled_rms(&mut audio).0
}

#[test]
fn gain_falls_with_distance_per_the_curve() {
    for curve in [
        Attenuation::Linear,
        Attenuation::Inverse { rolloff: 1.0 },
        Attenuation::Exponential { rolloff: 2.0 },
    ] {
        let reference = rms_at(0.5, curve);
        assert!(
            reference > 0.1,
            "{curve:?}: full volume inside min distance"
        );
        let mut previous = reference;
        for distance in [2.0f32, 4.0, 8.0, 12.0] {
            let level = rms_at(distance, curve);
            let expected = curve.gain(distance, 1.0, 16.0);
            let measured = level / reference;
            // kira's -60 dB floor silences gains under 0.001.
            if expected > 0.002 {
                assert!(
                    (measured - expected).abs() < 0.02 * expected.max(0.05),
                    "{curve:?} at {distance} m: measured {measured}, curve {expected}"
                );
            }
            assert!(level < previous, "{curve:?}: quieter at {distance} m");
            previous = level;
        }
    }
    assert_eq!(
        rms_at(20.0, Attenuation::Linear),
        0.0,
        "linear: silent past max"
    );
}

#[test]
fn time_scale_zero_silences_game_sounds_but_not_ui_sounds() {
    let mut scene = scene_with_listener();
    emitter(
        &mut scene,
        Vec3::new(0.0, 0.0, -2.0),
        AudioSource::new(hum()).looping(true),
    );
    let mut audio = Audio::new(AudioOutput::Buffer { sample_rate: RATE });
    audio.update(&mut scene);
    let playing = settled_rms(&mut audio);
    assert!(playing.0 > 0.05);

    scene.time_mut().set_scale(0.0).unwrap();
    audio.update(&mut scene);
    assert_eq!(settled_rms(&mut audio), (0.0, 0.0), "game bus paused");

    let menu = emitter(
        &mut scene,
        Vec3::ZERO,
        AudioSource::new(hum())
            .looping(true)
            .bus(AudioBus::Ui)
            .spatial(false),
    );
    audio.update(&mut scene);
    let ui_only = settled_rms(&mut audio);
    assert!(
        ui_only.0 > 0.05,
        "UI sounds play while time is stopped: {ui_only:?}"
    );

    scene.remove(menu).unwrap();
    scene.time_mut().set_scale(1.0).unwrap();
    audio.update(&mut scene);
    let resumed = settled_rms(&mut audio);
    assert!(
        (resumed.0 - playing.0).abs() < 0.05 * playing.0,
        "resumes at the same level: {resumed:?} vs {playing:?}"
    );
}

#[test]
fn sources_follow_their_objects_and_stop_when_despawned() {
    let mut scene = scene_with_listener();
    let bee = emitter(
        &mut scene,
        Vec3::new(4.0, 0.0, 0.0),
        AudioSource::new(hum()).looping(true),
    );
    let mut audio = Audio::new(AudioOutput::Buffer { sample_rate: RATE });
    audio.update(&mut scene);
    let (left, right) = settled_rms(&mut audio);
    assert!(right > left);

    scene
        .object_mut(bee)
        .unwrap()
        .set_position(Vec3::new(-4.0, 0.0, 0.0));
    audio.update(&mut scene);
    let (left, right) = settled_rms(&mut audio);
    assert!(left > right, "moved to the left: L {left} R {right}");

    scene.remove(bee).unwrap();
    audio.update(&mut scene);
    assert_eq!(audio.emitter_count(), 0);
    assert_eq!(settled_rms(&mut audio), (0.0, 0.0));
}

#[test]
fn play_and_stop_requests() {
    let mut scene = scene_with_listener();
    let click = AudioClip::from_mono(RATE, &synth::tone(880.0, 0.05, RATE)).unwrap();
    let button = emitter(
        &mut scene,
        Vec3::new(0.0, 0.0, -1.0),
        AudioSource::new(click).play_on_start(false),
    );
    let mut audio = Audio::new(AudioOutput::Buffer { sample_rate: RATE });
    audio.update(&mut scene);
    assert_eq!(settled_rms(&mut audio), (0.0, 0.0), "not played on start");

    scene
        .get_component_mut::<AudioSource>(button)
        .unwrap()
        .play();
    audio.update(&mut scene);
    let (level, _) = channel_rms(&audio.mix(RATE as usize / 20).unwrap());
    assert!(level > 0.05, "played on request");
    assert_eq!(settled_rms(&mut audio), (0.0, 0.0), "a one-shot ends");

    let hum_source = emitter(
        &mut scene,
        Vec3::new(0.0, 0.0, -1.0),
        AudioSource::new(hum()).looping(true),
    );
    audio.update(&mut scene);
    assert!(settled_rms(&mut audio).0 > 0.05);
    scene
        .get_component_mut::<AudioSource>(hum_source)
        .unwrap()
        .stop();
    audio.update(&mut scene);
    assert_eq!(settled_rms(&mut audio), (0.0, 0.0), "stopped");
}

#[test]
fn one_shots_at_a_position_and_ui_sounds() {
    let mut scene = scene_with_listener();
    let mut audio = Audio::new(AudioOutput::Buffer { sample_rate: RATE });
    audio.update(&mut scene);
    let knock = AudioSource::new(
        AudioClip::from_mono(RATE, &synth::noise_burst(0.1, 10.0, 3, RATE)).unwrap(),
    );
    audio.play_at(&knock, Vec3::new(5.0, 0.0, 0.0));
    let (left, right) = channel_rms(&audio.mix(RATE as usize / 5).unwrap());
    assert!(right > 2.0 * left && left > 0.0, "L {left} R {right}");

    audio.play_ui(&hum(), 0.5);
    let (left, right) = channel_rms(&audio.mix(RATE as usize / 5).unwrap());
    assert!(
        left > 0.05 && (left - right).abs() < 1e-4,
        "UI sounds are centred"
    );
}

#[test]
fn a_silent_output_cannot_be_heard_but_keeps_time() {
    let mut audio = Audio::new(AudioOutput::Silent);
    assert!(audio.is_silent());
    audio.advance(0.1);
    audio.advance(f32::NAN);
    let mut buffered = Audio::new(AudioOutput::Buffer { sample_rate: RATE });
    assert!(!buffered.is_silent());
    assert_eq!(buffered.mix(4).unwrap(), vec![[0.0, 0.0]; 4]);
}
