//! A world's record as stored: decoded, upgraded from older format
//! versions, its key made its identity, with the edits old versions kept
//! inline.

use serde_json::Value;
use taos_storage::Record;

use super::SaveError;
use crate::save::record::{CURRENT_VERSION, SavedWorld};
use crate::world::BlockEdit;

/// A record decoded and upgraded, with edits an old version kept inline.
pub(super) struct Decoded {
    pub(super) world: SavedWorld,
    pub(super) stored_version: u32,
    pub(super) inline_edits: Vec<BlockEdit>,
}

pub(super) fn decode_record(id: &str, bytes: &[u8]) -> Result<Decoded, SaveError> {
    let corrupt = |reason: String| SaveError::Corrupt {
        id: id.to_owned(),
        reason,
    };
    let value: Value = serde_json::from_slice(bytes).map_err(|e| corrupt(e.to_string()))?;
    // The engine's envelope `{"version", "data"}`, or a bare record of the
    // original game (its own optional `version`, 0 when missing).
    let (version, mut data) = match value {
        Value::Object(mut map)
            if map.len() == 2 && map.contains_key("data") && map.contains_key("version") =>
        {
            let version = map.get("version").and_then(Value::as_u64);
            let data = map.remove("data").unwrap_or_default();
            (version, data)
        }
        Value::Object(map) => {
            let version = match map.get("version") {
                None | Some(Value::Null) => Some(0),
                Some(v) => v.as_u64(),
            };
            (version, Value::Object(map))
        }
        _ => return Err(corrupt("not a JSON object".to_owned())),
    };
    let version = version
        .and_then(|v| u32::try_from(v).ok())
        .ok_or_else(|| corrupt("its format version is not a small whole number".to_owned()))?;
    if version > CURRENT_VERSION {
        return Err(SaveError::NewerVersion {
            id: id.to_owned(),
            found: version,
            supported: CURRENT_VERSION,
        });
    }
    for from in version..CURRENT_VERSION {
        data =
            <SavedWorld as Record>::upgrade(from, data).map_err(|reason| SaveError::Migration {
                id: id.to_owned(),
                from,
                reason,
            })?;
    }
    let inline = data.as_object_mut().and_then(|map| map.remove("edits"));
    let inline_edits = match inline {
        Some(Value::Null) | None => Vec::new(),
        Some(edits) => {
            serde_json::from_value(edits).map_err(|e| corrupt(format!("inline edits: {e}")))?
        }
    };
    let mut world: SavedWorld = serde_json::from_value(data).map_err(|e| corrupt(e.to_string()))?;
    // The key is the world's identity: a record copied under a new key
    // (an export imported as a copy) must not act on the original.
    if world.id != id {
        if !world.id.is_empty() {
            log::warn!(
                "world {id:?}: its record names id {:?}; the key wins",
                world.id
            );
        }
        id.clone_into(&mut world.id);
    }
    world.version = CURRENT_VERSION;
    Ok(Decoded {
        world,
        stored_version: version,
        inline_edits,
    })
}
