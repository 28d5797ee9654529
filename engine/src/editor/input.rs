//! The editor's keys and clicks: F1, undo and redo, duplicate, delete,
//! save and load, framing, gizmo modes; clicks that pick or start a drag,
//! the right button and wheel that move the editor camera.

use super::{Editor, EditorMode, GizmoMode};
use crate::Engine;
use crate::app::{Propagate, WindowEvent};
use crate::edit::EditCommand;
use crate::game_loop::{InputEvent, Key, MouseButton};

impl Editor {
    /// Handles a window event: the keys, clicks that pick, gizmo drags.
    /// Returns [`Propagate::Stop`] for what the editor used (the game does
    /// not see it).
    pub fn window_event(&mut self, engine: &mut Engine, event: &WindowEvent) -> Propagate {
        if let WindowEvent::MouseMotion { delta } = *event
            && self.open
            && self.view.looking
        {
            self.look(engine, delta);
            return Propagate::Stop;
        }
        let WindowEvent::Input { event, ui_consumed } = *event else {
            return Propagate::Continue;
        };
        match event {
            InputEvent::KeyDown(Key::ControlLeft | Key::ControlRight) => self.control = true,
            InputEvent::KeyUp(Key::ControlLeft | Key::ControlRight) => self.control = false,
            InputEvent::KeyDown(Key::ShiftLeft | Key::ShiftRight) => self.shift = true,
            InputEvent::KeyUp(Key::ShiftLeft | Key::ShiftRight) => self.shift = false,
            InputEvent::CursorMoved(at) => {
                self.cursor = at;
                if self.open && self.drag.is_some() {
                    let _ = self.drag_to(engine, at);
                    return Propagate::Stop;
                }
            }
            _ => {}
        }
        if ui_consumed {
            return Propagate::Continue;
        }
        if let InputEvent::KeyDown(Key::F1) = event {
            if self.open {
                self.close(engine);
            } else {
                self.open(engine);
            }
            return Propagate::Stop;
        }
        if !self.open || self.mode != EditorMode::Editing {
            // While the game plays (or is paused in play mode) its keys and
            // clicks are its own: only F1 is the editor's.
            return Propagate::Continue;
        }
        match event {
            InputEvent::KeyDown(Key::Z) if self.control && self.shift => {
                let _ = self.redo(engine);
            }
            InputEvent::KeyDown(Key::Z) if self.control => {
                let _ = self.undo(engine);
            }
            InputEvent::KeyDown(Key::Y) if self.control => {
                let _ = self.redo(engine);
            }
            InputEvent::KeyDown(Key::D) if self.control => {
                if let Some(object) = self.selected {
                    let _ = self.apply(engine, EditCommand::Duplicate { object });
                }
            }
            InputEvent::KeyDown(Key::S) if self.control => {
                let _ = self.save(engine);
            }
            InputEvent::KeyDown(Key::O) if self.control => {
                let _ = self.load(engine);
            }
            InputEvent::KeyDown(Key::F) if !self.control => {
                self.frame_selection(engine);
            }
            InputEvent::KeyDown(Key::W) if !self.control => self.gizmo_mode = GizmoMode::Move,
            InputEvent::KeyDown(Key::E) if !self.control => self.gizmo_mode = GizmoMode::Rotate,
            InputEvent::KeyDown(Key::R) if !self.control => self.gizmo_mode = GizmoMode::Scale,
            InputEvent::KeyDown(Key::Backspace) => {
                if let Some(object) = self.selected {
                    let _ = self.apply(engine, EditCommand::Delete { object });
                }
            }
            InputEvent::MouseDown(MouseButton::Left) if self.mode == EditorMode::Editing => {
                let handle = self
                    .gizmo(engine)
                    .into_iter()
                    .find(|&(_, _, tip)| tip.distance(self.cursor) < 10.0);
                let ring = (self.gizmo_mode == GizmoMode::Rotate && handle.is_none())
                    .then(|| self.ring_at(engine, self.cursor))
                    .flatten();
                match (handle, ring) {
                    (Some((axis, _, _)), _) => {
                        self.begin_axis_drag(engine, axis, self.cursor);
                    }
                    (None, Some(axis)) => {
                        self.begin_ring_drag(engine, axis, self.cursor);
                    }
                    (None, None) => {
                        self.select_at(engine, self.cursor);
                    }
                }
            }
            InputEvent::MouseUp(MouseButton::Left) => self.end_drag(),
            InputEvent::MouseDown(MouseButton::Right) if self.mode == EditorMode::Editing => {
                self.view.looking = true;
            }
            InputEvent::MouseUp(MouseButton::Right) => self.view.looking = false,
            InputEvent::Wheel(lines) if self.mode == EditorMode::Editing => {
                self.dolly(engine, lines * 0.5);
            }
            _ => return Propagate::Continue,
        }
        Propagate::Stop
    }
}
