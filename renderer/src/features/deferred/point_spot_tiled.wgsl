// Point and spot lights over the G-buffer, per screen tile: a full-screen
// pass adding, for each pixel, its tile's culled lights (see `light_volume.wgsl`
// for the other method).

@group(3) @binding(0) var<storage, read> tiles: array<u32>;

@fragment
fn fs_main(@builtin(position) at: vec4<f32>) -> @location(0) vec4<f32> {
    let p = gbuffer_pixel(at.xy);
    // The sky and unlit surfaces take no light.
    if !p.found || p.g.unlit {
        discard;
    }
    let tile = vec2<u32>(at.xy) / frame.counts.y;
    let per_tile = frame.counts.w;
    let start = (tile.y * frame.counts.z + tile.x) * (per_tile + 1u);
    let count = min(tiles[start], per_tile);
    var color = vec3(0.0);
    for (var i = 0u; i < count; i++) {
        color += light_contribution(lights[tiles[start + 1u + i]], p.s);
    }
    return vec4(color, 0.0);
}
