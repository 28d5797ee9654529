//! Per-frame data the engine hands to render features: the camera, lights,
//! time and the draw buckets, and the formats of the frame's shared targets.

mod data;
mod draw;
mod formats;
mod slots;
mod view;

pub use data::FrameData;
pub use draw::{DrawBuckets, DrawItem, SortedDraw};
pub use formats::{DEPTH_FORMAT, HDR_FORMAT};
pub use slots::FrameSlots;
pub use view::{
    CameraView, CascadeSettings, FrameTime, Lights, PointLightData, SpotLightData, SunLight,
};
