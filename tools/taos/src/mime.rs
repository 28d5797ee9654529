//! The `Content-Type` of a served file, from its extension.

use std::path::Path;

/// The content type for `path`, by its extension (any case);
/// `application/octet-stream` for unknown ones.
///
/// Browsers insist on two of them: `application/wasm` for
/// `WebAssembly.instantiateStreaming`, and a JavaScript type for module
/// scripts.
pub fn content_type(path: &Path) -> &'static str {
    let extension = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .unwrap_or_default();
    match extension.as_str() {
        "wasm" => "application/wasm",
        "js" | "mjs" => "text/javascript",
        "html" | "htm" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gltf" => "model/gltf+json",
        "glb" => "model/gltf-binary",
        "wav" => "audio/wav",
        "ogg" => "audio/ogg",
        "txt" => "text/plain; charset=utf-8",
        "svg" => "image/svg+xml",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::content_type;
    use std::path::Path;

    #[test]
    fn the_table() {
        for (name, want) in [
            ("game_bg.wasm", "application/wasm"),
            ("game.js", "text/javascript"),
            ("index.html", "text/html; charset=utf-8"),
            ("page.css", "text/css; charset=utf-8"),
            ("data.json", "application/json"),
            ("a.png", "image/png"),
            ("a.jpg", "image/jpeg"),
            ("a.JPEG", "image/jpeg"),
            ("scene.gltf", "model/gltf+json"),
            ("scene.glb", "model/gltf-binary"),
            ("scene.bin", "application/octet-stream"),
            ("hit.wav", "audio/wav"),
            ("music.ogg", "audio/ogg"),
            ("size.txt", "text/plain; charset=utf-8"),
            ("icon.svg", "image/svg+xml"),
            ("archive.tar.gz", "application/octet-stream"),
            ("README", "application/octet-stream"),
        ] {
            assert_eq!(content_type(Path::new(name)), want, "{name}");
        }
    }
}
