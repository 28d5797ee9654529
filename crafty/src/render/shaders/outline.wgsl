// The block highlight: the twelve edges of the targeted block as lines,
// pushed a hair outwards so they win the depth test against its faces.

@vertex
fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    let edge = i / 2u;
    let t = f32(i % 2u);
    let axis = edge / 4u;
    let a = f32(edge & 1u);
    let b = f32((edge >> 1u) & 1u);
    var p = vec3(a, b, t);
    if axis == 0u {
        p = vec3(t, a, b);
    } else if axis == 1u {
        p = vec3(a, t, b);
    }
    let world = frame.highlight.xyz + 0.5 + (p - 0.5) * 1.006;
    return frame.view_proj * vec4(world, 1.0);
}

@fragment
fn fs_main() -> @location(0) vec4<f32> {
    return vec4(0.0, 0.0, 0.0, 0.8);
}
