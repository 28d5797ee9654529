// The geometry pass: each opaque fragment's surface, packed into the G-buffer.

@fragment
fn fs_main(in: VertexOut, @builtin(front_facing) front: bool) -> @location(0) vec4<u32> {
    let s = lit_surface(in, front);
    var g: GSurface;
    g.albedo = s.albedo;
    g.occlusion = s.occlusion;
    g.normal = s.n;
    g.emissive = s.emissive;
    g.metallic = s.metallic;
    g.roughness = s.roughness;
    g.unlit = is_unlit();
    return pack_gbuffer(g);
}
