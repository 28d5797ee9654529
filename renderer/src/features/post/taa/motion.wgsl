// Motion vectors of the items that moved since the last frame: for each
// covered pixel, how far (in uv) its surface moved on screen, camera motion
// included. Depth-tested (equal or nearer) against the scene depth, so only
// the visible surface writes; alpha 1 marks a written pixel. A second draw
// of each moved item at its previous transform, seen from this frame's
// camera and not depth-tested, sets blue where it was: the background it
// uncovered, whose history still shows it.

struct MotionUniform {
    // As the lit passes rasterise (jittered, reversed Z): the same
    // expression as their vertex stage, so the depths match exactly.
    view_proj: mat4x4<f32>,
    // This frame's and the last frame's world-to-clip, without jitter.
    current: mat4x4<f32>,
    previous: mat4x4<f32>,
};

@group(0) @binding(0) var<uniform> motion: MotionUniform;

struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(3) model_0: vec4<f32>,
    @location(4) model_1: vec4<f32>,
    @location(5) model_2: vec4<f32>,
    @location(6) model_3: vec4<f32>,
    @location(7) previous_0: vec4<f32>,
    @location(8) previous_1: vec4<f32>,
    @location(9) previous_2: vec4<f32>,
    @location(10) previous_3: vec4<f32>,
    // The position the frame before: a deformed mesh's last pose, a rigid
    // mesh's own position.
    @location(11) previous_position: vec3<f32>,
};

struct VertexOut {
    @builtin(position) @invariant clip: vec4<f32>,
    @location(0) current: vec4<f32>,
    @location(1) previous: vec4<f32>,
};

@vertex
fn vs_main(in: VertexIn) -> VertexOut {
    let model = mat4x4(in.model_0, in.model_1, in.model_2, in.model_3);
    let previous = mat4x4(in.previous_0, in.previous_1, in.previous_2, in.previous_3);
    let world = model * vec4(in.position, 1.0);
    var out: VertexOut;
    out.clip = motion.view_proj * world;
    out.current = motion.current * world;
    out.previous = motion.previous * (previous * vec4(in.previous_position, 1.0));
    return out;
}

fn clip_to_uv(clip: vec4<f32>) -> vec2<f32> {
    let ndc = clip.xy / clip.w;
    return vec2(ndc.x * 0.5 + 0.5, 0.5 - ndc.y * 0.5);
}

@fragment
fn fs_main(in: VertexOut) -> @location(0) vec4<f32> {
    // A surface that was behind the camera last frame has no screen
    // position there: it gets no history (a velocity that leaves the screen).
    if in.previous.w <= 0.0 {
        return vec4(4.0, 4.0, 0.0, 1.0);
    }
    return vec4(clip_to_uv(in.current) - clip_to_uv(in.previous), 0.0, 1.0);
}

// Where the moved items were last frame, seen from this frame's camera.
@vertex
fn vs_previous(in: VertexIn) -> @builtin(position) vec4<f32> {
    let previous = mat4x4(in.previous_0, in.previous_1, in.previous_2, in.previous_3);
    return motion.view_proj * (previous * vec4(in.previous_position, 1.0));
}

@fragment
fn fs_previous() -> @location(0) vec4<f32> {
    return vec4(0.0, 0.0, 1.0, 0.0);
}
