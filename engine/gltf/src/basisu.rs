//! `KHR_texture_basisu`: a texture whose `extensions.KHR_texture_basisu.source`
//! names a KTX2 (Basis Universal) image uses that image instead of its
//! `source` (a PNG/JPEG fallback, or absent). The KTX2 bytes are kept as they
//! are ([`ImagePixels::Ktx2`](crate::ImagePixels::Ktx2)): the renderer
//! transcodes them for its GPU.
//!
//! The `gltf` crate does not know the extension (its `source` is required
//! unless a crate-wide feature changes its API), so this rewrites the parsed
//! JSON before the document is built: each such texture's `source` becomes
//! the extension's.

/// The extension's name.
pub(crate) const KHR_TEXTURE_BASISU: &str = "KHR_texture_basisu";

/// Points every texture with a valid `KHR_texture_basisu.source` at that
/// image. An index out of range is left for the document's validation (it
/// reports the texture's own `source`, or its absence).
pub(crate) fn use_basisu_sources(root: &mut gltf::json::Root) {
    let images = root.images.len();
    for texture in &mut root.textures {
        let source = texture
            .extensions
            .as_ref()
            .and_then(|e| e.others.get(KHR_TEXTURE_BASISU))
            .and_then(|ext| ext.get("source"))
            .and_then(serde_json::Value::as_u64)
            .and_then(|i| u32::try_from(i).ok())
            .filter(|&i| (i as usize) < images);
        if let Some(source) = source {
            texture.source = gltf::json::Index::new(source);
        }
    }
}
