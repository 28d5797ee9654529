// Deferred lighting: each covered pixel's ambient and image-based light
// (times the occlusion),
// emissive and sunlight with its cascaded shadow, from the G-buffer. Sky
// pixels are left as the sky drew them.

@fragment
fn fs_main(@builtin(position) at: vec4<f32>) -> @location(0) vec4<f32> {
    let p = gbuffer_pixel(at.xy);
    if !p.found {
        discard;
    }
    if p.g.unlit {
        return vec4(p.g.albedo, 1.0);
    }
    let occlusion = p.g.occlusion * occlusion_at(at.xy);
    let color = ambient_light(p.s) * occlusion + p.g.emissive + sun_light(p.s);
    return vec4(color, 1.0);
}
