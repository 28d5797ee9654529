//! Reloading the level from disk as one undo step: what the editor does
//! when hot reload sees its scene file change (another tool, a text
//! editor, a version-control checkout), or when asked.
//!
//! The editor remembers each root object's subtree as it was when the
//! level was last loaded, saved or reloaded. An object whose subtree
//! differs now was changed in the editor since: [`LevelReload::KeepChanged`]
//! leaves those as they are and takes every other object from the file;
//! [`LevelReload::ResetAll`] takes everything from the file. Either way
//! the reload is one step of the history: Ctrl+Z brings the scene back.

use super::{Editor, EditorFileError, read_scene_file};
use crate::edit::EditCommand;
use crate::scene_file::{EditorOnly, save_subtree};
use crate::{Engine, ObjectId, Scene};
use std::collections::BTreeMap;

/// What a level reload does with the objects changed in the editor since
/// the level was last loaded or saved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LevelReload {
    /// Keep them as they are; take the rest from the file (the default:
    /// nothing the user did is lost, and the undo step holds the rest).
    #[default]
    KeepChanged,
    /// Take every object from the file.
    ResetAll,
}

/// What [`Editor::reload_level`] did.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LevelReloadReport {
    /// Root objects taken from the file.
    pub replaced: usize,
    /// Root objects changed in the editor and kept.
    pub kept: Vec<ObjectId>,
}

/// Each root object's subtree as scene-file text, by id.
pub(super) type Baseline = BTreeMap<ObjectId, String>;

/// The scene's root objects (not the editor's own) with their subtree text.
fn roots_with_text(scene: &Scene, editor: &Editor) -> Result<Baseline, EditorFileError> {
    let mut out = Baseline::new();
    for root in scene.roots() {
        if scene.get_component::<EditorOnly>(root).is_some() {
            continue;
        }
        let Some(id) = scene.id(root) else { continue };
        out.insert(id, save_subtree(scene, &editor.types, root)?.text);
    }
    Ok(out)
}

impl Editor {
    /// Notes the level as it is now as the state "unchanged" objects are
    /// compared with (after a load, a save or a reload).
    pub(super) fn remember_level(&mut self, engine: &Engine) {
        if let Ok(baseline) = roots_with_text(engine.scene(), self) {
            self.baseline = baseline;
        }
    }

    /// Reads [`file`](Self::file) again and replaces the scene's objects
    /// with its objects as one undo step, keeping or resetting the objects
    /// changed in the editor as `mode` says. Refused while the game plays.
    ///
    /// # Errors
    /// The file-system or scene-file error, or
    /// [`EditError::Playing`](crate::edit::EditError::Playing); the scene
    /// is left as it was then. The text is also the editor's status.
    pub fn reload_level(
        &mut self,
        engine: &mut Engine,
        mode: LevelReload,
    ) -> Result<LevelReloadReport, EditorFileError> {
        let result = self.reload_level_inner(engine, mode);
        match &result {
            Ok(report) => {
                self.status = format!(
                    "reloaded {} from disk: {} objects from the file{} (Ctrl+Z undoes)",
                    self.file.display(),
                    report.replaced,
                    if report.kept.is_empty() {
                        String::new()
                    } else {
                        format!(", {} changed here kept", report.kept.len())
                    }
                );
                log::info!("editor: {}", self.status);
            }
            Err(error) => {
                self.status = format!("reload: {error}");
                log::warn!("editor: {}", self.status);
            }
        }
        result
    }

    fn reload_level_inner(
        &mut self,
        engine: &mut Engine,
        mode: LevelReload,
    ) -> Result<LevelReloadReport, EditorFileError> {
        let text = read_scene_file(&self.file)?;
        // The file's objects, each root's subtree as text.
        let mut scratch = super::files::scratch_scene(engine);
        self.load_level_text(&mut scratch, &text)?;
        let from_file = roots_with_text(&scratch, self)?;
        let now = roots_with_text(engine.scene(), self)?;
        let kept: Vec<ObjectId> = match mode {
            LevelReload::ResetAll => Vec::new(),
            LevelReload::KeepChanged => now
                .iter()
                .filter(|(id, text)| self.baseline.get(id) != Some(text))
                .map(|(id, _)| *id)
                .collect(),
        };
        let mut commands: Vec<EditCommand> = now
            .keys()
            .filter(|id| !kept.contains(id))
            .map(|&object| EditCommand::Delete { object })
            .collect();
        let restored: Vec<EditCommand> = from_file
            .iter()
            .filter(|(id, _)| !kept.contains(id))
            .map(|(_, text)| EditCommand::Restore {
                text: text.clone(),
                parent: None,
            })
            .collect();
        let replaced = restored.len();
        commands.extend(restored);
        self.apply(engine, EditCommand::Batch(commands))?;
        self.sync_models(engine);
        self.baseline = from_file;
        Ok(LevelReloadReport { replaced, kept })
    }

    /// Reloads the level if hot reload applied a change to its file this
    /// frame and the file differs from what the editor last saw (its own
    /// saves do not reload).
    pub(super) fn follow_file_changes(&mut self, engine: &mut Engine) {
        let file = crate::hot_reload::canonical(&self.file);
        engine.hot_reload_mut().watch_folder_of(&file);
        if !engine.hot_reload().changed_last_frame().contains(&file) {
            return;
        }
        let Ok(text) = read_scene_file(&self.file) else {
            return;
        };
        if self.last_text.as_deref() == Some(text.as_str()) {
            return;
        }
        self.last_text = Some(text);
        let _ = self.reload_level(engine, self.reload_mode);
    }
}
