//! Play mode: play, pause, step and stop; stop puts the scene back as it
//! was when play began (a snapshot of the loop).

use super::{Editor, EditorMode};
use crate::Engine;

impl Editor {
    /// Starts play mode: a snapshot of the loop is kept to stop back to.
    pub fn play(&mut self, engine: &mut Engine) {
        match self.mode {
            EditorMode::Editing => {
                self.play_snapshot = match engine.game_loop().snapshot() {
                    Ok(snapshot) => Some(snapshot),
                    Err(error) => {
                        self.status = format!("play: stop will not restore the scene ({error})");
                        None
                    }
                };
                self.drag = None;
                // The game's camera draws while it plays.
                if let Some(camera) = self.view.object {
                    let _ = engine.scene_mut().set_enabled(camera, false);
                }
                engine.set_camera(self.view.game);
            }
            EditorMode::Paused | EditorMode::Playing => {}
        }
        self.mode = EditorMode::Playing;
        engine.game_loop().resume();
    }

    /// Pauses play mode.
    pub fn pause(&mut self, engine: &mut Engine) {
        if self.mode == EditorMode::Playing {
            self.mode = EditorMode::Paused;
            engine.game_loop().pause();
        }
    }

    /// Advances a paused game by one tick.
    pub fn step(&mut self, engine: &mut Engine) {
        if self.mode == EditorMode::Paused {
            engine.game_loop().step();
        }
    }

    /// Stops play mode: the scene goes back to how it was when play began.
    pub fn stop(&mut self, engine: &mut Engine) {
        if self.mode == EditorMode::Editing {
            return;
        }
        engine.game_loop().pause();
        if let Some(snapshot) = self.play_snapshot.take()
            && let Err(error) = engine.game_loop().restore(&snapshot)
        {
            self.status = format!("stop: the scene could not be restored ({error})");
        }
        engine.game_loop().pause();
        self.mode = EditorMode::Editing;
        if let Some(camera) = self.view.object {
            let _ = engine.scene_mut().set_enabled(camera, true);
            engine.set_camera(Some(camera));
        }
    }
}
