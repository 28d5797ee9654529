//! Draw items and the opaque / transparent / shadow buckets.
//!
//! The engine walks its scene once per frame and pushes one [`DrawItem`] per
//! visible mesh renderer; [`DrawBuckets::fill`] culls them against the
//! camera's [`Frustum`] and sorts them into the three lists passes draw from.
//! The lists are cleared, never dropped, so in steady state bucketing
//! allocates nothing (test `bucketing_is_allocation_free`).
//!
//! An item may say where it was the frame before ([`MovingDraw`]): temporal
//! anti-aliasing draws motion vectors for the items that moved, so they
//! leave no trail.

use glam::{Affine3A, Vec3};

use super::{CameraView, Frustum};
use crate::resources::{Assets, MaterialId, MeshId};

/// One mesh to draw with one material at one world transform.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DrawItem {
    /// The geometry.
    pub mesh: MeshId,
    /// The surface.
    pub material: MaterialId,
    /// Object-to-world transform.
    pub world: Affine3A,
    /// Whether it is drawn into shadow maps.
    pub cast_shadows: bool,
}

/// A draw item with where it was drawn the frame before. Every
/// [`DrawItem`] converts into one that did not move.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MovingDraw {
    /// The item, at this frame's transform.
    pub item: DrawItem,
    /// Its object-to-world transform the frame before.
    pub previous_world: Affine3A,
}

impl From<DrawItem> for MovingDraw {
    fn from(item: DrawItem) -> Self {
        Self {
            item,
            previous_world: item.world,
        }
    }
}

/// A draw item with its distance along the view direction (for sorting).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SortedDraw {
    /// The item.
    pub item: DrawItem,
    /// Depth of its origin along the camera's forward axis.
    pub depth: f32,
    /// Its object-to-world transform the frame before (equal to
    /// `item.world` when it did not move).
    pub previous_world: Affine3A,
}

impl SortedDraw {
    /// Whether the item moved since the frame before.
    #[must_use]
    pub fn moved(&self) -> bool {
        self.previous_world != self.item.world
    }
}

/// The three lists passes draw from, reused frame to frame.
#[derive(Debug, Clone)]
pub struct DrawBuckets {
    /// Opaque and alpha-masked items in the camera frustum, front to back
    /// (early depth rejection).
    pub opaque: Vec<SortedDraw>,
    /// Blended items in the camera frustum, back to front.
    pub transparent: Vec<SortedDraw>,
    /// Shadow casters, in submission order, whether the camera sees them or
    /// not (one outside the view can shadow into it); the shadow feature
    /// culls them per cascade.
    pub shadow: Vec<DrawItem>,
    /// Items whose mesh or material is not in the asset store (skipped).
    pub missing: usize,
    /// Items left out of `opaque` and `transparent` because their bounds lie
    /// wholly outside the camera frustum (the last [`fill`](Self::fill)).
    pub culled: usize,
    /// Whether [`fill`](Self::fill) culls against the camera frustum (true by
    /// default; off, every known item is drawn, as for comparisons).
    pub frustum_culling: bool,
}

impl Default for DrawBuckets {
    fn default() -> Self {
        Self {
            opaque: Vec::new(),
            transparent: Vec::new(),
            shadow: Vec::new(),
            missing: 0,
            culled: 0,
            frustum_culling: true,
        }
    }
}

impl DrawBuckets {
    /// Replaces the buckets' contents with `items`, seen from `camera`.
    /// Items are [`DrawItem`]s, or [`MovingDraw`]s where the caller knows
    /// the previous frame's transforms (for motion vectors).
    ///
    /// Items with an unknown mesh or material are counted in
    /// [`missing`](Self::missing) and skipped, not drawn wrong. With
    /// [`frustum_culling`](Self::frustum_culling) on, items whose mesh bounds
    /// (placed by their world transform) lie outside the camera's frustum are
    /// counted in [`culled`](Self::culled) and left out of the opaque and
    /// transparent lists; casters among them stay in [`shadow`](Self::shadow).
    pub fn fill(
        &mut self,
        items: impl IntoIterator<Item = impl Into<MovingDraw>>,
        assets: &Assets,
        camera: &CameraView,
    ) {
        self.opaque.clear();
        self.transparent.clear();
        self.shadow.clear();
        self.missing = 0;
        self.culled = 0;
        let frustum = Frustum::from_view_proj(camera.projection * camera.view);
        let (eye, forward) = (camera.position, camera.forward);
        for moving in items {
            let MovingDraw {
                item,
                previous_world,
            } = moving.into();
            let (Some(mesh), Some(material)) =
                (assets.mesh(item.mesh), assets.material(item.material))
            else {
                self.missing += 1;
                continue;
            };
            if item.cast_shadows {
                self.shadow.push(item);
            }
            if self.frustum_culling
                && !frustum.intersects_transformed_aabb(mesh.bounds(), &item.world)
            {
                self.culled += 1;
                continue;
            }
            let depth = (Vec3::from(item.world.translation) - eye).dot(forward);
            let sorted = SortedDraw {
                item,
                depth,
                previous_world,
            };
            if material.is_transparent() {
                self.transparent.push(sorted);
            } else {
                self.opaque.push(sorted);
            }
        }
        // sort_unstable_by sorts in place: no allocation.
        self.opaque
            .sort_unstable_by(|a, b| a.depth.total_cmp(&b.depth));
        self.transparent
            .sort_unstable_by(|a, b| b.depth.total_cmp(&a.depth));
    }
}
