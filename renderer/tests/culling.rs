//! Frustum culling of draws: the camera culls what it cannot see from the
//! opaque and transparent lists, never a shadow caster that can shadow into
//! the view (checked on a real adapter: lavapipe in CI).

use glam::{Affine3A, Vec3};
use taos_renderer::frame::{CameraView, CascadeSettings, DrawBuckets, DrawItem, SunLight};
use taos_renderer::presets::{PresetOptions, forward_preset};
use taos_renderer::resources::{AlphaMode, Assets, MaterialId, MeshData, MeshId, PbrMaterial};
use taos_renderer::{FrameData, GpuContext, OffscreenTarget, Renderer, wgpu};

const SIZE: u32 = 64;

/// A 45-degree camera at (0, 2, 6) looking at the origin, 0.1..100.
fn camera() -> CameraView {
    let eye = Vec3::new(0.0, 2.0, 6.0);
    CameraView {
        view: glam::camera::rh::view::look_at_mat4(eye, Vec3::ZERO, Vec3::Y),
        projection: glam::camera::rh::proj::directx::perspective(
            45f32.to_radians(),
            1.0,
            0.1,
            100.0,
        ),
        position: eye,
        forward: (-eye).normalize(),
        near: 0.1,
        far: 100.0,
    }
}

fn item(mesh: MeshId, material: MaterialId, world: Affine3A) -> DrawItem {
    DrawItem {
        mesh,
        material,
        world,
        cast_shadows: true,
    }
}

/// Assets with a unit cube (half-size 0.5), an opaque and a blended material.
fn assets(gpu: &GpuContext) -> (Assets, MeshId, MaterialId, MaterialId) {
    let mut assets = Assets::new();
    let cube = assets.add_mesh(gpu, "cube", &MeshData::cube(0.5));
    let opaque = assets.add_material(PbrMaterial::default());
    let glass = assets.add_material(PbrMaterial {
        alpha: AlphaMode::Blend,
        ..PbrMaterial::default()
    });
    (assets, cube, opaque, glass)
}

fn gpu() -> GpuContext {
    GpuContext::headless().unwrap_or_else(|e| panic!("GPU tests need an adapter: {e}"))
}

#[test]
fn an_object_behind_the_camera_is_culled_and_one_in_view_is_kept() {
    let gpu = gpu();
    let (assets, cube, opaque, glass) = assets(&gpu);
    let in_view = Affine3A::IDENTITY;
    let behind = Affine3A::from_translation(Vec3::new(0.0, 2.0, 12.0));
    let beside = Affine3A::from_translation(Vec3::new(40.0, 0.0, 0.0));
    let items = [
        item(cube, opaque, in_view),
        item(cube, opaque, behind),
        item(cube, glass, in_view),
        item(cube, glass, beside),
    ];
    let mut buckets = DrawBuckets::default();
    buckets.fill(items, &assets, &camera());
    assert_eq!(buckets.culled, 2);
    assert_eq!(buckets.opaque.len(), 1);
    assert_eq!(buckets.opaque[0].item.world, in_view);
    assert_eq!(buckets.transparent.len(), 1);
    assert_eq!(buckets.transparent[0].item.world, in_view);
    assert_eq!(buckets.shadow.len(), 4, "casters are not camera-culled");
}

#[test]
fn a_big_object_whose_origin_is_outside_the_view_is_kept() {
    let gpu = gpu();
    let (assets, cube, opaque, _) = assets(&gpu);
    // A 30-unit cube centred 12 units left of the view's edge: its origin is
    // outside, its right half covers the middle of the picture.
    let big = Affine3A::from_scale_rotation_translation(
        Vec3::splat(30.0),
        glam::Quat::IDENTITY,
        Vec3::new(-14.0, 0.0, -5.0),
    );
    let small = Affine3A::from_translation(Vec3::new(-14.0, 0.0, -5.0));
    let mut buckets = DrawBuckets::default();
    buckets.fill(
        [item(cube, opaque, big), item(cube, opaque, small)],
        &assets,
        &camera(),
    );
    assert_eq!((buckets.opaque.len(), buckets.culled), (1, 1));
    assert_eq!(buckets.opaque[0].item.world, big);
}

#[test]
fn culling_can_be_turned_off() {
    let gpu = gpu();
    let (assets, cube, opaque, _) = assets(&gpu);
    let behind = Affine3A::from_translation(Vec3::new(0.0, 0.0, 20.0));
    let mut buckets = DrawBuckets::default();
    assert!(buckets.frustum_culling, "on by default");
    buckets.frustum_culling = false;
    buckets.fill([item(cube, opaque, behind)], &assets, &camera());
    assert_eq!((buckets.opaque.len(), buckets.culled), (1, 0));
}

/// Renders a ground plane under a sun shining straight down, with `extra`
/// items; returns the frame's buckets and the picture.
fn render_ground(extra: &[(f32, bool)]) -> (DrawBuckets, Vec<u8>) {
    let gpu = gpu();
    let format = wgpu::TextureFormat::Rgba8UnormSrgb;
    let target = OffscreenTarget::new(&gpu, SIZE, SIZE, format).unwrap();
    let mut renderer = Renderer::new(gpu, format);
    forward_preset(PresetOptions::default())(&mut renderer);
    let (assets, gpu) = renderer.assets_mut();
    let plane = assets.add_mesh(gpu, "plane", &MeshData::plane(8.0));
    let cube = assets.add_mesh(gpu, "cube", &MeshData::cube(0.6));
    let grey = assets.add_material(PbrMaterial::color(Vec3::splat(0.6)));
    let mut items = vec![DrawItem {
        cast_shadows: false,
        ..item(plane, grey, Affine3A::IDENTITY)
    }];
    items.extend(extra.iter().map(|&(height, cast_shadows)| DrawItem {
        cast_shadows,
        ..item(
            cube,
            grey,
            Affine3A::from_translation(Vec3::new(0.0, height, 0.0)),
        )
    }));
    let mut data = FrameData {
        camera: camera(),
        size: (SIZE, SIZE),
        ..FrameData::default()
    };
    data.lights.sun = Some(SunLight {
        direction: Vec3::NEG_Y,
        color: Vec3::ONE,
        intensity: 3.0,
        cast_shadows: true,
        cascades: CascadeSettings::default(),
    });
    data.buckets
        .fill(items.iter().copied(), renderer.assets(), &data.camera);
    renderer.render(&mut data, target.texture()).unwrap();
    let pixels = target.read_rgba8(renderer.gpu()).unwrap();
    (data.buckets, pixels)
}

/// Mean green of the 3 x 3 pixels at the picture's centre (the ground's
/// origin, straight under the caster).
fn centre(pixels: &[u8]) -> f32 {
    let mut sum = 0.0;
    for y in SIZE / 2 - 1..=SIZE / 2 + 1 {
        for x in SIZE / 2 - 1..=SIZE / 2 + 1 {
            sum += f32::from(pixels[((y * SIZE + x) * 4 + 1) as usize]);
        }
    }
    sum / 9.0
}

#[test]
fn a_caster_outside_the_view_still_shadows_the_visible_ground() {
    // A cube 4 units over the origin: above the top of the view (which
    // passes about 2.4 units over the origin), under a sun shining down.
    let (lit_buckets, lit) = render_ground(&[]);
    let (buckets, shadowed) = render_ground(&[(4.0, true)]);
    assert_eq!(lit_buckets.culled, 0);
    assert_eq!(buckets.culled, 1, "the camera does not see the cube");
    assert_eq!(buckets.opaque.len(), 1, "only the ground is drawn lit");
    assert_eq!(buckets.shadow.len(), 1, "the cube still casts");
    let (lit, shadowed) = (centre(&lit), centre(&shadowed));
    assert!(
        shadowed + 40.0 < lit,
        "the ground under the cube is in shadow: {shadowed} vs {lit} lit"
    );
    // The same cube, not a caster, leaves the ground lit: the darkening
    // above is its shadow, not something drawn over the ground.
    let (_, uncast) = render_ground(&[(4.0, false)]);
    assert!((centre(&uncast) - lit).abs() < 2.0);
}
