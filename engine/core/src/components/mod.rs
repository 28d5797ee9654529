//! Built-in component types. They are plain ECS data; the renderer consumes them.

mod camera;
mod light;
mod mesh_renderer;
mod skinning;
mod tags;

pub use camera::{Camera, CameraError, Projection};
pub use light::{Cascades, DirectionalLight, PointLight, SpotLight};
pub use mesh_renderer::{MaterialHandle, MeshHandle, MeshRenderer};
pub use skinning::{DeformError, MorphWeights, SkinnedMesh};
pub use tags::Tags;
