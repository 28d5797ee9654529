//! [`plan`]: the level-of-detail tiles that cover the view.

use glam::{IVec2, Vec2, Vec3};

use super::LodTile;
use crate::world::CHUNK_SIZE;

/// The coarsest level: cells of 16 blocks, tiles of 16 × 16 chunk columns.
pub const MAX_LOD_LEVEL: u8 = 4;

/// How far each level reaches, in chunks per level step: a tile of level
/// `L > 0` is split while it is within `near + 1 + LOD_SPREAD * 2^(L-1)`
/// chunks of the camera's column. With a near radius of 8: level 0 to
/// about 13 chunks, 1 to 17, 2 to 25, 3 to 41, 4 beyond (cells about one
/// or two pixels wide wherever they are drawn at 1080p).
pub const LOD_SPREAD: i32 = 4;

/// Where the far view is seen from and how far it reaches.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LodView {
    /// The chunk column of the camera.
    pub center: IVec2,
    /// The near radius: columns this close (Chebyshev, in chunks) are
    /// drawn from their full chunks once those are meshed.
    pub near: i32,
    /// The view radius in chunks: tiles wholly beyond it are left out.
    pub far: i32,
    /// The camera's position, for the order.
    pub eye: Vec3,
    /// Where the camera looks, for the order (tiles in front first).
    pub look: Vec3,
}

impl LodView {
    /// How soon `tile` should be built: smaller first. Its distance from
    /// the eye, up to twice as far for tiles behind the camera.
    #[must_use]
    pub fn priority(&self, tile: LodTile) -> f32 {
        let to = tile.center() - Vec2::new(self.eye.x, self.eye.z);
        let distance = to.length();
        let look = Vec2::new(self.look.x, self.look.z).normalize_or_zero();
        let facing = if distance > 1.0 {
            look.dot(to / distance)
        } else {
            1.0
        };
        distance * (1.5 - 0.5 * facing)
    }
}

/// The tiles that cover the view square of radius `view.far` around
/// `view.center`, outside the columns for which `voxel_drawn` is true (the
/// near chunks already meshed): a quadtree from [`MAX_LOD_LEVEL`] tiles,
/// split finer near the camera (see [`LOD_SPREAD`]). Each column of the
/// square is covered by exactly one tile, or drawn from voxels. Ordered
/// by [`LodView::priority`].
#[must_use]
pub fn plan(view: &LodView, voxel_drawn: impl Fn(IVec2) -> bool) -> Vec<LodTile> {
    let far = view.far.max(0);
    let top = 1 << MAX_LOD_LEVEL;
    let lo = (view.center - IVec2::splat(far)).div_euclid(IVec2::splat(top));
    let hi = (view.center + IVec2::splat(far)).div_euclid(IVec2::splat(top));
    let mut out = Vec::new();
    for z in lo.y..=hi.y {
        for x in lo.x..=hi.x {
            let root = LodTile {
                level: MAX_LOD_LEVEL,
                x,
                z,
            };
            visit(root, view, &voxel_drawn, &mut out);
        }
    }
    let mut keyed: Vec<(f32, LodTile)> = out.into_iter().map(|t| (view.priority(t), t)).collect();
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    keyed.into_iter().map(|(_, tile)| tile).collect()
}

fn visit(
    tile: LodTile,
    view: &LodView,
    voxel_drawn: &impl Fn(IVec2) -> bool,
    out: &mut Vec<LodTile>,
) {
    let distance = tile.distance(view.center);
    if distance > view.far {
        return;
    }
    if tile.level > 0 {
        let reach = view.near + 1 + LOD_SPREAD * (1 << (tile.level - 1));
        if distance <= reach
            && let Some(children) = tile.children()
        {
            for child in children {
                visit(child, view, voxel_drawn, out);
            }
            return;
        }
    } else if voxel_drawn(tile.first_column()) {
        return;
    }
    out.push(tile);
}

/// Blocks from the camera's column to the far edge of the view: what the
/// fog and the far clip plane must reach.
#[must_use]
pub fn view_blocks(far: i32) -> f32 {
    (far.max(1) * CHUNK_SIZE as i32) as f32
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn view(center: IVec2, near: i32, far: i32) -> LodView {
        LodView {
            center,
            near,
            far,
            eye: Vec3::new(
                center.x as f32 * 32.0 + 16.0,
                80.0,
                center.y as f32 * 32.0 + 16.0,
            ),
            look: Vec3::NEG_Z,
        }
    }

    #[test]
    fn every_column_of_the_view_is_covered_once_outside_the_voxels() {
        for (center, near, far) in [
            (IVec2::new(0, 0), 8, 64),
            (IVec2::new(-37, 101), 8, 32),
            (IVec2::new(5, -3), 4, 16),
        ] {
            let v = view(center, near, far);
            let voxel = |c: IVec2| (c - center).abs().max_element() <= near;
            let tiles = plan(&v, voxel);
            let mut covered: HashMap<IVec2, usize> = HashMap::new();
            for tile in &tiles {
                for dz in 0..tile.chunks() {
                    for dx in 0..tile.chunks() {
                        *covered
                            .entry(tile.first_column() + IVec2::new(dx, dz))
                            .or_default() += 1;
                    }
                }
            }
            for z in -far..=far {
                for x in -far..=far {
                    let c = center + IVec2::new(x, z);
                    let n = covered.get(&c).copied().unwrap_or(0);
                    let expected = usize::from(!voxel(c));
                    assert_eq!(n, expected, "column {c} of {center} near {near}");
                }
            }
            // Finer near the camera, coarser far away.
            let level_at = |d: i32| {
                tiles
                    .iter()
                    .find(|t| t.covers(center + IVec2::new(d, 0)))
                    .map(|t| t.level)
            };
            assert_eq!(level_at(near + 1), Some(0));
            assert!(level_at(far) >= level_at(near + 6));
        }
    }

    #[test]
    fn the_count_stays_small_at_64_chunks() {
        let v = view(IVec2::new(3, 3), 8, 64);
        let tiles = plan(&v, |c| (c - v.center).abs().max_element() <= 8);
        assert!(tiles.len() < 1000, "{} tiles", tiles.len());
        let coarse = tiles.iter().filter(|t| t.level == MAX_LOD_LEVEL).count();
        assert!(coarse > 0);
    }

    #[test]
    fn tiles_in_front_come_before_tiles_behind() {
        let v = view(IVec2::ZERO, 4, 16);
        let tiles = plan(&v, |c| c.abs().max_element() <= 4);
        let front = tiles
            .iter()
            .position(|t| t.level == 0 && t.z == -6 && t.x == 0);
        let back = tiles
            .iter()
            .position(|t| t.level == 0 && t.z == 6 && t.x == 0);
        assert!(front < back, "{front:?} {back:?}");
    }
}
