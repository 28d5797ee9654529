//! Playing on a server: what it says applied each frame, the other
//! players' figures, the chat line (typed with [`CHAT_KEY`]), and leaving.

use taos_engine::game_loop::{InputEvent, Key};
use taos_engine::{Engine, WindowEvent};

use super::{Play, Reaction};
use crate::game::state;
use crate::online::Online;
use crafty_client::ConnectionEvent;

/// Opens the chat line on a server.
const CHAT_KEY: Key = Key::T;

/// A world played on a server: the server, why its connection ended,
/// and the chat line being typed.
pub(super) struct OnlinePlay {
    /// The server.
    pub(super) server: Online,
    /// Why the server connection ended; the app goes back to the launcher.
    pub(super) disconnected: Option<String>,
    /// A chat line being typed (T opens it, Enter sends it).
    pub(super) chat_line: Option<String>,
}

impl OnlinePlay {
    pub(super) fn new(server: Online) -> Self {
        Self {
            server,
            disconnected: None,
            chat_line: None,
        }
    }
}

impl Play {
    /// Per frame on a server: what the server said applied to the game
    /// (a closed connection noted for the app), the other players' figures
    /// handed to the renderer, nearest first.
    pub(super) fn sync_online(&mut self, engine: &mut Engine) {
        let Some(online) = &mut self.online else {
            return;
        };
        for event in online.server.sync(engine.game_loop()) {
            if let ConnectionEvent::Closed(reason) = event {
                online.disconnected = Some(reason);
            }
        }
        let eye = state(engine.game_loop()).player.body.position;
        let mut figures: Vec<(glam::Vec3, f32)> = online
            .server
            .avatars()
            .into_iter()
            .map(|avatar| (avatar.feet, avatar.yaw))
            .collect();
        figures.sort_by(|a, b| {
            a.0.distance_squared(eye)
                .total_cmp(&b.0.distance_squared(eye))
        });
        self.session.render().set_avatars(&figures);
    }

    /// The chat line's share of a window event: while a line is typed, keys
    /// are text (Escape drops it); on a server, [`CHAT_KEY`] opens one.
    /// `None`: not chat's.
    pub(super) fn chat_event(
        &mut self,
        engine: &mut Engine,
        event: &WindowEvent,
    ) -> Option<Reaction> {
        let online = self.online.as_mut()?;
        if online.chat_line.is_some() {
            // Typing a chat line: keys are text, not play (Escape drops it).
            return Some(match event {
                WindowEvent::Input {
                    event: InputEvent::KeyDown(Key::Escape),
                    ..
                } => {
                    online.chat_line = None;
                    Reaction::Handled
                }
                WindowEvent::Input { .. } | WindowEvent::MouseMotion { .. } => Reaction::Handled,
                _ => Reaction::Continue,
            });
        }
        if !self.menu_open
            && matches!(
                event,
                WindowEvent::Input {
                    event: InputEvent::KeyDown(CHAT_KEY),
                    ..
                }
            )
        {
            online.chat_line = Some(String::new());
            self.capture(engine, false);
            engine.request_redraw();
            return Some(Reaction::Handled);
        }
        None
    }

    /// Whether this world is played on a server.
    pub(in crate::app) fn is_online(&self) -> bool {
        self.online.is_some()
    }

    /// The server this world is played on, if it is.
    #[cfg(test)]
    pub(in crate::app) fn online(&self) -> Option<&Online> {
        self.online.as_ref().map(|online| &online.server)
    }

    /// Why the server connection ended, once it has.
    pub(in crate::app) fn disconnected(&self) -> Option<String> {
        let online = self.online.as_ref()?;
        online
            .disconnected
            .as_ref()
            .map(|reason| format!("disconnected from {}: {reason}", online.server.address))
    }

    /// Leaves the server (it keeps this player's record).
    pub(in crate::app) fn leave_server(&mut self) {
        if let Some(online) = &mut self.online {
            online.server.leave();
        }
    }
}
