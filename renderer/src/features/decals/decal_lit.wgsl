// Decals over a forward-lit frame: each box's pixels whose surface lies
// inside it are lit (ambient and the sun, with its shadow) with the
// decal's colour and blended over the HDR target, premultiplied. The
// surface normal comes from the depth of the neighbouring pixels.

// The neighbour's position, or one far away on the sky.
fn neighbour_world(pixel: vec2<i32>, world: vec3<f32>) -> vec3<f32> {
    let depth = scene_depth_at(pixel);
    if depth <= 0.0 {
        return world + vec3(1e6);
    }
    return scene_world_at(pixel, depth);
}

// The surface normal at `pixel` (facing the camera), from the nearer
// neighbour on each axis so edges do not smear it.
fn depth_normal(pixel: vec2<i32>, world: vec3<f32>) -> vec3<f32> {
    let right = neighbour_world(pixel + vec2(1, 0), world) - world;
    let left = world - neighbour_world(pixel - vec2(1, 0), world);
    let down = neighbour_world(pixel + vec2(0, 1), world) - world;
    let up = world - neighbour_world(pixel - vec2(0, 1), world);
    let dx = select(right, left, dot(left, left) < dot(right, right));
    let dy = select(down, up, dot(up, up) < dot(down, down));
    var n = normalize(cross(dy, dx));
    if dot(n, frame.camera_position.xyz - world) < 0.0 {
        n = -n;
    }
    return n;
}

@fragment
fn fs_lit(@builtin(position) at: vec4<f32>) -> @location(0) vec4<f32> {
    let pixel = vec2<i32>(at.xy);
    let hit = decal_hit(pixel);
    let ddx = dpdx(hit.uv);
    let ddy = dpdy(hit.uv);
    if !hit.inside {
        discard;
    }
    let layer = decal_layer(hit, depth_normal(pixel, hit.world), ddx, ddy);
    if layer.alpha <= 0.0 {
        discard;
    }
    var s: Surface;
    s.world = hit.world;
    s.n = layer.normal;
    s.v = normalize(frame.camera_position.xyz - hit.world);
    s.albedo = layer.color;
    s.alpha = 1.0;
    s.metallic = 0.0;
    s.roughness = clamp(layer.roughness, 0.04, 1.0);
    s.occlusion = 1.0;
    s.emissive = vec3(0.0);
    let color = ambient_light(s) + sun_light(s);
    return vec4(color * layer.alpha, layer.alpha);
}
