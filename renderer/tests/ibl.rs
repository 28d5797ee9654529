//! Image-based lighting on a real adapter (lavapipe in CI): a white furnace
//! (a rough white sphere in a uniform white environment disappears into
//! it), a metal/roughness sphere grid under a procedural panorama compared
//! with a reference image and shaded alike by forward and deferred, and
//! the environment baked once per sky, never per frame.

mod support;

use std::sync::Arc;

use glam::{Affine3A, Vec3};
use support::{FORMAT, gpu, max_difference, reference_dir};
use taos_image_compare::{Tolerance, assert_matches_reference};
use taos_renderer::features::{
    AmbientLight, DeferredLightingFeature, ForwardLitFeature, GeometryFeature, IblOptions,
    SkyFeature, SkyOption, TonemapFeature,
};
use taos_renderer::frame::{CameraView, DrawItem};
use taos_renderer::resources::{MeshData, PbrMaterial};
use taos_renderer::{FrameData, OffscreenTarget, Renderer};

const SIZE: u32 = 128;

fn camera(eye: Vec3) -> CameraView {
    let projection =
        glam::camera::rh::proj::directx::perspective(40f32.to_radians(), 1.0, 0.1, 100.0);
    CameraView {
        view: glam::camera::rh::view::look_at_mat4(eye, Vec3::ZERO, Vec3::Y),
        projection,
        position: eye,
        forward: -eye.normalize(),
        near: 0.1,
        far: 100.0,
    }
}

fn srgb_to_linear(value: u8) -> f32 {
    let encoded = f32::from(value) / 255.0;
    if encoded <= 0.04045 {
        encoded / 12.92
    } else {
        ((encoded + 0.055) / 1.055).powf(2.4)
    }
}

/// Forward or deferred lighting, no constant ambient, plain tone curve.
fn lit_features(renderer: &mut Renderer, sky: SkyFeature, deferred: bool) {
    if deferred {
        renderer.add_feature(GeometryFeature::new());
    }
    renderer.add_feature(sky);
    if deferred {
        let mut lighting = DeferredLightingFeature::new();
        lighting.ambient = AmbientLight::NONE;
        renderer.add_feature(lighting);
    } else {
        let mut forward = ForwardLitFeature::new();
        forward.ambient = AmbientLight::NONE;
        renderer.add_feature(forward);
    }
    renderer.add_feature(TonemapFeature::new(1.0, false));
}

fn render(renderer: &mut Renderer, items: &[DrawItem], eye: Vec3, frames: usize) -> Vec<u8> {
    let target = OffscreenTarget::new(renderer.gpu(), SIZE, SIZE, FORMAT).unwrap();
    let mut data = FrameData {
        camera: camera(eye),
        size: (SIZE, SIZE),
        ..FrameData::default()
    };
    data.buckets
        .fill(items.iter().copied(), renderer.assets(), &data.camera);
    for _ in 0..frames {
        renderer.render(&mut data, target.texture()).unwrap();
    }
    target.read_rgba8(renderer.gpu()).unwrap()
}

/// A unit sphere, white, fully rough, dielectric, at the origin.
fn white_rough_sphere(renderer: &mut Renderer) -> [DrawItem; 1] {
    let (assets, gpu) = renderer.assets_mut();
    let sphere = assets.add_mesh(gpu, "sphere", &MeshData::sphere(1.0, 48, 24));
    let white = assets.add_material(PbrMaterial {
        roughness: 1.0,
        metallic: 0.0,
        ..PbrMaterial::color(Vec3::ONE)
    });
    [DrawItem {
        mesh: sphere,
        material: white,
        world: Affine3A::IDENTITY,
        cast_shadows: false,
    }]
}

#[test]
fn a_rough_white_sphere_vanishes_in_a_white_furnace() {
    for deferred in [false, true] {
        let mut renderer = Renderer::new(gpu(), FORMAT);
        let furnace = SkyOption::Color(Vec3::splat(0.5));
        lit_features(
            &mut renderer,
            SkyFeature::with_ibl(furnace, IblOptions::default()),
            deferred,
        );
        let items = white_rough_sphere(&mut renderer);
        let pixels = render(&mut renderer, &items, Vec3::new(0.0, 0.0, 4.0), 1);
        // Every pixel, sphere or background, within 6% of the furnace's 0.5.
        let (mut lowest, mut highest) = (f32::MAX, f32::MIN);
        for px in pixels.chunks_exact(4) {
            for &channel in &px[..3] {
                let value = srgb_to_linear(channel);
                lowest = lowest.min(value);
                highest = highest.max(value);
            }
        }
        assert!(
            lowest > 0.47 && highest < 0.53,
            "deferred {deferred}: radiance spans {lowest}..{highest}"
        );
        // The sphere is there: without the environment it would be black.
        let centre = ((SIZE / 2 * SIZE + SIZE / 2) * 4) as usize;
        assert!(pixels[centre] > 150, "{:?}", &pixels[centre..centre + 4]);
    }
}

/// A procedural panorama: a blue sky brightening to the horizon, a warm
/// sun-like spot, a dark ground.
fn panorama() -> Arc<image::RgbaImage> {
    Arc::new(image::RgbaImage::from_fn(256, 128, |x, y| {
        let latitude = 0.5 - y as f32 / 128.0; // +0.5 up, -0.5 down
        let longitude = x as f32 / 256.0;
        let spot = ((longitude - 0.3).powi(2) + (latitude - 0.2).powi(2)).sqrt() < 0.04;
        let rgb = if spot {
            [255, 240, 200]
        } else if latitude > 0.0 {
            let t = latitude * 2.0;
            [
                (170.0 - 110.0 * t) as u8,
                (200.0 - 80.0 * t) as u8,
                (235.0 - 20.0 * t) as u8,
            ]
        } else {
            [70, 60, 50]
        };
        image::Rgba([rgb[0], rgb[1], rgb[2], 255])
    }))
}

fn sphere_grid(renderer: &mut Renderer) -> Vec<DrawItem> {
    let (assets, gpu) = renderer.assets_mut();
    let sphere = assets.add_mesh(gpu, "sphere", &MeshData::sphere(0.4, 32, 16));
    let mut items = Vec::new();
    for row in 0..4 {
        for column in 0..4 {
            let material = assets.add_material(PbrMaterial {
                metallic: row as f32 / 3.0,
                roughness: 0.05 + 0.95 * column as f32 / 3.0,
                ..PbrMaterial::color(Vec3::new(0.9, 0.6, 0.3))
            });
            items.push(DrawItem {
                mesh: sphere,
                material,
                world: Affine3A::from_translation(Vec3::new(
                    column as f32 - 1.5,
                    1.5 - row as f32,
                    0.0,
                )),
                cast_shadows: false,
            });
        }
    }
    items
}

#[test]
fn the_metal_roughness_grid_matches_its_reference_in_both_paths() {
    let sky = || SkyOption::Texture {
        image: panorama(),
        intensity: 1.0,
    };
    let mut images = Vec::new();
    for deferred in [false, true] {
        let mut renderer = Renderer::new(gpu(), FORMAT);
        lit_features(
            &mut renderer,
            SkyFeature::with_ibl(sky(), IblOptions::default()),
            deferred,
        );
        let items = sphere_grid(&mut renderer);
        images.push(render(&mut renderer, &items, Vec3::new(0.0, 0.0, 7.0), 1));
    }
    let (difference, _) = max_difference(&images[0], &images[1]);
    assert!(
        difference <= 3,
        "forward and deferred differ by {difference}"
    );
    assert_matches_reference(
        &reference_dir(),
        "ibl_sphere_grid",
        SIZE,
        SIZE,
        &images[0],
        Tolerance {
            per_channel: 3,
            outlier_fraction: 0.01,
        },
    );
}

#[test]
fn the_environment_is_baked_once_per_sky() {
    let mut renderer = Renderer::new(gpu(), FORMAT);
    let sky = SkyFeature::with_ibl(SkyOption::Color(Vec3::ONE), IblOptions::default());
    lit_features(&mut renderer, sky, false);
    let items = sphere_grid(&mut renderer);
    let bakes = |renderer: &Renderer| {
        renderer
            .feature::<SkyFeature>()
            .unwrap()
            .environment_bakes()
    };
    let first = render(&mut renderer, &items, Vec3::new(0.0, 0.0, 7.0), 3);
    assert_eq!(bakes(&renderer), 1);
    renderer.feature_mut::<SkyFeature>().unwrap().sky = SkyOption::Color(Vec3::new(0.2, 0.3, 0.9));
    let second = render(&mut renderer, &items, Vec3::new(0.0, 0.0, 7.0), 2);
    assert_eq!(bakes(&renderer), 2);
    assert!(max_difference(&first, &second).0 > 40);
}

#[test]
fn the_atmosphere_bakes_when_the_sun_moves_and_lights_from_the_sky() {
    let mut renderer = Renderer::new(gpu(), FORMAT);
    let sky = SkyOption::Atmosphere(taos_renderer::features::Atmosphere::default());
    lit_features(
        &mut renderer,
        SkyFeature::with_ibl(sky, IblOptions::default()),
        false,
    );
    let items = white_rough_sphere(&mut renderer);
    let target = OffscreenTarget::new(renderer.gpu(), SIZE, SIZE, FORMAT).unwrap();
    let mut data = FrameData {
        camera: camera(Vec3::new(0.0, 0.5, 4.0)),
        size: (SIZE, SIZE),
        ..FrameData::default()
    };
    data.buckets
        .fill(items.iter().copied(), renderer.assets(), &data.camera);
    let sun_at = |elevation: f32| taos_renderer::frame::SunLight {
        direction: -Vec3::new(
            0.0,
            elevation.to_radians().sin(),
            -elevation.to_radians().cos(),
        ),
        color: Vec3::ONE,
        intensity: 1.0,
        cast_shadows: false,
        cascades: Default::default(),
    };
    let bakes = |renderer: &Renderer| {
        renderer
            .feature::<SkyFeature>()
            .unwrap()
            .environment_bakes()
    };
    data.lights.sun = Some(sun_at(60.0));
    renderer.render(&mut data, target.texture()).unwrap();
    renderer.render(&mut data, target.texture()).unwrap();
    assert_eq!(bakes(&renderer), 1, "the same sun bakes once");
    let noon = target.read_rgba8(renderer.gpu()).unwrap();
    // A tenth of a degree: below the re-bake threshold.
    data.lights.sun = Some(sun_at(60.1));
    renderer.render(&mut data, target.texture()).unwrap();
    assert_eq!(bakes(&renderer), 1);
    data.lights.sun = Some(sun_at(2.0));
    renderer.render(&mut data, target.texture()).unwrap();
    assert_eq!(bakes(&renderer), 2, "a sun that moved re-bakes");
    let low = target.read_rgba8(renderer.gpu()).unwrap();
    // The sphere's top, lit by the blue noon sky: bright and bluish.
    let top = (((SIZE / 2 - SIZE / 5) * SIZE + SIZE / 2) * 4) as usize;
    let px = &noon[top..top + 3];
    assert!(
        px[2] > 60 && px[2] >= px[0],
        "noon sky light on the sphere {px:?}"
    );
    assert!(max_difference(&noon, &low).0 > 20);
}

#[test]
fn the_sky_and_its_light_follow_changes_on_the_live_feature() {
    let mut renderer = Renderer::new(gpu(), FORMAT);
    lit_features(
        &mut renderer,
        SkyFeature::new(SkyOption::Color(Vec3::ZERO)),
        false,
    );
    let items = white_rough_sphere(&mut renderer);
    let eye = Vec3::new(0.0, 0.0, 7.0);
    let pixel = |pixels: &[u8], x: u32, y: u32| {
        let i = ((y * SIZE + x) * 4) as usize;
        [pixels[i], pixels[i + 1], pixels[i + 2]]
    };
    let centre = |pixels: &[u8]| pixel(pixels, SIZE / 2, SIZE / 2);
    let black = render(&mut renderer, &items, eye, 1);
    assert_eq!(pixel(&black, 2, 2), [0, 0, 0]);
    assert_eq!(centre(&black), [0, 0, 0], "no light at all");

    // A panorama set after setup is uploaded for the next frame.
    fn live_sky(renderer: &mut Renderer) -> &mut SkyFeature {
        renderer.feature_mut::<SkyFeature>().unwrap()
    }
    live_sky(&mut renderer).sky = SkyOption::Texture {
        image: panorama(),
        intensity: 1.0,
    };
    let shown = render(&mut renderer, &items, eye, 1);
    let corner = pixel(&shown, 2, 2);
    assert!(
        corner[2] > 60 && corner[2] > corner[0],
        "the blue sky: {corner:?}"
    );
    assert_eq!(centre(&shown), [0, 0, 0], "no image-based light yet");

    // Image-based light turned on: baked once, and it lights the sphere.
    live_sky(&mut renderer).ibl = Some(IblOptions::default());
    let lit = render(&mut renderer, &items, eye, 2);
    let bakes = |renderer: &Renderer| {
        renderer
            .feature::<SkyFeature>()
            .unwrap()
            .environment_bakes()
    };
    assert_eq!(bakes(&renderer), 1);
    assert!(centre(&lit)[2] > 40, "lit by the sky: {:?}", centre(&lit));

    // A new intensity brightens without a bake; off goes back to black.
    live_sky(&mut renderer).ibl = Some(IblOptions { intensity: 2.0 });
    let brighter = render(&mut renderer, &items, eye, 1);
    assert_eq!(bakes(&renderer), 1);
    assert!(centre(&brighter)[2] > centre(&lit)[2] + 10);
    live_sky(&mut renderer).ibl = None;
    let unlit = render(&mut renderer, &items, eye, 1);
    assert_eq!(centre(&unlit), [0, 0, 0]);
}
