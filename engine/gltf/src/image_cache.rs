//! [`ImageCache`]: decoded images kept between loads, keyed by the content of the encoded
//! bytes ([`ImageKey`]).
//!
//! The importer consults the cache just before decoding an image and fills it just after; it
//! never stores anything itself. Where the pixels live (a database on disk, IndexedDB, memory)
//! is the cache's business: `taos_import_cache` is the engine's.
//!
//! The key is the BLAKE3 hash of the encoded file (PNG or JPEG bytes as found in the model)
//! and the size its header declares. BLAKE3 because a cache key over file content must not
//! collide, by chance or by a crafted file: it is a cryptographic hash (a 64-bit one such as
//! `foldhash` or xxh3 is not collision-resistant), and it still hashes several GB/s per core,
//! far below the cost of decoding what it names.

use std::fmt;
use std::sync::Arc;

/// What names a decoded image in an [`ImageCache`]: the BLAKE3 hash of its encoded bytes and
/// the width and height its header declares (a cached image of another size is not it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ImageKey {
    /// BLAKE3 of the encoded (PNG or JPEG) bytes.
    pub hash: ContentHash,
    /// Width in texels, from the encoded image's header.
    pub width: u32,
    /// Height in texels, from the encoded image's header.
    pub height: u32,
}

/// A BLAKE3 hash of some bytes: 32 bytes, shown as 64 lowercase hex digits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ContentHash(pub [u8; 32]);

impl ContentHash {
    /// The hash of `bytes`.
    #[must_use]
    pub fn of(bytes: &[u8]) -> Self {
        Self(*blake3::hash(bytes).as_bytes())
    }

    /// The hash as 64 lowercase hex digits.
    #[must_use]
    pub fn to_hex(&self) -> String {
        blake3::Hash::from_bytes(self.0).to_hex().to_string()
    }

    /// The hash spelled by 64 hex digits, or `None` for anything else.
    #[must_use]
    pub fn from_hex(hex: &str) -> Option<Self> {
        blake3::Hash::from_hex(hex)
            .ok()
            .map(|h| Self(*h.as_bytes()))
    }
}

impl fmt::Debug for ContentHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ContentHash({})", self.to_hex())
    }
}

impl fmt::Display for ContentHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl ImageKey {
    /// The key of `encoded` bytes whose header declares `width` x `height`.
    #[must_use]
    pub fn new(encoded: &[u8], width: u32, height: u32) -> Self {
        Self {
            hash: ContentHash::of(encoded),
            width,
            height,
        }
    }
}

/// Decoded images kept between loads. The importer calls [`get`](ImageCache::get) before
/// decoding an image and [`put`](ImageCache::put) after decoding one it did not get, from its
/// decoding threads (hence `Send + Sync`).
///
/// A cache must never fail a load: a lookup that goes wrong (a corrupt entry, an unreadable
/// store) is a miss, and a store that cannot keep an image drops it.
pub trait ImageCache: Send + Sync {
    /// The decoded image for `key`, if the cache has it. It must be `key.width` x
    /// `key.height`; the importer treats anything else as a miss.
    fn get(&self, key: &ImageKey) -> Option<image::RgbaImage>;

    /// Keeps `pixels`, just decoded from the bytes `key` names.
    fn put(&self, key: &ImageKey, pixels: &image::RgbaImage);
}

/// An [`ImageCache`] shared by [`LoadOptions`](crate::LoadOptions): two are equal when they
/// are the same cache.
#[derive(Clone)]
pub struct SharedImageCache(pub Arc<dyn ImageCache>);

impl fmt::Debug for SharedImageCache {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SharedImageCache(..)")
    }
}

impl PartialEq for SharedImageCache {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for SharedImageCache {}

/// Decodes with `decode` unless `cache` has the image; fills `cache` after decoding.
pub(crate) fn decode_cached<E>(
    cache: Option<&dyn ImageCache>,
    encoded: &[u8],
    (width, height): (u32, u32),
    decode: impl FnOnce(&[u8]) -> Result<image::RgbaImage, E>,
) -> Result<image::RgbaImage, E> {
    let Some(cache) = cache else {
        return decode(encoded);
    };
    let key = ImageKey::new(encoded, width, height);
    if let Some(pixels) = cache.get(&key)
        && pixels.dimensions() == (width, height)
    {
        return Ok(pixels);
    }
    let pixels = decode(encoded)?;
    if pixels.dimensions() == (width, height) {
        cache.put(&key, &pixels);
    }
    Ok(pixels)
}
