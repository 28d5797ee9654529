// Forward-plus shading: each fragment loops over its screen tile's lights
// only (the list the cull pass wrote: a count, then indices).

@group(3) @binding(0) var<storage, read> tiles: array<u32>;

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
    let tile = vec2<u32>(in.clip.xy) / frame.counts.y;
    let per_tile = frame.counts.w;
    let start = (tile.y * frame.counts.z + tile.x) * (per_tile + 1u);
    let count = min(tiles[start], per_tile);
    for (var i = 0u; i < count; i++) {
        color += light_contribution(lights[tiles[start + 1u + i]], s);
    }
    return vec4(color, s.alpha);
}
