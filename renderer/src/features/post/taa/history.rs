//! The history TAA keeps across frames: two HDR textures the size of the
//! output, one read (the last frame's result) while the other is written,
//! swapped after every frame that rendered; and when to throw it away.

use glam::Mat4;

use crate::frame::{CameraView, HDR_FORMAT, HDR_USAGE};

/// Two frame-sized HDR textures: the last result and the next one.
#[derive(Debug)]
pub(super) struct History {
    size: (u32, u32),
    textures: [wgpu::Texture; 2],
    /// Which texture holds the last result.
    latest: usize,
    /// Whether it holds a frame at all (not after creation or a reset).
    valid: bool,
}

impl History {
    pub(super) fn new(device: &wgpu::Device, size: (u32, u32)) -> Self {
        let texture = |label| {
            device.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size: wgpu::Extent3d {
                    width: size.0,
                    height: size.1,
                    depth_or_array_layers: 1,
                },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: HDR_FORMAT,
                usage: HDR_USAGE,
                view_formats: &[],
            })
        };
        Self {
            size,
            textures: [texture("taa history a"), texture("taa history b")],
            latest: 0,
            valid: false,
        }
    }

    pub(super) fn size(&self) -> (u32, u32) {
        self.size
    }

    pub(super) fn valid(&self) -> bool {
        self.valid
    }

    pub(super) fn invalidate(&mut self) {
        self.valid = false;
    }

    /// The last result (read this frame).
    pub(super) fn latest(&self) -> &wgpu::Texture {
        &self.textures[self.latest]
    }

    /// The texture this frame writes.
    pub(super) fn next(&self) -> &wgpu::Texture {
        &self.textures[1 - self.latest]
    }

    /// After a frame wrote [`next`](Self::next): it becomes the latest.
    pub(super) fn advance(&mut self) {
        self.latest = 1 - self.latest;
        self.valid = true;
    }
}

/// The unjittered camera of one frame, as TAA remembers it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct FrameCamera {
    pub(super) view: CameraView,
    pub(super) view_proj: Mat4,
}

impl FrameCamera {
    pub(super) fn new(view: CameraView) -> Self {
        Self {
            view,
            view_proj: view.projection * view.view,
        }
    }
}

/// Whether the camera jumped between two frames (a cut) rather than moved:
/// farther than `max_distance` or turned more than `max_angle` radians.
/// Reprojecting across a cut would smear the old shot into the new one.
#[must_use]
pub(super) fn is_camera_cut(
    previous: &CameraView,
    current: &CameraView,
    max_distance: f32,
    max_angle: f32,
) -> bool {
    let moved = previous.position.distance(current.position);
    let turned = previous
        .forward
        .normalize_or_zero()
        .dot(current.forward.normalize_or_zero())
        .clamp(-1.0, 1.0)
        .acos();
    !(moved <= max_distance && turned <= max_angle)
}

#[cfg(test)]
mod tests {
    use glam::Vec3;

    use super::*;

    fn at(position: Vec3, forward: Vec3) -> CameraView {
        CameraView {
            position,
            forward,
            ..CameraView::default()
        }
    }

    #[test]
    fn jumps_and_sharp_turns_are_cuts_walking_is_not() {
        let start = at(Vec3::ZERO, Vec3::NEG_Z);
        let (distance, angle) = (2.0, 30f32.to_radians());
        let walked = at(
            Vec3::new(0.1, 0.0, -0.1),
            Vec3::new(0.05, 0.0, -1.0).normalize(),
        );
        assert!(!is_camera_cut(&start, &walked, distance, angle));
        let teleported = at(Vec3::new(50.0, 0.0, 0.0), Vec3::NEG_Z);
        assert!(is_camera_cut(&start, &teleported, distance, angle));
        let turned = at(Vec3::ZERO, Vec3::X);
        assert!(is_camera_cut(&start, &turned, distance, angle));
        let broken = at(Vec3::splat(f32::NAN), Vec3::NEG_Z);
        assert!(is_camera_cut(&start, &broken, distance, angle));
    }
}
