//! Which shadow casters each cascade draws.
//!
//! Every caster is tested against each cascade's light-space box with the
//! near plane dropped: a caster between the sun and the box (outside the box
//! itself) still throws its shadow into it, so only the four side planes and
//! the far plane (beyond which nothing can shadow the box) reject.

use glam::Vec3;

use super::{MAX_CASCADES, ShadowCascades};
use crate::frame::{DrawItem, Frustum};
use crate::resources::MeshId;

/// Per cascade, the indices (into the frame's
/// [`shadow`](crate::frame::DrawBuckets::shadow) list) of the casters it
/// draws; the lists are reused frame to frame.
#[derive(Debug, Default)]
pub(super) struct CascadeCasters {
    lists: [Vec<u32>; MAX_CASCADES],
}

impl CascadeCasters {
    /// Empties every list, keeping its storage.
    pub(super) fn clear(&mut self) {
        self.lists.iter_mut().for_each(Vec::clear);
    }

    /// Refills the lists for `cascades` from `casters`, whose object-space
    /// bounds `bounds` looks up (`None`: the mesh is missing and nothing is
    /// drawn).
    pub(super) fn fill(
        &mut self,
        cascades: &ShadowCascades,
        casters: &[DrawItem],
        bounds: impl Fn(MeshId) -> Option<(Vec3, Vec3)>,
    ) {
        self.clear();
        let count = cascades.count.min(MAX_CASCADES);
        let frusta: [Frustum; MAX_CASCADES] = std::array::from_fn(|i| caster_frustum(cascades, i));
        for (index, item) in casters.iter().enumerate() {
            let Some(bounds) = bounds(item.mesh) else {
                continue;
            };
            let Ok(index) = u32::try_from(index) else {
                break;
            };
            for (frustum, list) in frusta.iter().zip(&mut self.lists).take(count) {
                if frustum.intersects_transformed_aabb(bounds, &item.world) {
                    list.push(index);
                }
            }
        }
    }

    /// The casters cascade `cascade` draws (empty past the last cascade).
    pub(super) fn cascade(&self, cascade: usize) -> &[u32] {
        self.lists.get(cascade).map_or(&[], Vec::as_slice)
    }

    /// Caster instances drawn over all cascades.
    pub(super) fn drawn(&self) -> usize {
        self.lists.iter().map(Vec::len).sum()
    }
}

/// The volume whose casters can shadow cascade `cascade`: its light box,
/// reaching back toward the sun without end.
fn caster_frustum(cascades: &ShadowCascades, cascade: usize) -> Frustum {
    Frustum::from_view_proj(cascades.view_proj[cascade]).without_near()
}

#[cfg(test)]
mod tests {
    use glam::{Affine3A, Vec3Swizzles, Vec4Swizzles};

    use super::*;
    use crate::features::shadow::fit_cascades;
    use crate::frame::{CameraView, CascadeSettings};
    use crate::resources::MaterialId;

    const SUN: Vec3 = Vec3::new(-0.2, -1.0, -0.1);

    fn camera() -> CameraView {
        let eye = Vec3::new(0.0, 2.0, 0.0);
        let forward = Vec3::NEG_Z;
        CameraView {
            view: glam::camera::rh::view::look_to_mat4(eye, forward, Vec3::Y),
            projection: glam::camera::rh::proj::directx::perspective(1.0, 1.5, 0.1, 200.0),
            position: eye,
            forward,
            near: 0.1,
            far: 200.0,
        }
    }

    fn cascades() -> ShadowCascades {
        let settings = CascadeSettings {
            count: 3,
            max_distance: 80.0,
            ..CascadeSettings::default()
        };
        fit_cascades(&camera(), SUN, &settings, 1024)
    }

    fn caster(at: Vec3) -> DrawItem {
        DrawItem {
            mesh: MeshId(0),
            material: MaterialId(0),
            world: Affine3A::from_translation(at),
            cast_shadows: true,
        }
    }

    fn unit_box(_: MeshId) -> Option<(Vec3, Vec3)> {
        Some((Vec3::splat(-0.5), Vec3::splat(0.5)))
    }

    /// Where `p` lands in cascade `i`'s light clip space.
    fn light_clip(c: &ShadowCascades, i: usize, p: Vec3) -> Vec3 {
        let clip = c.view_proj[i] * p.extend(1.0);
        clip.xyz() / clip.w
    }

    #[test]
    fn each_cascade_keeps_only_the_casters_over_it() {
        let c = cascades();
        let near = camera().position + Vec3::new(0.0, -2.0, -3.0);
        let far = camera().position + Vec3::new(0.0, -2.0, -70.0);
        let aside = Vec3::new(500.0, 0.0, -30.0);
        let casters = [caster(near), caster(far), caster(aside)];
        let mut lists = CascadeCasters::default();
        lists.fill(&c, &casters, unit_box);
        // The test's own premises, in light clip space.
        assert!(light_clip(&c, 0, near).xy().abs().max_element() < 1.0);
        assert!(light_clip(&c, 0, far).xy().abs().max_element() > 1.5);
        assert!(light_clip(&c, 2, far).xy().abs().max_element() < 1.0);
        assert_eq!(
            lists.cascade(0),
            [0],
            "the first cascade: only the near caster"
        );
        assert!(
            lists.cascade(2).contains(&1),
            "the last cascade has the far one"
        );
        for i in 0..c.count {
            assert!(
                !lists.cascade(i).contains(&2),
                "cascade {i} drew the far-off caster"
            );
        }
        assert!(lists.drawn() < casters.len() * c.count);
        assert_eq!(
            lists.drawn(),
            (0..c.count).map(|i| lists.cascade(i).len()).sum::<usize>()
        );
        assert!(lists.cascade(MAX_CASCADES).is_empty());
    }

    #[test]
    fn a_caster_between_the_sun_and_the_box_is_kept() {
        let c = cascades();
        let ground = camera().position + Vec3::new(0.0, -2.0, -3.0);
        // Far up the sun's ray through a visible ground point: in front of the
        // light box's near plane, so its full frustum would reject it.
        let high = ground - SUN.normalize() * 1000.0;
        assert!(
            light_clip(&c, 0, high).z < 0.0,
            "premise: before the near plane"
        );
        let full = Frustum::from_view_proj(c.view_proj[0]);
        assert!(
            !full.intersects_transformed_aabb(unit_box(MeshId(0)).unwrap(), &caster(high).world)
        );
        let mut lists = CascadeCasters::default();
        lists.fill(&c, &[caster(high)], unit_box);
        assert_eq!(lists.cascade(0), [0]);
        // Beyond the far plane (under the ground, away from the sun) it is not.
        let low = ground + SUN.normalize() * 1000.0;
        lists.fill(&c, &[caster(low)], unit_box);
        assert_eq!(lists.drawn(), 0);
    }

    #[test]
    fn missing_meshes_are_skipped_and_lists_are_reused() {
        let c = cascades();
        let mut lists = CascadeCasters::default();
        let near = caster(camera().position + Vec3::new(0.0, -2.0, -3.0));
        lists.fill(&c, &[near; 8], unit_box);
        assert!(lists.drawn() >= 8);
        let capacity = lists.lists[0].capacity();
        lists.fill(&c, &[near; 8], |_| None);
        assert_eq!(lists.drawn(), 0);
        assert_eq!(lists.lists[0].capacity(), capacity, "storage kept");
    }
}
