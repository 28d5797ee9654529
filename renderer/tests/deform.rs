//! Skinned and morphing meshes on a real adapter (lavapipe in CI): a cube
//! moved by its joint draws exactly as the same cube moved rigidly, in
//! every preset, in the shadow maps and in TAA's motion vectors; culling
//! follows the pose; the compute and CPU paths agree.

mod support;

use glam::{Affine3A, Mat4, Quat, Vec3};
use taos_renderer::deform::{DeformPose, DeformableMeshData, MeshDeformations, MorphTargetData};
use taos_renderer::frame::{CascadeSettings, DrawItem, MovingDraw, SunLight};
use taos_renderer::presets::{
    DeferredOptions, PresetOptions, deferred_preset, forward_plus_preset, forward_preset,
};
use taos_renderer::resources::{MaterialId, MeshData, MeshId, PbrMaterial, Vertex};
use taos_renderer::{FrameData, OffscreenTarget, Renderer, wgpu};

use support::{FORMAT, HEIGHT, WIDTH, max_difference};

/// Where the bind pose sits: far outside the view, so only a posed bounds
/// keeps the cube from being culled.
const BIND_OFFSET: Vec3 = Vec3::new(80.0, 0.0, 0.0);

/// A cube of edge 2 whose vertices sit at `BIND_OFFSET`, bound half to
/// joint 0 and half to joint 1 (both get the same matrix, so the blend is exact).
fn bound_cube() -> DeformableMeshData {
    let cube = MeshData::cube(2.0);
    let vertices: Vec<Vertex> = cube
        .vertices()
        .iter()
        .map(|v| Vertex {
            position: (Vec3::from(v.position) + BIND_OFFSET).to_array(),
            ..*v
        })
        .collect();
    let n = vertices.len();
    let mesh = MeshData::new(vertices, cube.indices().to_vec()).unwrap();
    DeformableMeshData::new(mesh)
        .with_skin(vec![[0, 1, 0, 0]; n], vec![[0.5, 0.5, 0.0, 0.0]; n])
        .unwrap()
}

/// Where the cube stands in frame `frame`: turned and lifted, stepping
/// along +X frame by frame.
fn placement(frame: usize) -> Affine3A {
    Affine3A::from_rotation_translation(
        Quat::from_rotation_y(0.6),
        Vec3::new(-1.0 + 0.15 * frame as f32, 1.2, 0.5),
    )
}

#[derive(Clone, Copy, PartialEq)]
enum Cube {
    Rigid,
    Skinned,
    /// Skinned, and posed again on frames where it stands still.
    SkinnedReposed,
}

struct Scene {
    ground: (MeshId, MaterialId),
    cube: MeshId,
    material: MaterialId,
}

fn build(renderer: &mut Renderer, kind: Cube) -> Scene {
    let (assets, gpu) = renderer.assets_mut();
    let ground = assets.add_mesh(gpu, "ground", &MeshData::plane(12.0));
    let grey = assets.add_material(PbrMaterial::default());
    let material = assets.add_material(PbrMaterial {
        base_color: glam::Vec4::new(0.9, 0.3, 0.2, 1.0),
        ..PbrMaterial::default()
    });
    let cube = match kind {
        Cube::Rigid => assets.add_mesh(gpu, "cube", &MeshData::cube(2.0)),
        Cube::Skinned | Cube::SkinnedReposed => {
            let source = assets
                .add_deformable_mesh(gpu, "cube", bound_cube())
                .unwrap();
            assets.add_deformed_instance(gpu, source).unwrap()
        }
    };
    Scene {
        ground: (ground, grey),
        cube,
        material,
    }
}

/// Renders `frames` frames of the stepping cube; returns the last image and
/// how many draws the last frame culled.
fn render(
    setup: impl FnOnce(&mut Renderer),
    kind: Cube,
    frames: usize,
    on_cpu: bool,
) -> (Vec<u8>, usize) {
    render_stopping(setup, kind, frames, frames, on_cpu)
}

/// [`render`], with the cube stepping for the first `moving` frames and
/// standing still after: the skinned cube is then not posed at all (as the
/// engine hands on only changed poses) unless it is `SkinnedReposed`.
fn render_stopping(
    setup: impl FnOnce(&mut Renderer),
    kind: Cube,
    frames: usize,
    moving: usize,
    on_cpu: bool,
) -> (Vec<u8>, usize) {
    let gpu = support::gpu();
    let target = OffscreenTarget::new(&gpu, WIDTH, HEIGHT, FORMAT).unwrap();
    let mut renderer = Renderer::new(gpu, FORMAT);
    setup(&mut renderer);
    renderer.set_deform_on_cpu(on_cpu);
    let scene = build(&mut renderer, kind);
    let mut data = FrameData {
        camera: support::camera((WIDTH, HEIGHT)),
        size: (WIDTH, HEIGHT),
        ..FrameData::default()
    };
    sun(&mut data);
    let mut deformations = MeshDeformations::default();
    let mut culled = 0;
    for frame in 0..frames {
        let at = |frame: usize| placement(frame.min(moving.saturating_sub(1)));
        let now = at(frame);
        let before = at(frame.saturating_sub(1));
        let ground = DrawItem {
            mesh: scene.ground.0,
            material: scene.ground.1,
            world: Affine3A::IDENTITY,
            cast_shadows: true,
        };
        let cube = match kind {
            Cube::Rigid => MovingDraw {
                item: DrawItem {
                    mesh: scene.cube,
                    material: scene.material,
                    world: now,
                    cast_shadows: true,
                },
                previous_world: before,
            },
            Cube::Skinned | Cube::SkinnedReposed => {
                deformations.clear();
                let posed = frame < moving || kind == Cube::SkinnedReposed;
                if posed {
                    let joint = Mat4::from(now) * Mat4::from_translation(-BIND_OFFSET);
                    deformations.joint_matrices.extend([joint, joint]);
                    deformations.poses.push(DeformPose {
                        mesh: scene.cube,
                        joints: 0..2,
                        weights: 0..0,
                    });
                }
                let stats = renderer.deform(&deformations);
                assert_eq!(stats.gpu + stats.cpu, u32::from(posed));
                DrawItem {
                    mesh: scene.cube,
                    material: scene.material,
                    world: Affine3A::IDENTITY,
                    cast_shadows: true,
                }
                .into()
            }
        };
        data.time.frame += 1;
        data.time.delta = 1.0 / 60.0;
        data.buckets
            .fill([ground.into(), cube], renderer.assets(), &data.camera);
        culled = data.buckets.culled;
        renderer.render(&mut data, target.texture()).unwrap();
    }
    let pixels = target.read_rgba8(renderer.gpu()).unwrap();
    (pixels, culled)
}

/// A shadow-casting sun from the upper left, so the cube's shadow lies on the ground.
fn sun(data: &mut FrameData) {
    data.lights.sun = Some(SunLight {
        direction: Vec3::new(0.5, -1.0, -0.4).normalize(),
        color: Vec3::ONE,
        intensity: 3.0,
        cast_shadows: true,
        cascades: CascadeSettings::default(),
    });
}

fn dump(name: &str, pixels: &[u8]) {
    if std::env::var_os("TAOS_DUMP").is_some() {
        image::save_buffer(
            format!("/tmp/{name}.png"),
            pixels,
            WIDTH,
            HEIGHT,
            image::ColorType::Rgba8,
        )
        .unwrap();
    }
}

fn assert_same(a: &[u8], b: &[u8], tolerance: u8, what: &str) {
    dump(&format!("{}_a", what.replace(' ', "_")), a);
    dump(&format!("{}_b", what.replace(' ', "_")), b);
    let (difference, at) = max_difference(a, b);
    assert!(
        difference <= tolerance,
        "{what}: pixel ({}, {}) differs by {difference}",
        at % WIDTH as usize,
        at / WIDTH as usize
    );
}

fn deferred_without_taa() -> DeferredOptions {
    let mut options = DeferredOptions::default();
    options.common.taa = None;
    options
}

#[test]
fn a_cube_moved_by_its_joints_draws_as_the_rigid_cube_in_every_preset() {
    let preset = |name: &str| -> Box<dyn FnOnce(&mut Renderer)> {
        match name {
            "forward" => Box::new(forward_preset(PresetOptions::default())),
            "forward-plus" => Box::new(forward_plus_preset(PresetOptions::default())),
            _ => Box::new(deferred_preset(deferred_without_taa())),
        }
    };
    for name in ["forward", "forward-plus", "deferred"] {
        let (rigid, _) = render(preset(name), Cube::Rigid, 1, false);
        let (skinned, culled) = render(preset(name), Cube::Skinned, 1, false);
        assert_eq!(
            culled, 0,
            "{name}: the posed cube was culled at its bind pose"
        );
        assert_same(&rigid, &skinned, 2, name);
        let red = skinned
            .chunks_exact(4)
            .filter(|p| p[0] > p[1].saturating_add(30))
            .count();
        assert!(
            red > 100,
            "{name}: the cube is not in the picture ({red} red pixels)"
        );
    }
}

#[test]
fn taa_motion_vectors_follow_a_moving_skeleton_as_they_follow_a_moving_object() {
    let taa = || deferred_preset(DeferredOptions::default());
    let (rigid, _) = render(taa(), Cube::Rigid, 6, false);
    let (skinned, _) = render(taa(), Cube::Skinned, 6, false);
    assert_same(
        &rigid,
        &skinned,
        3,
        "deferred with TAA after six moving frames",
    );
}

/// A skeleton that stops is no longer posed (the engine hands on changed
/// poses only); its motion vectors must drop to zero as if it were posed
/// again where it stands, not keep the last step's motion.
#[test]
fn taa_sees_a_skeleton_that_stopped_posing_as_standing_still() {
    let taa = || deferred_preset(DeferredOptions::default());
    let (reposed, _) = render_stopping(taa(), Cube::SkinnedReposed, 8, 4, false);
    let (unposed, _) = render_stopping(taa(), Cube::Skinned, 8, 4, false);
    assert_same(
        &reposed,
        &unposed,
        3,
        "deferred with TAA, four moving frames then four still",
    );
}

#[test]
fn the_cpu_path_draws_what_the_compute_path_draws() {
    let (gpu_path, _) = render(
        forward_preset(PresetOptions::default()),
        Cube::Skinned,
        2,
        false,
    );
    let (cpu_path, _) = render(
        forward_preset(PresetOptions::default()),
        Cube::Skinned,
        2,
        true,
    );
    assert_same(&gpu_path, &cpu_path, 1, "compute against CPU");
}

/// A sphere with a morph target and two joints bent apart: the compute
/// shader's vertices equal the CPU reference's, read back from the screen.
#[test]
fn morphs_and_blended_joints_agree_between_the_paths() {
    fn morphing(renderer: &mut Renderer) -> MeshId {
        let sphere = MeshData::sphere(1.0, 16, 12);
        let n = sphere.vertices().len();
        let bulge = MorphTargetData {
            positions: sphere
                .vertices()
                .iter()
                .map(|v| Vec3::from(v.normal) * 0.3 * v.position[1].max(0.0))
                .collect(),
            normals: vec![Vec3::new(0.0, 0.1, 0.0); n],
            tangents: Vec::new(),
        };
        let weights: Vec<[f32; 4]> = sphere
            .vertices()
            .iter()
            .map(|v| {
                let up = (v.position[1] * 0.5 + 0.5).clamp(0.0, 1.0);
                [1.0 - up, up, 0.0, 0.0]
            })
            .collect();
        let data = DeformableMeshData::new(sphere)
            .with_skin(vec![[0, 1, 0, 0]; n], weights)
            .unwrap()
            .with_morph_target(bulge)
            .unwrap();
        let (assets, gpu) = renderer.assets_mut();
        let source = assets.add_deformable_mesh(gpu, "ball", data).unwrap();
        assets.add_deformed_instance(gpu, source).unwrap()
    }
    let draw = |on_cpu: bool| {
        let gpu = support::gpu();
        let target = OffscreenTarget::new(&gpu, WIDTH, HEIGHT, FORMAT).unwrap();
        let mut renderer = Renderer::new(gpu, FORMAT);
        forward_preset(PresetOptions::default())(&mut renderer);
        renderer.set_deform_on_cpu(on_cpu);
        let mesh = morphing(&mut renderer);
        let material = renderer.assets_mut().0.add_material(PbrMaterial::default());
        let mut deformations = MeshDeformations::default();
        deformations.joint_matrices.extend([
            Mat4::from_translation(Vec3::new(0.0, 1.0, 0.0)),
            Mat4::from_rotation_translation(Quat::from_rotation_z(0.7), Vec3::new(0.5, 1.3, 0.0)),
        ]);
        deformations.morph_weights.push(0.8);
        deformations.poses.push(DeformPose {
            mesh,
            joints: 0..2,
            weights: 0..1,
        });
        renderer.deform(&deformations);
        let mut data = FrameData {
            camera: support::camera((WIDTH, HEIGHT)),
            size: (WIDTH, HEIGHT),
            ..FrameData::default()
        };
        sun(&mut data);
        let item = DrawItem {
            mesh,
            material,
            world: Affine3A::IDENTITY,
            cast_shadows: true,
        };
        data.buckets.fill([item], renderer.assets(), &data.camera);
        renderer.render(&mut data, target.texture()).unwrap();
        target.read_rgba8(renderer.gpu()).unwrap()
    };
    let (gpu_path, cpu_path) = (draw(false), draw(true));
    assert_same(&gpu_path, &cpu_path, 1, "morphed, skinned ball");
    let lit = gpu_path.chunks_exact(4).filter(|p| p[0] > 40).count();
    assert!(lit > 200, "the ball is not in the picture ({lit} pixels)");
}

#[test]
fn a_pose_for_a_rigid_mesh_or_an_unknown_id_is_skipped() {
    let gpu = support::gpu();
    let mut renderer = Renderer::new(gpu, FORMAT);
    let (assets, gpu) = renderer.assets_mut();
    let rigid = assets.add_mesh(gpu, "cube", &MeshData::cube(1.0));
    let mut deformations = MeshDeformations::default();
    for mesh in [rigid, MeshId(999)] {
        deformations.poses.push(DeformPose {
            mesh,
            joints: 0..0,
            weights: 0..0,
        });
    }
    // A range past the lists reads as empty, not out of bounds.
    deformations.poses.push(DeformPose {
        mesh: rigid,
        joints: 5..90,
        weights: 3..4,
    });
    let stats = renderer.deform(&deformations);
    assert_eq!((stats.gpu, stats.cpu, stats.skipped), (0, 0, 3));
    let _ = wgpu::PollType::Poll;
}

/// Six cubes in a row: several instances share a pool (which grows past
/// its first four slots) and are deformed by one dispatch; an instance not
/// posed in a frame keeps its last pose.
#[test]
fn instances_share_a_pool_and_one_left_unposed_keeps_its_pose() {
    const COUNT: usize = 6;
    let row = |i: usize| {
        Affine3A::from_rotation_translation(
            Quat::from_rotation_y(0.3 * i as f32),
            Vec3::new(-3.75 + 1.5 * i as f32, 0.6, 0.0),
        ) * Affine3A::from_scale(Vec3::splat(0.5))
    };
    let draw = |skinned: bool, frames: usize| {
        let gpu = support::gpu();
        let target = OffscreenTarget::new(&gpu, WIDTH, HEIGHT, FORMAT).unwrap();
        let mut renderer = Renderer::new(gpu, FORMAT);
        forward_preset(PresetOptions::default())(&mut renderer);
        let (assets, gpu) = renderer.assets_mut();
        let material = assets.add_material(PbrMaterial::default());
        let rigid = assets.add_mesh(gpu, "cube", &MeshData::cube(2.0));
        let source = assets
            .add_deformable_mesh(gpu, "cube", bound_cube())
            .unwrap();
        let instances: Vec<MeshId> = (0..COUNT)
            .map(|_| assets.add_deformed_instance(gpu, source).unwrap())
            .collect();
        let mut data = FrameData {
            camera: support::camera((WIDTH, HEIGHT)),
            size: (WIDTH, HEIGHT),
            ..FrameData::default()
        };
        sun(&mut data);
        for frame in 0..frames {
            let mut deformations = MeshDeformations::default();
            // After the first frame, only the first half is posed again.
            let posed = if frame == 0 { COUNT } else { COUNT / 2 };
            for (i, &mesh) in instances.iter().enumerate().take(posed) {
                let joint = Mat4::from(row(i)) * Mat4::from_translation(-BIND_OFFSET);
                let start = deformations.joint_matrices.len() as u32;
                deformations.joint_matrices.extend([joint, joint]);
                deformations.poses.push(DeformPose {
                    mesh,
                    joints: start..start + 2,
                    weights: 0..0,
                });
            }
            if skinned {
                let stats = renderer.deform(&deformations);
                assert_eq!(stats.gpu + stats.cpu, posed as u32);
            }
            let items: Vec<DrawItem> = (0..COUNT)
                .map(|i| DrawItem {
                    mesh: if skinned { instances[i] } else { rigid },
                    material,
                    world: if skinned { Affine3A::IDENTITY } else { row(i) },
                    cast_shadows: true,
                })
                .collect();
            data.time.frame += 1;
            data.buckets.fill(items, renderer.assets(), &data.camera);
            renderer.render(&mut data, target.texture()).unwrap();
        }
        target.read_rgba8(renderer.gpu()).unwrap()
    };
    let rigid = draw(false, 1);
    assert_same(&rigid, &draw(true, 1), 2, "six instances in one pool");
    assert_same(&rigid, &draw(true, 3), 2, "half of them left unposed");
}
