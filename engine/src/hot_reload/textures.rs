//! Textures loaded from a path: [`Engine::load_texture`] uploads one and
//! remembers where it came from; when the file changes it is decoded again
//! and replaces the texture under the same id, so every material using it
//! shows the new picture from the next frame.

use std::path::{Path, PathBuf};

use taos_renderer::resources::{ColorSpace, Texture, TextureError, TextureId};
use web_time::Instant;

use super::{ReloadEvent, ReloadKind, canonical};
use crate::Engine;

/// A texture registered for reloading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WatchedTexture {
    /// The file (canonical).
    pub path: PathBuf,
    /// The texture it fills.
    pub id: TextureId,
    /// How its values are read.
    pub color_space: ColorSpace,
}

impl Engine {
    /// Decodes a PNG or JPEG file and uploads it with its mip chain, for a
    /// material's texture slot. With hot reload on, a change to the file
    /// replaces the texture under the same id.
    ///
    /// # Errors
    /// [`TextureError`] naming the file: it cannot be read, is not a PNG
    /// or JPEG, or is larger than the GPU allows.
    pub fn load_texture(
        &mut self,
        path: impl AsRef<Path>,
        color_space: ColorSpace,
    ) -> Result<TextureId, TextureError> {
        let path = path.as_ref();
        let (assets, gpu) = self.renderer().assets_mut();
        let texture = Texture::from_file(gpu, path, color_space)?;
        let id = assets.add_texture(texture);
        let path = canonical(path);
        self.hot_reload.watch_folder_of(&path);
        self.hot_reload.textures.push(WatchedTexture {
            path,
            id,
            color_space,
        });
        Ok(id)
    }

    /// Replaces every registered texture read from a file in `changed`.
    pub(crate) fn reload_textures(&mut self, changed: &[PathBuf], events: &mut Vec<ReloadEvent>) {
        let due: Vec<WatchedTexture> = self
            .hot_reload
            .textures
            .iter()
            .filter(|t| changed.contains(&t.path))
            .cloned()
            .collect();
        for watched in due {
            let started = Instant::now();
            let (assets, gpu) = self.renderer().assets_mut();
            let outcome = Texture::from_file(gpu, &watched.path, watched.color_space)
                .map(|texture| {
                    assets.replace_texture(watched.id, texture);
                    ReloadKind::Texture
                })
                .map_err(|error| error.to_string());
            events.push(ReloadEvent {
                path: watched.path,
                outcome,
                took: started.elapsed(),
            });
        }
    }
}
