//! Structure tests: every generated test model loads with the values it was written with.

use std::f32::consts::{FRAC_PI_2, FRAC_PI_4};

use glam::{Mat3, Mat4, Quat, Vec2, Vec3, Vec4};
use taos_gltf::test_models::{self, Storage};
use taos_gltf::*;

fn load(path: std::path::PathBuf) -> GltfModel {
    GltfModel::load(&path).unwrap_or_else(|e| panic!("{e}"))
}

/// Image `i`'s decoded pixels (every test model's images are PNG or JPEG).
fn rgba8(model: &GltfModel, i: usize) -> &image::RgbaImage {
    model.images[i].pixels.rgba8().expect("a decoded image")
}

fn close(a: f32, b: f32) -> bool {
    (a - b).abs() < 1e-5
}

#[test]
fn every_model_loads() {
    let dir = tempfile::tempdir().unwrap();
    for path in test_models::write_all(dir.path()).unwrap() {
        let model = load(path);
        assert!(!model.scenes.is_empty());
        assert!(model.default_scene.0 < model.scenes.len());
    }
}

fn check_textured_box(model: &GltfModel) {
    assert_eq!(model.scenes.len(), 1);
    assert_eq!(model.scenes[0].name.as_deref(), Some("BoxScene"));
    assert_eq!(model.nodes.len(), 1);
    assert_eq!(model.nodes[0].name.as_deref(), Some("BoxNode"));
    assert_eq!(model.nodes[0].mesh, Some(MeshIndex(0)));
    let mesh = &model.meshes[0];
    assert_eq!(mesh.name.as_deref(), Some("Box"));
    let p = &mesh.primitives[0];
    assert_eq!(p.positions.len(), 24);
    assert_eq!(p.indices.len(), 36);
    assert!(!p.normals_generated);
    assert_eq!(p.bounds.min, Vec3::splat(-0.5));
    assert_eq!(p.bounds.max, Vec3::splat(0.5));
    // The material has a normal map and the file no tangents: MikkTSpace tangents, unit and
    // perpendicular to the normals.
    assert!(p.tangents_generated);
    let tangents = p.tangents.as_ref().unwrap();
    for (t, n) in tangents.iter().zip(&p.normals) {
        assert!(
            close(t.truncate().length(), 1.0) && t.truncate().dot(*n).abs() < 1e-4,
            "{t} {n}"
        );
        assert!(t.w == 1.0 || t.w == -1.0);
    }

    let m = model.material(p.material);
    assert_eq!(m.name.as_deref(), Some("Everything"));
    assert_eq!(m.base_color_factor, Vec4::new(1.0, 0.5, 0.25, 1.0));
    assert_eq!((m.metallic_factor, m.roughness_factor), (0.25, 0.75));
    assert_eq!(m.normal_scale, 0.5);
    assert_eq!(m.occlusion_strength, 0.8);
    assert_eq!(m.emissive_factor, Vec3::new(1.0, 1.0, 0.0));
    assert_eq!(m.emissive_strength, 2.0);
    assert_eq!(m.emissive(), Vec3::new(2.0, 2.0, 0.0));
    assert_eq!(m.alpha_mode, AlphaMode::Opaque);
    assert!(!m.double_sided && !m.unlit);
    let slots = [
        &m.base_color_texture,
        &m.metallic_roughness_texture,
        &m.normal_texture,
        &m.occlusion_texture,
        &m.emissive_texture,
    ];
    for (i, slot) in slots.iter().enumerate() {
        let t = slot.as_ref().unwrap();
        assert_eq!(t.image, ImageIndex(i));
        assert_eq!(t.tex_coord, 0);
        assert_eq!(t.uv_matrix, Mat3::IDENTITY);
        assert_eq!(t.transform, None);
        assert_eq!(t.sampler, Sampler::default());
    }
    // Colour (sRGB) vs data (linear) images.
    let usage: Vec<(bool, bool)> = model
        .images
        .iter()
        .map(|i| (i.used_as_color, i.used_as_data))
        .collect();
    assert_eq!(
        usage,
        vec![
            (true, false),
            (false, true),
            (false, true),
            (false, true),
            (true, false)
        ]
    );
    assert_eq!(model.images[0].name.as_deref(), Some("base colour"));
    assert_eq!(model.images[0].pixels.dimensions(), (8, 8));
    // The JPEG checker: orange-ish at (0, 0), dark at (1, 0).
    let [r, g, b, a] = rgba8(model, 0).get_pixel(0, 0).0;
    assert!(
        r > 200 && (90..170).contains(&g) && b < 60 && a == 255,
        "{r} {g} {b}"
    );
    assert_eq!(rgba8(model, 4).get_pixel(3, 2).0, [180, 120, 0, 255]);
    assert!(model.warnings.is_empty(), "{:?}", model.warnings);
}

#[test]
fn textured_box_has_every_slot_with_external_images() {
    let dir = tempfile::tempdir().unwrap();
    check_textured_box(&load(test_models::textured_box(dir.path()).unwrap()));
}

#[test]
fn textured_box_glb_matches_the_gltf() {
    let dir = tempfile::tempdir().unwrap();
    let glb = load(test_models::textured_box_with(dir.path(), Storage::Glb).unwrap());
    check_textured_box(&glb);
    let external = load(test_models::textured_box_with(dir.path(), Storage::ExternalBin).unwrap());
    assert_eq!(glb, external);
    // From memory, with no base directory: the GLB needs nothing else.
    let bytes = std::fs::read(dir.path().join("textured_box_glb.glb")).unwrap();
    assert_eq!(GltfModel::from_slice(&bytes, None, "box.glb").unwrap(), glb);
}

#[test]
fn hierarchy_decomposes_matrices_and_links_parents() {
    let dir = tempfile::tempdir().unwrap();
    let model = load(test_models::hierarchy(dir.path()).unwrap());
    let names: Vec<_> = model
        .nodes
        .iter()
        .map(|n| n.name.as_deref().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "Root",
            "ChildMatrix",
            "GrandchildMatrix",
            "ChildTrs",
            "SecondRoot"
        ]
    );
    let parents: Vec<_> = model.nodes.iter().map(|n| n.parent.map(|p| p.0)).collect();
    assert_eq!(parents, [None, Some(0), Some(1), Some(0), None]);
    assert_eq!(model.nodes[0].children, [NodeIndex(1), NodeIndex(3)]);
    assert_eq!(model.scenes.len(), 2);
    assert_eq!(model.default_scene, SceneIndex(1));
    assert_eq!(model.scenes[0].roots, [NodeIndex(0), NodeIndex(4)]);
    assert_eq!(model.scenes[1].name.as_deref(), Some("Other"));

    let child = model.nodes[1].transform;
    assert!(
        child
            .translation
            .abs_diff_eq(Vec3::new(2.0, 0.0, 0.0), 1e-5)
    );
    assert!(
        child
            .rotation
            .angle_between(Quat::from_rotation_z(FRAC_PI_2))
            < 1e-4
    );
    assert!(
        child.scale.abs_diff_eq(Vec3::new(1.0, 2.0, 1.0), 1e-5),
        "{}",
        child.scale
    );
    assert!(
        child
            .to_matrix()
            .abs_diff_eq(test_models::hierarchy_child_matrix(), 1e-5)
    );
    let grandchild = model.nodes[2].transform;
    assert!(
        grandchild
            .translation
            .abs_diff_eq(Vec3::new(0.0, 0.0, -1.0), 1e-6)
    );
    assert!(grandchild.scale.abs_diff_eq(Vec3::splat(0.5), 1e-6));
    assert!(grandchild.rotation.abs_diff_eq(Quat::IDENTITY, 1e-6));
    assert!(
        model.nodes[3]
            .transform
            .rotation
            .angle_between(Quat::from_rotation_y(FRAC_PI_2))
            < 1e-4
    );
    assert_eq!(model.nodes[4].transform.scale, Vec3::splat(3.0));

    let world = model.world_matrices();
    let expected = Mat4::from_translation(Vec3::Y) * test_models::hierarchy_child_matrix();
    assert!(world[1].abs_diff_eq(expected, 1e-5));
    // Grandchild origin: root (0,1,0) + child (2,0,0) + child's R*S applied to (0,0,-1) = (0,0,-1).
    assert!(
        world[2]
            .transform_point3(Vec3::ZERO)
            .abs_diff_eq(Vec3::new(2.0, 1.0, -1.0), 1e-5)
    );
}

#[test]
fn two_uv_sets_dequantise_and_generate_flat_normals() {
    let dir = tempfile::tempdir().unwrap();
    let model = load(test_models::two_uv_sets(dir.path()).unwrap());
    let p = &model.meshes[0].primitives[0];
    // No normals in the file: flat normals, vertices unwelded (6 = 2 triangles * 3).
    assert!(p.normals_generated);
    assert_eq!(p.positions.len(), 6);
    assert_eq!(p.indices, (0..6).collect::<Vec<u32>>());
    assert!(p.normals.iter().all(|n| *n == Vec3::Z));
    let uv0 = p.tex_coords_0.as_ref().unwrap();
    let uv1 = p.tex_coords_1.as_ref().unwrap();
    for (a, b) in uv0.iter().zip(uv1) {
        assert!(b.abs_diff_eq(*a * 0.5, 1e-4), "{a} {b}");
    }
    let colors = p.colors.as_ref().unwrap();
    // Triangle 0 is vertices 0, 1, 2: red, green, blue; vertex 3 (index 5) is white, alpha 0.5.
    assert_eq!(
        &colors[..3],
        &[
            Vec4::new(1.0, 0.0, 0.0, 1.0),
            Vec4::new(0.0, 1.0, 0.0, 1.0),
            Vec4::new(0.0, 0.0, 1.0, 1.0)
        ]
    );
    assert!(colors[5].abs_diff_eq(Vec4::new(1.0, 1.0, 1.0, 0.5), 1.0 / 255.0));
    let m = model.material(p.material);
    assert_eq!(m.occlusion_texture.as_ref().unwrap().tex_coord, 1);
    assert_eq!(m.base_color_texture.as_ref().unwrap().tex_coord, 0);
    assert_eq!(p.tex_coords(1), Some(&uv1[..]));
    // No normal map: no tangents.
    assert_eq!(p.tangents, None);
    assert_eq!(rgba8(&model, 0).get_pixel(1, 1).0, [200, 0, 0, 255]);
}

#[test]
fn alpha_modes_and_samplers() {
    let dir = tempfile::tempdir().unwrap();
    let model = load(test_models::alpha_modes(dir.path()).unwrap());
    let modes: Vec<_> = model
        .materials
        .iter()
        .map(|m| (m.name.clone().unwrap(), m.alpha_mode, m.double_sided))
        .collect();
    assert_eq!(
        modes,
        [
            ("Opaque".into(), AlphaMode::Opaque, false),
            ("Mask".into(), AlphaMode::Mask { cutoff: 0.3 }, true),
            ("Blend".into(), AlphaMode::Blend, true),
        ]
    );
    for (i, node) in model.nodes.iter().enumerate() {
        assert_eq!(node.transform.translation.x, -1.5 + 1.5 * i as f32);
        let mesh = &model.meshes[node.mesh.unwrap().0];
        assert_eq!(mesh.primitives[0].material, Some(MaterialIndex(i)));
    }
    let t = model.materials[1].base_color_texture.as_ref().unwrap();
    assert_eq!(
        t.sampler,
        Sampler {
            wrap_s: WrapMode::ClampToEdge,
            wrap_t: WrapMode::MirroredRepeat,
            mag_filter: MagFilter::Nearest,
            min_filter: MinFilter::Nearest,
        }
    );
    assert!(!t.sampler.min_filter.uses_mipmaps());
    // The image (from a buffer view) keeps its alpha ramp.
    let img = rgba8(&model, 0);
    assert_eq!(
        (img.get_pixel(0, 5).0[3], img.get_pixel(15, 5).0[3]),
        (0, 255)
    );
    assert!(model.images[0].used_as_color && !model.images[0].used_as_data);
}

#[test]
fn texture_transforms_on_every_slot() {
    let dir = tempfile::tempdir().unwrap();
    let model = load(test_models::texture_transforms(dir.path()).unwrap());
    assert!(model.warnings.is_empty(), "{:?}", model.warnings);
    let m = &model.materials[0];
    let base = m.base_color_texture.as_ref().unwrap();
    assert_eq!(base.transform_uv(Vec2::ZERO), Vec2::new(0.5, 0.25));
    assert_eq!(base.sampler.min_filter, MinFilter::NearestMipmapLinear);
    assert_eq!(base.sampler.mag_filter, MagFilter::Nearest);
    let mr = m.metallic_roughness_texture.as_ref().unwrap();
    assert_eq!((mr.transform, mr.uv_matrix), (None, Mat3::IDENTITY));
    // Rotation +90°: UV (1, 0) goes to (0, -1) (counter-clockwise in UV space, v down).
    let normal = m.normal_texture.as_ref().unwrap();
    assert!(
        normal
            .transform_uv(Vec2::X)
            .abs_diff_eq(Vec2::new(0.0, -1.0), 1e-6)
    );
    assert_eq!(normal.transform.unwrap().rotation, FRAC_PI_2);
    // Scale (2, 3) and the texCoord override.
    let ao = m.occlusion_texture.as_ref().unwrap();
    assert_eq!(ao.tex_coord, 1);
    assert_eq!(ao.transform_uv(Vec2::ONE), Vec2::new(2.0, 3.0));
    // All three: T * R * S, computed by hand.
    let e = m.emissive_texture.as_ref().unwrap();
    let (s, c) = 0.3f32.sin_cos();
    let uv = Vec2::new(0.25, 0.5);
    let scaled = uv * Vec2::new(4.0, 5.0);
    let expected =
        Vec2::new(c * scaled.x + s * scaled.y, -s * scaled.x + c * scaled.y) + Vec2::new(0.1, 0.2);
    assert!(
        e.transform_uv(uv).abs_diff_eq(expected, 1e-5),
        "{} {expected}",
        e.transform_uv(uv)
    );
    assert_eq!(e.sampler.min_filter, MinFilter::LinearMipmapNearest);
    assert_eq!(
        (e.sampler.wrap_s, e.sampler.wrap_t),
        (WrapMode::Repeat, WrapMode::ClampToEdge)
    );
}

#[test]
fn animation_channels_sample_to_hand_computed_values() {
    let dir = tempfile::tempdir().unwrap();
    let model = load(test_models::animated(dir.path()).unwrap());
    assert_eq!(model.animations.len(), 1);
    let anim = &model.animations[0];
    assert_eq!(anim.name.as_deref(), Some("Move"));
    // The weights channel is skipped with a warning that names it.
    assert_eq!(anim.channels.len(), 4);
    assert!(
        model
            .warnings
            .iter()
            .any(|w| w.contains("animation 0 (\"Move\") channel 4")),
        "{:?}",
        model.warnings
    );
    assert_eq!(anim.duration(), 2.0);

    let [translation, rotation, scale, spline] = &anim.channels[..] else {
        panic!()
    };
    assert_eq!(translation.target, NodeIndex(0));
    assert_eq!(translation.times, [0.0, 1.0, 2.0]);
    assert_eq!(
        translation.sample(0.5),
        ChannelValue::Translation(Vec3::new(0.5, 0.0, 0.0))
    );
    assert_eq!(
        translation.sample(1.5),
        ChannelValue::Translation(Vec3::new(1.0, 1.0, 0.0))
    );
    assert_eq!(
        translation.sample(5.0),
        ChannelValue::Translation(Vec3::new(1.0, 2.0, 0.0))
    );
    let ChannelValue::Rotation(q) = rotation.sample(1.0) else {
        panic!()
    };
    assert!(q.angle_between(Quat::from_rotation_y(FRAC_PI_4)) < 1e-4);
    assert_eq!(scale.sample(0.99), ChannelValue::Scale(Vec3::ONE));
    assert_eq!(scale.sample(1.0), ChannelValue::Scale(Vec3::splat(2.0)));
    assert!(matches!(scale.track, Track::Scale(Keyframes::Step(_))));
    assert_eq!(spline.target, NodeIndex(1));
    let Track::Translation(Keyframes::CubicSpline(keys)) = &spline.track else {
        panic!()
    };
    assert_eq!(keys[0].out_tangent, Vec3::X);
    assert_eq!(keys[1].value, Vec3::X);
    let ChannelValue::Translation(v) = spline.sample(1.0) else {
        panic!()
    };
    assert!(v.abs_diff_eq(Vec3::new(0.75, 0.0, 0.0), 1e-6), "{v}");
}

#[test]
fn cameras_lights_and_the_implicit_scene() {
    let dir = tempfile::tempdir().unwrap();
    let model = load(test_models::cameras_and_lights(dir.path()).unwrap());
    assert_eq!(model.scenes.len(), 1);
    assert_eq!(model.scenes[0].roots.len(), 6);
    assert_eq!(model.default_scene, SceneIndex(0));
    assert_eq!(
        model.cameras[0].projection,
        Projection::Perspective {
            yfov: 0.8,
            aspect_ratio: Some(1.5),
            znear: 0.1,
            zfar: Some(100.0)
        }
    );
    assert_eq!(
        model.cameras[1].projection,
        Projection::Perspective {
            yfov: 1.0,
            aspect_ratio: None,
            znear: 0.05,
            zfar: None
        }
    );
    assert_eq!(
        model.cameras[2].projection,
        Projection::Orthographic {
            xmag: 2.0,
            ymag: 1.0,
            znear: 0.01,
            zfar: 50.0
        }
    );
    assert_eq!(model.cameras[2].name.as_deref(), Some("Ortho"));
    let sun = &model.lights[0];
    assert_eq!(
        (
            sun.name.as_deref(),
            sun.kind,
            sun.color,
            sun.intensity,
            sun.range
        ),
        (
            Some("Sun"),
            LightKind::Directional,
            Vec3::new(1.0, 0.9, 0.8),
            3.0,
            None
        )
    );
    assert_eq!(
        (model.lights[1].kind, model.lights[1].range),
        (LightKind::Point, Some(10.0))
    );
    assert_eq!(
        model.lights[2].kind,
        LightKind::Spot {
            inner_cone_angle: 0.2,
            outer_cone_angle: 0.6
        }
    );
    assert_eq!(model.lights[2].color, Vec3::ONE);
    let attached: Vec<_> = model
        .nodes
        .iter()
        .map(|n| (n.camera.map(|c| c.0), n.light.map(|l| l.0)))
        .collect();
    assert_eq!(
        attached,
        [
            (Some(0), None),
            (Some(1), None),
            (Some(2), None),
            (None, Some(0)),
            (None, Some(1)),
            (None, Some(2))
        ]
    );
    assert_eq!(
        model.nodes[0].transform.translation,
        Vec3::new(0.0, 1.0, 5.0)
    );
    assert_eq!(model.warnings.len(), 1);
    assert!(
        model.warnings[0].contains("EXT_made_up"),
        "{:?}",
        model.warnings
    );
}

#[test]
fn many_nodes_nest_and_share_one_mesh() {
    let dir = tempfile::tempdir().unwrap();
    let model = load(test_models::many_nodes(dir.path(), 1000).unwrap());
    assert_eq!(model.nodes.len(), 1000);
    assert_eq!(model.meshes.len(), 1);
    assert!(model.nodes.iter().all(|n| n.mesh == Some(MeshIndex(0))));
    assert_eq!(model.scenes[0].roots, [NodeIndex(0)]);
    assert_eq!(model.nodes[999].parent, Some(NodeIndex(99)));
    assert_eq!(model.nodes[99].parent, Some(NodeIndex(9)));
    assert_eq!(model.nodes[999].name.as_deref(), Some("Node999"));
}

#[test]
fn progress_reaches_every_stage() {
    let dir = tempfile::tempdir().unwrap();
    let path = test_models::textured_box(dir.path()).unwrap();
    let mut reports = Vec::new();
    GltfModel::load_with_progress(&path, &mut |p| reports.push(p)).unwrap();
    for stage in [
        LoadStage::Parsing,
        LoadStage::Buffers,
        LoadStage::Images,
        LoadStage::Meshes,
        LoadStage::Nodes,
        LoadStage::Animations,
    ] {
        let last = reports.iter().rfind(|p| p.stage == stage).unwrap();
        assert_eq!(last.done, last.total, "{stage:?}");
    }
    assert!(reports.contains(&LoadProgress {
        stage: LoadStage::Images,
        done: 5,
        total: 5
    }));
}

/// `KHR_texture_basisu` (one binary with the other model tests).
#[path = "models_parts/basisu.rs"]
mod basisu;
