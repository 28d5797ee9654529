//! Launcher thumbnails: a frame shrunk to 160×90 and stored as JPEG.

use image::codecs::jpeg::JpegEncoder;
use image::imageops::{self, FilterType};
use image::{ImageFormat, ImageReader, Limits, RgbaImage};
use std::io::Cursor;

use super::SaveError;

/// Thumbnail width in pixels.
pub const THUMBNAIL_WIDTH: u32 = 160;
/// Thumbnail height in pixels.
pub const THUMBNAIL_HEIGHT: u32 = 90;
/// JPEG quality (1..=100).
pub const THUMBNAIL_QUALITY: u8 = 80;

/// Encodes an RGBA8 frame of `width`×`height` as a 160×90 JPEG thumbnail.
/// The frame is scaled to cover the thumbnail and its overflow cropped
/// evenly from both sides, so the aspect ratio is kept.
///
/// # Errors
/// [`SaveError::PixelCount`] when `rgba` is not `width * height * 4` bytes
/// (or the frame is empty), [`SaveError::Image`] when encoding fails.
pub fn encode_thumbnail(rgba: &[u8], width: u32, height: u32) -> Result<Vec<u8>, SaveError> {
    let expected = width as usize * height as usize * 4;
    let frame = (expected == rgba.len() && expected > 0)
        .then(|| RgbaImage::from_raw(width, height, rgba.to_vec()))
        .flatten()
        .ok_or(SaveError::PixelCount {
            width,
            height,
            expected,
            found: rgba.len(),
        })?;
    // The largest window of the thumbnail's aspect that fits the frame.
    let (tw, th) = (u64::from(THUMBNAIL_WIDTH), u64::from(THUMBNAIL_HEIGHT));
    let (w, h) = (u64::from(width), u64::from(height));
    let (crop_w, crop_h) = if w * th > h * tw {
        ((h * tw / th).max(1), h)
    } else {
        (w, (w * th / tw).max(1))
    };
    let (crop_w, crop_h) = (
        u32::try_from(crop_w).unwrap_or(width),
        u32::try_from(crop_h).unwrap_or(height),
    );
    let window = imageops::crop_imm(
        &frame,
        (width - crop_w) / 2,
        (height - crop_h) / 2,
        crop_w,
        crop_h,
    )
    .to_image();
    let small = imageops::resize(
        &window,
        THUMBNAIL_WIDTH,
        THUMBNAIL_HEIGHT,
        FilterType::Triangle,
    );
    let rgb = image::DynamicImage::ImageRgba8(small).into_rgb8();
    let mut jpeg = Vec::new();
    JpegEncoder::new_with_quality(&mut jpeg, THUMBNAIL_QUALITY).encode_image(&rgb)?;
    Ok(jpeg)
}

/// The largest thumbnail [`decode_thumbnail`] accepts, each way: twice
/// what crafty writes, so a shared backup cannot make the launcher decode
/// (or upload to the GPU) an image of any size.
pub const MAX_THUMBNAIL_SIZE: (u32, u32) = (2 * THUMBNAIL_WIDTH, 2 * THUMBNAIL_HEIGHT);

/// Decodes a stored thumbnail for display. Its size is read from the
/// header and checked against [`MAX_THUMBNAIL_SIZE`] before any pixel is
/// decoded.
///
/// # Errors
/// [`SaveError::ThumbnailTooLarge`] for a larger image, [`SaveError::Image`]
/// when the bytes are not a JPEG.
pub fn decode_thumbnail(jpeg: &[u8]) -> Result<RgbaImage, SaveError> {
    let reader = || ImageReader::with_format(Cursor::new(jpeg), ImageFormat::Jpeg);
    let (width, height) = reader().into_dimensions()?;
    let (max_w, max_h) = MAX_THUMBNAIL_SIZE;
    if width > max_w || height > max_h || width == 0 || height == 0 {
        return Err(SaveError::ThumbnailTooLarge { width, height });
    }
    let mut limits = Limits::default();
    limits.max_image_width = Some(max_w);
    limits.max_image_height = Some(max_h);
    limits.max_alloc = Some(u64::from(max_w) * u64::from(max_h) * 4 * 2);
    let mut reader = reader();
    reader.limits(limits);
    Ok(reader.decode()?.into_rgba8())
}
