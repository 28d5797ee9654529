// One triangle covering the whole target, from the vertex index alone:
// draw 3 vertices, no buffers. `uv` runs 0..1 across the target, top-left
// at (0, 0); fragment shaders that only need the pixel position ignore it.
struct FullscreenVertex {
    @builtin(position) position: vec4<f32>,
    @location(0) uv: vec2<f32>,
};

@vertex
fn vs_main(@builtin(vertex_index) i: u32) -> FullscreenVertex {
    let corner = vec2(f32((i << 1u) & 2u), f32(i & 2u));
    var out: FullscreenVertex;
    out.position = vec4(corner * 2.0 - 1.0, 0.0, 1.0);
    out.uv = vec2(corner.x, 1.0 - corner.y);
    return out;
}

