// The G-buffer: one Rgba32Uint texel per pixel (16 bytes) beside the scene
// depth (Depth32Float, 4 bytes).
//   x: albedo (sqrt-encoded unorm8 x3), material occlusion (unorm8)
//   y: normal, octahedral (snorm16 x2)
//   z: emissive red, green (float16 x2)
//   w: emissive blue (float16, low half), metallic (unorm8), roughness (unorm8)
// Lit roughness is at least 0.04 (10 of 255), so roughness 0 marks an unlit
// surface, shown as its albedo.

struct GSurface {
    albedo: vec3<f32>,
    occlusion: f32,
    normal: vec3<f32>,
    emissive: vec3<f32>,
    metallic: f32,
    roughness: f32,
    unlit: bool,
};

fn octahedral_wrap(v: vec2<f32>) -> vec2<f32> {
    return (1.0 - abs(v.yx)) * select(vec2(-1.0), vec2(1.0), v >= vec2(0.0));
}

fn octahedral_encode(n: vec3<f32>) -> vec2<f32> {
    let p = n.xy / (abs(n.x) + abs(n.y) + abs(n.z));
    return select(octahedral_wrap(p), p, n.z >= 0.0);
}

fn octahedral_decode(e: vec2<f32>) -> vec3<f32> {
    var n = vec3(e, 1.0 - abs(e.x) - abs(e.y));
    let t = clamp(-n.z, 0.0, 1.0);
    n.x += select(t, -t, n.x >= 0.0);
    n.y += select(t, -t, n.y >= 0.0);
    return normalize(n);
}

// WGSL's pack4x8unorm and unpack4x8unorm, spelled out: WebGL2's GLSL ES
// 3.00 has no packUnorm4x8 (it came in 3.10). Same rounding as the
// built-ins, so the G-buffer's bits are the same on every backend.
fn pack_unorm4x8(v: vec4<f32>) -> u32 {
    let q = vec4<u32>(floor(clamp(v, vec4(0.0), vec4(1.0)) * 255.0 + 0.5));
    return q.x | (q.y << 8u) | (q.z << 16u) | (q.w << 24u);
}

fn unpack_unorm4x8(p: u32) -> vec4<f32> {
    let q = vec4(p & 0xffu, (p >> 8u) & 0xffu, (p >> 16u) & 0xffu, p >> 24u);
    return vec4<f32>(q) / 255.0;
}

fn pack_gbuffer(g: GSurface) -> vec4<u32> {
    let albedo = sqrt(clamp(g.albedo, vec3(0.0), vec3(1.0)));
    let emissive = clamp(g.emissive, vec3(0.0), vec3(65000.0));
    let roughness = select(max(g.roughness, 0.04), 0.0, g.unlit);
    let material = pack_unorm4x8(vec4(0.0, 0.0, g.metallic, roughness)) & 0xffff0000u;
    return vec4(
        pack_unorm4x8(vec4(albedo, g.occlusion)),
        pack2x16snorm(octahedral_encode(g.normal)),
        pack2x16float(emissive.rg),
        (pack2x16float(vec2(emissive.b, 0.0)) & 0xffffu) | material,
    );
}

fn unpack_gbuffer(texel: vec4<u32>) -> GSurface {
    var g: GSurface;
    let albedo = unpack_unorm4x8(texel.x);
    g.albedo = albedo.rgb * albedo.rgb;
    g.occlusion = albedo.a;
    g.normal = octahedral_decode(unpack2x16snorm(texel.y));
    g.emissive = vec3(unpack2x16float(texel.z), unpack2x16float(texel.w).x);
    let material = unpack_unorm4x8(texel.w);
    g.metallic = material.z;
    g.roughness = material.w;
    g.unlit = texel.w >> 24u == 0u;
    return g;
}
