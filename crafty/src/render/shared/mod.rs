//! What crafty's passes share, and nothing else: the frame's bind group
//! and uniform, the game's per-frame inputs, the pipeline builder and the
//! shader programs. Passes depend on this module, never on each other or
//! on the feature that composes them.

mod frame;
mod frame_inputs;
mod frame_uniform;
mod pipeline;
mod shader;

pub(crate) use frame::FrameBindings;
pub(crate) use frame_inputs::FrameInputs;
pub(crate) use frame_uniform::FrameUniform;
pub(crate) use pipeline::{PassSetup, PipelineSpec, TARGET_USAGE, pipeline, quad_instances};
pub(crate) use shader::CraftyShader;
