//! Back-to-front order for alpha-blended particles on the CPU path.

use glam::Affine3A;

use super::particle::Particle;
use crate::frame::CameraView;

/// Sorts `particles` farthest first along the camera's view direction;
/// `to_world` places them (the emitter's matrix in local space).
pub(crate) fn back_to_front(particles: &mut [Particle], to_world: &Affine3A, camera: &CameraView) {
    let (eye, forward) = (camera.position, camera.forward);
    let depth = |p: &Particle| forward.dot(to_world.transform_point3(p.position()) - eye);
    particles.sort_by_cached_key(|p| std::cmp::Reverse(ordered(depth(p))));
}

/// An integer that orders as `value` does under `f32::total_cmp`.
fn ordered(value: f32) -> i32 {
    let bits = value.to_bits() as i32;
    bits ^ (((bits >> 31) as u32) >> 1) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    #[test]
    fn the_farthest_comes_first() {
        let at = |z: f32| Particle {
            position: [0.0, 0.0, z],
            lifetime: 1.0,
            ..Default::default()
        };
        let camera = CameraView {
            position: Vec3::ZERO,
            forward: Vec3::NEG_Z,
            ..CameraView::default()
        };
        let mut particles = [at(-1.0), at(-5.0), at(-3.0)];
        back_to_front(&mut particles, &Affine3A::IDENTITY, &camera);
        let order: Vec<f32> = particles.iter().map(|p| p.position[2]).collect();
        assert_eq!(order, [-5.0, -3.0, -1.0]);
    }
}
