//! Images: decoded to RGBA8, their size checked from the header before
//! any pixel is decoded; and textures ([`Assets::load_texture`]): a KTX2
//! file transcoded for a GPU, or a PNG/JPEG as RGBA8.

use std::io::Cursor;

use image::{ImageReader, RgbaImage};
use taos_renderer::resources::{ColorSpace, TextureData, is_ktx2};
use taos_renderer::wgpu;

use super::{AssetError, AssetPath, Assets, MAX_IMAGE_SIZE};
use crate::Task;

impl Assets {
    /// The texture at `path`, ready for
    /// [`Texture::from_data`](crate::renderer::resources::Texture::from_data):
    /// a KTX2 (Basis Universal) file transcoded for a GPU with `features`
    /// (`ctx.device().features()`: BC7, ASTC, ETC2 or RGBA8, every level the
    /// file has), or a PNG/JPEG decoded to one RGBA8 level (the upload builds
    /// its mips on the GPU). `color_space` is how the texture is used (base
    /// colour and emissive sRGB, data linear); `None` takes a KTX2's own
    /// transfer function, and sRGB for PNG/JPEG. Progress as
    /// [`read_bytes`](Self::read_bytes).
    pub fn load_texture(
        &self,
        path: &AssetPath,
        features: wgpu::Features,
        color_space: Option<ColorSpace>,
    ) -> Task<Result<TextureData, AssetError>> {
        self.spawn(path, move |assets, path, progress| async move {
            let bytes = assets.fetch(&path, &progress).await?;
            decode_texture(&path, &bytes, features, color_space)
        })
    }
}

/// A KTX2 file transcoded for `features`, or a PNG/JPEG as one RGBA8 level.
pub(super) fn decode_texture(
    path: &AssetPath,
    bytes: &[u8],
    features: wgpu::Features,
    color_space: Option<ColorSpace>,
) -> Result<TextureData, AssetError> {
    // The renderer's errors travel inside the image crate's decoding error
    // (with their source chain): the asset error type has no texture kind.
    let wrap = |error: Box<dyn std::error::Error + Send + Sync>| {
        let hint = image::error::ImageFormatHint::Name("KTX2".to_owned());
        AssetError::decode(
            path,
            image::ImageError::Decoding(image::error::DecodingError::new(hint, error)),
        )
    };
    if is_ktx2(bytes) {
        let label = path.to_string();
        return TextureData::from_ktx2(&label, bytes, features, color_space)
            .map_err(|e| wrap(Box::new(e)));
    }
    let pixels = decode(path, bytes)?;
    TextureData::rgba8(&pixels, color_space.unwrap_or(ColorSpace::Srgb))
        .map_err(|e| wrap(Box::new(e)))
}

/// At most this many bytes of decoder allocations for one image: a
/// `MAX_IMAGE_SIZE`-sided RGBA8 image and some working room natively; the
/// `image` crate's default (512 MiB) in the browser, whose memory is
/// smaller.
#[cfg(not(target_arch = "wasm32"))]
const MAX_DECODE_ALLOCATION: u64 = 4 * (MAX_IMAGE_SIZE as u64).pow(2) + (64 << 20);
#[cfg(target_arch = "wasm32")]
const MAX_DECODE_ALLOCATION: u64 = 512 << 20;

/// Decodes PNG or JPEG `bytes` (the formats the engine's `image` crate is
/// built with) to RGBA8, refusing an image larger than [`MAX_IMAGE_SIZE`]
/// a side before decoding it.
pub(super) fn decode(path: &AssetPath, bytes: &[u8]) -> Result<RgbaImage, AssetError> {
    let format = image::guess_format(bytes).map_err(|e| AssetError::decode(path, e))?;
    let (width, height) = ImageReader::with_format(Cursor::new(bytes), format)
        .into_dimensions()
        .map_err(|e| AssetError::decode(path, e))?;
    if width > MAX_IMAGE_SIZE || height > MAX_IMAGE_SIZE {
        return Err(AssetError::ImageTooLarge {
            path: path.clone(),
            width,
            height,
            max: MAX_IMAGE_SIZE,
        });
    }
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_IMAGE_SIZE);
    limits.max_image_height = Some(MAX_IMAGE_SIZE);
    limits.max_alloc = Some(MAX_DECODE_ALLOCATION);
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    reader.limits(limits);
    let decoded = reader.decode().map_err(|e| AssetError::decode(path, e))?;
    Ok(decoded.into_rgba8())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assets::DecodeError;

    fn png(width: u32, height: u32) -> Vec<u8> {
        let image = RgbaImage::from_pixel(width, height, image::Rgba([10, 20, 30, 255]));
        let mut bytes = Vec::new();
        image
            .write_to(&mut Cursor::new(&mut bytes), image::ImageFormat::Png)
            .unwrap();
        bytes
    }

    #[test]
    fn images_decode_to_rgba8_and_huge_or_corrupt_ones_are_refused() {
        let path = AssetPath::new("a.png").unwrap();
        let image = decode(&path, &png(3, 2)).unwrap();
        assert_eq!(image.dimensions(), (3, 2));
        assert_eq!(image.get_pixel(2, 1).0, [10, 20, 30, 255]);

        // One pixel too wide: refused from the header.
        let error = decode(&path, &png(MAX_IMAGE_SIZE + 1, 1)).unwrap_err();
        assert!(
            matches!(error, AssetError::ImageTooLarge { width, height: 1, .. } if width == MAX_IMAGE_SIZE + 1),
            "{error}"
        );

        let mut corrupt = png(4, 4);
        corrupt.truncate(40);
        let error = decode(&path, &corrupt).unwrap_err();
        assert!(
            matches!(
                &error,
                AssetError::Decode {
                    source: DecodeError::Image(_),
                    ..
                }
            ),
            "{error}"
        );
        assert!(
            error.to_string().starts_with("a.png: cannot decode"),
            "{error}"
        );
        assert!(decode(&path, b"not an image").is_err());
    }

    #[test]
    fn textures_load_from_ktx2_or_png() {
        use taos_renderer::resources::TexelFormat;
        let ktx2 = std::fs::read(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../renderer/tests/data/etc1s_64_mips.ktx2"),
        )
        .unwrap();
        let path = AssetPath::new("t.ktx2").unwrap();
        let bc = wgpu::Features::TEXTURE_COMPRESSION_BC;
        let data = decode_texture(&path, &ktx2, bc, None).unwrap();
        assert_eq!(data.format(), TexelFormat::Bc7);
        assert_eq!((data.size(), data.levels().len()), ((64, 64), 7));
        assert_eq!(data.color_space(), ColorSpace::Srgb);
        let data = decode_texture(
            &path,
            &ktx2,
            wgpu::Features::empty(),
            Some(ColorSpace::Linear),
        )
        .unwrap();
        assert_eq!(
            (data.format(), data.color_space()),
            (TexelFormat::Rgba8, ColorSpace::Linear)
        );

        let png_path = AssetPath::new("t.png").unwrap();
        let data = decode_texture(&png_path, &png(3, 2), bc, None).unwrap();
        assert_eq!(
            (data.format(), data.levels().len()),
            (TexelFormat::Rgba8, 1)
        );

        let error = decode_texture(&path, &ktx2[..100], bc, None).unwrap_err();
        assert!(
            error.to_string().starts_with("t.ktx2: cannot decode"),
            "{error}"
        );
    }
}
