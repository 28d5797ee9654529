// One point or spot light (see `lights.rs`).
struct Light {
    position_range: vec4<f32>,
    color_intensity: vec4<f32>,
    direction_inner: vec4<f32>,    // spot direction, cos(inner)
    outer_kind: vec4<f32>,         // x cos(outer), y 0 point / 1 spot
};
