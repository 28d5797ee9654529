//! Sound clips loaded from a path: [`Engine::load_sound`] decodes one and
//! remembers where it came from. When the file changes, every
//! [`AudioSource`] holding that clip gets the new one: a voice already
//! playing finishes the old sound (the mixer holds its own samples), the
//! next play uses the new. A game keeping a clip for one-shots asks
//! [`Engine::current_sound`] for the newest version.

use std::path::{Path, PathBuf};

use bevy_ecs::entity::Entity;
use taos_audio::{AudioClip, AudioError, AudioSource};
use web_time::Instant;

use super::{ReloadEvent, ReloadKind, canonical};
use crate::Engine;

/// A sound registered for reloading.
#[derive(Debug, Clone)]
pub struct WatchedSound {
    /// The file (canonical).
    pub path: PathBuf,
    /// The clip as last decoded.
    pub clip: AudioClip,
    /// Every version handed out before, oldest first: how a held clip is
    /// recognised as this sound's.
    pub(crate) older: Vec<AudioClip>,
}

impl Engine {
    /// Reads and decodes a WAV or OGG/Vorbis file. With hot reload on, a
    /// change to the file replaces the clip in every
    /// [`AudioSource`] playing it.
    ///
    /// # Errors
    /// [`AudioError`] naming the file.
    pub fn load_sound(&mut self, path: impl AsRef<Path>) -> Result<AudioClip, AudioError> {
        let path = path.as_ref();
        let clip = AudioClip::from_file(path)?;
        let path = canonical(path);
        self.hot_reload.watch_folder_of(&path);
        self.hot_reload.sounds.push(WatchedSound {
            path,
            clip: clip.clone(),
            older: Vec::new(),
        });
        Ok(clip)
    }

    /// The newest version of `clip`: the reloaded clip when `clip` came
    /// from [`load_sound`](Self::load_sound) and its file changed since,
    /// else `clip` itself.
    #[must_use]
    pub fn current_sound(&self, clip: &AudioClip) -> AudioClip {
        self.hot_reload
            .sounds
            .iter()
            .find(|s| s.clip.same_samples(clip) || s.older.iter().any(|o| o.same_samples(clip)))
            .map_or_else(|| clip.clone(), |s| s.clip.clone())
    }

    /// Decodes every registered sound read from a file in `changed` again
    /// and hands it to the sources playing the old one.
    pub(crate) fn reload_sounds(&mut self, changed: &[PathBuf], events: &mut Vec<ReloadEvent>) {
        for index in 0..self.hot_reload.sounds.len() {
            let path = self.hot_reload.sounds[index].path.clone();
            if !changed.contains(&path) {
                continue;
            }
            let started = Instant::now();
            let outcome = match AudioClip::from_file(&path) {
                Ok(fresh) => {
                    let watched = &mut self.hot_reload.sounds[index];
                    let old = std::mem::replace(&mut watched.clip, fresh.clone());
                    watched.older.push(old);
                    let older = watched.older.clone();
                    replace_in_sources(self.scene_mut().world_mut(), &older, &fresh);
                    Ok(ReloadKind::Sound)
                }
                Err(error) => Err(error.to_string()),
            };
            events.push(ReloadEvent {
                path,
                outcome,
                took: started.elapsed(),
            });
        }
    }
}

/// Gives `fresh` to every source whose clip is one of `older`.
fn replace_in_sources(world: &mut bevy_ecs::world::World, older: &[AudioClip], fresh: &AudioClip) {
    let Some(mut query) = world.try_query::<(Entity, &mut AudioSource)>() else {
        return;
    };
    for (_, mut source) in query.iter_mut(world) {
        if older.iter().any(|o| o.same_samples(&source.clip)) {
            source.clip = fresh.clone();
        }
    }
}
