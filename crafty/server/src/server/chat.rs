//! Chat: a player's line goes to everyone playing, at most one per
//! [`CHAT_TICKS`].

use crafty_net::Link;
use crafty_net::protocol::{ServerMessage, clean_chat};

use super::Server;
use super::connection::Phase;

/// Ticks between one player's chat lines (one a second at 20 Hz); faster
/// lines are dropped.
pub const CHAT_TICKS: u64 = 20;

impl<L: Link> Server<L> {
    /// A chat line from connection `index`: sent to everyone playing,
    /// without characters that reorder or hide text ([`clean_chat`]),
    /// unless it comes faster than one per [`CHAT_TICKS`] or is empty
    /// once cleaned.
    pub(super) fn chat(&mut self, index: usize, text: &str) {
        let tick = self.tick;
        let Phase::Playing(playing) = &mut self.connections[index].phase else {
            return;
        };
        if tick < playing.chat_after {
            // Faster than CHAT_TICKS a line: dropped.
            return;
        }
        playing.chat_after = tick + CHAT_TICKS;
        let text = clean_chat(text);
        if text.trim().is_empty() {
            return;
        }
        let line = ServerMessage::Chat {
            from: playing.name.clone(),
            text,
        };
        self.broadcast(&line);
    }

    pub(super) fn broadcast(&mut self, message: &ServerMessage) {
        for connection in &mut self.connections {
            if matches!(connection.phase, Phase::Playing(_)) {
                connection.send(message);
            }
        }
    }
}
