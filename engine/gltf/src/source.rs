//! Where the bytes come from: the GLB container, `data:` URIs and external files.

use std::path::{Component, Path, PathBuf};

use base64::Engine as _;

use crate::accessor::Buffers;
use crate::budget::Budget;
use crate::error::{ElementName, GlbProblem, GltfError, SourceProblem};
use crate::files::{Bytes, Files};

const GLB_MAGIC: &[u8; 4] = b"glTF";
const CHUNK_JSON: u32 = 0x4E4F_534A;
const CHUNK_BIN: u32 = 0x004E_4942;

/// The JSON text and, for GLB, the binary chunk.
pub(crate) struct Container<'a> {
    pub(crate) json: &'a [u8],
    pub(crate) bin: Option<&'a [u8]>,
}

/// Splits a `.glb` into its chunks; anything not starting with `glTF` is taken as JSON text.
pub(crate) fn split_container(bytes: &[u8]) -> Result<Container<'_>, GlbProblem> {
    if !bytes.starts_with(GLB_MAGIC) {
        return Ok(Container {
            json: bytes,
            bin: None,
        });
    }
    if bytes.len() < 12 {
        return Err(GlbProblem::TooShort { len: bytes.len() });
    }
    let version = read_u32(bytes, 4);
    if version != 2 {
        return Err(GlbProblem::Version { version });
    }
    let declared = read_u32(bytes, 8);
    let total = usize::try_from(declared).unwrap_or(usize::MAX);
    if total > bytes.len() || total < 12 {
        return Err(GlbProblem::Length {
            declared,
            actual: bytes.len(),
        });
    }
    // Trailing bytes past the declared length are ignored.
    let bytes = &bytes[..total];
    let mut offset = 12;
    let mut json = None;
    let mut bin = None;
    let mut chunk = 0;
    // Each iteration consumes at least the 8-byte chunk header, so this ends.
    while offset < bytes.len() {
        if bytes.len() - offset < 8 {
            return Err(GlbProblem::ChunkOverflow {
                chunk,
                declared: 0,
                offset,
            });
        }
        let length = read_u32(bytes, offset);
        let kind = read_u32(bytes, offset + 4);
        let body = offset + 8;
        let end = usize::try_from(length)
            .ok()
            .and_then(|l| body.checked_add(l))
            .filter(|&end| end <= bytes.len())
            .ok_or(GlbProblem::ChunkOverflow {
                chunk,
                declared: length,
                offset: body,
            })?;
        let data = &bytes[body..end];
        match (chunk, kind) {
            (0, CHUNK_JSON) => json = Some(data),
            (0, _) => return Err(GlbProblem::MissingJson),
            (_, CHUNK_BIN) if bin.is_some() => return Err(GlbProblem::DuplicateBin),
            (_, CHUNK_BIN) => bin = Some(data),
            // Unknown chunk types are skipped, as the spec asks.
            _ => {}
        }
        // Chunks are 4-byte aligned; a last chunk may omit its padding.
        offset = end.saturating_add(3) & !3;
        chunk += 1;
    }
    Ok(Container {
        json: json.ok_or(GlbProblem::MissingJson)?,
        bin,
    })
}

fn read_u32(bytes: &[u8], at: usize) -> u32 {
    let mut word = [0; 4];
    word.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(word)
}

/// A decoded `data:` URI: its MIME type (if any) and bytes.
pub(crate) struct DataUri {
    pub(crate) mime: Option<String>,
    pub(crate) bytes: Vec<u8>,
}

/// Decodes `data:[<mime>][;base64],<payload>`; `None` if `uri` is not a data URI.
pub(crate) fn parse_data_uri(uri: &str) -> Option<Result<DataUri, SourceProblem>> {
    let rest = uri.strip_prefix("data:")?;
    Some((|| {
        let (header, payload) = rest.split_once(',').ok_or(SourceProblem::DataUri {
            reason: "no ',' separates the header from the data".into(),
        })?;
        let Some(mime) = header.strip_suffix(";base64") else {
            return Err(SourceProblem::DataUri {
                reason: format!(
                    "header {header:?} is not base64 (only base64 data URIs are supported)"
                ),
            });
        };
        let bytes = base64::engine::general_purpose::STANDARD_PAD_INDIFFERENT
            .decode(payload.trim())
            .map_err(|e| SourceProblem::DataUri {
                reason: e.to_string(),
            })?;
        Ok(DataUri {
            mime: (!mime.is_empty()).then(|| mime.to_owned()),
            bytes,
        })
    })())
}

/// Resolves a relative, percent-encoded URI against the model's folder, without touching the
/// file system ([`Files`] then confines the result).
///
/// Absolute paths and URIs with a scheme (`http:`, `file:`, `C:`) are refused: a model names
/// its files relative to itself. `..` components are refused too unless `allow_parent` (set when
/// [`LoadOptions::allowed_roots`](crate::LoadOptions::allowed_roots) names other folders).
pub(crate) fn resolve_relative_uri(
    uri: &str,
    base_dir: Option<&Path>,
    allow_parent: bool,
) -> Result<PathBuf, SourceProblem> {
    let decoded = decode_relative_uri(uri, allow_parent)?;
    let base = base_dir.ok_or_else(|| SourceProblem::UnsupportedUri {
        uri: uri.to_owned(),
        reason: "no base directory was given (loaded from memory)",
    })?;
    Ok(base.join(decoded))
}

/// The relative path a URI names, percent-decoded: what [`resolve_relative_uri`] joins to the
/// model's folder, and the key of a file supplied in memory
/// ([`ExternalFiles`](crate::ExternalFiles)). Refuses what [`resolve_relative_uri`] refuses.
pub(crate) fn decode_relative_uri(uri: &str, allow_parent: bool) -> Result<String, SourceProblem> {
    let unsupported = |reason| SourceProblem::UnsupportedUri {
        uri: uri.to_owned(),
        reason,
    };
    let decoded = percent_encoding::percent_decode_str(uri)
        .decode_utf8()
        .map_err(|_| unsupported("percent-decoding gives invalid UTF-8"))?;
    if let Some(colon) = decoded.find(':')
        && !decoded[..colon].contains(['/', '\\'])
    {
        return Err(unsupported(
            "only relative paths and data: URIs are supported",
        ));
    }
    let relative = Path::new(decoded.as_ref());
    if relative.is_absolute() || decoded.starts_with(['/', '\\']) {
        return Err(unsupported(
            "absolute paths are refused; name files relative to the model",
        ));
    }
    if !allow_parent && relative.components().any(|c| c == Component::ParentDir) {
        return Err(unsupported(
            "`..` is refused: files must be in the model's folder (LoadOptions::allowed_roots can allow more)",
        ));
    }
    Ok(decoded.into_owned())
}

/// Resolves every buffer to its bytes (at least `byteLength` of them), charging what it
/// decodes or reads to `budget`.
pub(crate) fn load_buffers<'a>(
    doc: &gltf::Document,
    bin: Option<&'a [u8]>,
    files: &mut Files<'_>,
    file: &str,
    budget: Budget,
) -> Result<Buffers<'a>, GltfError> {
    let data = doc
        .buffers()
        .map(|buffer| {
            let error = |problem| GltfError::Buffer {
                file: file.to_owned(),
                buffer: ElementName::new(crate::ElementKind::Buffer, buffer.index(), buffer.name()),
                problem,
            };
            let bytes: Bytes<'a> = match buffer.source() {
                gltf::buffer::Source::Bin => {
                    Bytes::Borrowed(bin.ok_or_else(|| error(SourceProblem::MissingBin))?)
                }
                gltf::buffer::Source::Uri(uri) => files.load_uri(uri, &budget).map_err(error)?.1,
            };
            if bytes.len() < buffer.length() {
                return Err(error(SourceProblem::TooShort {
                    declared: buffer.length(),
                    actual: bytes.len(),
                }));
            }
            Ok(bytes)
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Buffers::new(data, budget))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_uri_decodes_with_or_without_padding() {
        let d = parse_data_uri("data:application/octet-stream;base64,AAEC")
            .unwrap()
            .unwrap();
        assert_eq!(d.bytes, vec![0, 1, 2]);
        assert_eq!(d.mime.as_deref(), Some("application/octet-stream"));
        let d = parse_data_uri("data:;base64,AAE").unwrap().unwrap();
        assert_eq!(d.bytes, vec![0, 1]);
        assert!(parse_data_uri("data:text/plain,hello").unwrap().is_err());
        assert!(parse_data_uri("model.bin").is_none());
    }

    #[test]
    fn uris_resolve_relative_and_percent_decoded() {
        let base = Path::new("/models");
        assert_eq!(
            resolve_relative_uri("tex%20ture.png", Some(base), false).unwrap(),
            Path::new("/models/tex ture.png")
        );
        assert!(resolve_relative_uri("../shared/a.png", Some(base), false).is_err());
        assert!(resolve_relative_uri("a/%2E%2E/%2E%2E/b.png", Some(base), false).is_err());
        assert!(resolve_relative_uri("a..b/c..png", Some(base), false).is_ok());
        assert!(resolve_relative_uri("../shared/a.png", Some(base), true).is_ok());
        for bad in [
            "/etc/passwd",
            "http://example.com/a.bin",
            "file:///a.bin",
            "C:\\a.bin",
            "C:/a.bin",
        ] {
            assert!(
                resolve_relative_uri(bad, Some(base), true).is_err(),
                "{bad}"
            );
        }
        assert!(resolve_relative_uri("a.bin", None, false).is_err());
    }

    #[test]
    fn glb_rejects_bad_lengths() {
        assert!(matches!(
            split_container(b"glTF\x02\0\0\0"),
            Err(GlbProblem::TooShort { .. })
        ));
        let mut glb = b"glTF\x02\0\0\0\x30\0\0\0".to_vec();
        assert!(matches!(
            split_container(&glb),
            Err(GlbProblem::Length { .. })
        ));
        glb[8] = 12 + 8 + 4;
        glb.extend_from_slice(&[100, 0, 0, 0]);
        glb.extend_from_slice(&CHUNK_JSON.to_le_bytes());
        glb.extend_from_slice(b"{}  ");
        assert!(matches!(
            split_container(&glb),
            Err(GlbProblem::ChunkOverflow { .. })
        ));
        glb[12] = 4;
        let c = split_container(&glb).unwrap();
        assert_eq!(c.json, b"{}  ");
        assert!(c.bin.is_none());
    }
}
