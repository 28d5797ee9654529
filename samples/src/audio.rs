//! The audio sample: three sound emitters circle the middle of a floor, seen
//! and heard from the camera (the listener). Each is a glowing ball with an
//! `AudioSource` playing a sound made in code; fly among them (WASD, E/Q,
//! hold the left button to look) and hear them pan and fade. Headless, `--wav` mixes what the camera hears into
//! a WAV file.

use std::io::Write;
use std::path::{Path, PathBuf};

use glam::Vec3;
use taos_engine::Engine;
use taos_engine::audio::scene_file::AudioClipNames;
use taos_engine::audio::{
    Attenuation, Audio, AudioClip, AudioListener, AudioOutput, AudioSource, channel_rms, synth,
};
use taos_engine::controllers::CameraController;
use taos_engine::prelude::*;
use taos_engine::renderer::resources::{MeshData, PbrMaterial};

use crate::CommonCli;

/// The audio sample's command line: the common flags plus the offline mix.
#[derive(Debug, clap::Parser)]
#[command(about = "Sound emitters circling the listener, in a window or mixed to a WAV file")]
pub struct AudioArgs {
    /// Window size, headless frames and screenshot.
    #[command(flatten)]
    pub common: CommonCli,
    /// Headless: mix what the listener hears into this WAV file (16-bit stereo).
    #[arg(long, value_name = "PATH")]
    pub wav: Option<PathBuf>,
    /// Seconds to mix with `--wav`.
    #[arg(long, default_value_t = 6.0, value_name = "S")]
    pub seconds: f32,
}

/// Moves its object round a circle about the origin.
struct Circling {
    radius: f32,
    /// Radians per second (negative: clockwise seen from above).
    speed: f32,
    phase: f32,
    height: f32,
}

impl Behaviour for Circling {
    fn update(&mut self, cx: &mut BehaviourContext<'_>, _dt: f32) -> BehaviourResult {
        let angle = self.phase + self.speed * cx.time().elapsed() as f32;
        *cx.position_mut() = Vec3::new(
            angle.cos() * self.radius,
            self.height,
            angle.sin() * self.radius,
        );
        Ok(())
    }
}

/// Sample rate of the sounds made here.
const RATE: u32 = 44_100;

/// The three sounds: a low hum, a bright beeping tone and soft noise "rain".
fn sounds() -> anyhow::Result<[AudioClip; 3]> {
    let hum = synth::normalized(
        synth::tone(110.0, 2.0, RATE)
            .iter()
            .zip(synth::tone(165.0, 2.0, RATE))
            .map(|(a, b)| a + 0.5 * b)
            .collect(),
        0.6,
    );
    let beep: Vec<f32> = synth::tone(880.0, 0.15, RATE)
        .into_iter()
        .chain(std::iter::repeat_n(0.0, (RATE as f32 * 0.35) as usize))
        .map(|s| s * 0.5)
        .collect();
    let rain = synth::normalized(
        synth::low_pass(&synth::noise_burst(2.0, 0.0, 11, RATE), 900.0, RATE),
        0.5,
    );
    Ok([
        AudioClip::from_mono(RATE, &hum)?,
        AudioClip::from_mono(RATE, &beep)?,
        AudioClip::from_mono(RATE, &rain)?,
    ])
}

/// Fills `engine` with the listener camera, the floor and three circling emitters.
///
/// # Errors
/// If a sound cannot be made or a component added (never for this fixed scene).
pub fn audio_scene(engine: &mut Engine) -> anyhow::Result<()> {
    let (assets, gpu) = engine.renderer().assets_mut();
    let ball = assets.add_mesh(gpu, "ball", &MeshData::sphere(0.5, 32, 16));
    let floor_mesh = assets.add_mesh(gpu, "floor", &MeshData::plane(40.0));
    let floor_material = assets.add_material(PbrMaterial::color(Vec3::splat(0.3)));
    let colours = [
        Vec3::new(1.0, 0.35, 0.2),
        Vec3::new(0.3, 0.8, 1.0),
        Vec3::new(0.6, 1.0, 0.4),
    ];
    let materials = colours.map(|c| {
        assets.add_material(PbrMaterial {
            emissive: c * 2.0,
            ..PbrMaterial::color(c)
        })
    });
    crate::name_assets(
        engine,
        &[("ball", ball), ("floor", floor_mesh)],
        &[
            ("floor", floor_material),
            ("red", materials[0]),
            ("blue", materials[1]),
            ("green", materials[2]),
        ],
    )?;
    let scene = engine.scene_mut();
    let floor = scene.spawn("Floor");
    scene.add_component(
        floor,
        MeshRenderer::new(floor_mesh.handle(), floor_material.handle()),
    )?;
    let sun = scene.spawn("Sun");
    scene.add_component(
        sun,
        DirectionalLight::new(Vec3::new(-0.3, -1.0, -0.5), Vec3::ONE, 1.5),
    )?;
    let paths = [
        (3.0, 0.9, 0.0, 1.0),
        (6.0, -0.5, 2.1, 1.5),
        (9.0, 0.3, 4.2, 0.8),
    ];
    for (i, (clip, (radius, speed, phase, height))) in sounds()?.into_iter().zip(paths).enumerate()
    {
        AudioClipNames::of(scene).name(format!("sound {i}"), clip.clone());
        let emitter = scene.spawn(format!("Emitter {i}"));
        scene.add_component(
            emitter,
            MeshRenderer::new(ball.handle(), materials[i].handle()),
        )?;
        scene.add_component(
            emitter,
            AudioSource::new(clip)
                .looping(true)
                .distances(1.0, 30.0)
                .attenuation(Attenuation::Inverse { rolloff: 1.0 }),
        )?;
        scene.add_behaviour(
            emitter,
            Circling {
                radius,
                speed,
                phase,
                height,
            },
        )?;
    }
    let camera = scene.spawn("Camera");
    scene
        .object_mut(camera)?
        .set_position(Vec3::new(0.0, 6.0, 13.0));
    scene.add_component(camera, Camera::perspective(70.0, 0.1, 100.0, 4.0 / 3.0)?)?;
    scene.add_component(camera, AudioListener)?;
    let mut fly = CameraController::fly();
    fly.pitch = -0.42;
    scene.add_behaviour(camera, fly)?;
    Ok(())
}

/// Runs `engine` headless for `seconds` at 60 frames a second and mixes what
/// its listener hears, frame by frame, into a 16-bit stereo WAV at `path`.
/// Returns the RMS level of each channel for every second, `(left, right)`.
///
/// # Errors
/// If a frame fails to render or the file cannot be written.
pub fn mix_to_wav(
    engine: &mut Engine,
    path: &Path,
    seconds: f32,
) -> anyhow::Result<Vec<(f32, f32)>> {
    const FPS: u32 = 60;
    let mut audio = Audio::new(AudioOutput::Buffer { sample_rate: RATE });
    let frames = (seconds.max(0.0) * FPS as f32).round() as u32;
    let mut mix = Vec::with_capacity(frames as usize * (RATE / FPS) as usize);
    for _ in 0..frames {
        engine.frame()?;
        audio.update(engine.scene_mut());
        mix.extend(audio.mix((RATE / FPS) as usize)?);
    }
    write_wav(path, RATE, &mix)?;
    Ok(mix.chunks(RATE as usize).map(channel_rms).collect())
}

fn write_wav(path: &Path, rate: u32, frames: &[[f32; 2]]) -> std::io::Result<()> {
    let data_len = (frames.len() * 4) as u32;
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    out.write_all(b"RIFF")?;
    out.write_all(&(36 + data_len).to_le_bytes())?;
    out.write_all(b"WAVEfmt ")?;
    out.write_all(&16u32.to_le_bytes())?;
    out.write_all(&1u16.to_le_bytes())?;
    out.write_all(&2u16.to_le_bytes())?;
    out.write_all(&rate.to_le_bytes())?;
    out.write_all(&(rate * 4).to_le_bytes())?;
    out.write_all(&4u16.to_le_bytes())?;
    out.write_all(&16u16.to_le_bytes())?;
    out.write_all(b"data")?;
    out.write_all(&data_len.to_le_bytes())?;
    for frame in frames {
        for sample in frame {
            let value = (sample.clamp(-1.0, 1.0) * f32::from(i16::MAX)) as i16;
            out.write_all(&value.to_le_bytes())?;
        }
    }
    out.flush()
}
