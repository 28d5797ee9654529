//! Post effects on the frame's HDR target, between the lighting and the
//! tonemap: each reads [`Frame::hdr`](crate::Frame::hdr) and puts its
//! result back.

mod bloom;
mod dof;
mod taa;

pub use bloom::{BloomFeature, BloomOptions, MAX_BLOOM_LEVELS};
pub use dof::{DofFeature, DofOptions};
pub use taa::{TaaFeature, TaaJitter, TaaOptions, halton, jitter_offset, jittered_projection};
