// Builds mip level k + 1 from level k: a box filter over the level-k texels
// each destination texel covers, each weighted by its area inside the
// footprint (a 2x2 average for even sizes; a shared edge texel counts for its
// part for odd ones). The source is read with textureLoad through an sRGB
// view for colour textures, so the average is taken in linear light, and the
// sRGB target encodes it again. mip_cpu.rs is the same filter on the CPU.

@group(0) @binding(0) var source: texture_2d<f32>;

@vertex
fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    let corner = vec2(f32((i << 1u) & 2u), f32(i & 2u));
    return vec4(corner * 2.0 - 1.0, 0.0, 1.0);
}

// The length of source texel [i, i + 1) inside [start, end).
fn covered(i: f32, start: f32, end: f32) -> f32 {
    return max(0.0, min(i + 1.0, end) - max(i, start));
}

@fragment
fn fs_main(@builtin(position) position: vec4<f32>) -> @location(0) vec4<f32> {
    let source_size = textureDimensions(source);
    let size = max(source_size / 2u, vec2(1u));
    let scale = vec2<f32>(source_size) / vec2<f32>(size);
    let start = floor(position.xy) * scale;
    let end = start + scale;
    let first = vec2<i32>(floor(start));
    var sum = vec4(0.0);
    // A footprint spans at most 3 texels per axis (4 with a fractional start).
    for (var dy = 0; dy < 4; dy++) {
        let y = first.y + dy;
        let wy = covered(f32(y), start.y, end.y);
        if wy <= 0.0 {
            continue;
        }
        for (var dx = 0; dx < 4; dx++) {
            let x = first.x + dx;
            let wx = covered(f32(x), start.x, end.x);
            if wx <= 0.0 {
                continue;
            }
            sum += wx * wy * textureLoad(source, vec2(x, y), 0);
        }
    }
    return sum / (scale.x * scale.y);
}
