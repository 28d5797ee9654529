//! Edits as undo steps: applying them (refused while the game plays),
//! undo and redo.

use super::{Editor, EditorMode};
use crate::Engine;
use crate::edit::{EditCommand, EditError};

impl Editor {
    /// Carries out an edit as an undo step (refused while the game plays).
    ///
    /// # Errors
    /// [`EditError`]; the scene is unchanged then.
    pub fn apply(&mut self, engine: &mut Engine, command: EditCommand) -> Result<(), EditError> {
        self.apply_in_gesture(engine, command, None)
    }

    pub(super) fn apply_in_gesture(
        &mut self,
        engine: &mut Engine,
        command: EditCommand,
        gesture: Option<u64>,
    ) -> Result<(), EditError> {
        if self.mode != EditorMode::Editing {
            return Err(EditError::Playing);
        }
        let result =
            self.history
                .apply_in_gesture(engine.scene_mut(), &self.types, command, gesture);
        self.report(&result);
        if self
            .selected
            .is_some_and(|id| engine.scene().find_by_id(id).is_none())
        {
            self.select(None);
        }
        result
    }

    /// Undoes the last edit.
    ///
    /// # Errors
    /// As [`EditHistory::undo`](crate::edit::EditHistory::undo).
    pub fn undo(&mut self, engine: &mut Engine) -> Result<(), EditError> {
        let result = self.history.undo(engine.scene_mut(), &self.types);
        self.report(&result);
        self.drafts.clear_components();
        result
    }

    /// Redoes the last undone edit.
    ///
    /// # Errors
    /// As [`EditHistory::redo`](crate::edit::EditHistory::redo).
    pub fn redo(&mut self, engine: &mut Engine) -> Result<(), EditError> {
        let result = self.history.redo(engine.scene_mut(), &self.types);
        self.report(&result);
        self.drafts.clear_components();
        result
    }

    fn report<T>(&mut self, result: &Result<T, EditError>) {
        if let Err(error) = result {
            log::warn!("editor: {error}");
            self.status = error.to_string();
        }
    }
}
