// Forward shading: every point and spot light for every fragment.

@fragment
fn fs_main(in: VertexOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    return shade_fragment(in, front);
}

// Opaque surfaces cover their pixel whatever their base alpha (what a
// multisampled pass's resolve blends by).
@fragment
fn fs_opaque(in: VertexOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    return vec4(shade_fragment(in, front).rgb, 1.0);
}

fn shade_fragment(in: VertexOut, front: bool) -> vec4<f32> {
    let s = lit_surface(in, front);
    if is_unlit() {
        return vec4(s.albedo, s.alpha);
    }
    var color = sun_and_ambient(s);
    for (var i = 0u; i < frame.counts.x; i++) {
        color += light_contribution(lights[i], s);
    }
    return vec4(color, s.alpha);
}
