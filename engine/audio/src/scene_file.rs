//! Sound in scene files: [`scene_types`] registers [`AudioSource`] (its clip
//! by the name the game gives it in [`AudioClipNames`]) and
//! [`AudioListener`].

use std::collections::BTreeMap;
use std::sync::Arc;

use bevy_ecs::change_detection::Mut;
use bevy_ecs::resource::Resource;
use bevy_ecs::world::World;
use serde::{Deserialize, Serialize};
use taos_core::Scene;
use taos_core::scene_file::SceneTypes;

use crate::{Attenuation, AudioBus, AudioClip, AudioListener, AudioSource};

/// The names of a scene's sound clips: a resource in the scene's world that
/// scene files read to write an [`AudioSource`] as `{"clip": "door", ...}`
/// and to find the clip again on load (a clip is decoded samples; a name
/// is what a file can hold).
///
/// ```
/// use taos_audio::AudioClip;
/// use taos_audio::scene_file::AudioClipNames;
/// use taos_audio::synth::tone;
/// use taos_core::Scene;
///
/// let mut scene = Scene::new();
/// let beep = AudioClip::from_mono(48_000, &tone(440.0, 0.1, 48_000))?;
/// AudioClipNames::of(&mut scene).name("beep", beep.clone());
/// assert_eq!(AudioClipNames::of(&mut scene).name_of(&beep), Some("beep"));
/// # Ok::<(), taos_audio::AudioError>(())
/// ```
#[derive(Resource, Debug, Clone, Default)]
pub struct AudioClipNames {
    clips: BTreeMap<String, AudioClip>,
}

impl AudioClipNames {
    /// The scene's clip names (made empty on first use).
    pub fn of(scene: &mut Scene) -> Mut<'_, Self> {
        scene.world_mut().get_resource_or_insert_with(Self::default)
    }

    /// Names `clip` (replacing what the name named before).
    pub fn name(&mut self, name: impl Into<String>, clip: AudioClip) -> &mut Self {
        self.clips.insert(name.into(), clip);
        self
    }

    /// The clip named `name`.
    #[must_use]
    pub fn clip(&self, name: &str) -> Option<&AudioClip> {
        self.clips.get(name)
    }

    /// The name of `clip` (the same samples, not an equal copy).
    #[must_use]
    pub fn name_of(&self, clip: &AudioClip) -> Option<&str> {
        self.clips
            .iter()
            .find(|(_, named)| Arc::ptr_eq(&named.data.frames, &clip.data.frames))
            .map(|(name, _)| name.as_str())
    }
}

/// Registers sound with scene files: [`AudioSource`] as
/// `taos.AudioSource` (its clip by its name in the scene's
/// [`AudioClipNames`]; a source whose clip has no name cannot be saved, and
/// a file naming a clip the scene does not have is refused on load) and
/// [`AudioListener`] as `taos.AudioListener`.
pub fn scene_types(types: &mut SceneTypes) {
    types
        .component_in_world("taos.AudioSource", SourceDoc::save, SourceDoc::load)
        .component_with(
            "taos.AudioListener",
            |_: &AudioListener| Ok::<_, String>(ListenerDoc {}),
            |_: ListenerDoc| Ok::<_, String>(AudioListener),
        );
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ListenerDoc {}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum CurveDoc {
    None,
    Linear,
    Inverse { rolloff: f32 },
    Exponential { rolloff: f32 },
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum BusDoc {
    Game,
    Ui,
}

/// An [`AudioSource`] in a scene file: `clip` is required, as
/// [`AudioSource::new`] requires it; a setting left out takes the value it
/// gives.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SourceDoc {
    clip: String,
    #[serde(default)]
    volume: Option<f32>,
    #[serde(default)]
    looping: Option<bool>,
    #[serde(default)]
    spatial: Option<bool>,
    #[serde(default)]
    min_distance: Option<f32>,
    #[serde(default)]
    max_distance: Option<f32>,
    #[serde(default)]
    attenuation: Option<CurveDoc>,
    #[serde(default)]
    pan_strength: Option<f32>,
    #[serde(default)]
    bus: Option<BusDoc>,
    #[serde(default)]
    play_on_start: Option<bool>,
}

fn finite(what: &str, value: f32) -> Result<f32, String> {
    if value.is_finite() && value >= 0.0 {
        Ok(value)
    } else {
        Err(format!(
            "{what} must be a finite number, 0 or more: {value}"
        ))
    }
}

/// Sets `*slot` to the stored value, when the file holds one, checked by
/// `check` (a setting left out keeps the builder's value).
fn set<T, S>(
    slot: &mut T,
    stored: Option<S>,
    check: impl FnOnce(S) -> Result<T, String>,
) -> Result<(), String> {
    if let Some(value) = stored {
        *slot = check(value)?;
    }
    Ok(())
}

fn curve(doc: CurveDoc) -> Result<Attenuation, String> {
    Ok(match doc {
        CurveDoc::None => Attenuation::None,
        CurveDoc::Linear => Attenuation::Linear,
        CurveDoc::Inverse { rolloff } => Attenuation::Inverse {
            rolloff: finite("rolloff", rolloff)?,
        },
        CurveDoc::Exponential { rolloff } => Attenuation::Exponential {
            rolloff: finite("rolloff", rolloff)?,
        },
    })
}

impl SourceDoc {
    fn save(world: &World, source: &AudioSource) -> Result<Self, String> {
        let clip = world
            .get_resource::<AudioClipNames>()
            .and_then(|names| names.name_of(&source.clip))
            .ok_or_else(|| {
                "the sound's clip has no name (name it in the scene's AudioClipNames to save it)"
                    .to_owned()
            })?
            .to_owned();
        Ok(Self {
            clip,
            volume: Some(source.volume),
            looping: Some(source.looping),
            spatial: Some(source.spatial),
            min_distance: Some(source.min_distance),
            max_distance: Some(source.max_distance),
            attenuation: Some(match source.attenuation {
                Attenuation::None => CurveDoc::None,
                Attenuation::Linear => CurveDoc::Linear,
                Attenuation::Inverse { rolloff } => CurveDoc::Inverse { rolloff },
                Attenuation::Exponential { rolloff } => CurveDoc::Exponential { rolloff },
            }),
            pan_strength: Some(source.pan_strength),
            bus: Some(match source.bus {
                AudioBus::Game => BusDoc::Game,
                AudioBus::Ui => BusDoc::Ui,
            }),
            play_on_start: Some(source.play_on_start),
        })
    }

    fn load(world: &World, doc: Self) -> Result<AudioSource, String> {
        let clip = world
            .get_resource::<AudioClipNames>()
            .and_then(|names| names.clip(&doc.clip))
            .ok_or_else(|| format!("no sound clip is named {:?}", doc.clip))?
            .clone();
        let mut source = AudioSource::new(clip);
        set(&mut source.volume, doc.volume, |v| finite("volume", v))?;
        set(&mut source.looping, doc.looping, Ok)?;
        set(&mut source.spatial, doc.spatial, Ok)?;
        set(&mut source.min_distance, doc.min_distance, |v| {
            finite("min_distance", v)
        })?;
        set(&mut source.max_distance, doc.max_distance, |v| {
            finite("max_distance", v)
        })?;
        if source.min_distance > source.max_distance {
            return Err(format!(
                "min_distance {} is above max_distance {}",
                source.min_distance, source.max_distance
            ));
        }
        set(&mut source.attenuation, doc.attenuation, curve)?;
        set(&mut source.pan_strength, doc.pan_strength, |v| {
            finite("pan_strength", v)
        })?;
        set(&mut source.bus, doc.bus, |bus| {
            Ok(match bus {
                BusDoc::Game => AudioBus::Game,
                BusDoc::Ui => AudioBus::Ui,
            })
        })?;
        set(&mut source.play_on_start, doc.play_on_start, Ok)?;
        Ok(source)
    }
}

#[cfg(test)]
mod tests {
    use taos_core::scene_file::{load_scene, save_scene};

    use super::*;
    use crate::synth::tone;

    fn sine(frequency: f32, seconds: f32, rate: u32) -> AudioClip {
        AudioClip::from_mono(rate, &tone(frequency, seconds, rate)).unwrap()
    }

    #[test]
    fn a_named_source_and_a_listener_round_trip_and_unknown_clips_are_refused() {
        let mut types = SceneTypes::default();
        scene_types(&mut types);
        let mut scene = Scene::new();
        let hum = sine(110.0, 0.5, 48_000);
        AudioClipNames::of(&mut scene).name("hum", hum.clone());
        let speaker = scene.spawn("Speaker");
        let source = AudioSource::new(hum)
            .looping(true)
            .distances(2.0, 30.0)
            .attenuation(Attenuation::Linear)
            .bus(AudioBus::Ui);
        scene.add_component(speaker, source).unwrap();
        let ears = scene.spawn("Ears");
        scene.add_component(ears, AudioListener).unwrap();
        let text = save_scene(&scene, &types).unwrap().text;
        assert!(text.contains(r#""clip":"hum""#), "{text}");

        let mut copy = Scene::new();
        let names = scene.world().resource::<AudioClipNames>().clone();
        copy.world_mut().insert_resource(names);
        load_scene(&mut copy, &text, "sound.json", &types, None).unwrap();
        assert_eq!(save_scene(&copy, &types).unwrap().text, text);

        let mut bare = Scene::new();
        let error = load_scene(&mut bare, &text, "sound.json", &types, None).unwrap_err();
        assert!(error.to_string().contains("hum"), "{error}");

        // A clip without a name cannot be saved (said, not silently dropped).
        let unnamed = scene.spawn("Unnamed");
        scene
            .add_component(unnamed, AudioSource::new(sine(220.0, 0.1, 48_000)))
            .unwrap();
        assert!(save_scene(&scene, &types).is_err());
    }
}
