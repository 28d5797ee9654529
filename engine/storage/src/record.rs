//! Versioned records: the envelope every typed record is stored in, and
//! migration of older records on load.

use serde::{Deserialize, Serialize, de::DeserializeOwned};

use super::StorageError;

/// A value stored in an object store, with its format version.
///
/// Records are stored as JSON in an envelope `{"version": N, "data": ...}`.
/// [`Transaction::put`](super::Transaction::put) writes [`Record::VERSION`];
/// [`Transaction::get`](super::Transaction::get) reads a record of that version
/// directly, runs [`Record::upgrade`] step by step on an older one (in memory;
/// the stored record changes only when you put it back), and refuses a newer
/// one with [`StorageError::NewerRecord`], leaving it untouched.
///
/// ```
/// use serde::{Deserialize, Serialize};
/// use serde_json::{Value, json};
/// use taos_storage::Record;
///
/// #[derive(Serialize, Deserialize)]
/// struct SavedWorld {
///     name: String,
///     seed: u64,
///     game_mode: String, // added in version 2
/// }
///
/// impl Record for SavedWorld {
///     const VERSION: u32 = 2;
///     fn upgrade(from: u32, mut data: Value) -> Result<Value, String> {
///         match from {
///             // Version 1 had no game mode: those worlds were creative.
///             1 => {
///                 data["game_mode"] = json!("creative");
///                 Ok(data)
///             }
///             _ => Err(format!("no upgrade step from version {from}")),
///         }
///     }
/// }
/// ```
pub trait Record: Serialize + DeserializeOwned {
    /// The format version [`put`](super::Transaction::put) writes. Start at 1.
    const VERSION: u32 = 1;

    /// One upgrade step: turns the JSON `data` of a version-`from` record into
    /// version `from + 1`. Called repeatedly until the record reaches
    /// [`Record::VERSION`]. The default has no steps and refuses.
    ///
    /// # Errors
    /// A message naming what could not be migrated.
    fn upgrade(from: u32, data: serde_json::Value) -> Result<serde_json::Value, String> {
        let _ = data;
        Err(format!("no upgrade step registered from version {from}"))
    }
}

#[derive(Serialize)]
struct EnvelopeOut<'a, T> {
    version: u32,
    data: &'a T,
}

#[derive(Deserialize)]
struct Header {
    version: u32,
}

#[derive(Deserialize)]
struct Envelope<T> {
    data: T,
}

/// Encodes `value` in its versioned envelope.
pub(crate) fn encode<T: Record>(
    store: &str,
    key: &str,
    value: &T,
) -> Result<Vec<u8>, StorageError> {
    serde_json::to_vec(&EnvelopeOut {
        version: T::VERSION,
        data: value,
    })
    .map_err(|source| StorageError::Encode {
        store: store.to_owned(),
        key: key.to_owned(),
        source,
    })
}

/// Reads the format version of a stored record without decoding its data.
///
/// # Errors
/// [`StorageError::Decode`] when `bytes` is not a record envelope.
pub fn record_version(store: &str, key: &str, bytes: &[u8]) -> Result<u32, StorageError> {
    serde_json::from_slice::<Header>(bytes)
        .map(|h| h.version)
        .map_err(|e| StorageError::decode(store, key, format!("not a record envelope: {e}")))
}

/// The version and the `data` bytes of an envelope laid out exactly as
/// [`encode`] writes it (`{"version":N,"data":...}`, no spaces, version
/// first); `None` for any other layout, which the general path reads.
fn split_envelope(bytes: &[u8]) -> Option<(u32, &[u8])> {
    let rest = bytes.strip_prefix(b"{\"version\":")?;
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    // JSON allows no leading zero; `u32::MAX` has ten digits.
    if digits == 0 || digits > 10 || (digits > 1 && rest[0] == b'0') {
        return None;
    }
    let version = std::str::from_utf8(&rest[..digits]).ok()?.parse().ok()?;
    let data = rest[digits..]
        .strip_prefix(b",\"data\":")?
        .strip_suffix(b"}")?;
    Some((version, data))
}

/// Decodes a stored record, migrating it if it is older than `T::VERSION`.
///
/// A current record as [`encode`] wrote it is read in one pass straight
/// from `bytes` (its data parsed as `T`, the envelope by hand); anything
/// else (an older or newer version, another layout, a decode error) takes
/// the general path, which also names what is wrong.
pub(crate) fn decode<T: Record>(store: &str, key: &str, bytes: &[u8]) -> Result<T, StorageError> {
    if let Some((version, data)) = split_envelope(bytes)
        && version == T::VERSION
        && let Ok(value) = serde_json::from_slice::<T>(data)
    {
        return Ok(value);
    }
    decode_general(store, key, bytes)
}

/// Reads the header, then the data as `T` or through the upgrade steps.
fn decode_general<T: Record>(store: &str, key: &str, bytes: &[u8]) -> Result<T, StorageError> {
    let version = record_version(store, key, bytes)?;
    if version > T::VERSION {
        return Err(StorageError::NewerRecord {
            store: store.to_owned(),
            key: key.to_owned(),
            found: version,
            supported: T::VERSION,
        });
    }
    if version == T::VERSION {
        return serde_json::from_slice::<Envelope<T>>(bytes)
            .map(|e| e.data)
            .map_err(|e| StorageError::decode(store, key, e.to_string()));
    }
    let mut data = serde_json::from_slice::<Envelope<serde_json::Value>>(bytes)
        .map_err(|e| StorageError::decode(store, key, e.to_string()))?
        .data;
    for from in version..T::VERSION {
        data = T::upgrade(from, data).map_err(|reason| StorageError::Migration {
            store: store.to_owned(),
            key: key.to_owned(),
            from,
            reason,
        })?;
    }
    serde_json::from_value(data).map_err(|e| {
        StorageError::decode(
            store,
            key,
            format!("after upgrading from version {version}: {e}"),
        )
    })
}

/// Plain values are version-1 records with no upgrade steps.
macro_rules! plain_records {
    ($($t:ty),* $(,)?) => {
        $(impl Record for $t {})*
    };
}

plain_records!(
    bool,
    u8,
    u16,
    u32,
    u64,
    i8,
    i16,
    i32,
    i64,
    f32,
    f64,
    String,
    serde_json::Value
);

impl<T: Serialize + DeserializeOwned> Record for Vec<T> {}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};

    use super::{Record, decode, decode_general, encode, split_envelope};

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Saved {
        name: String,
        n: u64,
    }
    impl Record for Saved {
        const VERSION: u32 = 2;
        fn upgrade(from: u32, mut data: serde_json::Value) -> Result<serde_json::Value, String> {
            data["n"] = serde_json::json!(from * 10);
            Ok(data)
        }
    }

    fn saved() -> Saved {
        Saved {
            name: "a \"quoted\" name}".into(),
            n: 7,
        }
    }

    #[test]
    fn the_one_pass_read_agrees_with_the_general_one_on_what_encode_writes() {
        let bytes = encode("s", "k", &saved()).unwrap();
        assert_eq!(split_envelope(&bytes).map(|(v, _)| v), Some(2));
        assert_eq!(decode::<Saved>("s", "k", &bytes).unwrap(), saved());
        assert_eq!(decode_general::<Saved>("s", "k", &bytes).unwrap(), saved());
    }

    #[test]
    fn other_layouts_and_versions_take_the_general_path() {
        let data = r#"{"name":"a \"quoted\" name}","n":7}"#;
        for bytes in [
            format!(r#"{{ "version": 2, "data": {data} }}"#),
            format!(r#"{{"data":{data},"version":2}}"#),
            format!("{{\"version\":2,\n\"data\":{data}}}"),
        ] {
            assert_eq!(split_envelope(bytes.as_bytes()), None, "{bytes}");
            assert_eq!(
                decode::<Saved>("s", "k", bytes.as_bytes()).unwrap(),
                saved()
            );
        }
        // An older record is upgraded, a newer one refused, as before.
        let old = format!(r#"{{"version":1,"data":{data}}}"#);
        assert_eq!(decode::<Saved>("s", "k", old.as_bytes()).unwrap().n, 10);
        let newer = format!(r#"{{"version":3,"data":{data}}}"#);
        assert!(decode::<Saved>("s", "k", newer.as_bytes()).is_err());
        // Not JSON: a leading zero, a field after the data, a broken tail.
        for bad in [
            format!(r#"{{"version":02,"data":{data}}}"#),
            format!(r#"{{"version":2,"data":{data},"extra":1}}"#),
            format!(r#"{{"version":2,"data":{data}}}}}"#),
        ] {
            let fast = decode::<Saved>("s", "k", bad.as_bytes()).map_err(|e| e.to_string());
            let general =
                decode_general::<Saved>("s", "k", bad.as_bytes()).map_err(|e| e.to_string());
            assert_eq!(fast, general, "{bad}");
        }
    }
}
