// Resolving a multisampled lit pass: the colour's samples averaged
// (premultiplied by coverage, so the pipeline blends it over what the
// frame already holds: the sky), and the depth's nearest sample.

@group(0) @binding(0) var samples_color: texture_multisampled_2d<f32>;

@fragment
fn fs_color(in: FullscreenVertex) -> @location(0) vec4<f32> {
    let pixel = vec2<i32>(in.position.xy);
    let count = textureNumSamples(samples_color);
    var sum = vec4(0.0);
    for (var i = 0u; i < count; i++) {
        sum += textureLoad(samples_color, pixel, i32(i));
    }
    return sum / f32(count);
}
