// The geometry pass: each opaque fragment's surface, packed into the G-buffer.

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<u32> {
    let s = lit_surface(in);
    var g: GSurface;
    g.albedo = s.albedo;
    g.occlusion = 1.0;
    g.normal = s.n;
    g.emissive = material.emissive_metallic.rgb;
    g.metallic = s.metallic;
    g.roughness = s.roughness;
    return pack_gbuffer(g);
}
