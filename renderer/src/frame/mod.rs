//! Per-frame data the engine hands to render features: the camera, lights,
//! time, the draw buckets and the frustum they are culled with, and the
//! formats and depth convention of the frame's shared targets.

mod data;
mod depth;
mod draw;
mod formats;
mod frustum;
mod slots;
mod view;

pub use data::FrameData;
pub use depth::{DEPTH_CLEAR, DEPTH_NEARER, DEPTH_NEARER_OR_EQUAL, reversed_z};
pub use draw::{DrawBuckets, DrawItem, MovingDraw, SortedDraw};
pub use formats::{DEPTH_FORMAT, GBUFFER_FORMAT, HDR_FORMAT, HDR_USAGE};
pub use frustum::Frustum;
pub use slots::FrameSlots;
pub use view::{
    CameraView, CascadeSettings, FrameTime, Lights, PointLightData, SpotLightData, SunLight,
};
