//! Transforms: local position/rotation/scale with lazily cached world matrices.
//!
//! # How change is detected
//! Writes are never intercepted. Each [`Transform`] remembers the ten scalars
//! (3 position, 4 rotation, 3 scale) it last baked into its local matrix, starting
//! as NaN so the first read always bakes. A read compares the current scalars with
//! the baked ones and rebuilds the local matrix only on a difference; writing the
//! same value therefore costs nothing.
//!
//! Every world-matrix recompute takes a fresh, globally unique version number. A
//! child remembers the parent version it folded in (0 for "no parent"), so moving
//! an ancestor, gaining a parent, losing one or changing to another all show up as
//! a version mismatch on the next read, with no notification. The inverse world
//! matrix and the decomposed world rotation/scale are cached against that version.
//!
//! # Costs
//! - Single read ([`crate::Scene::world_matrix`] and friends): one compare per
//!   ancestor, a multiply only on levels that changed.
//! - Per-frame sweep ([`crate::Scene::refresh_transforms`]): a scan of ECS change
//!   ticks, a compare for each written transform, then a walk that descends only
//!   below recomputed nodes. Nothing moved: no matrix work at all.

mod component;
mod decompose;
pub(crate) mod read;
pub(crate) mod store;
pub(crate) mod sweep;

pub use component::Transform;
pub(crate) use component::{TransformSlot, slot_of};
pub use read::world_matrix_in;
pub use store::{TransformStats, TransformStore};
