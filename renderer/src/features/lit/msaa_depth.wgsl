// The nearest of a multisampled depth buffer's samples (reversed Z: the
// largest), for the passes that read one depth per pixel.

@group(0) @binding(0) var samples_depth: texture_depth_multisampled_2d;

@fragment
fn fs_depth(in: FullscreenVertex) -> @builtin(frag_depth) f32 {
    let pixel = vec2<i32>(in.position.xy);
    let count = textureNumSamples(samples_depth);
    var nearest = 0.0;
    for (var i = 0u; i < count; i++) {
        nearest = max(nearest, textureLoad(samples_depth, pixel, i32(i)));
    }
    return nearest;
}
