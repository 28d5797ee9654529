//! `KHR_texture_basisu`: textures whose extension names a KTX2 image use it (with or
//! without a PNG fallback `source`), and the KTX2 bytes reach the model undecoded.

use base64::Engine as _;
use taos_gltf::{GltfModel, ImagePixels};

fn ktx2() -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../renderer/tests/data/uastc_64_mips.ktx2");
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn data_uri(mime: &str, bytes: &[u8]) -> String {
    let encoded = base64::engine::general_purpose::STANDARD.encode(bytes);
    format!("data:{mime};base64,{encoded}")
}

/// Image 0 is the KTX2, image 1 a PNG fallback; texture 0 has only the extension,
/// texture 1 the fallback as `source` too. Material 0 uses texture 0 as base colour,
/// texture 1 as normal map.
fn model(required: bool) -> Result<GltfModel, taos_gltf::GltfError> {
    let mut png = Vec::new();
    image::RgbaImage::from_pixel(2, 2, image::Rgba([1, 2, 3, 255]))
        .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
        .expect("encodes");
    let required = if required {
        r#"["KHR_texture_basisu"]"#
    } else {
        "[]"
    };
    let json = format!(
        r#"{{
          "asset": {{"version": "2.0"}},
          "extensionsUsed": ["KHR_texture_basisu"],
          "extensionsRequired": {required},
          "images": [{{"uri": "{}"}}, {{"uri": "{}"}}],
          "textures": [
            {{"extensions": {{"KHR_texture_basisu": {{"source": 0}}}}}},
            {{"source": 1, "extensions": {{"KHR_texture_basisu": {{"source": 0}}}}}}
          ],
          "materials": [{{
            "pbrMetallicRoughness": {{"baseColorTexture": {{"index": 0}}}},
            "normalTexture": {{"index": 1}}
          }}]
        }}"#,
        data_uri("image/ktx2", &ktx2()),
        data_uri("image/png", &png),
    );
    GltfModel::from_slice(json.as_bytes(), None, "basisu.gltf")
}

#[test]
fn textures_use_the_ktx2_image_kept_undecoded() {
    let model = model(true).unwrap_or_else(|e| panic!("{e}"));
    assert!(model.warnings.is_empty(), "{:?}", model.warnings);
    let material = &model.materials[0];
    let base = material.base_color_texture.as_ref().expect("base colour");
    let normal = material.normal_texture.as_ref().expect("normal map");
    assert_eq!((base.image.0, normal.image.0), (0, 0));
    let image = &model.images[0];
    assert_eq!(image.pixels, ImagePixels::Ktx2(ktx2()));
    assert_eq!(image.pixels.dimensions(), (64, 64));
    // Both usages fall on the KTX2 image; the fallback is unused.
    assert!(image.used_as_color && image.used_as_data);
    assert!(!model.images[1].used_as_color && !model.images[1].used_as_data);
    assert!(model.images[1].pixels.rgba8().is_some());
}

#[test]
fn an_oversized_ktx2_is_refused() {
    let mut bytes = ktx2();
    bytes[20..24].copy_from_slice(&65_000u32.to_le_bytes());
    let json = format!(
        r#"{{"asset": {{"version": "2.0"}}, "images": [{{"uri": "{}"}}]}}"#,
        data_uri("image/ktx2", &bytes)
    );
    assert!(GltfModel::from_slice(json.as_bytes(), None, "big.gltf").is_err());
}
