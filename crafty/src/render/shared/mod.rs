//! What crafty's render code shares: the shader programs.

mod shader;

pub(crate) use shader::CraftyShader;
