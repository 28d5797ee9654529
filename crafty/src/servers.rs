//! [`KnownServers`]: the servers this player joined, each with the name
//! played there and the token the server issued, kept beside the settings
//! so that joining again brings back the same player (their place and
//! belongings) after the game restarts.
//!
//! A token is the only proof a player is who the name says: it is kept in
//! the player's own storage and sent only to the server that issued it.

use crafty_net::protocol::Token;
use serde::{Deserialize, Serialize};
use taos_engine::storage::{Database as _, Record, StorageBackend, StorageError};

use crate::save::{SETTINGS_STORE, WorldStore};

/// The key of the record in the settings store.
const SERVERS_KEY: &str = "servers";
/// Servers remembered at most (the most recently joined first).
pub const MAX_KNOWN_SERVERS: usize = 32;

/// One server joined: where, as whom, and the token it gave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnownServer {
    /// The address as typed (`host:port`).
    pub address: String,
    /// The player's name there.
    pub name: String,
    /// The token, as 32 hexadecimal digits.
    pub token: String,
}

/// The servers joined, most recent first; see the [module docs](self).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnownServers {
    /// The servers, most recently joined first.
    pub servers: Vec<KnownServer>,
}

impl Record for KnownServers {}

impl KnownServers {
    /// The stored list; an unreadable one reads as empty (a damaged record
    /// costs the tokens, never the game).
    ///
    /// # Errors
    /// The database could not be read at all.
    pub async fn load<B: StorageBackend>(store: &WorldStore<B>) -> Result<Self, StorageError> {
        match store
            .database()
            .get::<Self>(SETTINGS_STORE, SERVERS_KEY)
            .await
        {
            Ok(found) => Ok(found.unwrap_or_default()),
            Err(
                error @ (StorageError::Decode { .. }
                | StorageError::NewerRecord { .. }
                | StorageError::Migration { .. }),
            ) => {
                log::warn!("the list of known servers is unreadable, starting afresh: {error}");
                Ok(Self::default())
            }
            Err(error) => Err(error),
        }
    }

    /// Stores the list.
    ///
    /// # Errors
    /// Storage failures (a full disk, a quota): the tokens then last only
    /// this run.
    pub async fn save<B: StorageBackend>(&self, store: &WorldStore<B>) -> Result<(), StorageError> {
        store
            .database()
            .put(SETTINGS_STORE, SERVERS_KEY, self)
            .await
    }

    /// The token `address` gave `name`, if one is known and readable.
    #[must_use]
    pub fn token(&self, address: &str, name: &str) -> Option<Token> {
        self.servers
            .iter()
            .find(|s| s.address == address && s.name == name)
            .and_then(|s| token_from_hex(&s.token))
    }

    /// Remembers `token` for `name` on `address`, first in the list; the
    /// oldest beyond [`MAX_KNOWN_SERVERS`] are forgotten.
    pub fn remember(&mut self, address: &str, name: &str, token: Token) {
        self.servers
            .retain(|s| !(s.address == address && s.name == name));
        self.servers.insert(
            0,
            KnownServer {
                address: address.to_owned(),
                name: name.to_owned(),
                token: token.0.iter().map(|b| format!("{b:02x}")).collect(),
            },
        );
        self.servers.truncate(MAX_KNOWN_SERVERS);
    }

    /// The most recently joined server, for the launcher's fields.
    #[must_use]
    pub fn last(&self) -> Option<&KnownServer> {
        self.servers.first()
    }
}

/// 32 hexadecimal digits as a token (`None` for anything else).
fn token_from_hex(text: &str) -> Option<Token> {
    if text.len() != 32 || !text.is_ascii() {
        return None;
    }
    let mut bytes = [0u8; 16];
    for (i, byte) in bytes.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(Token(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_round_trip_and_bad_ones_are_ignored() {
        let mut known = KnownServers::default();
        let token = Token([0xab; 16]);
        known.remember("10.0.0.2:30000", "Ada", token);
        known.remember("10.0.0.3:30000", "Ada", Token([1; 16]));
        known.remember("10.0.0.2:30000", "Ada", token);
        assert_eq!(known.servers.len(), 2);
        assert_eq!(known.last().unwrap().address, "10.0.0.2:30000");
        assert_eq!(known.token("10.0.0.2:30000", "Ada"), Some(token));
        assert_eq!(known.token("10.0.0.2:30000", "Bob"), None);
        for bad in ["", "zz", &"é".repeat(16), &"0".repeat(31), &"g".repeat(32)] {
            assert_eq!(token_from_hex(bad), None, "{bad:?}");
        }
        for i in 0..40u8 {
            known.remember(&format!("h{i}:1"), "Ada", Token([i; 16]));
        }
        assert_eq!(known.servers.len(), MAX_KNOWN_SERVERS);
    }

    #[test]
    fn the_list_survives_a_restart() {
        use taos_engine::storage::{MemoryBackend, block_on};
        let backend = MemoryBackend::new();
        let store = block_on(WorldStore::open(&backend)).unwrap();
        let mut known = KnownServers::default();
        known.remember("127.0.0.1:30000", "Ada", Token([9; 16]));
        block_on(known.save(&store)).unwrap();
        drop(store);
        let store = block_on(WorldStore::open(&backend)).unwrap();
        let loaded = block_on(KnownServers::load(&store)).unwrap();
        assert_eq!(loaded.token("127.0.0.1:30000", "Ada"), Some(Token([9; 16])));
    }
}
