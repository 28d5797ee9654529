//! "Export unsaved edits": when a world cannot be saved, its unsaved edits
//! go to a file the player keeps (natively in the documents folder, in the
//! browser as a download), to be saved later with
//! `crafty --apply-edits FILE` (see [`crate::save::UnsavedEdits`]).

use crate::save::UnsavedEdits;

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
/// The I/O error, as text for the dialog.
#[cfg(not(target_arch = "wasm32"))]
pub(super) fn export(unsaved: &UnsavedEdits, now_ms: u64) -> Result<String, String> {
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
) -> Result<String, String> {
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
        .map_err(|e| format!("could not write {}: {e}", path.display()))?;
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
/// What the page refused, as text for the dialog.
#[cfg(target_arch = "wasm32")]
pub(super) fn export(unsaved: &UnsavedEdits, now_ms: u64) -> Result<String, String> {
    use wasm_bindgen::JsCast as _;
    let fail = |e: wasm_bindgen::JsValue| format!("the download failed: {e:?}");
    let json = js_sys::Uint8Array::from(unsaved.to_json().as_slice());
    let parts = js_sys::Array::of1(&json);
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/json");
    let blob =
        web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options).map_err(fail)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(fail)?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let link: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(fail)?
        .dyn_into()
        .map_err(|_| "not a link".to_owned())?;
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
