// The frame uniform every lit shader reads at @group(0) @binding(0); the
// light array (`lights`) sits beside it at binding 1.

const PI: f32 = 3.14159265;

struct FrameUniform {
    view_proj: mat4x4<f32>,
    inverse_view_proj: mat4x4<f32>,
    cascade_view_proj: array<mat4x4<f32>, 4>,
    cascade_splits: vec4<f32>,
    shadow_params: vec4<f32>,      // x: cascades in use (0: no shadows), y: atlas texel size
    camera_position: vec4<f32>,
    camera_forward: vec4<f32>,
    sun_direction: vec4<f32>,      // w: 1 when there is a sun
    sun_color: vec4<f32>,          // rgb * intensity
    ambient: vec4<f32>,            // the hemisphere's sky (up)
    ambient_ground: vec4<f32>,     // and its ground (down)
    counts: vec4<u32>,             // x: lights, y: tile size, z: tiles across, w: lights per tile
};

@group(0) @binding(0) var<uniform> frame: FrameUniform;
