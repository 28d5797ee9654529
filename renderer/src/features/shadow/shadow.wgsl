// Depth-only rendering of shadow casters into one cascade tile of the atlas.

struct Light { view_proj: mat4x4<f32> };
struct Draw { model: mat4x4<f32> };

@group(0) @binding(0) var<uniform> light: Light;
@group(1) @binding(0) var<uniform> draw: Draw;

@vertex
fn vs_main(@location(0) position: vec3<f32>) -> @builtin(position) vec4<f32> {
    return light.view_proj * draw.model * vec4(position, 1.0);
}
