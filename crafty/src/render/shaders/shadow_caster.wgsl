// Chunk quads drawn into one cascade of the shadow atlas (shadows.wgsl reads
// it): opaque quads depth only; leaves and glass frames alpha tested, so
// light falls through the gaps in a canopy. Water and glass panes cast no
// shadow.

struct CascadeUniform { view_proj: mat4x4<f32> };
@group(2) @binding(0) var<uniform> cascade: CascadeUniform;

struct CasterOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) uv: vec2<f32>,
    @location(1) @interpolate(flat) tile: u32,
};

@vertex
fn vs_main(@builtin(vertex_index) vi: u32, @location(0) quad: vec2<u32>) -> CasterOut {
    let corner = quad_corner(vi, quad);
    var out: CasterOut;
    out.clip = cascade.view_proj * vec4(corner.world, 1.0);
    out.uv = corner.uv;
    out.tile = corner.tile;
    return out;
}

@fragment
fn fs_cutout(in: CasterOut) {
    let alpha = textureSample(atlas, atlas_sampler, vec2(in.uv.x, -in.uv.y), in.tile).a;
    // Like the lit cutout pass: leaves are solid or holes, and only fully
    // opaque texels of other see-through blocks block the light.
    let is_cutout = ((CUTOUT_TILES >> in.tile) & 1u) == 1u;
    if (is_cutout && alpha < 0.5) || (!is_cutout && alpha < 0.99) {
        discard;
    }
}
