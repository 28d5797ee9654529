//! "Export unsaved edits": when a world cannot be saved, its unsaved edits
//! go to a file the player keeps (natively in the documents folder, in the
//! browser as a download), to be saved later with
//! `crafty --apply-edits FILE` (see [`crate::save::UnsavedEdits`]).

use crate::save::UnsavedEdits;

/// Why the unsaved edits could not be exported.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub(super) enum ExportError {
    /// The file could not be written.
    #[cfg(not(target_arch = "wasm32"))]
    #[error("could not write {}: {source}", path.display())]
    Write {
        /// The file.
        path: std::path::PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The page refused the download (its own description).
    #[cfg(target_arch = "wasm32")]
    #[error("the download failed: {0}")]
    Download(String),
    /// The page has no document to offer a download from, or made no link.
    #[cfg(target_arch = "wasm32")]
    #[error("{0}")]
    Page(&'static str),
}

/// The file's name: the world's name made safe for any file system, and
/// the time, so exports never overwrite each other.
fn file_name(unsaved: &UnsavedEdits, now_ms: u64) -> String {
    let name: String = unsaved
        .name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .take(40)
        .collect();
    format!("crafty-unsaved-{name}-{now_ms}.json")
}

/// Writes `unsaved` to a new file; says where, for the player.
///
/// # Errors
/// [`ExportError::Write`]: the I/O error.
#[cfg(not(target_arch = "wasm32"))]
pub(super) fn export(unsaved: &UnsavedEdits, now_ms: u64) -> Result<String, ExportError> {
    let dir = dirs::document_dir()
        .or_else(dirs::home_dir)
        .unwrap_or_else(|| std::path::PathBuf::from("."));
    export_to(&dir, unsaved, now_ms)
}

/// [`export`] into `dir`.
#[cfg(not(target_arch = "wasm32"))]
pub(super) fn export_to(
    dir: &std::path::Path,
    unsaved: &UnsavedEdits,
    now_ms: u64,
) -> Result<String, ExportError> {
    use std::io::Write as _;
    let path = dir.join(file_name(unsaved, now_ms));
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .and_then(|mut file| {
            file.write_all(&unsaved.to_json())?;
            file.sync_all()
        })
        .map_err(|source| ExportError::Write {
            path: path.clone(),
            source,
        })?;
    Ok(format!(
        "{} edits written to {}; once there is room, save them with: crafty --apply-edits \"{}\"",
        unsaved.edits.len(),
        path.display(),
        path.display()
    ))
}

/// Offers `unsaved` as a download; says so, for the player.
///
/// # Errors
/// What the page refused.
#[cfg(target_arch = "wasm32")]
pub(super) fn export(unsaved: &UnsavedEdits, now_ms: u64) -> Result<String, ExportError> {
    use wasm_bindgen::JsCast as _;
    let fail = |e: wasm_bindgen::JsValue| ExportError::Download(format!("{e:?}"));
    let json = js_sys::Uint8Array::from(unsaved.to_json().as_slice());
    let parts = js_sys::Array::of1(&json);
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/json");
    let blob =
        web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options).map_err(fail)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(fail)?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or(ExportError::Page("no document"))?;
    let link: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(fail)?
        .dyn_into()
        .map_err(|_| ExportError::Page("not a link"))?;
    let name = file_name(unsaved, now_ms);
    link.set_href(&url);
    link.set_download(&name);
    link.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(format!(
        "{} edits offered as the download {name}; keep it to save them later",
        unsaved.edits.len()
    ))
}
