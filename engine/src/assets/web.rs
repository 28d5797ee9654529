//! Reading a file of the asset folder in the browser: `fetch` of its URL
//! under the root's base, refused from `Content-Length` when it says the
//! file is too large, read chunk by chunk from the body's stream (progress
//! as bytes come, the limit checked as they add up).

use js_sys::Uint8Array;
use percent_encoding::{AsciiSet, CONTROLS, utf8_percent_encode};
use wasm_bindgen::{JsCast as _, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{ReadableStreamDefaultReader, ReadableStreamReadResult, Response};

use super::{AssetError, AssetPath, AssetRoot};
use crate::ProgressReporter;

/// What is percent-encoded in a URL path segment: controls, space and
/// what would end or change the segment (`#`, `?`, `%`, `/`...).
const SEGMENT: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'/')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'[')
    .add(b']')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}');

/// `path`'s URL under `base`, each component percent-encoded (a file named
/// `%2e%2e` is asked for as `%252e%252e`).
pub(super) fn url(base: &str, path: &AssetPath) -> String {
    let mut url = base.to_owned();
    for (i, part) in path.components().enumerate() {
        if i > 0 {
            url.push('/');
        }
        url.extend(utf8_percent_encode(part, SEGMENT));
    }
    url
}

/// The text of a JavaScript error or value.
fn message(value: &JsValue) -> String {
    if let Some(error) = value.dyn_ref::<js_sys::Error>() {
        return String::from(error.message());
    }
    value.as_string().unwrap_or_else(|| format!("{value:?}"))
}

/// Fetches `path` under `root`, growing `progress`'s total by its
/// `Content-Length` (when the server sends one) and advancing it as bytes
/// come.
pub(super) async fn read(
    root: &AssetRoot,
    path: &AssetPath,
    limit: u64,
    progress: &ProgressReporter,
) -> Result<Vec<u8>, AssetError> {
    let location = url(root.url_base(), path);
    let network = |value: JsValue| AssetError::Network {
        path: path.clone(),
        message: message(&value),
    };
    let too_large = |size: u64| AssetError::TooLarge {
        path: path.clone(),
        size,
        limit,
    };
    let window = web_sys::window().ok_or_else(|| AssetError::Network {
        path: path.clone(),
        message: "no window to fetch from (a worker?)".to_owned(),
    })?;
    let response: Response = JsFuture::from(window.fetch_with_str(&location))
        .await
        .map_err(network)?
        .dyn_into()
        .map_err(network)?;
    match response.status() {
        404 => {
            return Err(AssetError::NotFound {
                path: path.clone(),
                location,
            });
        }
        status if !response.ok() => {
            return Err(AssetError::Http {
                path: path.clone(),
                status,
                location,
            });
        }
        _ => {}
    }
    // With `Content-Encoding` the header counts the compressed bytes: a
    // lower bound, so the limit is also checked on what is read.
    let declared = response
        .headers()
        .get("content-length")
        .ok()
        .flatten()
        .and_then(|length| length.trim().parse::<u64>().ok());
    if let Some(size) = declared {
        if size > limit {
            return Err(too_large(size));
        }
        progress.grow_total(size);
    }
    let Some(body) = response.body() else {
        // No stream (an empty body, or an older browser): all at once.
        let buffer = JsFuture::from(response.array_buffer().map_err(network)?)
            .await
            .map_err(network)?;
        let bytes = Uint8Array::new(&buffer);
        let size = u64::from(bytes.length());
        if size > limit {
            return Err(too_large(size));
        }
        progress.advance(size);
        return Ok(bytes.to_vec());
    };
    let reader = ReadableStreamDefaultReader::new(&body).map_err(network)?;
    let mut bytes = Vec::with_capacity(declared.map_or(0, |size| size as usize));
    loop {
        let result: ReadableStreamReadResult = JsFuture::from(reader.read())
            .await
            .map_err(network)?
            .unchecked_into();
        if result.get_done().unwrap_or(true) {
            break;
        }
        let chunk = Uint8Array::new(&result.get_value());
        let size = bytes.len() as u64 + u64::from(chunk.length());
        if size > limit {
            // Stop the download; the answer is the error either way.
            let _ = reader.cancel();
            return Err(too_large(size));
        }
        let start = bytes.len();
        bytes.resize(start + chunk.length() as usize, 0);
        chunk.copy_to(&mut bytes[start..]);
        progress.advance(u64::from(chunk.length()));
    }
    Ok(bytes)
}
