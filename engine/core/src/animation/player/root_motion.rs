//! Root motion: a root bone's horizontal travel moves the player's own object.

use glam::Vec3;

use super::{AnimationPlayer, GameObject};

impl AnimationPlayer {
    /// Moves the horizontal (X and Z) travel of `root`'s translation out of
    /// the bone and onto this player's own object: the bone keeps its X and
    /// Z at the start of each clip, and each step the object moves by the
    /// distance the clips travelled, turned by the object's rotation. Loop
    /// wraps carry on forward instead of jumping back. `root`'s parent
    /// should be the player's object (or share its axes). `None` turns it
    /// off.
    pub fn set_root_motion(&mut self, root: Option<GameObject>) {
        self.root_motion = root;
        self.state.pose_pending = true;
    }

    /// The root bone of [`set_root_motion`](Self::set_root_motion).
    #[must_use]
    pub fn root_motion(&self) -> Option<GameObject> {
        self.root_motion
    }

    /// The horizontal travel of the last step, in the root bone's parent
    /// space (before the object's rotation turns it).
    #[must_use]
    pub fn root_motion_delta(&self) -> Vec3 {
        Vec3::from_array(self.state.root_delta)
    }

    /// Every step's [`root_motion_delta`](Self::root_motion_delta), summed.
    #[must_use]
    pub fn root_motion_total(&self) -> Vec3 {
        Vec3::from_array(self.state.root_total)
    }
}
