//! Draw items and the opaque / transparent / shadow buckets.
//!
//! The engine walks its scene once per frame and pushes one [`DrawItem`] per
//! visible mesh renderer; [`DrawBuckets::fill`] sorts them into the three
//! lists passes draw from. The lists are cleared, never dropped, so in steady
//! state bucketing allocates nothing (test `bucketing_is_allocation_free`).

use glam::{Affine3A, Vec3};

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

/// A draw item with its distance along the view direction (for sorting).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SortedDraw {
    /// The item.
    pub item: DrawItem,
    /// Depth of its origin along the camera's forward axis.
    pub depth: f32,
}

/// The three lists passes draw from, reused frame to frame.
#[derive(Debug, Default, Clone)]
pub struct DrawBuckets {
    /// Opaque and alpha-masked items, front to back (early depth rejection).
    pub opaque: Vec<SortedDraw>,
    /// Blended items, back to front.
    pub transparent: Vec<SortedDraw>,
    /// Shadow casters, in submission order.
    pub shadow: Vec<DrawItem>,
    /// Items whose mesh or material is not in the asset store (skipped).
    pub missing: usize,
}

impl DrawBuckets {
    /// Replaces the buckets' contents with `items`, seen from a camera at
    /// `eye` looking along `forward`. Items with an unknown mesh or material
    /// are counted in [`missing`](Self::missing) and skipped, not drawn wrong.
    pub fn fill(
        &mut self,
        items: impl IntoIterator<Item = DrawItem>,
        assets: &Assets,
        eye: Vec3,
        forward: Vec3,
    ) {
        self.opaque.clear();
        self.transparent.clear();
        self.shadow.clear();
        self.missing = 0;
        for item in items {
            let (Some(_), Some(material)) =
                (assets.mesh(item.mesh), assets.material(item.material))
            else {
                self.missing += 1;
                continue;
            };
            let depth = (Vec3::from(item.world.translation) - eye).dot(forward);
            let sorted = SortedDraw { item, depth };
            if material.is_transparent() {
                self.transparent.push(sorted);
            } else {
                self.opaque.push(sorted);
            }
            if item.cast_shadows {
                self.shadow.push(item);
            }
        }
        // sort_unstable_by sorts in place: no allocation.
        self.opaque
            .sort_unstable_by(|a, b| a.depth.total_cmp(&b.depth));
        self.transparent
            .sort_unstable_by(|a, b| b.depth.total_cmp(&a.depth));
    }
}
