//! Deadlines: a connection must say hello within
//! [`ServerConfig::hello_timeout`](super::ServerConfig::hello_timeout),
//! and a player must not fall silent for longer than
//! [`ServerConfig::silence_timeout`](super::ServerConfig::silence_timeout)
//! (clients send input every tick: silence is a dead or stalled client).
//! Both count server ticks, so a test on the manual clock sees them too.

use crafty_net::Link;
use crafty_net::protocol::Refusal;

use super::connection::Phase;
use super::{Server, TickReport};

impl<L: Link> Server<L> {
    /// Closes connections past their hello deadline and players silent
    /// too long.
    pub(super) fn enforce_deadlines(&mut self, report: &mut TickReport) {
        let hello = self.config.ticks(self.config.hello_timeout);
        let silence = self.config.ticks(self.config.silence_timeout);
        for index in 0..self.connections.len() {
            let connection = &self.connections[index];
            match &connection.phase {
                Phase::Joining if self.tick.saturating_sub(connection.opened_at) >= hello => {
                    self.refuse(index, Refusal::TooSlow, report);
                }
                Phase::Playing(playing)
                    if self.tick.saturating_sub(playing.heard_at) >= silence =>
                {
                    let reason = format!(
                        "nothing heard for {} s",
                        self.config.silence_timeout.as_secs()
                    );
                    self.kick(index, &reason, report);
                }
                _ => {}
            }
        }
    }
}
