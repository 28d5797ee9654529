//! Which [`ImportCache`] an [`Assets`] loads glTF models through: the
//! platform's by default ([`ImportCache::platform`]), another, or none.

use taos_import_cache::ImportCache;

use super::Assets;

impl Assets {
    /// These assets loading glTF models through `cache`: decoded images are
    /// taken from it when their encoded bytes were seen before, and stored
    /// in it when not (see [`taos_import_cache`]). The default is the
    /// platform's cache ([`ImportCache::platform`]): natively files in
    /// `$TAOS_CACHE_DIR` or the platform's cache folder plus `taos`
    /// (`~/.cache/taos/images/` on Linux), in the browser the IndexedDB
    /// database `taos_import_cache`.
    ///
    /// ```
    /// use taos_engine::assets::Assets;
    /// use taos_engine::import_cache::ImportCache;
    ///
    /// // A cache shipped beside the game's assets (`taos assets assets --out cache`).
    /// let assets = Assets::with_root("assets").with_import_cache(ImportCache::in_folder("cache"));
    /// assert_eq!(assets.import_cache(), Some(&ImportCache::in_folder("cache")));
    /// assert_eq!(assets.without_import_cache().import_cache(), None);
    /// ```
    #[must_use]
    pub fn with_import_cache(mut self, cache: ImportCache) -> Self {
        self.import_cache = Some(cache);
        self
    }

    /// These assets decoding every image of every glTF model they load.
    #[must_use]
    pub fn without_import_cache(mut self) -> Self {
        self.import_cache = None;
        self
    }

    /// The cache glTF models are loaded through, if any.
    #[must_use]
    pub fn import_cache(&self) -> Option<&ImportCache> {
        self.import_cache.as_ref()
    }
}
