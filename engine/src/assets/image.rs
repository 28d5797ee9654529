//! Images: decoded to RGBA8, their size checked from the header before
//! any pixel is decoded.

use std::io::Cursor;

use image::{ImageReader, RgbaImage};

use super::{AssetError, AssetPath, MAX_IMAGE_SIZE};

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
}
