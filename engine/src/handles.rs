//! From the renderer's asset ids to the core's component handles.
//!
//! The renderer ([`Assets`](taos_renderer::resources::Assets)) hands out
//! [`MeshId`]s and [`MaterialId`]s; a [`MeshRenderer`](crate::MeshRenderer)
//! component names them by [`MeshHandle`] and [`MaterialHandle`] (the core
//! knows nothing of the renderer). Both carry the same number; this facade,
//! which knows both crates, converts.

use taos_core::{MaterialHandle, MeshHandle};
use taos_renderer::resources::{MaterialId, MeshId};

/// A renderer asset id that a component can name: `mesh_id.handle()`.
///
/// ```
/// use taos_engine::prelude::*;
/// use taos_engine::renderer::resources::{MaterialId, MeshId};
///
/// let renderer = MeshRenderer::new(MeshId(3).handle(), MaterialId(1).handle());
/// assert_eq!(renderer.mesh, MeshHandle(3));
/// assert_eq!(renderer.material, MaterialHandle(1));
/// ```
pub trait AssetHandle: Copy {
    /// The component handle that carries the same number.
    type Handle;

    /// The component handle for this asset.
    fn handle(self) -> Self::Handle;
}

impl AssetHandle for MeshId {
    type Handle = MeshHandle;

    fn handle(self) -> MeshHandle {
        MeshHandle(self.0)
    }
}

impl AssetHandle for MaterialId {
    type Handle = MaterialHandle;

    fn handle(self) -> MaterialHandle {
        MaterialHandle(self.0)
    }
}
