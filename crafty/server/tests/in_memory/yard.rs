//! A server and its clients on a perfect in-memory network, ticked by
//! hand: what the rules and security tests play in.

use std::time::Duration;

use crafty_client::bot::Bot;
use crafty_net::{Conditions, MemoryLink, MemoryNet};
use crafty_server::{Server, ServerConfig};

/// One server tick.
const TICK: Duration = Duration::from_millis(50);

/// A server and the network to it.
pub(crate) struct Yard {
    pub(crate) net: MemoryNet,
    pub(crate) server: Server<MemoryLink>,
}

impl Yard {
    /// A server with the default configuration.
    pub(crate) fn new() -> Self {
        Self::with(ServerConfig::default())
    }

    /// A server running `config`.
    pub(crate) fn with(config: ServerConfig) -> Self {
        Self {
            net: MemoryNet::new(Conditions::PERFECT, 1),
            server: Server::new(config),
        }
    }

    /// A bot that says hello as `name` (with `token`).
    pub(crate) fn join(&mut self, name: &str, token: Option<crafty_net::Token>) -> Bot {
        let (client, end) = self.net.connect();
        self.server.accept(end);
        Bot::join(name, client, token, 5)
    }

    /// A raw connection, for sending what a bot would not.
    pub(crate) fn raw(&mut self) -> MemoryLink {
        let (client, end) = self.net.connect();
        self.server.accept(end);
        client
    }

    /// `ticks` server ticks with every bot playing.
    pub(crate) fn run(&mut self, bots: &mut [&mut Bot], ticks: usize) {
        self.run_with(bots, &mut [], ticks);
    }

    /// `ticks` server ticks; the `playing` bots play each, the `silent`
    /// ones only read.
    pub(crate) fn run_with(
        &mut self,
        playing: &mut [&mut Bot],
        silent: &mut [&mut Bot],
        ticks: usize,
    ) {
        for _ in 0..ticks {
            for bot in playing.iter_mut() {
                bot.update(false);
            }
            for bot in silent.iter_mut() {
                bot.receive();
            }
            self.server.tick();
            self.net.advance(TICK);
        }
        for bot in playing.iter_mut() {
            bot.receive();
        }
        for bot in silent.iter_mut() {
            bot.receive();
        }
    }
}
