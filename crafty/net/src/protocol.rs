//! The messages crafty's server and clients exchange: one postcard-encoded
//! value per transport message.
//!
//! A client's first message is [`ClientMessage::Hello`]; the server answers
//! [`ServerMessage::Welcome`] or [`ServerMessage::Refused`]. `Hello` is the
//! first variant and `version` its first field in every protocol version,
//! so [`peek_version`] reads a client's version even when the rest of its
//! message is laid out differently: a mismatch is a clear refusal, not a
//! decoding error.
//!
//! Input travels as crafty's 32-bit action flags, Marathon style, with the
//! view angles each tick starts from: each [`ClientMessage::Input`] carries
//! the last few ticks (at most [`INPUT_WINDOW`]), so a lost message costs
//! nothing once the next one arrives, at about 12 bytes per tick.
//!
//! Everything a client sends is checked by [`ClientMessage::decode`]
//! before the server looks at it: its size ([`MAX_CLIENT_MESSAGE`]), its
//! encoding (no trailing bytes), names, chat text and input windows. A
//! message that fails is an error for that client only.

use serde::{Deserialize, Serialize};

use crate::chunks::{ChunkData, MAX_WANTED_CHUNKS, WorldId};

/// This build's protocol version.
pub const PROTOCOL_VERSION: u16 = 3;
/// The largest message a client may send, in bytes.
pub const MAX_CLIENT_MESSAGE: usize = 512;
/// The largest message a server sends, in bytes (a batch of chunks).
pub const MAX_SERVER_MESSAGE: usize = 256 * 1024;
/// The longest player name, in characters.
pub const MAX_NAME_CHARS: usize = 16;
/// The longest chat line, in characters.
pub const MAX_CHAT_CHARS: usize = 200;
/// The most ticks of flags one input message carries.
pub const INPUT_WINDOW: usize = 16;

/// The secret a server issues a player on first join; the client keeps it
/// and shows it to join again as the same player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Token(pub [u8; 16]);

/// One tick of a player's input: crafty's action flags, and the view
/// angles the tick starts from (mouse look turns between ticks, so the
/// server needs them to step the player as the client did).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TickInput {
    /// crafty's action flags.
    pub flags: u32,
    /// Heading, radians (any finite value; wrapped when applied).
    pub yaw: f32,
    /// Radians above the horizon (clamped when applied).
    pub pitch: f32,
}

/// What a client asks of a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum EditAction {
    /// Break it.
    Break,
    /// Place this block type (crafty's block number) there.
    Place {
        /// The block type.
        block: u8,
    },
}

/// A message from a client to the server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ClientMessage {
    /// The first message: who joins. Always the first variant, `version`
    /// always its first field.
    Hello {
        /// The client's [`PROTOCOL_VERSION`].
        version: u16,
        /// The player's name: 1 to [`MAX_NAME_CHARS`] letters, digits, `_`
        /// or `-`.
        name: String,
        /// The token a server gave this name before (`None` on a first
        /// join).
        token: Option<Token>,
        /// How far the client draws, in chunks: the server sends the
        /// changed chunks within it (and caps it at its own limit).
        view: u8,
    },
    /// The input of ticks `last_tick + 1 - ticks.len() ..= last_tick`,
    /// oldest first (1 to [`INPUT_WINDOW`] of them), and how much of the
    /// world's edit log the client has (its acknowledgement of
    /// [`ServerMessage::Edits`]).
    Input {
        /// The newest tick the input is for.
        last_tick: u64,
        /// Each tick's flags and look, oldest first.
        ticks: Vec<TickInput>,
        /// Edits of the world's log the client has applied, from the start.
        edits_seen: u64,
    },
    /// Break or place a block; the server answers with
    /// [`ServerMessage::EditResult`] for `seq`. The server makes it right
    /// after stepping the player's input tick `after_tick`, as the client
    /// did, so the player's predicted path and the server's cross it at
    /// the same tick.
    Edit {
        /// The client's number for this edit, counting up.
        seq: u32,
        /// The block.
        at: [i32; 3],
        /// Break or place.
        action: EditAction,
        /// The client's input tick the edit was made after.
        after_tick: u64,
    },
    /// A line of chat.
    Chat {
        /// At most [`MAX_CHAT_CHARS`] characters, no control characters.
        text: String,
    },
    /// The snapshots of these chunks, please (1 to
    /// [`MAX_WANTED_CHUNKS`]): the ones a [`ServerMessage::ChunkVersions`]
    /// listed that the client's cache does not hold at that version.
    WantChunks {
        /// Chunk positions.
        chunks: Vec<[i32; 3]>,
    },
    /// The changed chunks of these regions, please (1 to
    /// [`MAX_WANTED_CHUNKS`]): the ones a [`ServerMessage::RegionVersions`]
    /// listed that the client's cache does not hold at that version.
    WantRegions {
        /// Region positions (x, z).
        regions: Vec<[i32; 2]>,
    },
}

/// Why a server turned a client away.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum Refusal {
    /// The client speaks another protocol version.
    #[error("the server speaks protocol {server}, this client {client}: update the older one")]
    VersionMismatch {
        /// The server's version.
        server: u16,
        /// The client's.
        client: u16,
    },
    /// The name is empty, too long, or has characters names may not have.
    #[error("names are 1 to 16 letters, digits, '_' or '-'")]
    BadName,
    /// Another player has this name, and the client's token is not theirs.
    #[error("that name belongs to another player")]
    NameTaken,
    /// That player is already connected.
    #[error("that player is already playing on this server")]
    AlreadyPlaying,
    /// The server has as many players as it takes.
    #[error("the server is full")]
    Full,
    /// The first message was not a hello the server could read.
    #[error("the first message was not a hello")]
    NoHello,
    /// The server cannot take this player now (its database did not
    /// answer): try again later.
    #[error("the server cannot take you now: try again later")]
    TryLater,
    /// No hello came within the server's deadline.
    #[error("no hello came in time")]
    TooSlow,
}

/// A player's body as the server last stepped it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct BodyState {
    /// Feet position.
    pub position: [f32; 3],
    /// Velocity, metres per second.
    pub velocity: [f32; 3],
    /// Heading, radians.
    pub yaw: f32,
    /// Look above the horizon, radians.
    pub pitch: f32,
    /// Standing on something.
    pub on_ground: bool,
    /// Flying (creative).
    pub flying: bool,
    /// Crouching.
    pub crouching: bool,
}

/// Another player, as a client sees them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RemotePlayer {
    /// The server's number for them.
    pub player: u32,
    /// Feet position.
    pub position: [f32; 3],
    /// Heading, radians.
    pub yaw: f32,
}

/// One entry of the world's edit log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoggedEdit {
    /// The block.
    pub at: [i32; 3],
    /// What was put there (crafty's block number; 0 is air).
    pub block: u8,
}

/// The most edit-log entries one [`ServerMessage::Edits`] carries.
pub const EDITS_PER_MESSAGE: usize = 1024;

/// A message from the server to a client.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ServerMessage {
    /// The client joined.
    Welcome {
        /// The server's [`PROTOCOL_VERSION`].
        version: u16,
        /// This player's token (keep it to come back as them).
        token: Token,
        /// This player's number.
        player: u32,
        /// The server's tick.
        tick: u64,
        /// The world's seed (the client generates untouched terrain).
        seed: u64,
        /// Where this player is.
        body: BodyState,
        /// The server's ticks per second (a client predicts at this rate).
        tick_hz: u32,
        /// Whether this player may fly (creative).
        can_fly: bool,
        /// The world's identity (what a client's chunk cache is keyed by).
        world: WorldId,
        /// The edit-log length the client starts from: it receives the
        /// log's entries from here, and the changed chunks as snapshots
        /// ([`ServerMessage::ChunkVersions`]).
        edits_from: u64,
    },
    /// The client was turned away (the server closes the link).
    Refused(Refusal),
    /// The world as of `tick`: this player's body after their input up to
    /// `input_tick`, and the others.
    State {
        /// The server's tick.
        tick: u64,
        /// The newest tick of this player's input the server has stepped.
        input_tick: u64,
        /// This player's body.
        you: BodyState,
        /// Everyone else within view.
        others: Vec<RemotePlayer>,
    },
    /// What became of the client's edit `seq`.
    EditResult {
        /// The client's number for it.
        seq: u32,
        /// Done (else: undo it, the block is as `block` says).
        accepted: bool,
        /// The block.
        at: [i32; 3],
        /// What is there now (crafty's block number).
        block: u8,
        /// The length of the world's edit log when this was answered:
        /// `block` is as of that entry (a client that already applied a
        /// later entry there keeps that one; messages may be reordered).
        log_len: u64,
    },
    /// Entries `first..first + edits.len()` of the world's edit log (every
    /// edit since the world was made, in order: with the seed they give
    /// every block). Sent until the client's input says it has them, so a
    /// lost message is sent again.
    Edits {
        /// The index of the first entry.
        first: u64,
        /// The entries.
        edits: Vec<LoggedEdit>,
    },
    /// The regions with changed chunks that came within the player's
    /// view, each with its version (its newest chunk's): the client asks
    /// for those it has not cached at that version
    /// ([`ClientMessage::WantRegions`]). Unlisted regions are the seed's
    /// terrain.
    RegionVersions {
        /// Region position (x, z) and version.
        regions: Vec<([i32; 2], u64)>,
    },
    /// Every changed chunk of a region, with each snapshot's version: the
    /// client asks for those it has not cached ([`ClientMessage::WantChunks`]).
    ChunkVersions {
        /// The region.
        region: [i32; 2],
        /// The region's version.
        version: u64,
        /// Chunk position and version.
        chunks: Vec<([i32; 3], u64)>,
    },
    /// Chunk snapshots the client asked for.
    Chunks {
        /// The snapshots.
        chunks: Vec<ChunkData>,
    },
    /// A line of chat.
    Chat {
        /// Who said it.
        from: String,
        /// What they said.
        text: String,
    },
    /// A survival player's belongings as the server keeps them: sent on
    /// joining and after a refused edit (the client's own count was
    /// wrong). Creative players get none.
    Inventory {
        /// Block number and count of each stack, in the order they were
        /// first acquired.
        stacks: Vec<(u8, u32)>,
        /// The block number in each hotbar slot, left to right.
        hotbar: Vec<Option<u8>>,
    },
    /// Who is playing: every player's number and name (sent on joining and
    /// whenever someone joins or leaves).
    Roster {
        /// Player number and name, for everyone connected (this player
        /// too).
        players: Vec<(u32, String)>,
    },
    /// The server is closing this link (it is shutting down, or the client
    /// broke the rules).
    Goodbye {
        /// Why, for the player.
        reason: String,
    },
}

/// A message that could not be encoded or was refused on decoding.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProtocolError {
    /// Over the size limit (checked before decoding).
    #[error("a message of {len} bytes is over the {max}-byte limit")]
    TooLarge {
        /// Its size.
        len: usize,
        /// The limit.
        max: usize,
    },
    /// Not a message of this protocol.
    #[error("malformed message: {0}")]
    Malformed(String),
    /// Well formed, but a value is out of bounds.
    #[error("invalid message: {0}")]
    Invalid(&'static str),
}

impl ClientMessage {
    /// The message's bytes.
    ///
    /// # Errors
    /// [`ProtocolError::TooLarge`] over [`MAX_CLIENT_MESSAGE`] (a chat line
    /// too long, an input window too wide).
    pub fn encode(&self) -> Result<Vec<u8>, ProtocolError> {
        encode(self, MAX_CLIENT_MESSAGE)
    }

    /// Reads and checks a client's message.
    ///
    /// # Errors
    /// [`ProtocolError`]: too large (checked first), malformed (including
    /// trailing bytes), or a name, chat line or input window out of
    /// bounds.
    pub fn decode(bytes: &[u8]) -> Result<Self, ProtocolError> {
        let message: Self = decode(bytes, MAX_CLIENT_MESSAGE)?;
        message.check()?;
        Ok(message)
    }

    fn check(&self) -> Result<(), ProtocolError> {
        match self {
            Self::Hello { name, .. } => {
                if !valid_name(name) {
                    return Err(ProtocolError::Invalid(
                        "a name is 1 to 16 letters, digits, '_' or '-'",
                    ));
                }
            }
            Self::Input { ticks, .. } => {
                if ticks.is_empty() || ticks.len() > INPUT_WINDOW {
                    return Err(ProtocolError::Invalid(
                        "an input window holds 1 to 16 ticks",
                    ));
                }
                if ticks
                    .iter()
                    .any(|t| !t.yaw.is_finite() || !t.pitch.is_finite())
                {
                    return Err(ProtocolError::Invalid("look angles must be finite"));
                }
            }
            Self::Chat { text } => {
                if text.chars().count() > MAX_CHAT_CHARS || text.chars().any(char::is_control) {
                    return Err(ProtocolError::Invalid(
                        "a chat line is at most 200 characters, none of them control characters",
                    ));
                }
            }
            Self::WantChunks { chunks } => {
                if chunks.is_empty() || chunks.len() > MAX_WANTED_CHUNKS {
                    return Err(ProtocolError::Invalid("ask for 1 to 32 chunks at a time"));
                }
            }
            Self::WantRegions { regions } => {
                if regions.is_empty() || regions.len() > MAX_WANTED_CHUNKS {
                    return Err(ProtocolError::Invalid("ask for 1 to 32 regions at a time"));
                }
            }
            Self::Edit { .. } => {}
        }
        Ok(())
    }
}

impl ServerMessage {
    /// The message's bytes.
    ///
    /// # Errors
    /// [`ProtocolError::TooLarge`] over [`MAX_SERVER_MESSAGE`].
    pub fn encode(&self) -> Result<Vec<u8>, ProtocolError> {
        encode(self, MAX_SERVER_MESSAGE)
    }

    /// Reads a server's message.
    ///
    /// # Errors
    /// [`ProtocolError`]: too large or malformed.
    pub fn decode(bytes: &[u8]) -> Result<Self, ProtocolError> {
        decode(bytes, MAX_SERVER_MESSAGE)
    }
}

/// `text` without the characters that reorder or hide what others see:
/// bidirectional overrides and isolates (U+202A..U+202E, U+2066..U+2069),
/// marks, zero-width and other format characters (Unicode's `Cf`
/// category as far as chat can carry it), and control characters.
#[must_use]
pub fn clean_chat(text: &str) -> String {
    text.chars().filter(|&c| !hides_or_reorders(c)).collect()
}

fn hides_or_reorders(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{034F}'
                | '\u{061C}'
                | '\u{115F}'
                | '\u{1160}'
                | '\u{17B4}'
                | '\u{17B5}'
                | '\u{180B}'..='\u{180F}'
                | '\u{200B}'..='\u{200F}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{206F}'
                | '\u{3164}'
                | '\u{FE00}'..='\u{FE0F}'
                | '\u{FEFF}'
                | '\u{FFA0}'
                | '\u{FFF0}'..='\u{FFFB}'
                | '\u{110BD}'
                | '\u{1D173}'..='\u{1D17A}'
                | '\u{E0000}'..='\u{E0FFF}'
        )
}

/// Whether `name` is a valid player name.
#[must_use]
pub fn valid_name(name: &str) -> bool {
    let count = name.chars().count();
    (1..=MAX_NAME_CHARS).contains(&count)
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// The protocol version of a client's hello, read from its first bytes
/// whatever the rest of the message holds (`None`: not a hello).
#[must_use]
pub fn peek_version(bytes: &[u8]) -> Option<u16> {
    // Variant 0 (Hello), then its first field, a varint u16.
    let (&variant, rest) = bytes.split_first()?;
    if variant != 0 {
        return None;
    }
    postcard::take_from_bytes::<u16>(rest)
        .ok()
        .map(|(version, _)| version)
}

fn encode<T: Serialize>(message: &T, max: usize) -> Result<Vec<u8>, ProtocolError> {
    let bytes =
        postcard::to_allocvec(message).map_err(|e| ProtocolError::Malformed(e.to_string()))?;
    if bytes.len() > max {
        return Err(ProtocolError::TooLarge {
            len: bytes.len(),
            max,
        });
    }
    Ok(bytes)
}

fn decode<'a, T: Deserialize<'a>>(bytes: &'a [u8], max: usize) -> Result<T, ProtocolError> {
    if bytes.len() > max {
        return Err(ProtocolError::TooLarge {
            len: bytes.len(),
            max,
        });
    }
    let (message, rest) =
        postcard::take_from_bytes(bytes).map_err(|e| ProtocolError::Malformed(e.to_string()))?;
    if !rest.is_empty() {
        return Err(ProtocolError::Malformed(format!(
            "{} bytes after the message",
            rest.len()
        )));
    }
    Ok(message)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hello(name: &str) -> ClientMessage {
        ClientMessage::Hello {
            version: PROTOCOL_VERSION,
            name: name.to_owned(),
            token: Some(Token([7; 16])),
            view: 8,
        }
    }

    #[test]
    fn chat_loses_what_reorders_or_hides_text() {
        assert_eq!(
            clean_chat("abc\u{202E}fed\u{2066}x\u{200B}y\u{FEFF}"),
            "abcfedxy"
        );
        assert_eq!(clean_chat("héllo wörld ✓ 日本"), "héllo wörld ✓ 日本");
        assert_eq!(clean_chat("tag\u{E0041}s"), "tags");
    }

    #[test]
    fn a_chunk_request_is_bounded() {
        let want = |n: usize| ClientMessage::WantChunks {
            chunks: vec![[-1_000_000, 3, 1_000_000]; n],
        };
        assert!(ClientMessage::decode(&want(MAX_WANTED_CHUNKS).encode().unwrap()).is_ok());
        assert!(ClientMessage::decode(&want(0).encode().unwrap()).is_err());
        let too_many = postcard::to_allocvec(&want(MAX_WANTED_CHUNKS + 1)).unwrap();
        assert!(ClientMessage::decode(&too_many).is_err());
    }

    #[test]
    fn every_client_message_round_trips() {
        let messages = [
            hello("Ada_1"),
            ClientMessage::Input {
                last_tick: 1_000_000,
                ticks: vec![tick(0), tick(1 << 15), tick(u32::MAX)],
                edits_seen: 12,
            },
            ClientMessage::Edit {
                seq: 9,
                at: [-5, 40, 1 << 20],
                action: EditAction::Place { block: 3 },
                after_tick: 1_000_000,
            },
            ClientMessage::Chat {
                text: "héllo".to_owned(),
            },
        ];
        for message in messages {
            let bytes = message.encode().unwrap();
            assert_eq!(ClientMessage::decode(&bytes).unwrap(), message);
        }
    }

    fn tick(flags: u32) -> TickInput {
        TickInput {
            flags,
            yaw: 1.5,
            pitch: -0.25,
        }
    }

    #[test]
    fn input_costs_about_twelve_bytes_a_tick() {
        let ticks = vec![tick((1 << 15) | (1 << 22) | (1 << 9)); INPUT_WINDOW];
        let bytes = ClientMessage::Input {
            last_tick: 123_456,
            ticks,
            edits_seen: 70_000,
        }
        .encode()
        .unwrap();
        assert!(
            bytes.len() <= 8 + 12 * INPUT_WINDOW,
            "{} bytes",
            bytes.len()
        );
    }

    #[test]
    fn hostile_messages_are_errors_not_panics() {
        let huge = vec![0u8; MAX_CLIENT_MESSAGE + 1];
        assert!(matches!(
            ClientMessage::decode(&huge),
            Err(ProtocolError::TooLarge { .. })
        ));
        assert!(matches!(
            ClientMessage::decode(&[200, 1, 2]),
            Err(ProtocolError::Malformed(_))
        ));
        assert!(matches!(
            ClientMessage::decode(&[]),
            Err(ProtocolError::Malformed(_))
        ));
        // A string claiming 4 billion bytes.
        assert!(ClientMessage::decode(&[3, 0xff, 0xff, 0xff, 0xff, 0x0f]).is_err());
        let mut trailing = hello("Ada").encode().unwrap();
        trailing.push(0);
        assert!(matches!(
            ClientMessage::decode(&trailing),
            Err(ProtocolError::Malformed(_))
        ));
        for bad in ["", "a b", "../../x", "seventeen_chars_x", "nul\0"] {
            let bytes = postcard::to_allocvec(&hello(bad)).unwrap();
            assert!(ClientMessage::decode(&bytes).is_err(), "{bad:?}");
        }
        let wide = postcard::to_allocvec(&ClientMessage::Input {
            last_tick: 1,
            ticks: vec![tick(0); INPUT_WINDOW + 1],
            edits_seen: 0,
        })
        .unwrap();
        assert!(ClientMessage::decode(&wide).is_err());
        let empty = postcard::to_allocvec(&ClientMessage::Input {
            last_tick: 1,
            ticks: Vec::new(),
            edits_seen: 0,
        })
        .unwrap();
        assert!(ClientMessage::decode(&empty).is_err());
        let nan = ClientMessage::Input {
            last_tick: 1,
            ticks: vec![TickInput {
                flags: 0,
                yaw: f32::NAN,
                pitch: 0.0,
            }],
            edits_seen: 0,
        };
        assert!(ClientMessage::decode(&postcard::to_allocvec(&nan).unwrap()).is_err());
        let bell = ClientMessage::Chat {
            text: "\u{7}".to_owned(),
        };
        assert!(ClientMessage::decode(&postcard::to_allocvec(&bell).unwrap()).is_err());
        let long = ClientMessage::Chat {
            text: "x".repeat(MAX_CHAT_CHARS + 1),
        };
        assert!(ClientMessage::decode(&long.encode().unwrap()).is_err());
    }

    #[test]
    fn the_version_is_read_from_any_hello() {
        let bytes = hello("Ada").encode().unwrap();
        assert_eq!(peek_version(&bytes), Some(PROTOCOL_VERSION));
        // A future hello with other fields after the version.
        let future = postcard::to_allocvec(&(0u8, 77u16, [1u8; 32], "more")).unwrap();
        assert_eq!(peek_version(&future), Some(77));
        let input = ClientMessage::Input {
            last_tick: 1,
            ticks: vec![tick(0)],
            edits_seen: 0,
        };
        assert_eq!(peek_version(&input.encode().unwrap()), None);
        assert_eq!(peek_version(&[]), None);
    }

    #[test]
    fn a_full_edit_batch_fits_a_server_message() {
        let edits = vec![
            LoggedEdit {
                at: [i32::MIN, 255, i32::MAX],
                block: 255,
            };
            EDITS_PER_MESSAGE
        ];
        let message = ServerMessage::Edits {
            first: u64::MAX,
            edits,
        };
        let bytes = message.encode().unwrap();
        assert_eq!(ServerMessage::decode(&bytes).unwrap(), message);
    }

    #[test]
    fn every_random_byte_string_decodes_or_errs() {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..20_000 {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            let len = (state >> 56) as usize % 64;
            let bytes: Vec<u8> = (0..len)
                .map(|i| (state.rotate_left(i as u32 * 7) >> 3) as u8)
                .collect();
            let _ = ClientMessage::decode(&bytes);
            let _ = ServerMessage::decode(&bytes);
            let _ = peek_version(&bytes);
        }
    }
}
