//! Images: resolved (data URI, external file, buffer view) and decoded to RGBA8; KTX2
//! images (`KHR_texture_basisu`) are kept undecoded for the renderer to transcode.

use std::io::Cursor;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

use crate::accessor::Buffers;
use crate::error::{ElementName, GltfError, SourceProblem};
use crate::files::{Bytes, Files};
use crate::image_cache::{ImageCache, decode_cached};
use crate::material::ImageUsage;

/// Largest width or height accepted; larger images are refused before any allocation.
pub const MAX_IMAGE_SIZE: u32 = 16384;

/// Below this many encoded bytes in all, images are decoded on the calling thread: spawning
/// threads costs more than it saves. Measured with `examples/load_time.rs` on a busy 2-core
/// machine: 8 compressible 512x512 PNGs took ~23 ms in parallel against 24-41 ms sequentially;
/// incompressible (stored) PNGs, whose decoding is only copying, took 12 ms against 8 ms.
const PARALLEL_THRESHOLD_BYTES: usize = 256 * 1024;

/// A glTF image's texels: decoded RGBA8, or a KTX2 file left for the renderer.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum ImagePixels {
    /// PNG or JPEG decoded to RGBA8, rows top to bottom (glTF UV (0, 0) is the top-left
    /// texel).
    Rgba8(image::RgbaImage),
    /// A KTX2 file (Basis Universal, `KHR_texture_basisu`), as stored: the renderer
    /// transcodes it for its GPU (`taos_renderer::resources::Texture::from_ktx2_bytes`).
    /// Only its identifier and size were checked here.
    Ktx2(Vec<u8>),
}

impl ImagePixels {
    /// Width and height in texels (of level 0 for KTX2).
    #[must_use]
    pub fn dimensions(&self) -> (u32, u32) {
        match self {
            Self::Rgba8(pixels) => pixels.dimensions(),
            Self::Ktx2(bytes) => ktx2_dimensions(bytes).unwrap_or((0, 0)),
        }
    }

    /// The RGBA8 pixels, if decoded (not KTX2).
    #[must_use]
    pub fn rgba8(&self) -> Option<&image::RgbaImage> {
        match self {
            Self::Rgba8(pixels) => Some(pixels),
            Self::Ktx2(_) => None,
        }
    }
}

/// The start of every KTX2 file.
const KTX2_MAGIC: [u8; 12] = [
    0xAB, 0x4B, 0x54, 0x58, 0x20, 0x32, 0x30, 0xBB, 0x0D, 0x0A, 0x1A, 0x0A,
];

/// A KTX2 file's level-0 width and height, if `bytes` start with a KTX2 header.
fn ktx2_dimensions(bytes: &[u8]) -> Option<(u32, u32)> {
    if !bytes.starts_with(&KTX2_MAGIC) {
        return None;
    }
    let word = |at: usize| Some(u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?));
    Some((word(20)?, word(24)?))
}

/// A glTF image: its name, texels, and how the materials use it.
#[derive(Debug, Clone, PartialEq)]
pub struct Image {
    /// The image's `name`.
    pub name: Option<String>,
    /// The texels: RGBA8, or KTX2 bytes for the renderer to transcode.
    pub pixels: ImagePixels,
    /// A material samples it as colour (base colour or emissive): upload as sRGB.
    pub used_as_color: bool,
    /// A material samples it as data (metallic-roughness, normal, occlusion): upload as linear.
    /// An image can be both (upload it twice) or neither (unused).
    pub used_as_data: bool,
}

struct Encoded<'a> {
    name: ElementName,
    bytes: Bytes<'a>,
    /// The size its header declares (0 x 0 when unreadable).
    size: (u32, u32),
}

/// Resolves every image's bytes (sequentially: file reads), then decodes them, in parallel when
/// there is enough data, each through `cache` when there is one. `progress` gets the number
/// decoded so far.
pub(crate) fn import_images(
    doc: &gltf::Document,
    buffers: &Buffers<'_>,
    files: &mut Files<'_>,
    file: &str,
    usage: &[ImageUsage],
    cache: Option<&dyn ImageCache>,
    progress: &mut dyn FnMut(usize),
) -> Result<Vec<Image>, GltfError> {
    let error = |name: &ElementName, problem| GltfError::Image {
        file: file.to_owned(),
        image: name.clone(),
        problem,
    };
    let mut encoded = Vec::new();
    for img in doc.images() {
        let name = ElementName::new(crate::ElementKind::Image, img.index(), img.name());
        // From the JSON: `gltf::Image::source` unwraps a missing mimeType or uri (unvalidated).
        let json = &doc.as_json().images[img.index()];
        let declared_mime = json.mime_type.as_ref().map(|m| m.0.clone());
        let (mime, bytes): (Option<String>, Bytes<'_>) = match (&json.buffer_view, &json.uri) {
            (Some(view_index), _) => {
                let Some(mime) = declared_mime else {
                    return Err(error(&name, SourceProblem::MissingMimeType));
                };
                // The index was validated with the document.
                let Some(view) = doc.views().nth(view_index.value()) else {
                    return Err(error(&name, SourceProblem::NoSource));
                };
                let buffer = view.buffer().index();
                let data = buffers.get(buffer);
                let range = view
                    .offset()
                    .checked_add(view.length())
                    .filter(|&end| end <= data.len().min(view.buffer().length()))
                    .map(|end| view.offset()..end);
                let Some(range) = range else {
                    return Err(error(
                        &name,
                        SourceProblem::ViewOutOfRange {
                            view: view.index(),
                            buffer,
                        },
                    ));
                };
                (Some(mime), Bytes::Borrowed(&data[range]))
            }
            (None, Some(uri)) => {
                let (data_mime, bytes) = files
                    .load_uri(uri, buffers.budget())
                    .map_err(|p| error(&name, p))?;
                (declared_mime.or(data_mime), bytes)
            }
            (None, None) => return Err(error(&name, SourceProblem::NoSource)),
        };
        if let Some(mime) = mime.filter(|m| {
            !matches!(
                m.as_str(),
                "image/png" | "image/jpeg" | "image/jpg" | "image/ktx2"
            )
        }) {
            return Err(error(&name, SourceProblem::UnsupportedImageType { mime }));
        }
        // A KTX2 is charged as RGBA8 too: what it takes on the CPU before its transcode.
        let (width, height) = ktx2_dimensions(&bytes)
            .or_else(|| {
                image::ImageReader::new(Cursor::new(&bytes[..]))
                    .with_guessed_format()
                    .ok()
                    .and_then(|r| r.into_dimensions().ok())
            })
            .unwrap_or((0, 0));
        let needed = u64::from(width) * u64::from(height) * 4;
        buffers.charge(needed).map_err(|(needed, remaining)| {
            error(
                &name,
                SourceProblem::TooLarge {
                    width,
                    height,
                    needed,
                    remaining,
                },
            )
        })?;
        encoded.push(Encoded {
            name,
            bytes,
            size: (width, height),
        });
    }

    let total_bytes: usize = encoded.iter().map(|e| e.bytes.len()).sum();
    let workers = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(encoded.len());
    let decoded: Vec<Result<ImagePixels, SourceProblem>> =
        if workers <= 1 || total_bytes < PARALLEL_THRESHOLD_BYTES {
            encoded
                .iter()
                .enumerate()
                .map(|(i, e)| {
                    let result = decode_one(cache, e);
                    progress(i + 1);
                    result
                })
                .collect()
        } else {
            decode_parallel(&encoded, workers, cache, progress)
        };

    encoded
        .iter()
        .zip(decoded)
        .zip(doc.images())
        .map(|((e, pixels), img)| {
            let u = usage.get(img.index()).copied().unwrap_or_default();
            Ok(Image {
                name: img.name().map(str::to_owned),
                pixels: pixels.map_err(|p| error(&e.name, p))?,
                used_as_color: u.color,
                used_as_data: u.data,
            })
        })
        .collect()
}

fn decode_parallel(
    encoded: &[Encoded<'_>],
    workers: usize,
    cache: Option<&dyn ImageCache>,
    progress: &mut dyn FnMut(usize),
) -> Vec<Result<ImagePixels, SourceProblem>> {
    let next = AtomicUsize::new(0);
    let (send, receive) = mpsc::channel();
    let mut results: Vec<Option<Result<ImagePixels, SourceProblem>>> = Vec::new();
    results.resize_with(encoded.len(), || None);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let send = send.clone();
            let next = &next;
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(e) = encoded.get(i) else { break };
                    let result = decode_one(cache, e);
                    if send.send((i, result)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        // Ends when every worker has finished and dropped its sender.
        for (done, (i, result)) in receive.iter().enumerate() {
            results[i] = Some(result);
            progress(done + 1);
        }
    });
    results
        .into_iter()
        .map(|r| {
            r.unwrap_or_else(|| {
                Err(SourceProblem::DataUri {
                    reason: "decoder thread stopped".into(),
                })
            })
        })
        .collect()
}

/// One image: KTX2 bytes kept as they are (already the processed form);
/// PNG or JPEG decoded through the import cache when there is one.
fn decode_one(
    cache: Option<&dyn ImageCache>,
    e: &Encoded<'_>,
) -> Result<ImagePixels, SourceProblem> {
    if ktx2_dimensions(&e.bytes).is_some() {
        return decode(&e.bytes);
    }
    decode_cached(cache, &e.bytes, e.size, |bytes| match decode(bytes)? {
        ImagePixels::Rgba8(pixels) => Ok(pixels),
        ImagePixels::Ktx2(_) => Err(SourceProblem::UnsupportedImageType {
            mime: "image/ktx2".to_owned(),
        }),
    })
    .map(ImagePixels::Rgba8)
}

/// Decodes PNG or JPEG bytes to RGBA8 under [`MAX_IMAGE_SIZE`]; keeps KTX2 bytes of that size.
fn decode(bytes: &[u8]) -> Result<ImagePixels, SourceProblem> {
    if let Some((width, height)) = ktx2_dimensions(bytes) {
        if width == 0 || height == 0 || width > MAX_IMAGE_SIZE || height > MAX_IMAGE_SIZE {
            // What `image` reports for a PNG beyond the same limit.
            let limit =
                image::error::LimitError::from_kind(image::error::LimitErrorKind::DimensionError);
            return Err(SourceProblem::Decode(Box::new(image::ImageError::Limits(
                limit,
            ))));
        }
        return Ok(ImagePixels::Ktx2(bytes.to_vec()));
    }
    let format = image::guess_format(bytes).map_err(|e| SourceProblem::Decode(Box::new(e)))?;
    if !matches!(format, image::ImageFormat::Png | image::ImageFormat::Jpeg) {
        return Err(SourceProblem::UnsupportedImageType {
            mime: format.to_mime_type().to_owned(),
        });
    }
    let mut reader = image::ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_IMAGE_SIZE);
    limits.max_image_height = Some(MAX_IMAGE_SIZE);
    reader.limits(limits);
    Ok(ImagePixels::Rgba8(
        reader
            .decode()
            .map_err(|e| SourceProblem::Decode(Box::new(e)))?
            .into_rgba8(),
    ))
}
