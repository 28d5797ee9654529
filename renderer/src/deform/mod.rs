//! Skinned and morphing meshes.
//!
//! A [`DeformableMeshData`] (a mesh plus per-vertex joint influences and/or
//! morph targets) is uploaded once with [`Assets::add_deformable_mesh`](crate::resources::Assets::add_deformable_mesh).
//! Each object drawing it gets its own instance,
//! [`Assets::add_deformed_instance`](crate::resources::Assets::add_deformed_instance):
//! an ordinary [`MeshId`] whose vertices are rewritten every frame from the
//! pose given to [`Renderer::deform`](crate::Renderer::deform). Because the
//! result is an ordinary vertex buffer, every pass draws it unchanged:
//! forward, forward-plus, deferred, the shadow cascades and TAA's motion
//! vectors (which read the instance's previous frame's vertices).
//!
//! One frame, as data flows:
//! 1. the engine gathers every deforming mesh's joint matrices and morph
//!    weights into one [`MeshDeformations`] (flat lists);
//! 2. [`Renderer::deform`](crate::Renderer::deform) uploads those lists in
//!    one write each, places each instance's culling bounds around its
//!    posed skeleton (so an outstretched arm is never culled), and records
//!    one compute dispatch per pool: the instances of one mesh share two
//!    vertex buffers, one copy of the mesh per instance (morph targets
//!    first, then linear blend skinning, normals by the cofactor matrix).
//!    While TAA runs, each pool keeps the frame before with one copy;
//! 3. the frame is bucketed and drawn as usual.
//!
//! **Limits.** A skin may have up to 65,536 joints (16-bit indices); all
//! skins of a frame share one storage buffer, so the frame's joint count is
//! bounded by the device's `max_storage_buffer_binding_size` / 64 bytes
//! (2 million joints at wgpu's default 128 MiB). A mesh may have up to
//! [`MAX_MORPH_TARGETS`] targets.
//!
//! **Backends without compute** (WebGL2) or with fewer than four storage
//! buffers per shader stage deform on the CPU ([`deform_vertices`], the
//! same arithmetic) and upload the vertices; so does a mesh whose source
//! data is larger than the device's storage buffer binding limit. The
//! limits above apply unchanged; the CPU path costs about one vertex
//! transform per influence on the main thread.

mod bounds;
mod compute;
mod cpu;
mod data;
mod source;

use std::ops::Range;

use glam::Mat4;

pub(crate) use bounds::DeformBounds;
pub(crate) use compute::Deformer;
pub use cpu::deform_vertices;
pub use data::{
    DeformDataError, DeformableMeshData, Influences, MAX_MORPH_TARGETS, MorphAttribute,
    MorphTargetData,
};
pub(crate) use source::{DeformSource, DeformState};

use crate::resources::MeshId;

/// How an instance is deformed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeformPath {
    /// A compute dispatch (one per pool of instances of one mesh).
    Gpu,
    /// [`deform_vertices`] on the CPU, then an upload.
    Cpu,
}

/// One instance's pose this frame: which of [`MeshDeformations`]' joint
/// matrices and morph weights it takes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeformPose {
    /// The instance ([`Assets::add_deformed_instance`](crate::resources::Assets::add_deformed_instance)).
    pub mesh: MeshId,
    /// Its joint matrices in [`MeshDeformations::joint_matrices`].
    pub joints: Range<u32>,
    /// Its weights in [`MeshDeformations::morph_weights`].
    pub weights: Range<u32>,
}

/// Every deformed instance's pose for one frame, in flat lists (reused
/// frame to frame).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MeshDeformations {
    /// One per instance to deform this frame.
    pub poses: Vec<DeformPose>,
    /// Joint matrices (mesh space: `inverse(mesh world) * joint world *
    /// inverse bind`), instance after instance.
    pub joint_matrices: Vec<Mat4>,
    /// Morph weights, instance after instance.
    pub morph_weights: Vec<f32>,
}

impl MeshDeformations {
    /// Empties the lists, keeping their memory.
    pub fn clear(&mut self) {
        self.poses.clear();
        self.joint_matrices.clear();
        self.morph_weights.clear();
    }

    /// The joint matrices of `pose` (empty when the range is out of bounds).
    #[must_use]
    pub fn joints_of(&self, pose: &DeformPose) -> &[Mat4] {
        self.joint_matrices
            .get(pose.joints.start as usize..pose.joints.end as usize)
            .unwrap_or_default()
    }

    /// The morph weights of `pose` (empty when the range is out of bounds).
    #[must_use]
    pub fn weights_of(&self, pose: &DeformPose) -> &[f32] {
        self.morph_weights
            .get(pose.weights.start as usize..pose.weights.end as usize)
            .unwrap_or_default()
    }
}

/// What one [`Renderer::deform`](crate::Renderer::deform) did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DeformStats {
    /// Instances deformed by compute dispatches.
    pub gpu: u32,
    /// Instances deformed on the CPU.
    pub cpu: u32,
    /// Poses skipped: the mesh is not a deformed instance of this store.
    pub skipped: u32,
    /// Joint matrices uploaded.
    pub joints: u32,
}
