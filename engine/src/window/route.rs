//! Where a window event goes once it is the engine's own [`WindowEvent`]:
//! to the game's [`App`] first, then (unless the app stopped it) to the
//! engine: input to the game loop, a resize to the output, focus loss
//! releasing held input. One function, used by the window driver and by
//! [`HeadlessApp`](crate::HeadlessApp), so a test that sends events headless
//! takes exactly the window's path.

use crate::app::{App, Propagate, WindowEvent};
use crate::facade::Engine;
use crate::game_loop::InputEvent;
use crate::window::RunError;

/// Hands `event` to `app`, then does the engine's part unless the app
/// stopped it. Returns whether the run should end (a close request nobody
/// stopped, or [`Engine::request_exit`]).
pub(crate) fn route_event<A: App>(
    engine: &mut Engine,
    app: &mut A,
    event: WindowEvent,
) -> Result<bool, RunError> {
    let propagate = app.window_event(engine, &event).map_err(RunError::App)?;
    if propagate == Propagate::Stop {
        return Ok(engine.exit_requested());
    }
    match event {
        WindowEvent::CloseRequested => return Ok(true),
        WindowEvent::Resized { width, height } => {
            engine.resize(width, height);
            // A paused game gets no callback frames: paint it now.
            if engine.game_loop().is_paused() && width > 0 && height > 0 {
                // A failed frame was logged; the next redraw tries again.
                let _rendered = engine.present();
            }
        }
        WindowEvent::Occluded(hidden) => engine.game_loop().set_visible(!hidden),
        WindowEvent::Focused(false) => {
            engine.graph_overlay.on_focus_lost();
            engine.game_loop().release_held_input();
        }
        WindowEvent::Input {
            event,
            ui_consumed: false,
        } => {
            engine.graph_overlay_input(&event);
            engine.game_loop().push_input(event);
        }
        // Relative motion (mouse look, drag to orbit): what the controllers
        // read as `Input::mouse_motion`.
        WindowEvent::MouseMotion { delta } => {
            engine
                .game_loop()
                .push_input(InputEvent::MouseMotion(delta));
        }
        _ => {}
    }
    Ok(engine.exit_requested())
}
