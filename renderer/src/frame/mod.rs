//! Per-frame data the engine hands to render features: the camera, lights,
//! time and the draw buckets.

mod draw;
mod view;

pub use draw::{DrawBuckets, DrawItem, SortedDraw};
pub use view::{
    CameraView, CascadeSettings, FrameTime, Lights, PointLightData, SpotLightData, SunLight,
};
