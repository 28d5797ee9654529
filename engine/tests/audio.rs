//! The engine runs its audio every frame: sources found, the listener on the
//! camera, despawned sources dropped, and a scene switch forgets old sources.

use glam::Vec3;
use taos_engine::audio::{AudioClip, AudioSource, synth};
use taos_engine::prelude::*;
use taos_engine::{Engine, EngineConfig};
use taos_renderer::presets::{PresetOptions, forward_preset};

#[test]
fn each_frame_the_audio_follows_the_scene() {
    let mut engine = Engine::headless(
        EngineConfig::new(32, 32),
        forward_preset(PresetOptions::default()),
    )
    .unwrap();
    assert!(engine.audio().is_silent(), "a headless engine is silent");

    let scene = engine.scene_mut();
    let camera = scene.spawn("Camera");
    scene
        .add_component(camera, Camera::perspective(60.0, 0.1, 100.0, 1.0).unwrap())
        .unwrap();
    scene
        .object_mut(camera)
        .unwrap()
        .set_position(Vec3::new(1.0, 2.0, 3.0));
    let clip = AudioClip::from_mono(8_000, &synth::tone(300.0, 0.2, 8_000)).unwrap();
    let bell = scene.spawn("Bell");
    scene
        .add_component(bell, AudioSource::new(clip).looping(true))
        .unwrap();

    engine.frame().unwrap();
    assert_eq!(engine.audio().emitter_count(), 1);
    assert_eq!(
        engine.audio().listener_pose().0,
        Vec3::new(1.0, 2.0, 3.0),
        "no AudioListener: the camera listens"
    );

    engine.scene_mut().remove(bell).unwrap();
    engine.frame().unwrap();
    assert_eq!(engine.audio().emitter_count(), 0);
}
