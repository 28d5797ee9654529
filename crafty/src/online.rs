//! [`Online`]: crafty played on a multiplayer server, shared by the window
//! and tests.
//!
//! The local game runs as in single player, at the server's tick rate: the
//! player's own controller moves it at once from the keys (that is the
//! prediction the player sees). After each frame, [`Online::sync`] sends
//! every tick just played (its flags and the look it started from) and
//! every block the player changed, then takes in what the server said:
//! other players' edits and refused edits of this player go into the
//! game's world, and a correction of the predicted body puts the player
//! where the server's replay says. The [`Connection`] keeps its own
//! prediction of the player, stepped with the same input by the same code
//! as the server, which is what is replayed on a correction.
//!
//! Nothing of the world is saved locally (the server keeps the world and
//! the player), but the changed chunks the server sends are cached:
//! [`Online::join_cached`] keeps them in a [`GameChunkCache`], so joining
//! again downloads only what changed. [`Online::join_cost`] says what the
//! join cost once the chunks stop coming.

use crafty_client::connection::Welcome;
use crafty_client::{Connection, ConnectionEvent};
use crafty_net::Link;
use crafty_net::protocol::{EditAction, TickInput, Token};
use glam::Vec3;
use taos_engine::game_loop::{Clock, GameLoop};

use crate::chunk_cache::GameChunkCache;
use crate::game::{PlayerPose, set_pose, state, state_mut};
use crate::inventory::{GameMode, restore_inventory};
use crate::player::Body;
use crate::render::CraftyRenderHandle;
use crate::save::PlayerState;
use crate::session::{OnlineError, Session};
use crate::world::BlockType;

/// The connection ended before the server let the player in: refused, a
/// protocol version mismatch, or closed; the reason, as the connection
/// says it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct JoinError {
    /// Why the connection ended.
    pub reason: String,
}

/// A server could not be connected to.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ConnectError {
    /// The page refused the address (a malformed URL, a blocked port);
    /// natively nothing is refused up front (a server that cannot be
    /// reached closes the connection with the reason instead).
    #[error("cannot reach {address}: {reason}")]
    Refused {
        /// The address asked for.
        address: String,
        /// What the page said.
        reason: String,
    },
}

/// Syncs without a changed chunk after which a join counts as done (a
/// second at 20 Hz).
const JOIN_QUIET_SYNCS: u32 = 20;

/// What joining cost in chunks: those shown from the cache, those
/// downloaded, and the bytes of chunk messages (versions and snapshots).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JoinCost {
    /// Changed chunks shown from the cache.
    pub from_cache: usize,
    /// Changed chunks downloaded.
    pub downloaded: usize,
    /// Bytes of chunk messages received.
    pub chunk_bytes: u64,
}

impl std::fmt::Display for JoinCost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "joined: {} chunks from the cache, {} downloaded, ",
            self.from_cache, self.downloaded
        )?;
        if self.chunk_bytes < 1000 {
            write!(f, "{} B", self.chunk_bytes)
        } else {
            write!(f, "{:.1} kB", self.chunk_bytes as f64 / 1000.0)
        }
    }
}

/// Watches the chunk counters after the welcome until they stop moving.
#[derive(Debug, Default)]
struct JoinWatch {
    /// Syncs in a row the counters did not move.
    quiet: u32,
    /// The counters at the last sync: cached, fetched, bytes.
    last: (usize, usize, u64),
}

/// A connection that may be any transport (a socket natively, a
/// WebSocket in the page, memory in tests).
pub type AnyConnection = Connection<Box<dyn Link>>;

/// Another player as the game shows them.
#[derive(Debug, Clone, PartialEq)]
pub struct Avatar {
    /// Their name (their number until the roster names them).
    pub name: String,
    /// Feet position.
    pub feet: Vec3,
    /// Heading, radians.
    pub yaw: f32,
}

/// crafty on a server; see the [module docs](self).
pub struct Online {
    /// The connection to the server.
    pub connection: AnyConnection,
    /// The server's address, as the player typed it.
    pub address: String,
    /// Entries of the game world's edit log already sent or taken from the
    /// server.
    edits_handled: usize,
    /// What arrived with the welcome (the world's edits, the inventory),
    /// applied by the first [`sync`](Self::sync).
    held: Vec<ConnectionEvent>,
    /// Where the server's chunks are kept between joins, if anywhere.
    cache: Option<GameChunkCache>,
    join_watch: JoinWatch,
    join_cost: Option<JoinCost>,
}

impl std::fmt::Debug for Online {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Online")
            .field("address", &self.address)
            .field("name", &self.connection.name)
            .field("player", &self.connection.player)
            .finish_non_exhaustive()
    }
}

impl Online {
    /// Says hello to the server on `link` as `name` (with `token`, to come
    /// back as the same player); [`welcome`](Self::welcome) waits for the
    /// answer.
    pub fn join(address: &str, name: &str, link: Box<dyn Link>, token: Option<Token>) -> Self {
        Self {
            connection: Connection::join(name, link, token).predicting(),
            address: address.to_owned(),
            edits_handled: 0,
            held: Vec::new(),
            cache: None,
            join_watch: JoinWatch::default(),
            join_cost: None,
        }
    }

    /// [`join`](Self::join), keeping the server's chunks in `cache` (made
    /// for this `address`): what it holds is shown at once, and only the
    /// chunks that changed are downloaded. Nothing is read from the server
    /// before the cache has read what it stored.
    pub fn join_cached(
        address: &str,
        name: &str,
        link: Box<dyn Link>,
        token: Option<Token>,
        cache: GameChunkCache,
    ) -> Self {
        let connection = Connection::join(name, link, token)
            .predicting()
            .caching(Box::new(cache.handle()));
        Self {
            connection,
            address: address.to_owned(),
            edits_handled: 0,
            held: Vec::new(),
            cache: Some(cache),
            join_watch: JoinWatch::default(),
            join_cost: None,
        }
    }

    /// Reads what arrived while joining: `Ok(Some)` once the server let
    /// the player in, `Ok(None)` while it has not answered yet.
    ///
    /// # Errors
    /// Why the connection ended (refused, a version mismatch, closed).
    pub fn welcome(&mut self) -> Result<Option<Welcome>, JoinError> {
        if let Some(cache) = &mut self.cache
            && !cache.poll_loaded()
        {
            // The server's answers wait in the link until the cache is
            // filled: its region versions are checked against it.
            return Ok(None);
        }
        let mut events = self.connection.receive().into_iter();
        while let Some(event) = events.next() {
            match event {
                ConnectionEvent::Welcomed(welcome) => {
                    // The world's edits and the inventory come right after.
                    self.held.extend(events);
                    return Ok(Some(welcome));
                }
                ConnectionEvent::Closed(reason) => return Err(JoinError { reason }),
                _ => {}
            }
        }
        Ok(None)
    }

    /// The game for `welcome`: the seed's world at the server's tick rate,
    /// the player where the server put it. Edits the server sends later
    /// arrive through [`sync`](Self::sync).
    ///
    /// # Errors
    /// The server's tick rate is not one the loop can run.
    pub fn start_session(
        &mut self,
        welcome: &Welcome,
        clock: impl Clock + 'static,
        render: CraftyRenderHandle,
    ) -> Result<(Session, GameLoop), OnlineError> {
        let body = welcome.body;
        let player = PlayerState {
            x: body.position[0],
            y: body.position[1],
            z: body.position[2],
            yaw: body.yaw,
            pitch: body.pitch,
        };
        let name = format!("{} on {}", self.connection.name, self.address);
        let (session, game) = Session::online(
            &name,
            welcome.seed,
            welcome.mode,
            player,
            welcome.tick_hz,
            clock,
            render,
        )?;
        let mut game = game;
        // The sky and the weather where the server's clock has them.
        state_mut(&mut game).pass_time(welcome.tick as f64 / f64::from(welcome.tick_hz));
        self.edits_handled = state(&game).world.edits().len();
        Ok((session, game))
    }

    /// After the loop ran this frame: sends the ticks played and the
    /// player's edits, then applies what the server said. Returns the
    /// events the window shows (chat, the end of the connection).
    pub fn sync(&mut self, game_loop: &mut GameLoop) -> Vec<ConnectionEvent> {
        for tick in state_mut(game_loop).take_played() {
            self.connection.send_input(TickInput {
                flags: tick.flags,
                yaw: tick.yaw,
                pitch: tick.pitch,
            });
        }
        let local: Vec<_> = state(game_loop).world.edits()[self.edits_handled..].to_vec();
        for edit in local {
            let action = if edit.block == BlockType::Air {
                EditAction::Break
            } else {
                EditAction::Place {
                    block: edit.block.into(),
                }
            };
            self.connection
                .edit(glam::IVec3::new(edit.x, edit.y, edit.z), action);
        }
        let mut events = std::mem::take(&mut self.held);
        events.extend(self.connection.receive());
        for event in &events {
            match event {
                ConnectionEvent::Block { at, block } => {
                    state_mut(game_loop).set_block_from_server(*at, *block);
                }
                ConnectionEvent::Inventory(inventory) => {
                    let player = &mut state_mut(game_loop).into_inner().player;
                    if player.mode == GameMode::Survival {
                        (player.inventory, player.hotbar) = restore_inventory(inventory);
                    }
                }
                ConnectionEvent::Corrected(body) => set_pose(
                    game_loop,
                    PlayerPose {
                        body: Body {
                            position: Vec3::from_array(body.position),
                            velocity: Vec3::from_array(body.velocity),
                            on_ground: body.on_ground,
                            flying: body.flying,
                            crouching: body.crouching,
                        },
                        yaw: body.yaw,
                        pitch: body.pitch,
                    },
                ),
                _ => {}
            }
        }
        self.edits_handled = state(game_loop).world.edits().len();
        self.watch_join();
        if let Some(cache) = &mut self.cache {
            cache.flush(false);
        }
        events
    }

    /// Once the chunk counters have not moved for [`JOIN_QUIET_SYNCS`]
    /// syncs, notes (and logs) what the join cost.
    fn watch_join(&mut self) {
        if self.join_cost.is_some() || !self.connection.is_playing() {
            return;
        }
        let connection = &self.connection;
        let now = (
            connection.chunks_cached,
            connection.chunks_fetched,
            connection.chunk_bytes,
        );
        let watch = &mut self.join_watch;
        if now == watch.last {
            watch.quiet += 1;
        } else {
            watch.quiet = 0;
            watch.last = now;
        }
        if watch.quiet < JOIN_QUIET_SYNCS {
            return;
        }
        let cost = JoinCost {
            from_cache: now.0,
            downloaded: now.1,
            chunk_bytes: now.2,
        };
        match &self.cache {
            Some(cache) => log::info!(
                "{cost} on {} (the cache held {} regions, {} kB, for this server{})",
                self.address,
                cache.loaded().regions,
                cache.loaded().bytes / 1000,
                if cache.is_persistent() {
                    ""
                } else {
                    "; it is not being stored"
                }
            ),
            None => log::info!("{cost} on {} (no chunk cache)", self.address),
        }
        self.join_cost = Some(cost);
    }

    /// What joining cost in chunks, once they stopped coming.
    #[must_use]
    pub fn join_cost(&self) -> Option<JoinCost> {
        self.join_cost
    }

    /// The chunk cache, if it joined with one.
    #[must_use]
    pub fn chunk_cache(&self) -> Option<&GameChunkCache> {
        self.cache.as_ref()
    }

    /// The other players where they are shown now, with their names.
    #[must_use]
    pub fn avatars(&self) -> Vec<Avatar> {
        let connection = &self.connection;
        connection
            .others
            .shown(connection.others.newest() as f64)
            .into_iter()
            .map(|shown| Avatar {
                name: connection
                    .roster
                    .get(&shown.player)
                    .cloned()
                    .unwrap_or_else(|| format!("player {}", shown.player)),
                feet: shown.position,
                yaw: shown.yaw,
            })
            .collect()
    }

    /// Leaves the server (the server keeps the player's record) and
    /// writes what the chunk cache has not stored yet.
    pub fn leave(&mut self) {
        self.connection.leave();
        if let Some(cache) = &mut self.cache {
            cache.flush(true);
        }
    }
}

/// Starts connecting to a server at `address` (`host:port` or `ws://…`,
/// plain; `wss://host:port`, TLS, trusting the public CAs and those in
/// the PEM files `CRAFTY_CA_CERTS` names) over WebSocket, on a thread of
/// its own: the window goes on meanwhile, and a server that cannot be
/// reached ends the connection with the reason ([`Online::welcome`]
/// returns it).
///
/// # Errors
/// None natively (kept for the browser's, which can refuse an address).
#[cfg(not(target_arch = "wasm32"))]
pub fn connect(address: &str) -> Result<Box<dyn Link>, ConnectError> {
    Ok(Box::new(crafty_net::socket::PendingSocketLink::connect(
        address,
    )))
}

/// Connects to a server at `address` (`host:port`, or a `ws://` or
/// `wss://` URL) over the page's WebSocket.
///
/// # Errors
/// The page refused the address.
#[cfg(target_arch = "wasm32")]
pub fn connect(address: &str) -> Result<Box<dyn Link>, ConnectError> {
    let url = if address.starts_with("ws://") || address.starts_with("wss://") {
        address.to_owned()
    } else {
        format!("ws://{address}/")
    };
    let link = crafty_net::web_socket::WebSocketLink::connect(&url).map_err(|e| {
        ConnectError::Refused {
            address: address.to_owned(),
            reason: e.to_string(),
        }
    })?;
    Ok(Box::new(link))
}
