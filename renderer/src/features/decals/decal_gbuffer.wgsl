// Decals over a deferred frame, first half: each box's pixels whose
// surface lies inside it blend the decal's albedo, normal and roughness,
// premultiplied and in draw order, into three blendable layers (the packed
// G-buffer cannot blend). `decal_resolve.wgsl` then folds them into a new
// G-buffer. The fade angle reads the G-buffer's normal.

@group(3) @binding(3) var gbuffer: texture_2d<u32>;

struct DecalTargets {
    @location(0) albedo: vec4<f32>,
    @location(1) normal: vec4<f32>,
    @location(2) roughness: vec4<f32>,
};

@fragment
fn fs_gbuffer(@builtin(position) at: vec4<f32>) -> DecalTargets {
    let pixel = vec2<i32>(at.xy);
    let hit = decal_hit(pixel);
    let ddx = dpdx(hit.uv);
    let ddy = dpdy(hit.uv);
    if !hit.inside {
        discard;
    }
    let g = unpack_gbuffer(textureLoad(gbuffer, pixel, 0));
    let layer = decal_layer(hit, g.normal, ddx, ddy);
    let a = layer.alpha;
    if a <= 0.0 {
        discard;
    }
    var out: DecalTargets;
    out.albedo = vec4(clamp(layer.color, vec3(0.0), vec3(1.0)) * a, a);
    out.normal = select(vec4(0.0), vec4(layer.normal * a, a), layer.has_normal);
    out.roughness = select(vec4(0.0), vec4(layer.roughness * a, a, 0.0, 0.0), layer.has_roughness);
    return out;
}
