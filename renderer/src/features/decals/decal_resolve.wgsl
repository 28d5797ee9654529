// Decals over a deferred frame, second half: a full-screen pass writing a
// new G-buffer from the old one with the blended decal layers over it
// (premultiplied "over"). Pixels no decal touched are copied bit for bit.

@group(0) @binding(0) var gbuffer: texture_2d<u32>;
@group(0) @binding(1) var decal_albedo: texture_2d<f32>;
@group(0) @binding(2) var decal_normal: texture_2d<f32>;
@group(0) @binding(3) var decal_roughness: texture_2d<f32>;

@fragment
fn fs_main(@builtin(position) at: vec4<f32>) -> @location(0) vec4<u32> {
    let pixel = vec2<i32>(at.xy);
    let texel = textureLoad(gbuffer, pixel, 0);
    let albedo = textureLoad(decal_albedo, pixel, 0);
    let normal = textureLoad(decal_normal, pixel, 0);
    let roughness = textureLoad(decal_roughness, pixel, 0);
    if albedo.a <= 0.0 && normal.a <= 0.0 && roughness.g <= 0.0 {
        return texel;
    }
    var g = unpack_gbuffer(texel);
    g.albedo = albedo.rgb + g.albedo * (1.0 - albedo.a);
    let n = normal.xyz + g.normal * (1.0 - normal.a);
    if dot(n, n) > 1e-8 {
        g.normal = normalize(n);
    }
    g.roughness = roughness.r + g.roughness * (1.0 - roughness.g);
    return pack_gbuffer(g);
}
