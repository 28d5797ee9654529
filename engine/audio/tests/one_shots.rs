//! One-shot sounds queued from inside the simulation (a behaviour, the
//! world, the scene) play at the audio system's next update, on their bus,
//! from where they were asked for.

use glam::Vec3;
use taos_audio::{
    Audio, AudioClip, AudioListener, AudioOutput, AudioSource, MAX_QUEUED_SOUNDS, PlaySound,
    SoundQueue, channel_rms, synth,
};
use taos_core::prelude::*;

const RATE: u32 = 48_000;

fn blip() -> AudioClip {
    AudioClip::from_mono(RATE, &synth::tone(440.0, 0.5, RATE)).unwrap()
}

/// Plays its clip once, from its object, on its first update.
struct OnceOnRight {
    source: AudioSource,
    played: bool,
}

impl Behaviour for OnceOnRight {
    fn update(&mut self, cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
        if !self.played {
            self.played = true;
            let at = cx.world_position();
            cx.play_sound_at(&self.source, at);
        }
        Ok(())
    }
}

fn rms(audio: &mut Audio) -> (f32, f32) {
    audio.mix(RATE as usize / 50).unwrap();
    channel_rms(&audio.mix(RATE as usize / 10).unwrap())
}

#[test]
fn a_behaviour_plays_a_one_shot_from_where_it_stands() {
    let mut scene = Scene::new();
    let ears = scene.spawn("Ears");
    scene.add_component(ears, AudioListener).unwrap();
    let bell = scene.spawn("Bell");
    scene
        .object_mut(bell)
        .unwrap()
        .set_position(Vec3::new(3.0, 0.0, 0.0));
    scene
        .add_behaviour(
            bell,
            OnceOnRight {
                source: AudioSource::new(blip()),
                played: false,
            },
        )
        .unwrap();
    let mut audio = Audio::new(AudioOutput::Buffer { sample_rate: RATE });

    audio.update(&mut scene);
    assert_eq!(rms(&mut audio), (0.0, 0.0), "nothing asked for yet");

    scene.update(1.0 / 60.0);
    assert_eq!(scene.world().resource::<SoundQueue>().len(), 1);
    audio.update(&mut scene);
    assert!(
        scene.world().resource::<SoundQueue>().is_empty(),
        "played once, drained"
    );
    let (left, right) = rms(&mut audio);
    assert!(
        right > 2.0 * left && left > 0.0,
        "from the right: L {left} R {right}"
    );
    // No component keeps it alive: the object holds only the behaviour.
    assert_eq!(audio.emitter_count(), 0);
}

#[test]
fn the_scene_and_the_world_queue_ui_sounds_and_a_flood_is_capped() {
    let mut scene = Scene::new();
    let clip = blip();
    scene.play_ui_sound(&clip, 1.0);
    scene.world_mut().play_ui_sound(&clip, 1.0);
    assert_eq!(scene.world().resource::<SoundQueue>().len(), 2);
    for _ in 0..MAX_QUEUED_SOUNDS * 2 {
        scene.play_ui_sound(&clip, 0.1);
    }
    assert_eq!(
        scene.world().resource::<SoundQueue>().len(),
        MAX_QUEUED_SOUNDS
    );
    let mut audio = Audio::new(AudioOutput::Buffer { sample_rate: RATE });
    audio.update(&mut scene);
    let (left, right) = rms(&mut audio);
    assert!(
        left > 0.0 && (left - right).abs() < 1e-3,
        "UI: centred, L {left} R {right}"
    );
}
