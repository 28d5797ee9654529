//! The forward preset on a real adapter (lavapipe in CI): a lit sphere on a
//! plane under a sun and a point light, compared with a reference image.

use std::path::Path;

use glam::{Affine3A, Vec3};
use taos_image_compare::{Tolerance, assert_matches_golden_text, assert_matches_reference};
use taos_renderer::features::{ShadowCascades, SkyOption};
use taos_renderer::frame::{
    CameraView, CascadeSettings, DrawItem, PointLightData, SpotLightData, SunLight,
};
use taos_renderer::presets::{PresetOptions, forward_preset};
use taos_renderer::resources::{AlphaMode, MeshData, PbrMaterial};
use taos_renderer::{FrameData, GpuContext, OffscreenTarget, Renderer, wgpu};

const SIZE: u32 = 128;

fn scene(renderer: &mut Renderer) -> Vec<DrawItem> {
    let (assets, gpu) = renderer.assets_mut();
    let sphere = assets.add_mesh(gpu, "sphere", &MeshData::sphere(1.0, 32, 16));
    let plane = assets.add_mesh(gpu, "plane", &MeshData::plane(8.0));
    let cube = assets.add_mesh(gpu, "cube", &MeshData::cube(0.8));
    let red = assets.add_material(PbrMaterial {
        metallic: 0.0,
        roughness: 0.35,
        ..PbrMaterial::color(Vec3::new(0.8, 0.1, 0.08))
    });
    let floor = assets.add_material(PbrMaterial::color(Vec3::splat(0.6)));
    let glass = assets.add_material(PbrMaterial {
        alpha: AlphaMode::Blend,
        base_color: glam::Vec4::new(0.1, 0.4, 0.9, 0.5),
        ..PbrMaterial::default()
    });
    vec![
        DrawItem {
            mesh: sphere,
            material: red,
            world: Affine3A::from_translation(Vec3::new(0.0, 1.0, 0.0)),
            cast_shadows: true,
        },
        DrawItem {
            mesh: plane,
            material: floor,
            world: Affine3A::IDENTITY,
            cast_shadows: false,
        },
        DrawItem {
            mesh: cube,
            material: glass,
            world: Affine3A::from_translation(Vec3::new(1.3, 0.4, 1.2)),
            cast_shadows: true,
        },
    ]
}

fn frame_data(renderer: &Renderer, items: &[DrawItem]) -> FrameData {
    let eye = Vec3::new(0.0, 2.5, 6.0);
    let target = Vec3::new(0.0, 0.8, 0.0);
    let view = glam::camera::rh::view::look_at_mat4(eye, target, Vec3::Y);
    let projection =
        glam::camera::rh::proj::directx::perspective(45f32.to_radians(), 1.0, 0.1, 100.0);
    let mut data = FrameData {
        camera: CameraView {
            view,
            projection,
            position: eye,
            forward: (target - eye).normalize(),
            near: 0.1,
            far: 100.0,
        },
        size: (SIZE, SIZE),
        ..FrameData::default()
    };
    data.lights.sun = Some(SunLight {
        direction: Vec3::new(-0.4, -1.0, -0.3).normalize(),
        color: Vec3::new(1.0, 0.95, 0.9),
        intensity: 3.0,
        cast_shadows: true,
        cascades: CascadeSettings::default(),
    });
    data.lights.points.push(PointLightData {
        position: Vec3::new(-2.0, 1.5, 1.5),
        color: Vec3::new(0.2, 0.4, 1.0),
        intensity: 8.0,
        range: 6.0,
    });
    data.lights.spots.push(SpotLightData {
        position: Vec3::new(2.5, 3.0, 0.5),
        direction: Vec3::new(-0.3, -1.0, 0.2).normalize(),
        color: Vec3::new(1.0, 0.8, 0.2),
        intensity: 30.0,
        range: 8.0,
        inner_cos: 20f32.to_radians().cos(),
        outer_cos: 30f32.to_radians().cos(),
    });
    data.buckets
        .fill(items.iter().copied(), renderer.assets(), &data.camera);
    data
}

#[test]
fn forward_preset_renders_the_reference_scene() {
    let gpu = GpuContext::headless().unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    let format = wgpu::TextureFormat::Rgba8UnormSrgb;
    let target = OffscreenTarget::new(&gpu, SIZE, SIZE, format).unwrap();
    let mut renderer = Renderer::new(gpu, format);
    forward_preset(PresetOptions {
        sky: SkyOption::Color(Vec3::new(0.3, 0.5, 0.8)),
        ..PresetOptions::default()
    })(&mut renderer);
    assert_eq!(
        renderer.feature_names().collect::<Vec<_>>(),
        [
            "Shadow",
            "Sky",
            "ForwardLit",
            "Decals",
            "Particles",
            "Tonemap"
        ]
    );
    let items = scene(&mut renderer);
    let mut data = frame_data(&renderer, &items);
    assert_eq!(
        (data.buckets.opaque.len(), data.buckets.transparent.len()),
        (2, 1)
    );
    let stats = renderer.render(&mut data, target.texture()).unwrap();
    assert_eq!((stats.passes, stats.culled), (4, 0));
    let cascades = *data
        .slots
        .get::<ShadowCascades>()
        .expect("the sun casts shadows");
    assert_eq!(cascades.count, 3);
    // A second frame reuses pooled targets and gives the same picture.
    renderer.render(&mut data, target.texture()).unwrap();
    let pixels = target.read_rgba8(renderer.gpu()).unwrap();
    // Sky colour in a corner, tonemapped: not black, blue-dominant.
    let corner = &pixels[..4];
    assert!(
        corner[2] > corner[0] && corner[2] > 100,
        "sky corner {corner:?}"
    );
    // Lavapipe is the reference device. Other conformant drivers differ in
    // rasterisation of edge pixels and in transcendental-function precision
    // (pow, sqrt in the BRDF): allow 3 steps per channel and 2% outliers
    // (~330 pixels, roughly the silhouettes of the three objects).
    let tolerance = Tolerance {
        per_channel: 3,
        outlier_fraction: 0.02,
    };
    assert_matches_reference(
        &reference_dir(),
        "forward_preset",
        SIZE,
        SIZE,
        &pixels,
        tolerance,
    );
}

fn reference_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference")
}

#[test]
fn forward_preset_graph_matches_its_golden_dump() {
    let gpu = GpuContext::headless().unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"));
    let format = wgpu::TextureFormat::Rgba8UnormSrgb;
    let target = OffscreenTarget::new(&gpu, SIZE, SIZE, format).unwrap();
    let mut renderer = Renderer::new(gpu, format);
    forward_preset(PresetOptions::default())(&mut renderer);
    let items = scene(&mut renderer);
    let mut data = frame_data(&renderer, &items);
    let dump = renderer
        .dump_graph(&mut data, target.texture(), false)
        .unwrap();
    assert_matches_golden_text(&reference_dir(), "forward_preset_graph.mmd", &dump);
    assert!(
        renderer
            .dump_graph(&mut data, target.texture(), true)
            .unwrap()
            .starts_with("digraph")
    );
}
